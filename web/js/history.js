// The move list with step-through replay: « ‹ › », a click on any move, or the arrow keys. Each
// move reads as the server words it (`words`, in the notation of the game's rules page).

import { h, fill } from "./dom.js";
import { seatMark } from "./format.js";

export class HistoryPanel {
  /** `onView(ply)` shows the position after `ply` moves, or the live game for null. */
  constructor({ seatName, onView }) {
    Object.assign(this, { seatName, onView });
    this.entries = [];
    this.viewPly = null;
    const button = (label, text, go) => h("button", {
      type: "button", "aria-label": label, title: label, onclick: () => this.go(go()),
    }, text);
    this.first = button("First position", "«", () => 0);
    this.prev = button("Previous move", "‹", () => this.shown() - 1);
    this.next = button("Next move", "›", () => this.shown() + 1);
    this.last = button("Latest position", "»", () => this.entries.length);
    this.where = h("span", { class: "where", "aria-live": "polite" });
    this.list = h("ol", { class: "moves" });
    this.count = h("span", {});
    this.el = h("section", { class: "history", "aria-label": "Moves and replay" },
      h("h2", {}, "Moves ", this.count),
      h("div", { class: "replay-bar" }, this.first, this.prev, this.where, this.next, this.last),
      this.list);
    this.el.addEventListener("keydown", (event) => {
      const step = { ArrowLeft: -1, ArrowRight: 1 }[event.key];
      if (!step) return;
      event.preventDefault();
      this.go(this.shown() + step);
    });
  }

  /** The ply on show: the replay position, or the number of moves when live. */
  shown() {
    return this.viewPly ?? this.entries.length;
  }

  go(ply) {
    const target = Math.max(0, Math.min(this.entries.length, ply));
    this.viewPly = target === this.entries.length ? null : target;
    this.render();
    this.onView(this.viewPly);
  }

  /** The analysis's judgement of each move (GET /analysis/plies `plies`, by history index):
   *  mistakes are marked in the list, with the best move's words in their title. */
  setJudged(plies) {
    this.judged = plies;
    this.render();
  }

  /** `entries`: the moves so far, each {seat, move, words}. */
  update(entries, game) {
    this.entries = entries;
    this.game = game;
    if (this.viewPly !== null && this.viewPly > entries.length) this.viewPly = null;
    this.render();
  }

  render() {
    const n = this.entries.length;
    const at = this.shown();
    this.count.textContent = `(${n})`;
    this.where.textContent = this.viewPly === null ? `Live · ${n} moves` : `Replay: move ${at} of ${n}`;
    this.first.disabled = this.prev.disabled = at === 0;
    this.next.disabled = this.last.disabled = at === n;
    fill(this.list, this.entries.map((entry, i) => {
      const judged = this.judged?.[i];
      const mistake = judged?.mistake && judged.best_words;
      return h("li", {},
        h("button", {
          type: "button", class: ["move", i + 1 === at && "current", mistake && "mistake"],
          "aria-current": i + 1 === at ? "step" : null,
          title: mistake ? `A mistake: the best move was “${judged.best_words}”` : null,
          onclick: () => this.go(i + 1),
        }, seatMark(entry.seat), " ",
           `${this.seatName(this.game, entry.seat)}: ${entry.words}`,
           mistake ? h("span", { class: "mistake-mark", "aria-label": "mistake" }, " ?") : null));
    }));
    // scroll the list only (never the page) to keep the shown move in view
    const current = this.list.querySelector(".current");
    if (current) this.list.scrollTop = current.offsetTop - this.list.clientHeight / 2;
  }
}
