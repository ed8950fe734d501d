// Correspondence tools on the game page: the Explore mode (moves tried from the current or an
// earlier position, each answered by the server's POST /kinds/{kind}/explore: its positions and
// legal moves, no rule worked out here), "Set as conditional" (an explored line becomes the
// seat's conditional moves), the seat's private notes, and "Next game" (key n) to the account's
// next game awaiting its move, in /me/games order.

import * as api from "./api.js";
import { fill, h, showRefusal } from "./dom.js";
import * as storage from "./storage.js";

const NOTES_MAX = 10000;

export class CorrPanel {
  /** `view`: the game page (its game, the seats this browser plays, the ply it shows, and
   *  `renderBoard` to draw the explored position). */
  constructor(view) {
    this.view = view;
    this.active = false;
    this.start = 0;       // the ply exploring starts from
    this.line = [];       // the moves tried, in order
    this.cursor = 0;      // how many of them are shown (back and forward move it)
    this.answer = null;   // the server's explore answer for line[0..cursor)
    this.notesSeat = null;
    this.el = h("section", { class: "corr card", "aria-label": "Correspondence tools" });
    this.status = h("p", { class: "corr-status muted", "aria-live": "polite" });
    this.tree = h("p", { class: "corr-tree muted" });
    this.notes = h("textarea", { class: "corr-notes", maxlength: NOTES_MAX, rows: 3,
                                 "aria-label": "Your private notes", placeholder: "Private notes: only you see them" });
    this.saveNotes = h("button", { type: "button", onclick: () => this.storeNotes() }, "Save notes");
    this.next = h("a", { class: "button next-game", hidden: true }, "Next game");
    this.toggle = h("button", { type: "button", class: "explore-toggle",
                                onclick: () => (this.active ? this.stop() : this.begin()) }, "Explore");
    this.back = h("button", { type: "button", onclick: () => this.step(-1) }, "Back");
    this.forward = h("button", { type: "button", onclick: () => this.step(1) }, "Forward");
    this.setButton = h("button", { type: "button", class: "primary set-conditional",
                                   onclick: (e) => this.setConditional(e.currentTarget) }, "Set as conditional");
    this.controls = h("div", { class: "buttons explore-controls", "data-refusal-row": true, hidden: true },
      this.back, this.forward, this.setButton);
    this.notesBox = h("div", { class: "corr-notes-box", "data-refusal-row": true, hidden: true },
      this.notes, this.saveNotes);
    fill(this.el, h("h2", {}, "Think ahead"), h("div", { class: "buttons" }, this.toggle, this.next),
      this.controls, this.status, this.tree, this.notesBox);
    this.onKey = (event) => {
      if (event.key !== "n" || event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.target.closest?.("input, textarea, select, [contenteditable]")) return;
      if (!this.next.hidden) location.hash = this.next.getAttribute("href");
    };
    document.addEventListener("keydown", this.onKey);
  }

  destroy() {
    document.removeEventListener("keydown", this.onKey);
  }

  /** The game as it now stands: its notes and tree for the seat this browser plays, and the
   *  next game waiting after a move. */
  update(game, mine, moved) {
    const seat = mine.length ? mine[0] : null;
    this.notesBox.hidden = seat === null;
    if (seat !== null && this.notesSeat !== seat) {
      this.notesSeat = seat;
      api.notes(game, seat).then(({ text }) => { this.notes.value = text; }).catch(() => {});
    }
    if (moved) {
      this.showTree();
      this.findNext();
    }
    if (this.active && game.ply < this.start) this.stop();  // a takeback under the board
    else if (this.active) this.render();
  }

  /** The seat that has just moved, when this browser plays it: the one that may set a tree. */
  owner() {
    const { game } = this.view;
    if (game.status !== "active") return null;
    const owner = 1 - game.to_move;
    return this.view.mine.includes(owner) ? owner : null;
  }

  async showTree() {
    const owner = this.owner();
    if (owner === null) { this.tree.textContent = ""; return; }
    try {
      const { tree } = await api.conditional(this.view.game, owner);
      this.tree.textContent = tree.length ? `Conditional moves set: ${describeTree(tree)}.` : "";
    } catch {
      this.tree.textContent = "";
    }
  }

  /** "Next game" to the account's first game awaiting its move other than this one. */
  async findNext() {
    const me = storage.account();
    if (!me) return;
    try {
      const { data } = await api.myGames(null, "active");
      const waiting = (data || []).find((g) => g.id !== this.view.id && g.to_move !== null
        && storage.isMe(g.seats[g.to_move]?.player));
      this.next.hidden = !waiting;
      if (waiting) this.next.setAttribute("href", `#/game/${waiting.id}`);
      this.next.setAttribute("aria-keyshortcuts", "n");
      this.next.title = "Next game awaiting your move (key n)";
    } catch {
      this.next.hidden = true;
    }
  }

