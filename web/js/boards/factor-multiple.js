// Factor/Multiple: the numbers 1..n to choose from, and the divisibility circle (vertex k at angle
// 2πk/n, an edge between every factor and multiple, the path said so far drawn over it).

import * as api from "../api.js";
import { fill, h, s } from "../dom.js";
import { seatName } from "../format.js";
import { actionBar, listed, LOADING_LEGAL, wordsOf } from "./common.js";

/** The board's styles, adopted by boards/common.js's loadBoard with the board; the tokens
 *  (--accent, --card, the pieces' colours...) are app.css's. */
export const STYLES = `
.fm-views { display: grid; gap: .6rem; grid-template-columns: minmax(0, 1fr); }
@media (min-width: 700px) { .fm-views { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); } }
.fm-circle { max-width: 420px; }
.fm-ring { fill: none; stroke: var(--line); stroke-width: .004; }
.fm-edges { fill: none; stroke: var(--muted); stroke-width: .0025; opacity: .55; }
.fm-path { fill: none; stroke: var(--last); stroke-width: .012; stroke-linejoin: round; }
.fm-circle * { pointer-events: none; }
.fm-circle .fm-vertex.legal { pointer-events: auto; }  /* a lit number is said by tapping it too */
.fm-edges.near { stroke: var(--accent); stroke-width: .005; opacity: .8; }
.fm-circle.sparse .fm-vertex:not(.said):not(.legal):not(.current):not(.chosen) { display: none; }
.fm-circle.sparse .fm-vertex { stroke-width: .012; }
.fm-vertex { fill: var(--muted); }
.fm-vertex.said { fill: var(--last); }
.fm-vertex.legal { fill: var(--accent); stroke: var(--accent); stroke-width: .02; cursor: pointer; }
.fm-vertex.current { fill: var(--last); stroke: var(--ink); stroke-width: .012; }
.fm-vertex.chosen { fill: var(--good); stroke: var(--good); stroke-width: .03; }
.fm-label { font-size: .07px; fill: var(--muted); text-anchor: middle; dominant-baseline: middle; }
/* the grid whole, never scrolled inside: eight 44 px columns fit a phone */
.fm-grid {
  display: grid; grid-template-columns: repeat(auto-fill, minmax(var(--touch), 1fr)); gap: 2px; align-content: start;
}
/* the numbers first on a narrow screen, the circle (a picture) after them */
@media (max-width: 699px) { .fm-views .fm-grid { order: -1; } }
.fm-grid button {
  min-height: var(--touch); min-width: 0; padding: 0; font-size: .9rem; font-variant-numeric: tabular-nums;
  background: var(--card);
}
.fm-grid button[aria-disabled="true"] { opacity: 1; color: var(--muted); cursor: default; }
.fm-grid button.legal { background: var(--accent-soft); border-color: var(--accent); color: var(--ink); font-weight: 700; }
.fm-grid button.said.seat0 { background: var(--piece0); color: #1c1917; border: 2px solid var(--piece0-edge); text-decoration: line-through; }
.fm-grid button.said.seat1 { background: var(--piece1); color: #fafaf9; border: 2px solid var(--piece-halo); text-decoration: line-through; }
.fm-grid button.current { outline: 3px solid var(--last); outline-offset: -3px; text-decoration: none; }
.fm-grid button.chosen { background: var(--accent); color: var(--on-accent); }
.fm-grid button.wins { background: var(--good-soft); border-color: var(--good); }
.fm-grid button.loses { background: var(--bad-soft); border-color: var(--bad); }
.fm-say { display: flex; flex-wrap: wrap; align-items: center; gap: .4rem 1rem; }
.fm-say .action-bar { flex: 1; }
.fm-input { width: 7rem; }
`;

// Above this many numbers, drawing every factor-multiple edge turns the circle into a grey disc:
// the circle then shows only the edges of the number last said (and of the one picked).
const ALL_EDGES_UP_TO = 60;

const R = 1;  // the circle's radius in SVG units

const point = (k, n, r = R) => {
  const angle = (2 * Math.PI * k) / n;
  return [r * Math.cos(angle), -r * Math.sin(angle)];
};

