// Draw offers and takebacks on the game page: offer a draw on your turn, ask to take your last
// move back, answer the opponent's, and a word when yours was declined. A bot answers on the
// server a moment later (the page polls fast meanwhile).

import { fill, h } from "./dom.js";
import { seatName } from "./format.js";

const WORDS = {
  draw: { ask: "Offer a draw", asked: "offers a draw", yes: "Accept the draw", no: "Decline",
          mine: "You offered a draw: waiting for the answer.",
          declined: "Your draw offer was declined." },
  takeback: { ask: "Ask to take back your move", asked: "asks to take back their last move",
              yes: "Grant the takeback", no: "Refuse",
              mine: "You asked to take your move back: waiting for the answer.",
              declined: "Your takeback request was refused." },
};

export class OffersPanel {
  /** `act(kind, seat, action, button)` sends "offer"/"accept"/"decline" or "ask"/"grant"/"refuse"
   *  (a refusal shows beside `button`). */
  constructor({ act }) {
    this.act = act;
    this.el = h("div", { class: "offers" });
    this.notice = h("p", { class: "offer-notice muted", "aria-live": "polite", hidden: true });
    this.previous = null;
  }

  /**
   * Show `game`'s offers for a browser playing the seats `mine`; `lastMover` made the last move
   * of a player (null before any).
   */
  update(game, mine, lastMover) {
    this.noteDeclines(game, mine);
    this.previous = game;
    if (game.status !== "active") {
      fill(this.el);
      return;
    }
    const rows = ["draw", "takeback"].map((kind) => this.row(kind, game, mine, lastMover));
    fill(this.el, rows, this.notice);
  }

  row(kind, game, mine, lastMover) {
    const words = WORDS[kind];
    const offered = game.offers?.[kind] ?? null;
    if (offered === null) {
      const seat = kind === "draw" ? game.to_move : lastMover;
      if (seat === null || !mine.includes(seat)) return null;
      const who = mine.length > 1 ? ` (${seatName(game, seat)})` : "";
      return h("button", { type: "button", class: `offer-${kind}`,
                           onclick: (e) => this.act(kind, seat, kind === "draw" ? "offer" : "ask", e.currentTarget) },
        `${words.ask}${who}`);
    }
    const answerer = 1 - offered;
    if (mine.includes(answerer)) {
      return h("div", { class: ["offer", `offer-${kind}`], role: "group" },
        h("p", {}, `${seatName(game, offered)} ${words.asked}.`),
        h("button", { type: "button", class: "primary",
                      onclick: (e) => this.act(kind, answerer, kind === "draw" ? "accept" : "grant", e.currentTarget) },
          words.yes),
        h("button", { type: "button",
                      onclick: (e) => this.act(kind, answerer, kind === "draw" ? "decline" : "refuse", e.currentTarget) },
          words.no));
    }
    return h("p", { class: ["offer", `offer-${kind}`, "muted"] },
      mine.includes(offered) ? words.mine : `${seatName(game, offered)} ${words.asked}.`);
  }

  /** An offer of mine gone while the game runs on at the same ply: the opponent said no. */
  noteDeclines(game, mine) {
    const before = this.previous;
    if (!before || before.id !== game.id) return;
    for (const kind of ["draw", "takeback"]) {
      const mineBefore = before.offers?.[kind];
      if (mineBefore !== null && mineBefore !== undefined && mine.includes(mineBefore)
          && !mine.includes(1 - mineBefore) && (game.offers?.[kind] ?? null) === null
          && game.status === "active" && game.ply === before.ply) {
        this.notice.hidden = false;
        this.notice.textContent = WORDS[kind].declined;
        return;
      }
    }
    if (game.ply !== before.ply) this.notice.hidden = true;
  }
}

/** Whether the answer to a standing offer of `game` is a server bot's (the page polls fast). */
export function botAnswers(game) {
  return Object.values(game.offers || {}).some((seat) => seat !== null
    && Boolean(game.seats[1 - seat]?.bot));
}

/** Whether an offer stands (the page keeps polling for the answer, even on its own turn). */
export function offerStands(game) {
  return Object.values(game.offers || {}).some((seat) => seat !== null);
}
