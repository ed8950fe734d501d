// What every board shares: the pending-move bar, a keyboard cursor and clicks on grids, board
// pictures.

import { h, s } from "../dom.js";

/**
 * The bar under a board that says what the pending move is and plays it.
 * `onPlay(move)` returns a promise (the board's submit); `onClear()` drops the selection.
 */
export function actionBar(onPlay, onClear) {
  let pending = null;
  const label = h("span", { class: "pending", "aria-live": "polite" });
  const play = h("button", { class: "primary", type: "button", disabled: true,
                             onclick: () => pending && onPlay(pending) }, "Play");
  const clear = h("button", { type: "button", onclick: onClear }, "Clear");
  const el = h("div", { class: "action-bar" }, label, h("span", { class: "buttons" }, clear, play));
  return {
    el,
    /** Show `text`; `move` (or null) is what Play sends. */
    set(text, move = null) {
      label.textContent = text;
      pending = move;
      play.disabled = !move;
    },
    get pending() { return pending; },
    show(visible) { el.hidden = !visible; },
  };
}

/**
 * Arrow-key cursor on a focusable SVG grid. `onMove(r, c)` after each move; keys not used here go
 * to `onKey(event, r, c)`, which returns true when it handled the key. Enter/Space call
 * `onActivate(r, c)`.
 */
export function gridKeys(el, rows, cols, { onMove, onActivate, onKey }) {
  const cursor = { r: 0, c: 0 };
  const steps = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  el.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const step = steps[event.key];
    if (step) {
      cursor.r = Math.min(rows() - 1, Math.max(0, cursor.r + step[0]));
      cursor.c = Math.min(cols() - 1, Math.max(0, cursor.c + step[1]));
      onMove(cursor.r, cursor.c);
    } else if (event.key === "Enter" || event.key === " ") {
      onActivate(cursor.r, cursor.c);
    } else if (!onKey(event, cursor.r, cursor.c)) {
      return;
    }
    event.preventDefault();
  });
  return {
    get: () => ({ ...cursor }),
    set(r, c) { cursor.r = r; cursor.c = c; },
  };
}

/**
 * Clicks on a grid's cells (elements with `data-cell="r,c"`): unless `watching()` (no seat plays
 * here), the keyboard cursor `keys` (from gridKeys) moves to the cell and `onTap(r, c)` runs.
 */
export function cellClicks(el, keys, watching, onTap) {
  el.addEventListener("click", (event) => {
    const cell = event.target.closest("[data-cell]");
    if (!cell || watching()) return;
    const [r, c] = cell.dataset.cell.split(",").map(Number);
    keys.set(r, c);
    onTap(r, c);
  });
}

/** A focusable board picture: keyboard users reach it with Tab and use the keys `help` names. */
export function boardSvg(viewBox, label, help) {
  return s("svg", { viewBox, class: "board", tabindex: 0, role: "application",
                    "aria-label": `${label}. ${help}` });
}

/** A seat's mark drawn in SVG: a white disc for seat 0, a black one for seat 1. */
export function seatDot(seat, cx, cy, r) {
  return s("circle", { cx, cy, r, class: `seat-dot seat${seat}` });
}

/** The cells from `a` to `b` along one row or column, `a` first (a single cell when equal). */
export function lineCells([r0, c0], [r1, c1]) {
  const n = Math.max(Math.abs(r1 - r0), Math.abs(c1 - c0));
  const dr = Math.sign(r1 - r0);
  const dc = Math.sign(c1 - c0);
  return Array.from({ length: n + 1 }, (_, k) => [r0 + k * dr, c0 + k * dc]);
}
