// Prime Drop: the grid, both piles, a single drop or a double down, and a challenge made by
// selecting a run from one end to the other (either direction) and typing a factor. The numbers
// on the board, with their ends, come with the state (the server's).

import * as api from "../api.js";
import { fill, h, s } from "../dom.js";
import { cellName, seatMark, seatName } from "../format.js";
import { actionBar, boardSvg, cellClicks, gridKeys, lineCells, listed, LOADING_LEGAL, wordsOf, zoomFrame } from "./common.js";

/** The board's styles, adopted by boards/common.js's loadBoard with the board; the tokens
 *  (--accent, --card, the pieces' colours...) are app.css's. */
export const STYLES = `
.pd-cell { fill: var(--card); stroke: var(--line); stroke-width: .03; }
.pd-cell.drop-ok { fill: var(--accent-soft); }
.pd-tile { fill: #f3e8c8; stroke: #a18a52; stroke-width: .04; }
.pd-digit { font-size: .6px; text-anchor: middle; dominant-baseline: central; fill: #1c1917; font-weight: 700; }
.pd-tile.pending { fill: var(--accent); stroke: var(--accent); }
.pd-digit.pending { fill: var(--on-accent); }
.pd-tile.last { stroke: var(--last); stroke-width: .1; }
.pd-tile.run { fill: #bfdbfe; stroke: var(--accent); stroke-width: .1; }
.pd-gone { fill: none; stroke: var(--last); stroke-width: .06; stroke-dasharray: .1 .08; }
`;

const DIGITS = "0123456789";

/** The number on the board read from `from` to `to` (an entry of the state's `numbers`), or
 *  undefined when those are not the two ends of one. */
function numberAt(state, from, to) {
  const same = (a, b) => a[0] === b[0] && a[1] === b[1];
  return state.numbers.find((n) => same(n.from, from) && same(n.to, to));
}

