// Partition: the 6×6 odd-r hex board with its discs, sticks on edges, open and closed regions,
// claims and markers, subdivisions, the actions left this turn, the equal-split choice, scores.
// The regions' owners, the totals and an equal split's sides come with the state (the server's).

import { fill, h, s } from "../dom.js";
import { seatMark, seatName } from "../format.js";
import { actionBar, boardSvg, LOADING_LEGAL, seatDot, wordsOf, zoomFrame } from "./common.js";

/** The board's styles, adopted by boards/common.js's loadBoard with the board; the tokens
 *  (--accent, --card, the pieces' colours...) are app.css's. */
export const STYLES = `
.pt-hex { stroke: var(--line); stroke-width: .03; fill: var(--card); }
.pt-hex.closed { fill: var(--closed); }
.pt-hex.selected { stroke: var(--accent); stroke-width: .1; }
.pt-hex.part-a { fill: var(--accent-soft); }
.pt-disc { stroke: rgba(0, 0, 0, .35); stroke-width: .03; }
.pt-disc.taken { fill: none; stroke: var(--muted); stroke-dasharray: .08 .06; }
.pt-letter { font-size: .32px; text-anchor: middle; dominant-baseline: central; fill: #000; opacity: .75; font-weight: 700; }
.pt-stick { stroke: var(--ink); stroke-width: .13; stroke-linecap: round; }
.pt-stick.last { stroke: var(--last); }
.pt-hex.last { stroke: var(--last); stroke-width: .12; }
.pt-edge { cursor: pointer; }
.pt-edge-hit { fill: transparent; }
.pt-edge-line { stroke: transparent; stroke-width: .16; stroke-linecap: round; }
/* the edges that take a stick show once the pointer is over the board or the keyboard is on it
   (always on a touch screen, which has no hover): dashed, and solid under the pointer */
:is(svg.board:hover, svg.board:focus-visible) .pt-edge-line { stroke: var(--accent); stroke-dasharray: .12 .1; opacity: .7; }
@media (hover: none) { .pt-edge-line { stroke: var(--accent); stroke-dasharray: .12 .1; opacity: .6; } }
svg.board :is(.pt-edge:hover, .pt-edge.selected) .pt-edge-line { stroke-dasharray: none; opacity: 1; }
.pt-edge.selected .pt-edge-line { stroke: var(--accent); }
.pt-marker { stroke-width: .04; }
.pt-marker.seat0 { fill: var(--piece0); stroke: var(--piece0-edge); }
.pt-marker.seat1 { fill: var(--piece1); stroke: var(--piece-halo); }
@media (prefers-color-scheme: light) { .pt-marker.seat1 { stroke: var(--piece1-edge); } }
.pt-owner { font-size: .42px; font-weight: 700; text-anchor: middle; dominant-baseline: central;
  fill: var(--ink); paint-order: stroke; stroke: var(--card); stroke-width: .08px; }
.swatch { display: inline-block; width: .9rem; height: .9rem; border-radius: 50%; vertical-align: -.1rem;
  border: 1px solid rgba(0, 0, 0, .35); margin-right: .15rem; }
`;

const ROWS = 6;
const COLS = 6;
const HEXES = ROWS * COLS;
const ACTIONS = 3;
const W = Math.sqrt(3);  // a hex's width for a circumradius of 1 (pointy top)
const COLOUR_FILL = {
  red: "#e5484d", orange: "#f5a524", yellow: "#f7e35c", green: "#46a758", blue: "#3e8ef7", purple: "#9b5de5",
};

/** The hexes next to `hex` on the odd-r board (odd rows sit half a hex to the right). */
function neighbours(hex) {
  const r = Math.floor(hex / COLS);
  const c = hex % COLS;
  const shift = r % 2 ? 0 : -1;
  return [[r, c - 1], [r, c + 1], [r - 1, c + shift], [r - 1, c + shift + 1], [r + 1, c + shift],
    [r + 1, c + shift + 1]]
    .filter(([rr, cc]) => rr >= 0 && rr < ROWS && cc >= 0 && cc < COLS)
    .map(([rr, cc]) => rr * COLS + cc).sort((a, b) => a - b);
}

const NEIGHBOURS = Array.from({ length: HEXES }, (_, hex) => neighbours(hex));
const EDGES = NEIGHBOURS.flatMap((ns, a) => ns.filter((b) => a < b).map((b) => [a, b]));
const edgeKey = (a, b) => (a < b ? `${a}-${b}` : `${b}-${a}`);
const ROW_NAMES = "ABCDEF";
/** A hex as the board's margins name it: its row's letter and its column's number ("C4"). The
 *  API's hex ids (0 to 35, row by row) never show. */