  begin() {
    const { view } = this;
    this.active = true;
    this.start = view.viewPly ?? view.game.ply;
    this.line = [];
    this.cursor = 0;
    this.toggle.textContent = "Back to the game";
    this.controls.hidden = false;
    this.ask();
  }

  stop() {
    this.active = false;
    this.answer = null;
    this.toggle.textContent = "Explore";
    this.controls.hidden = true;
    this.status.textContent = "";
    this.view.renderBoard();
  }

  /** A move made on the board while exploring: a new branch from the position shown. */
  play(move) {
    this.line = [...this.line.slice(0, this.cursor), move];
    this.cursor = this.line.length;
    return this.ask();
  }

  step(by) {
    const cursor = Math.max(0, Math.min(this.line.length, this.cursor + by));
    if (cursor === this.cursor) return;
    this.cursor = cursor;
    this.ask();
  }

  async ask() {
    const { game, id } = this.view;
    const asked = this.line.slice(0, this.cursor);
    try {
      const answer = await api.explore(game.kind, { game_id: id, ply: this.start, moves: asked });
      if (!this.active || asked.length !== this.cursor) return;
      showRefusal(this.controls, null);
      this.answer = answer;
      this.render();
      this.view.renderBoard();
    } catch (err) {
      showRefusal(this.controls, err.message);
      if (this.cursor && asked.length === this.line.length) {  // the move tried is refused
        this.line.pop();
        this.cursor = this.line.length;
      }
    }
  }

  /** The explored position for the board: {state, to_move, ply, legal, outcome}. */
  position() {
    if (!this.active || !this.answer) return null;
    const { positions, legal_moves: moves, complete, note, outcome } = this.answer;
    const last = positions[positions.length - 1];
    return { ...last, outcome, legal: { ply: last.ply, moves, complete, note } };
  }

  render() {
    const shown = this.position();
    this.back.disabled = this.cursor === 0;
    this.forward.disabled = this.cursor >= this.line.length;
    this.setButton.disabled = !this.conditionalTree();
    if (!shown) return;
    const over = shown.outcome ? " The game would be over." : "";
    this.status.textContent = `Exploring: ${this.cursor} move${this.cursor === 1 ? "" : "s"} from move `
      + `${this.start}.${over} Moves made here never reach the game.`;
  }

  /** The explored line as a conditional tree, when it starts at the game's ply with the
   *  opponent of the seat that just moved: turns alternate, the opponent's as `if`, the
   *  answer as `then`, each next pair a branch below. */
  conditionalTree() {
    const owner = this.owner();
    if (owner === null || !this.answer || this.start !== this.view.game.ply) return null;
    const { positions } = this.answer;
    const turns = [];
    positions.slice(1).forEach((p, i) => {
      if (p.move.type === "pass") return;
      const seat = positions[i].to_move;
      const turn = turns[turns.length - 1];
      if (turn && turn.seat === seat) turn.moves.push(p.move);
      else turns.push({ seat, moves: [p.move] });
    });
    if (!turns.length || turns[0].seat === owner) return null;
    let tree = [];
    const pairs = [];
    for (let i = 0; i + 1 < turns.length; i += 2) pairs.push([turns[i], turns[i + 1]]);
    for (const [ifTurn, thenTurn] of pairs.reverse()) {
      const node = { if: one(ifTurn.moves), then: one(thenTurn.moves) };
      if (tree.length) node.next = tree;
      tree = [node];
    }
    return tree.length ? tree : null;
  }

  async setConditional(button) {
    const tree = this.conditionalTree();
    const owner = this.owner();
    if (!tree || owner === null) return;
    try {
      const set = await api.setConditional(this.view.game, owner, tree);
      showRefusal(button, null);
      this.tree.textContent = `Conditional moves set: ${describeTree(set.tree)}.`;
    } catch (err) {
      showRefusal(button, err.message);
    }
  }

  async storeNotes() {
    const seat = this.notesSeat;
    if (seat === null) return;
    try {
      await api.setNotes(this.view.game, seat, this.notes.value);
      showRefusal(this.saveNotes, null);
      this.status.textContent = "Notes saved.";
    } catch (err) {
      showRefusal(this.saveNotes, err.message);
    }
  }
}

const one = (moves) => (moves.length === 1 ? moves[0] : moves);

/** "if 4 then 8, then if 16 then 32" in the board's own words where it has them. */
function describeTree(tree, depth = 0) {
  return tree.map((node) => {
    const here = `if ${say(node.if)} then ${say(node.then)}`;
    return node.next?.length && depth < 3 ? `${here} (then ${describeTree(node.next, depth + 1)})` : here;
  }).join("; ");
}

function say(moves) {
  const list = Array.isArray(moves) ? moves : [moves];
  return list.map((m) => Object.entries(m).filter(([k]) => k !== "type")
    .map(([, v]) => (typeof v === "object" ? JSON.stringify(v) : v)).join(" ") || m.type).join(", ");
}