const segment = (a, b, n) => {
  const [x0, y0] = point(a, n);
  const [x1, y1] = point(b, n);
  return `M${x0.toFixed(4)} ${y0.toFixed(4)}L${x1.toFixed(4)} ${y1.toFixed(4)}`;
};

/** One SVG path with an edge between every pair of numbers where one divides the other. */
function edgesPath(n) {
  const parts = [];
  for (let k = 1; k <= n / 2; k += 1) {
    for (let m = 2 * k; m <= n; m += k) parts.push(segment(k, m, n));
  }
  return parts.join("");
}

/** The edges from `k` to each of its factors and multiples up to n (the divisibility picture). */
function edgesOf(k, n) {
  const parts = [];
  for (let d = 1; d <= n; d += 1) {
    if (d !== k && (k % d === 0 || d % k === 0)) parts.push(segment(k, d, n));
  }
  return parts.join("");
}

export function create({ root, submit, gameId }) {
  let view = null;
  let chosen = null;
  let analysis = null;  // {ply, data} or {ply, message}
  let drawnN = null;

  // a picture only: numbers are picked in the grid (the circle's dots are far too small to tap)
  const svg = s("svg", { viewBox: "-1.2 -1.2 2.4 2.4", class: "board fm-circle", role: "img" });
  const edges = s("path", { class: "fm-edges" });
  const near = s("path", { class: "fm-edges near" });
  const path = s("polyline", { class: "fm-path" });
  const vertices = s("g", {});
  const labels = s("g", { class: "fm-labels" });
  svg.append(s("circle", { cx: 0, cy: 0, r: R, class: "fm-ring" }), edges, near, path, vertices, labels);

  // one tab stop (a roving tabindex): arrow keys move between the numbers, Enter picks one and
  // Enter again says it. A number that cannot be said is aria-disabled, not disabled, so that
  // focus stays on the board after a move (a disabled button drops it to the top of the page)
  const grid = h("div", { class: "fm-grid", role: "group", "data-board": true,
                          "aria-label": "Numbers: arrow keys move, Enter picks a number, Enter again says it" });
  let focusN = 1;  // the number holding the grid's tab stop
  const input = h("input", { type: "number", inputmode: "numeric", min: 1, class: "fm-input",
                             "aria-label": "Number to say", placeholder: "Type a number" });
  const bar = actionBar(play, () => choose(null));
  const sayRow = h("div", { class: "fm-say board-controls" }, h("label", {}, "Say ", input), bar.el);
  const reasons = new Map();  // "ply:number" -> the server's reason a number cannot be said
  const analysisBox = h("div", { class: "fm-analysis" });
  const info = h("p", { class: "board-info" });
  fill(root, h("div", { class: "fm" }, info, h("div", { class: "fm-views" }, svg, grid),
    sayRow, analysisBox));

  input.addEventListener("input", () => choose(Number(input.value) || null, false));
  // a number said (Enter) while the legal moves are still on their way is said once they
  // come, if it is among them: the keypress is not lost
  let sayOnceListed = null;
  input.addEventListener("keydown", (event) => {
    if (event.key !== "Enter") return;
    if (bar.pending) {
      event.preventDefault();
      play(bar.pending);
    } else if (view && !view.legal && chosen !== null && view.seat !== null) {
      event.preventDefault();
      sayOnceListed = { ply: view.ply, number: chosen };
    }
  });
  grid.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-n]");
    if (!button || view?.seat === null) return;
    focusN = Number(button.dataset.n);
    choose(focusN);
  });
  grid.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || !view) return;
    const n = view.state.n;
    const columns = getComputedStyle(grid).gridTemplateColumns.split(" ").length;
    const step = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -columns, ArrowDown: columns }[event.key];
    let next = null;
    if (step) next = Math.min(n, Math.max(1, focusN + step));
    else if (event.key === "Home") next = 1;
    else if (event.key === "End") next = n;
    else if (event.key === "Enter" && chosen === focusN && bar.pending) {
      event.preventDefault();
      play(bar.pending);
      return;
    } else return;
    event.preventDefault();
    focusN = next;
    roveTo(true);
  });
  svg.addEventListener("click", (event) => {
    const dot = event.target.closest(".fm-vertex.legal");
    if (dot) choose(Number(dot.dataset.n));
  });

  /** Give the grid's one tab stop to `focusN` (and focus it, when asked). */
  function roveTo(focus = false) {
    for (const button of grid.children) {
      const here = Number(button.dataset.n) === focusN;
      button.tabIndex = here ? 0 : -1;
      if (here && focus) button.focus();
    }
  }

  async function play(move) {
    if (await submit(move)) choose(null);
  }

  function choose(k, syncInput = true) {
    chosen = k;
    if (syncInput) input.value = k ?? "";
    render();
  }

  function legalNumbers() {
    return view?.legal ? new Set(view.legal.moves.map((m) => m.number)) : new Set();
  }

  function verdicts() {
    if (!analysis || analysis.ply !== view.ply || !analysis.data) return new Map();
    return new Map(analysis.data.moves.map((m) => [m.move?.number ?? m.number, m.wins]));
  }

  function drawCircle(n) {
    if (drawnN === n) return;
    drawnN = n;
    edges.setAttribute("d", n <= ALL_EDGES_UP_TO ? edgesPath(n) : "");
    svg.classList.toggle("sparse", n > ALL_EDGES_UP_TO);
    const r = Math.min(0.03, 2.2 / n);
    fill(vertices, Array.from({ length: n }, (_, i) => {
      const [cx, cy] = point(i + 1, n);
      return s("circle", { cx, cy, r, class: "fm-vertex", dataset: { n: i + 1 } });
    }));
    const step = n <= 30 ? 1 : n <= 100 ? 10 : n <= 300 ? 25 : 100;
    fill(labels, Array.from({ length: Math.floor(n / step) }, (_, i) => {
      const k = (i + 1) * step;
      const [x, y] = point(k, n, 1.11);
      return s("text", { x, y, class: "fm-label" }, k);
    }));
  }

  function render() {
    if (!view) return;
    const { game, state, seat } = view;
    const n = state.n;
    drawCircle(n);
    const legal = legalNumbers();
    const verdict = verdicts();
    const saidAt = new Map(state.said.map((k, i) => [k, i]));
    const saidBy = new Map(state.said.map((k, i) => [k, (game.first + i) % 2]));
    const playing = seat !== null;

    path.setAttribute("points", state.said.map((k) => point(k, n).join(",")).join(" "));
    near.setAttribute("d", n <= ALL_EDGES_UP_TO ? ""
      : [state.current, chosen].filter((k) => k !== null && k <= n).map((k) => edgesOf(k, n)).join(""));
    for (const dot of vertices.children) {
      const k = Number(dot.dataset.n);
      dot.setAttribute("class", ["fm-vertex", saidBy.has(k) && `said seat${saidBy.get(k)}`,
        k === state.current && "current", playing && legal.has(k) && "legal",
        k === chosen && "chosen"].filter(Boolean).join(" "));
    }
    svg.setAttribute("aria-label", `Divisibility circle of 1 to ${n}; said so far: `
      + (state.said.join(", ") || "nothing"));

    if (grid.childElementCount !== n) {
      fill(grid, Array.from({ length: n }, (_, i) => h("button", { type: "button", dataset: { n: i + 1 } }, i + 1)));
    }
    for (const button of grid.children) {
      const k = Number(button.dataset.n);
      const who = saidBy.get(k);
      button.className = [who !== undefined && `said seat${who}`, k === state.current && "current",
        playing && legal.has(k) && "legal", k === chosen && "chosen",
        verdict.has(k) && (verdict.get(k) ? "wins" : "loses")].filter(Boolean).join(" ");
      button.setAttribute("aria-disabled", String(!playing || !legal.has(k)));
      if (saidAt.has(k)) button.dataset.said = saidAt.get(k);
      else delete button.dataset.said;
      button.setAttribute("aria-pressed", String(k === chosen));
      button.title = who !== undefined ? `said by ${seatName(game, who)}`
        : verdict.has(k) ? (verdict.get(k) ? "a winning move" : "a losing move") : "";
    }
    // the tab stop on a number that can be said, unless the keyboard is in the grid already
    if (!grid.contains(document.activeElement) && playing && legal.size && !legal.has(focusN)) {
      focusN = Math.min(...legal);
    }
    roveTo();

    const current = state.current;
    const over = game.status === "finished" && view.live;
    info.textContent = over
      ? `Game over after ${state.said.length} numbers${current === null ? "" : `; the last said was ${current}`}.`
      : current === null
        ? `Numbers 1 to ${n}.${state.even_start ? " The first number must be even." : ""}`
        : `Last said: ${current} (by ${seatName(game, saidBy.get(current))}). `
          + "Say a factor or a multiple of it that nobody has said.";
    // kept while the other side moves, so that focus in it stays there (hidden, it would drop)
    sayRow.hidden = !playing && !(view.mine.length && game.status === "active" && view.live);
    input.max = n;
    if (!playing) bar.set(sayRow.hidden ? "" : "Waiting for the other side's move.");
    else if (!view.legal) bar.set(LOADING_LEGAL);
    else if (chosen === null) bar.set("Pick a highlighted number.");
    else if (listed(view.legal, { type: "say", number: chosen })) {
      const say = { type: "say", number: chosen };
      bar.set(wordsOf(view.legal, say), say);
    }
    else bar.set(reasonFor(chosen));
    renderAnalysis();
    if (sayOnceListed && view.legal) {
      const waiting = sayOnceListed;
      sayOnceListed = null;
      if (waiting.ply === view.ply && waiting.number === chosen && bar.pending) play(bar.pending);
    }
  }

  /** Why `k` cannot be said now, in the server's words (asked for once, then remembered). */
  function reasonFor(k) {
    const key = `${view.ply}:${k}`;
    if (reasons.has(key)) return reasons.get(key);
    const fallback = `${k} cannot be said now: pick a highlighted number.`;
    reasons.set(key, fallback);
    api.checkMove(gameId, { type: "say", number: k }).then((answer) => {
      if (!answer.note) return;
      reasons.set(key, `${answer.note} Pick a highlighted number.`);
      render();
    }).catch(() => {});
    return fallback;
  }

  /** The server shows perfect play once the game is over, or at any time in a game with a bot. */
  function analysisAllowed() {
    const { game } = view;
    return game.status === "finished" || game.seats.some((seatInfo) => seatInfo.bot);
  }

  function renderAnalysis() {
    if (!analysisAllowed()) {
      fill(analysisBox);
      return;
    }
    const here = analysis && analysis.ply === view.ply ? analysis : null;
    const button = h("button", { type: "button", onclick: analyse },
      `Perfect-play analysis of this position (after move ${view.ply})`);
    if (!here) {
      fill(analysisBox, button);
      return;
    }
    if (here.message) {
      fill(analysisBox, button, h("p", { class: "muted" }, here.message));
      return;
    }
    const { data } = here;
    const wins = data.moves.filter((m) => m.wins).map((m) => m.move?.number ?? m.number);
    fill(analysisBox, h("p", {},
      data.moves.length === 0 ? "No number is left to say here."
        : data.to_move_wins ? `The player to move wins with perfect play: ${wins.join(", ")} ${wins.length === 1 ? "wins" : "win"}.`
          : "The player to move loses against perfect play, whatever they say."),
    h("p", { class: "muted" }, "Green numbers win, red ones lose."));
  }

  async function analyse() {
    const ply = view.ply;
    analysis = { ply, message: "Computing…" };
    render();
    for (let attempt = 0; attempt < 20; attempt += 1) {
      try {
        const response = await api.analysis(gameId, ply);
        if (response.status === 202) {
          await new Promise((done) => setTimeout(done, 1000 * (Number(response.headers.get("Retry-After")) || 1)));
          continue;
        }
        analysis = response.data.ply === ply ? { ply, data: response.data }
          : { ply, message: "The server analyses only the current position." };
      } catch (err) {
        analysis = { ply, message: err.status === 404 ? "Analysis is not available on this server yet." : err.message };
      }
      break;
    }
    render();
  }

  return {
    update(next) {
      if (view && next.ply !== view.ply) chosen = null;
      view = next;
      render();
    },
  };
}
