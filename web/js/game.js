// The game page: players and clocks, whose turn, the board, moves with replay, the result,
// resign, rematch, the invite link, joining an open seat, answering a challenge, and polling for
// the other side's moves. A seat is played with the seat token this browser holds for it, or
// with the account token when the seat is the signed-in account's.

import { claimStoredGames } from "./account.js";
import * as api from "./api.js";
import { BOARDS } from "./boards/index.js";
import { Clocks } from "./clocks.js";
import { alertBox, fill, h, showAlert } from "./dom.js";
import { invitee, resultText, seatMark, seatName, statusLine, timeControlText } from "./format.js";
import { HistoryPanel } from "./history.js";
import { AnalysisPanel } from "./analysis.js";
import { Poller } from "./poller.js";
import * as storage from "./storage.js";

const BOT_POLL_MS = 1000;
const FIRST_BACKOFF_MS = 2000;
const MAX_BACKOFF_MS = 30000;
const MY_TURN_POLL_MS = 20000;  // only a resignation or the clock can change my own turn

export function mountGame(root, id) {
  const view = new GameView(root, id);
  view.start();
  return view;
}

class GameView {
  constructor(root, id) {
    this.root = root;
    this.id = id;
    this.game = null;
    this.positions = [];  // the server's {ply, state, to_move, move} from ply 0, as far as fetched
    this.moves = null;    // {seat, move} for each ply up to the game's, once fetched
    this.legal = null;
    this.viewPly = null;
    this.title = h("h1", {}, "Game");
    this.meta = h("p", { class: "meta muted" });
    this.players = h("div", { class: "players" });
    this.status = h("p", { class: "status", "aria-live": "polite" });
    this.banner = h("div", { class: "banner", role: "status", hidden: true });
    this.alert = alertBox();
    this.net = h("p", { class: "net muted", hidden: true });
    this.join = h("form", { class: "join card", hidden: true });
    this.share = h("div", { class: "share" });
    this.boardRoot = h("div", { class: "board-root" });
    this.replayNote = h("p", { class: "replay-note", hidden: true });
    this.actions = h("div", { class: "game-actions" });
    fill(root, h("section", { class: "game" },
      h("div", { class: "game-main" },
        h("div", { class: "game-head" }, this.title, this.meta),
        this.players, this.status, this.banner, this.alert, this.net, this.join,
        this.replayNote, this.boardRoot),
      h("aside", { class: "game-side" }, this.share, this.actions)));
  }

  async start() {
    let response;
    try {
      response = await api.game(this.id);
    } catch (err) {
      fill(this.root, h("section", { class: "card" }, h("h1", {}, "Game not found"),
        h("p", {}, err.message), h("p", {}, h("a", { href: "#/" }, "Back to the lobby"))));
      return;
    }
    if (this.destroyed) return;
    const game = response.data;
    const module = BOARDS[game.kind];
    if (!module) {
      fill(this.boardRoot, h("p", { class: "alert" }, `This client has no board for ${game.kind} yet.`));
      return;
    }
    this.module = module;
    const kind = await api.kind(game.kind).catch(() => null);
    if (this.destroyed) return;
    this.title.textContent = kind?.title || game.kind;
    this.board = module.create({ root: this.boardRoot, submit: (move) => this.submit(move),
                                 gameId: this.id });
    this.historyPanel = new HistoryPanel({
      describe: module.describe, seatName,
      onView: (ply) => { this.viewPly = ply; this.renderBoard(); },
    });
    this.root.querySelector(".game-side").prepend(this.historyPanel.el);
    this.analysisPanel = new AnalysisPanel({
      gameId: this.id, onJudged: (plies) => this.historyPanel.setJudged(plies),
      onView: (ply) => this.historyPanel.go(ply),
    });
    this.historyPanel.el.after(this.analysisPanel.el);
    this.clocks = new Clocks([0, 1].map(() => h("span", { class: "clock", hidden: true })),
                             () => this.poller?.now());
    this.poller = new Poller(this.id, response.etag, {
      onChange: (g) => { this.net.hidden = true; this.apply(g); },
      nextDelay: (unchanged) => this.nextDelay(unchanged),
      onError: (err) => { this.net.hidden = false; this.net.textContent = err.message; },
    });
    this.apply(game);
    this.poller.schedule();
  }

  destroy() {
    this.destroyed = true;
    this.poller?.stop();
    this.clocks?.stop();
    document.title = "Postplay";
  }

  /** The seats this browser plays: by the seat tokens it holds, or as the signed-in account. */
  get mine() {
    return this.game ? storage.seatsHeld(this.game) : [];
  }

  /** The seat this browser moves for now, or null. */
  actingSeat() {
    const { game } = this;
    return game.status === "active" && this.mine.includes(game.to_move) ? game.to_move : null;
  }

  nextDelay(unchanged) {
    const { game } = this;
    if (game.status === "finished") return null;
    if (this.clocks.flagged) return FIRST_BACKOFF_MS;  // the worker is ending the game on time
    if (game.status === "active" && game.seats[game.to_move].bot) return BOT_POLL_MS;
    if (this.actingSeat() !== null) return MY_TURN_POLL_MS;
    return Math.min(FIRST_BACKOFF_MS * 1.6 ** unchanged, MAX_BACKOFF_MS);
  }

