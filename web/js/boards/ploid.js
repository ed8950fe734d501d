// Ploid: the n×(n+1) grid, both hands, every group's size against its smallest number (the
// groups come with the state: the server's), passes.

import { fill, h, s } from "../dom.js";
import { cellName, SEAT_COLOUR, seatMark, seatName } from "../format.js";
import { actionBar, boardSvg, cellClicks, gridKeys, listed, LOADING_LEGAL, wordsOf, zoomFrame } from "./common.js";

/** The board's styles, adopted by boards/common.js's loadBoard with the board; the tokens
 *  (--accent, --card, the pieces' colours...) are app.css's. */
export const STYLES = `
.pl-cell { fill: var(--card); stroke: var(--line); stroke-width: .03; }
.pl-cell.legal { fill: var(--accent-soft); }
.pl-link { stroke-width: .34; stroke-linecap: round; }
.pl-link.seat0 { stroke: #a8a29e; }
.pl-link.seat1 { stroke: #57534e; }
.pl-piece { stroke-width: .05; }
.pl-piece.seat0 { fill: var(--piece0); stroke: var(--piece0-edge); }
.pl-piece.seat1 { fill: var(--piece1); stroke: var(--piece-halo); stroke-width: .07; }
@media (prefers-color-scheme: light) { .pl-piece.seat1 { stroke: var(--piece1-edge); stroke-width: .05; } }
.pl-piece.pending { stroke: var(--accent); stroke-width: .1; stroke-dasharray: .12 .06; }
.pl-piece.last { stroke: var(--last); stroke-width: .1; }
.pl-num { font-size: .45px; text-anchor: middle; dominant-baseline: central; font-weight: 700; }
.pl-num.seat0 { fill: #1c1917; }
.pl-num.seat1 { fill: #fafaf9; }
.pl-tag { font-size: .22px; text-anchor: middle; dominant-baseline: central; fill: var(--ink); }
.pl-tag-bg { fill: var(--card); stroke: var(--line); stroke-width: .02; }
.pl-tag-bg.full { fill: var(--soft); stroke: var(--muted); }
`;