export const hexName = (hex) => `${ROW_NAMES[Math.floor(hex / COLS)]}${(hex % COLS) + 1}`;
const between = ([a, b]) => `${hexName(a)} and ${hexName(b)}`;
const HIT = 0.82;  // an edge's touch target, a square this many units a side across its middle
const MARGIN = 0.75;  // room for the row letters and column numbers

function centre(hex) {
  const r = Math.floor(hex / COLS);
  const c = hex % COLS;
  return [W * (c + 0.5 + (r % 2 ? 0.5 : 0)), 1 + 1.5 * r];
}

function corners(hex) {
  const [x, y] = centre(hex);
  return Array.from({ length: 6 }, (_, k) => {
    const angle = (Math.PI / 180) * (60 * k - 90);
    return `${(x + Math.cos(angle)).toFixed(3)},${(y + Math.sin(angle)).toFixed(3)}`;
  }).join(" ");
}

/** The side two neighbouring hexes share, as a segment. */
function side(a, b) {
  const [xa, ya] = centre(a);
  const [xb, yb] = centre(b);
  const [mx, my] = [(xa + xb) / 2, (ya + yb) / 2];
  const len = Math.hypot(xb - xa, yb - ya);
  const [px, py] = [-(yb - ya) / len / 2, (xb - xa) / len / 2];
  return { x1: mx + px, y1: my + py, x2: mx - px, y2: my - py };
}

