// The game's analysis (GET /games/{id}/analysis/plies): a value graph over the plies, and each
// move's judgement for the move list to mark mistakes. Shown by itself once the game is over; in
// a game with a bot, on request, then kept up to date as moves come.

import * as api from "./api.js";
import { h, s, fill } from "./dom.js";
import { SEAT_COLOUR } from "./format.js";

const WIDTH = 360;
const HEIGHT = 120;
const PAD = 6;
const MAX_ATTEMPTS = 60;

export class AnalysisPanel {
  /** `onJudged(plies)` hands the judged moves to the move list; `onView(ply)` shows a ply. */
  constructor({ gameId, onJudged, onView }) {
    Object.assign(this, { gameId, onJudged, onView });
    this.data = null;
    this.wanted = false;  // in a running game with a bot: asked for by the player
    this.loadingPly = null;
    this.body = h("div", { class: "analysis-body" });
    this.el = h("section", { class: "analysis", "aria-label": "Analysis" },
      h("h2", {}, "Analysis"), this.body);
    this.el.hidden = true;
  }

  /** Called on every change of the game: shows, fetches or offers the analysis. */
  update(game) {
    this.game = game;
    const over = game.status === "finished";
    const withBot = game.seats.some((seat) => seat.bot);
    this.el.hidden = !(over || (withBot && game.status === "active"));
    if (this.el.hidden) return;
    if ((over || this.wanted) && this.data?.ply !== game.ply) this.load(game.ply);
    this.render();
  }

  async load(ply) {
    if (this.loadingPly === ply) return;
    this.loadingPly = ply;
    this.message = "Analysing the game…";
    this.render();
    for (let attempt = 0; attempt < MAX_ATTEMPTS && this.loadingPly === ply; attempt += 1) {
      try {
        const response = await api.gameAnalysis(this.gameId);
        if (response.status === 202) {
          const wait = Number(response.headers.get("Retry-After")) || 2;
          await new Promise((done) => setTimeout(done, 1000 * wait));
          continue;
        }
        if (response.data.ply !== ply) continue;  // (a newer ply is on its way)
        this.data = response.data;
        this.message = null;
        this.onJudged(this.data.plies);
      } catch (err) {
        this.message = err.message;
        if (err.status === 429 && attempt + 1 < MAX_ATTEMPTS) {  // the queue is busy: wait, ask again
          this.render();
          await new Promise((done) => setTimeout(done, 1000 * (Number(err.retryAfter) || 2)));
          continue;
        }
      }
      break;
    }
    if (this.loadingPly === ply) this.loadingPly = null;
    this.render();
  }

  render() {
    const { data, game } = this;
    const parts = [];
    if (!data && !this.wanted && game.status !== "finished") {
      parts.push(h("button", { type: "button", onclick: () => { this.wanted = true; this.update(game); } },
        "Show the value graph and mark mistakes"));
    }
    if (data) {
      const mistakes = data.plies.filter((p) => p.mistake).length;
      parts.push(valueGraph(data.graph, (ply) => this.onView(ply)),
        h("p", { class: "muted" }, data.exact
          ? "Exact: the solver decided every position. "
          : "Estimated by the strongest bot, 0.5 s a position (exact where a solver decides it). ",
          `Above the middle line ${SEAT_COLOUR[0]} is ahead, below it ${SEAT_COLOUR[1]}. `,
          mistakes ? `${mistakes} ${mistakes === 1 ? "move is" : "moves are"} marked as mistakes in the list.`
            : "No move is marked as a mistake."));
    }
    if (this.message) parts.push(h("p", { class: "muted" }, this.message));
    fill(this.body, parts);
  }
}

/** An SVG line of `values` (each position's value for seat 0, -1..1) over the plies; a click
 *  on a point shows that ply. */
export function valueGraph(values, onPick) {
  const n = Math.max(values.length - 1, 1);
  const x = (i) => PAD + (i / n) * (WIDTH - 2 * PAD);
  const y = (v) => HEIGHT / 2 - v * (HEIGHT / 2 - PAD);
  const points = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  const label = `Value for ${SEAT_COLOUR[0]} over ${values.length - 1} moves: from ${values[0]} to ${values[values.length - 1]}`;
  return s("svg", { class: "chart value-graph", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img",
                    "aria-label": label, dataset: { points: values.length } },
    s("title", {}, label),
    s("line", { class: "axis", x1: PAD, x2: WIDTH - PAD, y1: y(0), y2: y(0) }),
    s("polyline", { class: "value-line", points, fill: "none" }),
    values.map((v, i) => s("circle", { class: "value-point", cx: x(i), cy: y(v), r: 3,
                                        onclick: () => onPick(i) },
      s("title", {}, `After move ${i}: ${v > 0 ? "+" : ""}${v}`))));
}