  apply(game) {
    const moved = !this.game || this.game.ply !== game.ply;
    this.game = game;
    this.renderHead();
    this.clocks.show(game);
    this.analysisPanel.update(game);
    if (moved) {
      this.legal = null;
      this.loadPositions();
    }
    if (this.actingSeat() !== null && !this.legal) this.loadLegal();
    this.renderBoard();
  }

  /** Fetch the positions this page lacks, from the first missing ply up to the game's. */
  async loadPositions() {
    if (this.loadingPositions) return;  // the load under way goes on to the game's new ply
    this.loadingPositions = true;
    try {
      while (this.positions.length <= this.game.ply) {
        const fetched = await api.positions(this.id, this.positions.length);
        if (this.destroyed) return;
        if (!fetched.length) break;  // nothing newer on the server yet: the next change asks again
        this.positions.push(...fetched);
      }
    } catch (err) {
      showAlert(this.alert, err.message);
      return;
    } finally {
      this.loadingPositions = false;
    }
    if (this.positions.length - 1 > this.game.ply) this.poller.now();  // show the newer game too
    this.showMoves();
  }

  /** The move list up to the game's ply: each position's move, by the seat to move before it. */
  showMoves() {
    const upto = Math.min(this.positions.length - 1, this.game.ply);
    this.moves = this.positions.slice(1, upto + 1)
      .map(({ ply, move }) => ({ seat: this.positions[ply - 1].to_move, move }));
    this.historyPanel.update(this.moves, this.game);
    this.viewPly = this.historyPanel.viewPly;
    this.renderBoard();
  }

  async loadLegal() {
    const ply = this.game.ply;
    this.legal = { ply, loading: true };
    try {
      const listing = await api.legalMoves(this.id);
      if (this.destroyed || this.game.ply !== ply || listing.ply !== ply) return;
      this.legal = listing;
      this.renderBoard();
    } catch (err) {
      this.legal = null;
      showAlert(this.alert, err.message);
    }
  }

  renderBoard() {
    const { game, moves } = this;
    const replaying = this.viewPly !== null && moves;
    const ply = replaying ? this.viewPly : game.ply;
    const state = replaying ? this.positions[ply].state : game.state;
    const last = moves && moves.length >= ply && ply > 0 ? moves[ply - 1] : null;
    const legal = this.legal && !this.legal.loading && this.legal.ply === game.ply ? this.legal : null;
    this.replayNote.hidden = !replaying;
    if (replaying) {
      fill(this.replayNote, `Replay: the position after move ${ply} of ${moves.length}. `,
        h("button", { type: "button", class: "link", onclick: () => this.historyPanel.go(moves.length) },
          "Back to the live game"));
    }
    this.board.update({ game, state, seat: replaying ? null : this.actingSeat(), mine: this.mine,
                        legal, last, ply, live: !replaying });
  }

  renderHead() {
    const { game } = this;
    const mine = this.mine;
    this.meta.textContent = [timeControlText(game.time_control),
      ...Object.entries(game.options).filter(([, v]) => typeof v !== "object")
        .map(([k, v]) => `${k.replace(/_/g, " ")}: ${v === true ? "yes" : v === false ? "no" : v}`),
    ].join(" · ");
    fill(this.players, game.seats.map((seat, i) => h("div", {
      class: ["player", game.to_move === i && game.status === "active" && "to-move"],
    }, seatMark(i),
       h("span", { class: "name" }, seat.player
         ? h("a", { href: `#/player/${encodeURIComponent(seat.player)}` }, seat.player)
         : seatName(game, i)),
       mine.includes(i) ? h("span", { class: "tag" }, "you") : null,
       seat.bot ? h("span", { class: "tag" }, `bot · ${seat.bot}`) : null,
       game.to_move === i && game.status === "active" ? h("span", { class: "tag turn" }, "to move") : null,
       this.clocks.els[i])));
    const line = statusLine(game, mine);
    this.status.textContent = game.status === "finished" ? "Game over." : `${line}.`;
    document.title = `${line} · ${this.title.textContent} — Postplay`;
    this.banner.hidden = game.status !== "finished";
    if (game.status === "finished") {
      const { headline, detail } = resultText(game, mine);
      fill(this.banner, h("strong", {}, headline), h("span", {}, detail));
    }
    this.renderJoin();
    this.renderShare();
    this.renderActions();
  }

