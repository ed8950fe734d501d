// The game's chat beside the board: its players write (1 to 500 characters of plain text) and
// read it at any time, everyone else once the game is over. Every message is put on the page as
// text (text nodes, never HTML), so whatever a player writes shows as written.

import { alertBox, fill, h, showAlert, submitting } from "./dom.js";

const MAX = 500;

export class ChatPanel {
  /** `load(seat)` fetches the messages as `seat`'s player (null: a spectator); `send(seat,
   * text)` posts one. */
  constructor({ load, send }) {
    Object.assign(this, { load, send });
    this.shownCount = null;
    this.seat = null;
    this.list = h("ol", { class: "chat-messages", "aria-live": "polite" });
    this.note = h("p", { class: "muted", hidden: true });
    this.alert = alertBox();
    this.text = h("textarea", { name: "text", rows: 2, maxlength: MAX, required: true,
                                "aria-label": "Message", placeholder: "Say something to your opponent" });
    this.button = h("button", { type: "submit" }, "Send");
    this.form = h("form", { class: "chat-form", hidden: true }, this.text, this.button);
    this.form.onsubmit = (event) => {
      event.preventDefault();
      this.post();
    };
    this.el = h("section", { class: "chat card", "aria-label": "Chat" },
      h("h2", {}, "Chat"), this.note, this.list, this.alert, this.form);
  }

  /** Show the chat of `game` for the player of `seat` (null: a spectator). */
  update(game, seat) {
    this.game = game;
    this.seat = seat;
    const readable = seat !== null || game.status === "finished";
    this.form.hidden = seat === null;
    this.note.hidden = readable;
    this.note.textContent = readable ? "" : "The players' chat opens to everyone when the game is over.";
    if (readable && game.chat_count !== this.shownCount) this.refresh();
  }

  async refresh() {
    try {
      const messages = await this.load(this.seat);
      this.shownCount = messages.length;  // the game's chat_count counts the same messages
      this.render(messages);
    } catch (err) {
      showAlert(this.alert, err.message);
    }
  }

  render(messages) {
    if (!messages.length) {
      fill(this.list, h("li", { class: "muted empty" }, "No messages yet."));
      return;
    }
    fill(this.list, messages.map((m) => h("li", { class: ["chat-message", m.seat === this.seat && "mine"] },
      h("strong", { class: "who" }, m.name ?? `Seat ${m.seat + 1}`), " ",
      h("span", { class: "text" }, m.text))));
  }

  async post() {
    const text = this.text.value.trim();
    if (!text) return;
    const sent = await submitting(this.button, this.alert, () => this.send(this.seat, text));
    if (sent === undefined) return;
    this.text.value = "";
    await this.refresh();
  }
}
