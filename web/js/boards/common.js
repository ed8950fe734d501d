// One board module per game, keyed by the API's kind. A board draws the states the server sends
// (the game's `state`, or a past one from GET /games/{id}/positions) and never applies a move
// itself, nor decides from its own copy of the rules what is legal: Play is enabled only for a
// move the legal-moves listing holds (`listed` below), or that the server said is legal
// (`api.checkMove`). What little it computes from a state serves the drawing. Each exports:
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
// The game page imports only the board of the game it shows, by a naming convention: the board
// of kind `k` is boards/k.js, its styles its `STYLES` (`loadBoard`), so a new board is its own
// one file alone and costs no other page anything.
//
// Besides the map, this module holds what every board shares: the pending-move bar, a keyboard
// cursor and clicks on grids, board pictures that zoom, and reading the legal-moves listing.

import { h, s, showRefusal } from "../dom.js";

/** The board module of games of `kind` (the API's slug): boards/<kind>.js, with its styles (its
 *  `STYLES`) adopted by the page, or null when this client has none or it could not be loaded. */
export function loadBoard(kind) {
  if (!/^[a-z][a-z-]*$/.test(kind ?? "")) return Promise.resolve(null);
  return import(`./${kind}.js`).then((module) => { adopt(kind, module.STYLES); return module; }, () => null);
}

const adopted = new Set();

/** Add a board's styles to the page's, once a page. A constructed stylesheet is CSSOM, as
 *  `insertRule` is: the Content-Security-Policy's style-src 'self' governs <style> and style
 *  attributes in markup, not the page's own scripts, so it needs nothing more. The board is then
 *  one file, and its styles come in the one request that brings it. */
function adopt(kind, styles) {
  if (!styles || adopted.has(kind)) return;
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(styles);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  adopted.add(kind);
}

/** Touch targets at least this big (CSS px) need no zoom; the stylesheet's --touch. */
const TOUCH_PX = 44;

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
  // a refusal of the move shows right under this bar (game.js, showRefusal)
  const el = h("div", { class: "action-bar", "data-refusal-row": true },
    label, h("span", { class: "buttons" }, clear, play));
  return {
    el,
    /** Show `text`; `move` (or null) is what Play sends: only a move the listing holds. */
    set(text, move = null) {
      label.textContent = text;
      // a new move picked: the refusal of an earlier one no longer applies
      if (move && JSON.stringify(move) !== JSON.stringify(pending)) showRefusal(el, null);
      pending = move;
      play.disabled = !move;
    },
    get pending() { return pending; },
    show(visible) { el.hidden = !visible; },
  };
}

/**
 * Whether the legal-moves listing `legal` holds `move`: an entry equal to it in each of
 * `fields` (all of the move's by default). The listing is the server's word on what is legal;
 * a board never decides that from its own copy of the rules.
 */
export function listed(legal, move, fields = Object.keys(move)) {
  return Boolean(legal?.moves.some((entry) => fields.every((f) => same(entry[f], move[f]))));
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** The server's words for `move` (the listing's entry equal to it: `legal.words`, in the
 *  notation of the game's rules page), as the Play bar shows them; null when it is not listed.
 *  Boards never word a move themselves, so the bar, the move list and a refusal say it alike. */
export function wordsOf(legal, move) {
  const fields = Object.keys(move);
  const at = legal?.moves.findIndex((entry) => Object.keys(entry).length === fields.length
    && fields.every((f) => same(entry[f], move[f]))) ?? -1;
  const words = at >= 0 ? legal.words?.[at] : null;
  return words ? words[0].toUpperCase() + words.slice(1) : null;
}

/** The hint while the legal moves of this turn are on their way (Play stays disabled). */
export const LOADING_LEGAL = "Loading the legal moves…";

/**
 * A board picture in a frame (the board's container, marked `data-board`) that zooms: at fit
 * size the picture is as wide as the page allows; when its smallest target (`target` viewBox
 * units) is then under 44 px, a "Zoom in" button shows it at 44 px a target, scrolling inside
 * the frame (pinch-zoom works as well). Call `refresh()` after changing the viewBox.
 */
export function zoomFrame(svg, target, label) {
  let zoomed = false;
  const frame = h("div", { class: "board-frame", "data-board": true }, svg);
  const button = h("button", { type: "button", class: "zoom", "aria-pressed": "false", hidden: true,
                               onclick: () => { zoomed = !zoomed; refresh(true); } }, "Zoom in");
  const el = h("div", { class: "board-zoom" }, h("div", { class: "zoom-bar" }, button), frame);
  // the picture's size unzoomed, as the ResizeObserver last reported it: read from the
  // observer, never from the element, so a board drawn or redrawn forces no layout of the page
  let size = null;
  function refresh(recentre = false) {
    const { width, height } = svg.viewBox.baseVal;
    if (!width || !size) return;  // not laid out yet: the observer calls again once it is
    const fit = Math.min(size.width / width, size.height / height);  // CSS px a viewBox unit
    const small = fit * target < TOUCH_PX;
    button.hidden = !small;
    const on = small && zoomed;
    button.textContent = on ? "Fit to screen" : "Zoom in";
    button.setAttribute("aria-pressed", String(on));
    button.setAttribute("aria-label", on ? `Fit the ${label} to the screen` : `Zoom in on the ${label}`);
    frame.classList.toggle("zoomed", on);
    svg.style.width = on ? `${Math.ceil((width * TOUCH_PX) / target)}px` : "";
    if (on && recentre) {
      frame.scrollLeft = (frame.scrollWidth - frame.clientWidth) / 2;
      frame.scrollTop = (frame.scrollHeight - frame.clientHeight) / 2;
    }
  }
  const observer = new ResizeObserver(([entry]) => {
    if (!svg.isConnected) return observer.disconnect();
    if (!frame.classList.contains("zoomed")) size = entry.contentRect;
    refresh();
  });
  observer.observe(svg);
  return { el, refresh };
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
