// One board module per game, keyed by the API's kind. A board draws the states the server sends
// (the game's `state`, or a past one from GET /games/{id}/positions) and never applies a move
// itself, nor decides from its own copy of the rules what is legal: Play is enabled only for a
// move the legal-moves listing holds (`listed` in common.js), or that the server said is legal
// (`api.checkMove`). What little it computes from a state serves the drawing. Each exports:
//   describe(move, game) -> a line for the move list
//   create({root, submit, gameId}) -> {update(view)}, where view is
//     {game, state, seat, mine, legal, last, recent, ply, live}: `seat` is the seat this browser
//     moves for (null when it may not move now), `mine` every seat it holds, `legal` the
//     legal-moves listing for this ply (or null while it loads), `last` the move that led to
//     `state` as {seat, move} (null at the start or before the positions have loaded), `recent`
//     the moves of that last turn, oldest first (Partition's turn is three), `ply` the number of
//     moves behind `state`, `live` false during a replay.
// A board puts its picture in `zoomFrame()` (the container marked `data-board`, with its zoom
// button) and its move controls in a `.board-controls` element, which sticks to the bottom of
// the screen; `submit(move)` resolves true when the server took the move, and a refusal shows
// under the board's Play bar.
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