  renderJoin() {
    const { game } = this;
    const invited = invitee(game);
    if (invited && storage.isMe(invited)) {
      this.renderAnswer();
      return;
    }
    const canJoin = game.status === "waiting" && this.mine.length === 0 && !invited;
    this.join.hidden = !canJoin;
    if (!canJoin || this.join.childElementCount) return;
    const name = h("input", { name: "name", required: true, maxlength: 40, autocomplete: "nickname",
                              value: storage.account()?.username || storage.playerName() });
    fill(this.join, h("label", {}, "Your name ", name),
      h("button", { class: "primary", type: "submit" }, "Take the open seat"));
    this.join.onsubmit = async (event) => {
      event.preventDefault();
      const who = name.value.trim();
      if (!who) return;
      storage.setPlayerName(who);
      try {
        const response = await api.join(this.id, who);
        storage.remember(this.id, game.kind, { [response.data.seat]: response.data.token });
        if (storage.account()) await claimStoredGames();
        showAlert(this.alert, null);
        this.apply(response.data);
        this.poller.seen(response.etag);
      } catch (err) {
        showAlert(this.alert, err.message);
      }
    };
  }

  /** A challenge to the signed-in account: Accept or Decline. */
  renderAnswer() {
    this.join.hidden = false;
    if (this.join.dataset.answer) return;
    this.join.dataset.answer = "yes";
    const answer = (call) => async () => {
      try {
        const response = await call(this.id);
        showAlert(this.alert, null);
        this.join.hidden = true;
        this.apply(response.data);
        this.poller.seen(response.etag);
      } catch (err) {
        showAlert(this.alert, err.message);
        this.poller.now();
      }
    };
    const challenger = this.game.seats.find((s) => !s.open);
    fill(this.join, h("p", {}, `${challenger?.player || challenger?.name || "Someone"} challenges you.`),
      h("button", { type: "button", class: "primary", onclick: answer(api.accept) }, "Accept"),
      h("button", { type: "button", onclick: answer(api.decline) }, "Decline"));
  }

  renderShare() {
    const { game } = this;
    const link = `${location.origin}/#/game/${this.id}`;
    const waiting = game.status === "waiting";
    const input = h("input", { readonly: true, value: link, "aria-label": "Link to this game",
                               onfocus: (e) => e.target.select() });
    const done = h("span", { class: "muted", "aria-live": "polite" });
    const copy = h("button", { type: "button", onclick: async () => {
      try {
        await navigator.clipboard.writeText(link);
      } catch {
        input.select();
        document.execCommand("copy");
      }
      done.textContent = "Copied.";
    } }, "Copy");
    const invited = invitee(game);
    if (invited) {
      fill(this.share, h("h2", {}, "Challenge"),
        h("p", {}, storage.isMe(invited) ? "The game starts when you accept."
          : `The game starts when ${invited} accepts; it is listed under their incoming challenges.`));
      this.share.classList.add("card");
      return;
    }
    fill(this.share, h("h2", {}, waiting ? "Invite link" : "Link to this game"),
      waiting ? h("p", {}, "Send this link to your opponent: whoever opens it can take the open seat.",
        game.seats.some((s) => s.open && s.listed === false)
          ? " The game is not listed under Open games, so only those with the link can find it." : "") : null,
      h("div", { class: "copy-row" }, input, copy), done);
    this.share.classList.toggle("card", waiting);
  }

  renderActions() {
    const { game } = this;
    const mine = this.mine;
    const seat = this.actingSeat() ?? (mine.length === 1 ? mine[0] : null);
    const rules = h("a", { href: `#/rules/${game.kind}` }, "Rules of this game");
    if (game.status === "finished" && mine.length && !game.playtest) {
      fill(this.actions, rules, h("button", { type: "button", class: "primary",
                                              onclick: () => this.rematch(seat ?? mine[0]) }, "Rematch"));
      return;
    }
    if (game.status !== "active" || seat === null) {
      fill(this.actions, rules);
      return;
    }
    const who = mine.length > 1 ? ` for ${seatName(game, seat)}` : "";
    const confirm = h("span", { class: "confirm", hidden: true },
      `Resign${who}? `,
      h("button", { type: "button", class: "danger", onclick: () => this.resign(seat) }, "Yes, resign"),
      h("button", { type: "button", onclick: () => { confirm.hidden = true; ask.hidden = false; } }, "No"));
    const ask = h("button", { type: "button", onclick: () => { ask.hidden = true; confirm.hidden = false; } },
      `Resign${who}`);
    fill(this.actions, rules, h("div", {}, ask, confirm));
  }

  async rematch(seat) {
    try {
      const { data } = await api.rematch(this.game, seat);
      if (data.tokens && Object.keys(data.tokens).length) storage.remember(data.id, data.kind, data.tokens);
      location.hash = `#/game/${data.id}`;
    } catch (err) {
      showAlert(this.alert, err.message);
    }
  }

  async resign(seat) {
    try {
      const response = await api.resign(this.game, seat);
      this.apply(response.data);
      this.poller.seen(response.etag);
    } catch (err) {
      showAlert(this.alert, err.message);
    }
  }

  /** Send a move for the acting seat; true when the server took it. */
  async submit(move) {
    const seat = this.actingSeat();
    if (seat === null) return false;
    try {
      const response = await api.move(this.game, seat, move);
      showAlert(this.alert, null);
      this.apply(response.data);
      this.poller.seen(response.etag);
      return true;
    } catch (err) {
      showAlert(this.alert, err.message);
      if (err.status === 409) this.poller.now();
      return false;
    }
  }
}
