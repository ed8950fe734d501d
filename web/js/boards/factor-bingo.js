// Factor Bingo: both boards (gray cells shared), the letter and number picked while filling,
// the starting number, callable numbers highlighted while calling, and the completed lines the
// state lists (`bingo_lines`: the server's).

import { fill, h, s } from "../dom.js";
import { seatName } from "../format.js";
import { actionBar, boardSvg, listed, LOADING_LEGAL, seatDot, wordsOf, zoomFrame } from "./common.js";

/** The board's styles, adopted by boards/common.js's loadBoard with the board; the tokens
 *  (--accent, --card, the pieces' colours...) are app.css's. */
export const STYLES = `
.fb-cell { fill: var(--card); stroke: var(--line); stroke-width: .03; }
.fb-cell.gray { fill: var(--gray-cell); }
.fb-cell.letter-pick { fill: var(--accent-soft); stroke: var(--accent); stroke-width: .08; }
.fb-cell.callable { stroke: var(--accent); stroke-width: .08; }
.fb-text { font-size: .36px; text-anchor: middle; dominant-baseline: central; fill: var(--ink); }
.fb-text.letter { fill: var(--muted); font-size: .42px; }
.fb-text.number { font-weight: 700; }
.fb-stamp { fill: var(--good-soft); stroke: var(--good); stroke-width: .05; }
.fb-stamp.current { stroke: var(--last); stroke-width: .1; }
.fb-line { stroke: var(--good); stroke-width: .12; stroke-linecap: round; opacity: .8; }
.fb-title { font-size: .34px; text-anchor: start; fill: var(--ink); font-weight: 600; }
.fb-numbers { display: grid; grid-template-columns: repeat(6, minmax(0, 1fr)); gap: 3px; margin: .4rem 0; }
.fb-numbers button { padding: 0; min-height: var(--touch); min-width: 0; font-variant-numeric: tabular-nums; background: var(--card); }
.fb-numbers button.used { color: var(--muted); text-decoration: line-through; }
.fb-numbers button.called { background: var(--good-soft); text-decoration: line-through; }
.fb-numbers button.current { outline: 3px solid var(--last); outline-offset: -3px; }
.fb-numbers button.legal { background: var(--accent-soft); border-color: var(--accent); font-weight: 700; }
.fb-numbers button[aria-pressed="true"] { background: var(--accent); color: var(--on-accent); }
.fb-numbers button:disabled { opacity: 1; }
`;

const SIDE = 5;
const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXY";
const GAP = 1;
const TOP = 0.9;