export function create({ root, submit, gameId }) {
  let view = null;
  let mode = "drop";
  let digit = null;
  let pending = [];       // tiles {row, col, digit|null} of a drop or double down
  let ends = [];          // the challenge's [from] or [from, to]
  // the listing leaves double downs out, and names each number with one factor: the server's
  // answer for each double down or challenge asked about (its words too), by ply and JSON
  const checks = new Map();

  const svg = boardSvg("0 0 1 1", "Prime Drop board",
    "Arrow keys move, a digit key picks a tile, Enter places it or marks a challenge end, Escape clears.");
  const piles = h("div", { class: "side-by-side" });
  const myPile = h("div", {});  // the acting seat's pile, beside Play
  const challengeNote = h("p", { class: "note", hidden: true });
  const modeButtons = Object.fromEntries([["drop", "Drop"], ["double", "Double down"], ["challenge", "Challenge"]]
    .map(([key, label]) => [key, h("button", { type: "button", "aria-pressed": "false",
                                               onclick: () => setMode(key) }, label)]));
  const modes = h("div", { class: "modes", role: "group", "aria-label": "Kind of move" },
    Object.values(modeButtons));
  const factor = h("input", { type: "number", inputmode: "numeric", min: 0, "aria-label": "Proposed factor",
                              placeholder: "factor" });
  const numberPick = h("select", { "aria-label": "A number on the board" });
  const reverse = h("button", { type: "button", onclick: () => { ends.reverse(); render(); } }, "Read the other way");
  const challengeForm = h("div", { class: "inline-form" },
    h("label", {}, "Number ", numberPick), reverse, h("label", {}, "Factor ", factor));
  const hint = h("p", { class: "muted hint" });
  const bar = actionBar(play, clear);
  const controls = h("div", { class: "board-controls" }, modes, myPile, hint, challengeForm, bar.el);
  const zoom = zoomFrame(svg, 0.94, "board");
  fill(root, h("div", { class: "pd" }, piles, challengeNote, zoom.el, controls));

  const keys = gridKeys(svg, () => view.state.size, () => view.state.size, {
    onMove: () => render(),
    onActivate: (r, c) => tap(r, c),
    onKey(event) {
      if (DIGITS.includes(event.key) && mode !== "challenge") {
        pickDigit(Number(event.key));
        return true;
      }
      if (event.key === "Escape" || event.key === "Backspace") {
        clear();
        return true;
      }
      return false;
    },
  });

  cellClicks(svg, keys, () => view?.seat === null, tap);
  factor.addEventListener("input", () => render());
  factor.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && bar.pending) {
      event.preventDefault();
      play(bar.pending);
    }
  });
  numberPick.addEventListener("change", () => {
    ends = numberPick.value ? JSON.parse(numberPick.value) : [];
    render();
  });

  function setMode(next) {
    mode = next;
    pending = [];
    ends = [];
    render();
  }

  function clear() {
    pending = [];
    ends = [];
    factor.value = "";
    render();
  }

  function pickDigit(d) {
    digit = d;
    const open = pending.findLast((t) => t.digit === null);
    if (open) open.digit = d;
    render();
  }

  function tap(r, c) {
    const board = view.state.board;
    if (mode === "challenge") {
      if (board[r][c] === null) return;
      if (ends.length === 1 && (ends[0][0] === r || ends[0][1] === c)) ends = [ends[0], [r, c]];
      else ends = [[r, c]];
      render();
      return;
    }
    const at = pending.findIndex((t) => t.row === r && t.col === c);
    if (at >= 0) {
      pending.splice(at, 1);
    } else if (board[r][c] === null) {
      const tile = { row: r, col: c, digit: digit !== null && view.state.piles[view.seat][digit] > 0 ? digit : null };
      pending = mode === "drop" ? [tile] : [...pending.slice(0, 1), tile];
    }
    render();
  }

  async function play(move) {
    if (await submit(move)) {
      mode = "drop";
      clear();
    }
  }

  /** The move the selection makes when the server lists it, or, for a double down or a
   *  challenge, the server's listing of it once it said it is legal; else a sentence saying what
   *  is missing. */
  function pendingMove() {
    const { legal } = view;
    if (!legal) return LOADING_LEGAL;
    if (mode === "challenge") {
      if (ends.length === 0) return "Tap one end of a number, then the other end (tap a lone tile twice).";
      if (ends.length === 1) return "Now tap the other end of the number (the same tile for a lone tile).";
      if (!listed(legal, { type: "challenge", from: ends[0], to: ends[1] })) {
        return "That is not a number on the board: tap both ends of one line of tiles, or a lone tile twice.";
      }
      const f = Number(factor.value);
      if (!factor.value || !Number.isInteger(f)) return "Type the factor you propose.";
      return checked({ type: "challenge", from: ends[0], to: ends[1], factor: f }, "challenge");
    }
    const need = mode === "drop" ? 1 : 2;
    if (pending.length < need) {
      return digit === null ? "Pick a digit from your pile, then tap an empty cell."
        : `Tap an empty cell for your ${digit}${need === 2 ? ` (${pending.length + 1} of 2)` : ""}.`;
    }
    if (pending.some((t) => t.digit === null)) return "Pick a digit for the tile marked ?.";
    if (mode === "drop") {
      const move = { type: "drop", ...pending[0] };
      return listed(legal, move) ? move : `Your ${move.digit} cannot go on ${cellName(move.row, move.col)} now.`;
    }
    return checked({ type: "double", tiles: pending.map((t) => ({ ...t })) }, "double down");
  }

  /** A move the listing leaves out: the server's one-move listing of it when it is legal (its
   *  `moves` and `words` are the Play bar's), else why not (asked once per move and ply). */
  function checked(move, noun) {
    const key = `${view.ply}:${JSON.stringify(move)}`;
    const answer = checks.get(key);
    const waiting = `Checking this ${noun}…`;
    if (answer) return answer.moves ? (answer.moves.length ? answer : answer.note) : waiting;
    checks.set(key, {});
    api.checkMove(gameId, move).then((listing) => checks.set(key, listing))
      .catch((err) => checks.set(key, { moves: [], note: err.message }))
      .finally(() => render());
    return waiting;
  }

  /** The Play bar's words and move for `result`: a listed drop, or a checked move's listing. */
  function pendingWords(result) {
    return result.type ? [wordsOf(view.legal, result), result] : [wordsOf(result, result.moves[0]), result.moves[0]];
  }

  function renderPiles() {
    const { game, state, seat } = view;
    const panels = [0, 1].map((i) => h("div", {
      class: ["panel", game.to_move === i && game.status === "active" && "to-move"], "data-seat": i },
      h("h2", {}, seatMark(i), ` ${seatName(game, i)}: ${state.tiles_left[i]} tiles`),
      h("div", { class: "chips", role: seat === i ? "group" : null,
                 "aria-label": seat === i ? "Your pile: pick a digit" : null },
        [...DIGITS].map((d) => {
          const n = state.piles[i][d];
          if (seat !== i) {
            return h("span", { class: "chip", "aria-label": `${n} × ${d}`, "data-count": n }, d,
              h("span", { class: "count" }, `×${n}`));
          }
          return h("button", { type: "button", class: "chip", disabled: n === 0 || mode === "challenge",
                               "aria-pressed": String(digit === Number(d)), dataset: { digit: d }, "data-count": n,
                               onclick: () => pickDigit(Number(d)) }, d, h("span", { class: "count" }, `×${n}`));
        }))));
    // the acting seat's pile sits with Play, so a digit, the board and Play are all in reach
    fill(piles, panels.filter((_, i) => i !== seat));
    fill(myPile, seat === null ? null : panels[seat]);
  }

  function renderChallengeNote() {
    const { game, state, last, mine } = view;
    const lc = state.last_challenge;
    const fresh = lc && last?.move.type === "challenge";
    challengeNote.hidden = !lc;
    if (!lc) return;
    // good or bad news for the one seat this browser plays: a challenge that worked is bad news
    // for the player whose tiles went back
    const forMe = mine.length === 1 && (lc.seat === mine[0]) === lc.success;
    const tone = !fresh || mine.length !== 1 ? "" : forMe ? "good" : "bad";
    challengeNote.className = `note ${tone}`;
    challengeNote.textContent = `${fresh ? "Last move" : "Last challenge"}: ${seatName(game, lc.seat)} challenged `
      + `${lc.value} with ${lc.factor}: ${lc.success
        ? `success, ${lc.tiles === 1 ? "its tile goes" : `its ${lc.tiles} tiles go`} to ${seatName(game, 1 - lc.seat)}'s pile.`
        : `failed, ${lc.factor} is not a factor that wins (nothing changes).`}`;
  }

  function renderBoard(result) {
    const { state, seat, legal, last } = view;
    const n = state.size;
    const pad = 0.6;
    svg.setAttribute("viewBox", `${-pad} ${-pad} ${n + pad} ${n + pad}`);
    zoom.refresh();
    const pendingAt = new Map(pending.map((t) => [`${t.row},${t.col}`, t]));
    const run = new Set(ends.length === 2 ? lineCells(...ends).map(String) : ends.map(String));
    const lastTiles = new Set(last?.move.type === "drop" ? [`${last.move.row},${last.move.col}`]
      : last?.move.type === "double" ? last.move.tiles.map((t) => `${t.row},${t.col}`) : []);
    const gone = last?.move.type === "challenge" && state.last_challenge?.success
      ? lineCells(last.move.from, last.move.to) : [];
    const dropOk = new Set(seat !== null && legal && digit !== null && mode === "drop"
      ? legal.moves.filter((m) => m.type === "drop" && m.digit === digit).map((m) => `${m.row},${m.col}`) : []);
    const cursor = keys.get();
    const cells = [];
    for (let r = 0; r < n; r += 1) {
      for (let c = 0; c < n; c += 1) {
        const key = `${r},${c}`;
        const d = state.board[r][c];
        const p = pendingAt.get(key);
        cells.push(s("rect", { x: c + 0.03, y: r + 0.03, width: 0.94, height: 0.94, rx: 0.08,
          class: ["pd-cell", d === null && dropOk.has(key) && "drop-ok"], dataset: { cell: key },
          "data-digit": d }));
        if (d !== null || p) {
          const cls = p ? "pending" : run.has(key) ? "run" : lastTiles.has(key) ? "last" : "";
          cells.push(s("rect", { x: c + 0.08, y: r + 0.08, width: 0.84, height: 0.84, rx: 0.1,
                                 class: `pd-tile ${cls}`, "pointer-events": "none" }),
                     s("text", { x: c + 0.5, y: r + 0.53, class: `pd-digit ${p ? "pending" : ""}` },
                       p ? (p.digit ?? "?") : d));
        }
      }
    }
    const axes = Array.from({ length: n }, (_, i) => [
      s("text", { x: i + 0.5, y: -0.3, class: "board-axis" }, i),
      s("text", { x: -0.3, y: i + 0.5, class: "board-axis" }, i)]);
    fill(svg, axes, cells,
      gone.map(([r, c]) => s("rect", { x: c + 0.12, y: r + 0.12, width: 0.76, height: 0.76, rx: 0.1, class: "pd-gone" })),
      s("rect", { x: cursor.c + 0.02, y: cursor.r + 0.02, width: 0.96, height: 0.96, rx: 0.1,
                  class: "cursor", "stroke-width": 0.07 }));
    svg.setAttribute("aria-label", `${n} by ${n} Prime Drop board, ${state.board.flat().filter((d) => d !== null).length} tiles`
      + `; cursor at ${cellName(cursor.r, cursor.c)} ${state.board[cursor.r][cursor.c] ?? "empty"}.`
      + (typeof result === "object" ? "" : ` ${result}`));
  }

  function renderChallengeForm() {
    const { numbers } = view.state;
    const chosen = JSON.stringify(ends);
    fill(numberPick, h("option", { value: "" }, numbers.length ? "Pick or tap on the board" : "Tap on the board"),
      numbers.map((m) => h("option", { value: JSON.stringify([m.from, m.to]), selected: JSON.stringify([m.from, m.to]) === chosen },
        `${m.value} from ${cellName(...m.from)} to ${cellName(...m.to)}`)));
    if (ends.length === 2 && !numberAt(view.state, ...ends)) {
      numberPick.append(h("option", { value: chosen, selected: true }, "not a number on the board"));
    }
    reverse.disabled = ends.length !== 2;
  }

  function render() {
    if (!view) return;
    const playing = view.seat !== null;
    controls.hidden = !playing;
    for (const [key, button] of Object.entries(modeButtons)) button.setAttribute("aria-pressed", String(key === mode));
    const result = playing ? pendingMove() : "";
    const focusedDigit = piles.contains(document.activeElement) ? document.activeElement.dataset.digit : null;
    renderPiles();
    if (focusedDigit) piles.querySelector(`[data-digit="${focusedDigit}"]`)?.focus();
    renderChallengeNote();
    renderBoard(result);
    challengeForm.hidden = mode !== "challenge";
    if (playing && mode === "challenge") renderChallengeForm();
    hint.textContent = typeof result === "string" ? result : "";
    if (typeof result === "object") bar.set(...pendingWords(result));
    else bar.set("");
  }

  return {
    update(next) {
      if (view && (next.ply !== view.ply || next.seat !== view.seat)) {
        pending = [];
        ends = [];
        factor.value = "";
      }
      if (next.seat !== null && view?.seat !== next.seat) digit = null;
      view = next;
      render();
    },
  };
}
