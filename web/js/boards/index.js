// One board module per game, keyed by the API's kind. Each exports:
//   describe(move, game) -> a line for the move list
//   replay(game, history, ply) -> the state (in the API's shape) after the first `ply` moves
//   create({root, submit, gameId}) -> {update(view)}, where view is
//     {game, state, seat, mine, legal, last, ply, live}: `seat` is the seat this browser moves
//     for (null when it may not move now), `mine` every seat it holds, `legal` the legal-moves
//     listing for this ply (or null), `last` the history entry that led to `state`, `ply` the
//     number of moves behind `state`, `live` false during a replay.

import * as factorBingo from "./factor-bingo.js";
import * as factorMultiple from "./factor-multiple.js";
import * as partition from "./partition.js";
import * as ploid from "./ploid.js";
import * as primeDrop from "./prime-drop.js";

export const BOARDS = {
  "prime-drop": primeDrop,
  partition,
  ploid,
  "factor-multiple": factorMultiple,
  "factor-bingo": factorBingo,
};