export function create({ root, submit }) {
  let view = null;
  let letter = null;
  let number = null;

  const svg = boardSvg(`0 0 ${2 * SIDE + GAP} ${SIDE + TOP}`, "Factor Bingo boards",
    "Type a letter to pick it while the boards are being filled.");
  const numbers = h("div", { class: "fb-numbers", role: "group", "aria-label": "The 30 divisors of 720" });
  const info = h("p", { class: "board-info" });
  const hint = h("p", { class: "muted hint" });
  const bar = actionBar(play, clear);
  const controls = h("div", { class: "board-controls" }, hint, bar.el);
  const zoom = zoomFrame(svg, 0.94, "boards");
  fill(root, h("div", { class: "fb" }, info, zoom.el, numbers, controls));

  svg.addEventListener("click", (event) => {
    const cell = event.target.closest("[data-value]");
    if (!cell || view?.seat === null) return;
    const value = cell.dataset.value;
    if (/^[A-Y]$/.test(value)) pickLetter(value);
    else pickNumber(Number(value));
  });
  svg.addEventListener("keydown", (event) => {
    const key = event.key.toUpperCase();
    if (view?.seat === null || event.ctrlKey || event.metaKey || event.altKey) return;
    if (key.length === 1 && LETTERS.includes(key)) pickLetter(key);
    else if (event.key === "Escape") clear();
    else if (event.key === "Enter" && bar.pending) play(bar.pending);
    else return;
    event.preventDefault();
  });
  numbers.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-n]");
    if (button) pickNumber(Number(button.dataset.n));
  });

  function pickLetter(x) {
    if (view.state.phase === "filling" && !(x in view.state.filled)) letter = x;
    render();
  }

  function pickNumber(n) {
    if (legalNumbers().has(n)) number = n;
    render();
  }

  function clear() {
    letter = null;
    number = null;
    render();
  }

  async function play(move) {
    if (await submit(move)) clear();
  }

  /** The numbers the mover may pick now, from the legal moves (none while they load). */
  function legalNumbers() {
    return new Set((view.legal?.moves || []).map((m) => m.number));
  }

  function pendingMove() {
    const { phase } = view.state;
    if (!view.legal) return LOADING_LEGAL;
    const checked = (move) => (listed(view.legal, move) ? move : "That is not a legal move now: pick again.");
    if (phase === "filling") {
      if (letter === null && number === null) return "Pick a letter on either board and a number below.";
      if (letter === null) return `Now pick a letter for ${number}.`;
      if (number === null) return `Now pick a number for ${letter}.`;
      return checked({ type: "fill", letter, number });
    }
    if (phase === "start") return number === null ? "Pick the starting number from the five unused ones." : checked({ type: "start", number });
    return number === null ? "Pick a highlighted number to call." : checked({ type: "call", number });
  }

  function renderBoards() {
    const { game, state, seat, last } = view;
    const called = new Set(state.called);
    const gray = new Set(state.gray.map(([r, c]) => `${r},${c}`));
    const hot = state.phase === "calling" && seat !== null ? legalNumbers() : new Set();
    const parts = state.boards.map((board, b) => {
      const x0 = b * (SIDE + GAP);
      const cells = board.flatMap((row, r) => row.map((value, c) => {
        const isLetter = typeof value === "string";
        const x = x0 + c;
        const y = TOP + r;
        const lastFill = last?.move.type === "fill" && last.move.letter === state.letters[b][r][c];
        return s("g", { dataset: { value }, "data-called": called.has(value) },
          s("rect", { x: x + 0.03, y: y + 0.03, width: 0.94, height: 0.94, rx: 0.06,
            class: ["fb-cell", gray.has(`${r},${c}`) && "gray", isLetter && value === letter && "letter-pick",
              !isLetter && seat !== null && hot.has(value) && "callable"] }),
          called.has(value) ? s("circle", { cx: x + 0.5, cy: y + 0.5, r: 0.4,
                                            class: ["fb-stamp", value === state.current && "current"] }) : null,
          s("text", { x: x + 0.5, y: y + 0.52, class: ["fb-text", isLetter ? "letter" : "number"],
                      "text-decoration": lastFill ? "underline" : null }, value));
      }));
      const lines = state.bingo_lines[b].map((line) => {
        const [[r0, c0], [r1, c1]] = [line[0], line.at(-1)];
        return s("line", { x1: x0 + c0 + 0.5, y1: TOP + r0 + 0.5, x2: x0 + c1 + 0.5, y2: TOP + r1 + 0.5, class: "fb-line" });
      });
      const title = [seatDot(b, x0 + 0.2, 0.45, 0.15), s("text", { x: x0 + 0.45, y: 0.55, class: "fb-title" },
        `${seatName(game, b)} · ${state.lines[b]} line${state.lines[b] === 1 ? "" : "s"}`)];
      return [title, cells, lines];
    });
    fill(svg, parts);
    zoom.refresh();
    svg.setAttribute("aria-label", `Factor Bingo boards. ${state.boards.map((board, b) => `${seatName(game, b)}: `
      + board.map((row) => row.join(" ")).join(", ")).join(". ")}.`);
  }

  function renderNumbers() {
    const { state, seat } = view;
    const called = new Set(state.called);
    const onBoards = new Set(state.numbers.filter((n) => !state.unused.includes(n)));
    const legal = seat === null ? new Set() : legalNumbers();
    if (numbers.childElementCount !== state.numbers.length) {
      fill(numbers, state.numbers.map((n) => h("button", { type: "button", dataset: { n } }, n)));
    }
    for (const button of numbers.children) {
      const n = Number(button.dataset.n);
      const used = state.phase !== "calling" && onBoards.has(n);
      button.className = [used && "used", called.has(n) && "called", n === state.current && "current",
        legal.has(n) && "legal"].filter(Boolean).join(" ");
      button.disabled = seat === null || !legal.has(n);
      button.setAttribute("aria-pressed", String(n === number));
      button.title = called.has(n) ? "called" : used ? "on the boards" : state.unused.includes(n) && state.phase !== "filling" ? "not on the boards" : "";
    }
  }

  function render() {
    if (!view) return;
    const { game, state } = view;
    const playing = view.seat !== null;
    controls.hidden = !playing;
    renderBoards();
    renderNumbers();
    const filledCount = Object.keys(state.filled).length;
    info.textContent = state.phase === "filling"
      ? `Filling: ${filledCount} of 25 letters have a number. Each turn writes one number on one letter, on both boards.`
      : state.phase === "start"
        ? `The boards are full. ${seatName(game, state.starter)} picks the starting number from the unused: ${state.unused.join(", ")}.`
        : game.status === "finished" && view.live ? `The last number called was ${state.current}.`
          : `Calling: the current number is ${state.current}. A call must divide it or be a multiple of it while such a number is left.`;
    if (!playing) return;
    const result = pendingMove();
    hint.textContent = typeof result === "string" ? result : "";
    if (typeof result === "object") {
      bar.set(wordsOf(view.legal, result), result);
    } else {
      bar.set(state.phase === "filling" ? [letter, number].filter((v) => v !== null).join(" = ") : "");
    }
  }

  return {
    update(next) {
      if (view && next.ply !== view.ply) {
        letter = null;
        number = null;
      }
      view = next;
      render();
    },
  };
}