export function create({ root, submit }) {
  let view = null;
  let piece = null;   // a number or "blank"
  let target = null;  // [r, c]

  const svg = boardSvg("0 0 1 1", "Ploid board",
    "Arrow keys move, a digit key or B picks a piece, Enter places it, Escape clears.");
  const hands = h("div", { class: "side-by-side" });
  const info = h("p", { class: "board-info" });
  const hint = h("p", { class: "muted hint" });
  const bar = actionBar(play, clear);
  const controls = h("div", { class: "board-controls" }, hint, bar.el);
  const zoom = zoomFrame(svg, 0.94, "board");
  fill(root, h("div", { class: "ploid" }, hands, info, zoom.el, controls));

  const keys = gridKeys(svg, () => view.state.rows, () => view.state.cols, {
    onMove: () => render(),
    onActivate: (r, c) => {
      if (view.seat === null) return;
      if (target && target[0] === r && target[1] === c && bar.pending) play(bar.pending);
      else tap(r, c);
    },
    onKey(event) {
      if (view.seat === null) return false;
      if (/^[1-8]$/.test(event.key)) pick(Number(event.key));
      else if (event.key.toLowerCase() === "b") pick("blank");
      else if (event.key === "Escape") clear();
      else return false;
      return true;
    },
  });

  cellClicks(svg, keys, () => view?.seat === null, tap);

  function tap(r, c) {
    if (view.state.board[r][c]) return;
    target = [r, c];
    render();
  }

  function pick(p) {
    if (allowedPieces().has(p)) piece = p;
    render();
  }

  function clear() {
    piece = null;
    target = null;
    render();
  }

  async function play(move) {
    if (await submit(move)) clear();
  }

  /** The pieces the mover may place now, from the legal moves (none while they load). */
  function allowedPieces() {
    return new Set((view.legal?.moves || []).map((m) => m.piece));
  }

  function legalCells() {
    return new Set((view.legal?.moves || []).filter((m) => m.piece === piece).map((m) => `${m.row},${m.col}`));
  }

  function pendingMove() {
    if (!view.legal) return LOADING_LEGAL;
    const allowed = allowedPieces();
    if (!allowed.size) return "You have no piece to place.";
    if (piece === null) {
      const banned = view.state.last_number;
      return `Pick a piece from your hand${banned && !allowed.has(banned) && view.state.hands[view.seat].numbers.includes(banned)
        ? ` (not the ${banned} your opponent just placed)` : ""}, then tap a cell.`;
    }
    const name = piece === "blank" ? "blank" : piece;
    if (!target) return `Tap a highlighted cell for your ${name}.`;
    const move = { type: "place", row: target[0], col: target[1], piece };
    return listed(view.legal, move) ? move
      : `Your ${name} cannot go on ${cellName(...target)}: tap a highlighted cell.`;
  }

  function renderHands() {
    const { game, state, seat } = view;
    const allowed = seat === null ? new Set() : allowedPieces();
    fill(hands, [0, 1].map((i) => {
      const hand = state.hands[i];
      const mine = seat === i;
      const item = (p, label) => (mine
        ? h("button", { type: "button", class: "chip", disabled: !allowed.has(p), dataset: { piece: p },
                        "aria-pressed": String(piece === p), onclick: () => pick(p) }, label)
        : h("span", { class: "chip" }, label));
      return h("div", { class: ["panel", game.status === "active" && game.to_move === i && "to-move"],
                        "data-seat": i },
        h("h2", {}, seatMark(i), ` ${seatName(game, i)} (${SEAT_COLOUR[i]}): ${state.placed[i]} placed`),
        h("div", { class: "chips", role: mine ? "group" : null, "aria-label": mine ? "Your hand" : null },
          hand.numbers.map((k) => item(k, String(k))),
          hand.blanks ? item("blank", `blank ×${hand.blanks}`) : null,
          !hand.numbers.length && !hand.blanks ? h("span", { class: "muted" }, "empty") : null));
    }));
  }

  function renderBoard() {
    const { state, seat, last } = view;
    const { rows, cols, board } = state;
    const pad = 0.5;
    svg.setAttribute("viewBox", `${-pad} ${-pad} ${cols + pad} ${rows + pad}`);
    zoom.refresh();
    const open = seat !== null && piece !== null ? legalCells() : new Set();
    const lastKey = last?.move.type === "place" ? `${last.move.row},${last.move.col}` : null;
    const cursor = keys.get();
    const cells = [];
    const links = [];
    const pieces = [];
    board.forEach((row, r) => row.forEach((cell, c) => {
      const key = `${r},${c}`;
      cells.push(s("rect", { x: c + 0.03, y: r + 0.03, width: 0.94, height: 0.94, rx: 0.06,
                             class: ["pl-cell", !cell && open.has(key) && "legal"], dataset: { cell: key },
                             "data-seat": cell?.seat, "data-piece": cell?.piece }));
      for (const [nr, nc] of [[r, c + 1], [r + 1, c]]) {
        const other = board[nr]?.[nc];
        if (cell && other && other.seat === cell.seat) {
          links.push(s("line", { x1: c + 0.5, y1: r + 0.5, x2: nc + 0.5, y2: nr + 0.5, class: `pl-link seat${cell.seat}` }));
        }
      }
      const shown = cell || (target && target[0] === r && target[1] === c && piece !== null
        ? { seat, piece, pending: true } : null);
      if (shown) {
        pieces.push(s("circle", { cx: c + 0.5, cy: r + 0.5, r: 0.36, "pointer-events": "none",
          class: ["pl-piece", `seat${shown.seat}`, shown.pending && "pending", key === lastKey && "last"] }));
        if (shown.piece !== "blank") {
          pieces.push(s("text", { x: c + 0.5, y: r + 0.52, class: `pl-num seat${shown.seat}` }, shown.piece));
        }
      } else if (target && target[0] === r && target[1] === c) {
        pieces.push(s("circle", { cx: c + 0.5, cy: r + 0.5, r: 0.36, class: "pl-piece pending", fill: "none", "pointer-events": "none" }));
      }
    }));
    const tags = state.groups.filter((g) => g.limit !== null).map((g) => {
      const [r, c] = g.cells.find(([rr, cc]) => board[rr][cc].piece === g.limit);
      return s("g", { "pointer-events": "none" },
        s("rect", { x: c + 0.52, y: r + 0.02, width: 0.46, height: 0.26, rx: 0.08,
                    class: ["pl-tag-bg", g.size === g.limit && "full"] }),
        s("text", { x: c + 0.75, y: r + 0.155, class: "pl-tag" }, `${g.size}/${g.limit}`));
    });
    const axes = [
      ...Array.from({ length: cols }, (_, i) => s("text", { x: i + 0.5, y: -0.25, class: "board-axis" }, i)),
      ...Array.from({ length: rows }, (_, i) => s("text", { x: -0.25, y: i + 0.5, class: "board-axis" }, i))];
    fill(svg, axes, cells, links, pieces, tags,
      s("rect", { x: cursor.c + 0.02, y: cursor.r + 0.02, width: 0.96, height: 0.96, rx: 0.08, class: "cursor", "stroke-width": 0.07 }));
    const here = board[cursor.r]?.[cursor.c];
    svg.setAttribute("aria-label", `Ploid board ${rows} by ${cols}; cursor at ${cellName(cursor.r, cursor.c)}: `
      + (here ? `${SEAT_COLOUR[here.seat]} ${here.piece}` : "empty") + ".");
  }

  function render() {
    if (!view) return;
    const { game, state, last } = view;
    const playing = view.seat !== null;
    controls.hidden = !playing;
    const focusedPiece = hands.contains(document.activeElement) ? document.activeElement.dataset.piece : null;
    renderHands();
    if (focusedPiece) hands.querySelector(`[data-piece="${focusedPiece}"]`)?.focus();
    renderBoard();
    const passed = last?.move.type === "pass" ? `${seatName(game, last.seat)} passed: no legal placement. ` : "";
    info.textContent = `${passed}Tags show each group's size against its smallest number`
      + `${state.last_number ? `; the number just placed is ${state.last_number}` : ""}.`;
    if (!playing) return;
    const result = pendingMove();
    hint.textContent = typeof result === "string" ? result : "";
    if (typeof result === "object") bar.set(wordsOf(view.legal, result), result);
    else bar.set("");
  }

  return {
    update(next) {
      if (view && next.ply !== view.ply) {
        piece = null;
        target = null;
      }
      view = next;
      render();
    },
  };
}