export function create({ root, submit }) {
  let view = null;
  let hex = null;        // a selected hex (a claim, or one side of an edge for the keyboard)
  let edge = null;       // a selected edge [a, b]
  let close = null;      // the hex naming the part to close on an equal split
  let cursor = 0;

  const svg = boardSvg(`${-MARGIN} ${-MARGIN} ${W * 6.5 + 0.15 + MARGIN} ${9.65 + MARGIN}`, "Partition board",
    "Arrow keys move between hexes, Enter selects a hex; Enter on a neighbour then selects the edge between them. Escape clears.");
  const seats = h("div", { class: "side-by-side" });
  const info = h("p", { class: "board-info" });
  const choice = h("div", { class: "inline-form", hidden: true });
  const hint = h("p", { class: "muted hint" });
  const bar = actionBar(play, clear);
  const controls = h("div", { class: "board-controls" }, hint, choice, bar.el);
  const zoom = zoomFrame(svg, HIT, "board");
  fill(root, h("div", { class: "pt" }, info, seats, zoom.el, controls));

  svg.addEventListener("click", (event) => {
    if (view?.seat === null) return;
    const target = event.target.closest("[data-edge],[data-hex]");
    if (!target) return;
    if (target.dataset.edge) {
      edge = target.dataset.edge.split("-").map(Number);
      hex = null;
      close = null;
      render();
    } else {
      cursor = Number(target.dataset.hex);
      activate(cursor);
    }
  });
  svg.addEventListener("keydown", (event) => {
    const r = Math.floor(cursor / COLS);
    const c = cursor % COLS;
    const moves = { ArrowLeft: [r, c - 1], ArrowRight: [r, c + 1], ArrowUp: [r - 1, c], ArrowDown: [r + 1, c] };
    if (moves[event.key]) {
      const [rr, cc] = moves[event.key];
      if (rr >= 0 && rr < ROWS && cc >= 0 && cc < COLS) cursor = rr * COLS + cc;
      render();
    } else if (event.key === "Enter" || event.key === " ") {
      if (view.seat !== null) activate(cursor);
    } else if (event.key === "Escape") {
      clear();
    } else {
      return;
    }
    event.preventDefault();
  });

  function activate(target) {
    if (hex !== null && NEIGHBOURS[hex].includes(target) && edgeMoves([hex, target].sort((a, b) => a - b)).length) {
      edge = [hex, target].sort((a, b) => a - b);
      hex = null;
    } else {
      hex = target;
      edge = null;
    }
    close = null;
    render();
  }

  function unselect() {
    hex = null;
    edge = null;
    close = null;
  }

  function clear() {
    unselect();
    render();
  }

  async function play(move) {
    if (await submit(move)) clear();
  }

  const sticks = () => new Set(view.state.sticks.map((e) => edgeKey(...e)));
  const openRegion = () => new Set(view.state.regions.find((reg) => !reg.closed)?.hexes || []);
  /** The hexes of the side `close` names of the equal split a stick on `e` makes (the state's). */
  const sideOf = (e, hex) => view.state.equal_splits.find((split) => edgeKey(...split.edge) === edgeKey(...e))
    ?.sides.find((side) => side.close === hex)?.hexes || [];

  /** The legal moves on `e` (sticks, one per close choice, or a subdivision). */
  function edgeMoves(e) {
    const key = edgeKey(...e);
    return (view.legal?.moves || []).filter((m) => m.edge && edgeKey(...m.edge) === key);
  }

  /** The move the selection makes (one the listing holds), or a sentence saying what to do. */
  function pendingMove() {
    const { state, legal } = view;
    if (!legal) return LOADING_LEGAL;
    if (edge) {
      const options = edgeMoves(edge);
      if (options.length > 1) {
        return close === null ? "This stick splits the open region into equal parts: choose the part to close."
          : options.find((m) => m.close === close);
      }
      if (options.length === 1) return options[0];
      return `No stick can go between ${between(edge)} now.`;
    }
    if (hex !== null) {
      const name = hexName(hex);
      if (legal.moves.some((m) => m.type === "claim" && m.hex === hex)) return { type: "claim", hex };
      if (openRegion().has(hex)) return `${name} is in the open region: tap an edge for a stick, or a neighbouring hex.`;
      if (state.colours[hex] === null) return `The disc on ${name} is gone: tap an edge, or a neighbouring hex.`;
      return `You cannot claim ${state.colours[hex]} now: tap an edge, or a neighbouring hex.`;
    }
    return "Tap an edge for a stick or a subdivision, or a disc in a closed region to claim its colour.";
  }

  function renderChoice() {
    const options = edge ? edgeMoves(edge) : [];
    choice.hidden = options.length < 2;
    if (options.length < 2) return;
    fill(choice, "Close: ", options.map((m) => {
      const size = sideOf(edge, m.close).length;
      return h("button", { type: "button", "aria-pressed": String(close === m.close),
                           onclick: () => { close = m.close; render(); } },
        `the part with ${hexName(m.close)} (${size} hexes)`);
    }));
  }

  function renderSeats() {
    const { game, state } = view;
    fill(seats, [0, 1].map((seat) => {
      return h("div", { class: ["panel", game.status === "active" && game.to_move === seat && "to-move"],
                        "data-seat": seat },
        h("h2", {}, seatMark(seat), ` ${seatName(game, seat)}`),
        h("div", { class: "stats" },
          h("span", {}, "Colours ", state.claimed[seat].length
            ? state.claimed[seat].map((col) => [h("span", { class: "swatch", style: `background:${COLOUR_FILL[col]}` }), `${col} `])
            : "none", ` (${state.claims_left[seat]} left)`),
          h("span", {}, "Subdivisions left ", h("b", {}, state.subdivisions_left[seat])),
          h("span", {}, "Closing points ", h("b", {}, state.points[seat])),
          h("span", {}, "Regions held ", h("b", {}, state.regions_held[seat])),
          h("span", {}, "Total ", h("b", {}, state.totals[seat]))));
    }));
    const turn = game.status === "active" && view.live
      ? `${seatName(game, state.turn)} has ${state.actions_left} of ${ACTIONS} actions left this turn.`
      : view.live ? "" : `${seatName(game, state.turn)} to act, ${state.actions_left} of ${ACTIONS} actions left.`;
    info.textContent = `${turn} The white or black dot on a closed region (= for a tie) says who `
      + "would win it if the game ended now; regions held counts them.";
  }

  function renderBoard() {
    const { state, seat, recent } = view;
    const closedOf = new Map();
    state.regions.forEach((reg, i) => reg.hexes.forEach((x) => closedOf.set(x, reg.closed ? i : -1)));
    const marked = [0, 1].map((s2) => new Set(state.claimed[s2]));
    const legalEdges = new Set((view.legal?.moves || []).filter((m) => m.edge).map((m) => edgeKey(...m.edge)));
    const stickSet = sticks();
    const part = edge && close !== null ? new Set(sideOf(edge, close)) : null;
    // every action of the last turn (up to three) is marked, not only its last
    const lastEdges = new Set(recent.filter((m) => m.move.edge).map((m) => edgeKey(...m.move.edge)));
    const lastClaims = new Set(recent.filter((m) => m.move.type === "claim").map((m) => m.move.hex));
    const hexes = Array.from({ length: HEXES }, (_, x) => {
      const [cx, cy] = centre(x);
      const colour = state.colours[x];
      const marker = [0, 1].find((s2) => colour && marked[s2].has(colour));
      return s("g", { dataset: { hex: x }, "data-colour": colour, "data-closed": closedOf.get(x) >= 0 },
        s("polygon", { points: corners(x), class: ["pt-hex", closedOf.get(x) >= 0 && "closed",
          part?.has(x) && "part-a", (x === hex) && "selected", lastClaims.has(x) && "last"] }),
        colour ? s("circle", { cx, cy, r: 0.5, class: "pt-disc", fill: COLOUR_FILL[colour] })
          : s("circle", { cx, cy, r: 0.42, class: "pt-disc taken" }),
        colour ? s("text", { x: cx, y: cy + 0.02, class: "pt-letter" }, colour[0].toUpperCase()) : null,
        marker !== undefined ? s("rect", { x: cx + 0.2, y: cy - 0.62, width: 0.32, height: 0.32,
                                           class: `pt-marker seat${marker}` }) : null);
    });
    const owned = state.closed_regions.map(({ hexes, owner }) => {
      const [cx, cy] = centre(hexes[0]);
      return owner === null ? s("text", { x: cx - 0.62, y: cy - 0.3, class: "pt-owner" }, "=")
        : seatDot(owner, cx - 0.62, cy - 0.32, 0.16);
    });
    const stickLines = state.sticks.map(([a, b]) => s("line", { ...side(a, b), "data-stick": edgeKey(a, b),
      class: ["pt-stick", lastEdges.has(edgeKey(a, b)) && "last"] }));
    const hits = seat === null ? [] : EDGES.filter(([a, b]) => !stickSet.has(edgeKey(a, b))
      && legalEdges.has(edgeKey(a, b))).map(([a, b]) => edgeTarget(a, b));
    const [kx, ky] = centre(cursor);
    fill(svg, axes(), hexes, stickLines, owned, hits,
      s("circle", { cx: kx, cy: ky, r: 0.8, class: "cursor", "stroke-width": 0.08 }));
    zoom.refresh();
    const colour = state.colours[cursor];
    svg.setAttribute("aria-label", `Partition board. Cursor on ${hexName(cursor)}, ${colour || "no disc"}, `
      + `${closedOf.get(cursor) >= 0 ? "closed" : "open"} region.`);
  }

  /** An edge's touch target: a square across its middle (turned with it), and its line. */
  function edgeTarget(a, b) {
    const seg = side(a, b);
    const [mx, my] = [(seg.x1 + seg.x2) / 2, (seg.y1 + seg.y2) / 2];
    const angle = (Math.atan2(seg.y2 - seg.y1, seg.x2 - seg.x1) * 180) / Math.PI;
    const selected = edge && edgeKey(...edge) === edgeKey(a, b);
    return s("g", { class: ["pt-edge", selected && "selected"], dataset: { edge: `${a}-${b}` } },
      s("rect", { x: mx - HIT / 2, y: my - HIT / 2, width: HIT, height: HIT, class: "pt-edge-hit",
                  transform: `rotate(${angle.toFixed(2)} ${mx.toFixed(3)} ${my.toFixed(3)})` }),
      s("line", { ...seg, class: "pt-edge-line" }));
  }

  /** The row letters down the left and the column numbers along the top, naming the hexes. */
  function axes() {
    return [...Array.from({ length: ROWS }, (_, r) => s("text", { x: -MARGIN / 2, y: centre(r * COLS)[1], class: "board-axis" }, ROW_NAMES[r])),
      ...Array.from({ length: COLS }, (_, c) => s("text", { x: centre(c)[0], y: -MARGIN / 2 + 0.1, class: "board-axis" }, c + 1))];
  }

  function render() {
    if (!view) return;
    const playing = view.seat !== null;
    controls.hidden = !playing;
    renderSeats();
    renderBoard();
    if (!playing) return;
    renderChoice();
    const result = pendingMove();
    hint.textContent = typeof result === "string" ? result : "";
    if (result && typeof result === "object") bar.set(wordsOf(view.legal, result), result);
    else bar.set("");
  }

  return {
    update(next) {
      if (view && next.ply !== view.ply) unselect();
      view = next;
      render();
    },
  };
}
