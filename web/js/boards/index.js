// One board module per game, keyed by the API's kind. A board draws the states the server sends
// (the game's `state`, or a past one from GET /games/{id}/positions) and never applies a move
// itself: what little it computes from a state serves the drawing and the move entry. Each exports:
//   describe(move, game) -> a line for the move list
//   create({root, submit, gameId}) -> {update(view)}, where view is
//     {game, state, seat, mine, legal, last, ply, live}: `seat` is the seat this browser moves
//     for (null when it may not move now), `mine` every seat it holds, `legal` the legal-moves
//     listing for this ply (or null), `last` the move that led to `state` as {seat, move} (null
//     at the start or before the positions have loaded), `ply` the number of moves behind
//     `state`, `live` false during a replay.

//
// The game page imports only the board of the game it shows: BOARDS maps each kind to a loader
// (a dynamic import), so a new board is one line here and costs no other page anything.

export const BOARDS = {
  "prime-drop": () => import("./prime-drop.js"),
  partition: () => import("./partition.js"),
  ploid: () => import("./ploid.js"),
  "factor-multiple": () => import("./factor-multiple.js"),
  "factor-bingo": () => import("./factor-bingo.js"),
};
