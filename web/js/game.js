// The game page: players and clocks, whose turn, the board, moves with replay, the result (and
// a rated game's rating changes once the worker has applied them), resign, rematch, draw offers
// and takebacks, the chat, the export, the invite link, joining an open seat, answering a
// challenge, and polling for the other side's moves. A seat is played with the seat token this
// browser holds for it, or with the account token when the seat is the signed-in account's.

import * as api from "./api.js";
import { loadBoard } from "./boards/common.js";
import { alertBox, fill, h, showAlert, showRefusal } from "./dom.js";
import { clockNote, invitee, resultText, seatMark, seatName, statusLine, timeControlText } from "./format.js";
import * as storage from "./storage.js";

/** The page's parts beside the board and the head (the move list, analysis, clocks, offers,
 *  chat) and its poller: their modules load once the board is on screen, so that its first
 *  frame waits for no module it does not draw (each costs the browser a few ms to load). */
const PANELS = () => Promise.all([import("./history.js"), import("./analysis.js"),
  import("./clocks.js"), import("./offers.js"), import("./chat.js"), import("./poller.js"),
  import("./corr.js")]);

/** Resolves once what is on the page now has been painted: a task queued from the next
 *  animation frame runs after that frame. */
const painted = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));

const BOT_POLL_MS = 1000;
const FIRST_BACKOFF_MS = 2000;
const MAX_BACKOFF_MS = 30000;
const MY_TURN_POLL_MS = 20000;  // only a resignation or the clock can change my own turn

export function mountGame(root, id) {
  const view = new GameView(root, id);
  view.drawn = view.start();  // the board, then the panels beside it
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
    this.eventLink = h("p", { class: "event-link", hidden: true });  // the event it is a game of
    this.players = h("div", { class: "players" });
    this.status = h("p", { class: "status", "aria-live": "polite" });
    this.banner = h("div", { class: "banner", role: "status", hidden: true });
    this.clockNote = h("p", { class: "clock-note", hidden: true });
    this.alert = alertBox();
    this.net = h("p", { class: "net muted", hidden: true });
    this.join = h("form", { class: "join card", hidden: true });
    this.share = h("div", { class: "share" });
    this.boardRoot = h("div", { class: "board-root" });
    this.replayNote = h("p", { class: "replay-note", hidden: true });
    this.actions = h("div", { class: "game-actions" });
    // the panels beside the board and the poller, made once their modules load (attachPanels)
    this.historyPanel = this.analysisPanel = this.clocks = this.offers = this.chat = null;
    this.poller = null;
    this.onScreen = false;  // until the board's first frame is painted (start)
  }

  /** Put the page's parts in `root`, in the same task as the board is made (start): a frame of
   *  the empty page before it would cost the board's first frame a frame's time. */
  show() {
    // busy until the panels beside the board are made (attachPanels): assistive technology
    // (and the browser tests) wait for the whole page rather than read it half made
    fill(this.root, h("section", { class: "game", "aria-busy": "true" },
      h("div", { class: "game-main" },
        h("div", { class: "game-head" }, this.title, this.meta, this.eventLink),
        this.players, this.clockNote, this.status, this.banner, this.alert, this.net, this.join,
        this.replayNote, this.boardRoot),
      h("aside", { class: "game-side" }, this.share, this.actions)));
  }

  async start() {
    let response;
    // a game this browser has shown (or plays) names its kind in storage: its board loads while
    // the game does
    const stored = storage.kindOf(this.id);
    const early = stored ? loadBoard(stored) : null;
    try {
      response = await api.game(this.id);
    } catch (err) {
      fill(this.root, h("section", { class: "card" }, h("h1", {}, "Game not found"),
        h("p", {}, err.message), h("p", {}, h("a", { href: "#/" }, "Back to the lobby"))));
      return;
    }
    if (this.destroyed) return;
    const game = response.data;
    const module = await (stored === game.kind ? early : loadBoard(game.kind));
    if (this.destroyed) return;
    this.show();
    // the first game of an account just made here links to the Notifications settings
    if (localStorage.getItem("postplay.push-hint")) {
      import("./notifications.js").then((m) => {
        const hint = m.firstGameHint(game);
        if (hint && !this.destroyed) this.actions.after(hint);
      }, () => {});
    }
    if (!module) {
      fill(this.boardRoot, h("p", { class: "alert" },
        `This game's board (${game.kind}) could not be loaded; reload the page.`));
      return;
    }
    this.module = module;
    this.title.textContent = game.kind;
    this.board = module.create({ root: this.boardRoot, submit: (move) => this.submit(move),
                                 gameId: this.id });
    this.apply(game);
    await painted();
    // when the board was first on screen after navigation (tests/benchmarks/bench_web.py)
    if (!performance.getEntriesByName("postplay:board").length) performance.mark("postplay:board");
    storage.rememberKind(this.id, game.kind);
    // no answer but the game's is handled before the board's first frame: the moves (for the
    // move list and the last move's marks) and the game's title are asked for now
    this.onScreen = true;
    this.loadPositions();
    this.showTitle(game.kind);
    let panels;
    try {
      panels = await PANELS();
    } catch {
      showAlert(this.alert, "Part of this page could not be loaded; check your connection and reload.");
      return;
    }
    if (!this.destroyed) this.attachPanels(panels, module, response.etag);
    if (!this.destroyed) this.fitBoard();
  }

  /** Keep the whole board and its controls on one screen: the picture gives up the height the
   *  rest of the board's part of the page takes (its "chrome", re-measured as that changes: a
   *  challenge's fields, a longer hint), and once the page has opened it is scrolled so that the
   *  board and Play are in view together. */
  fitBoard() {
    const root = this.boardRoot;
    // in a timed game the players' clocks and the clock's note stay in sight too (a clock must
    // not run out unnoticed): what lies between their top and the board's is chrome as well
    const head = () => (this.clockNote.hidden ? root : this.players);
    const measure = () => {
      const picture = root.querySelector(".board-frame:not(.zoomed) > svg.board");
      if (!picture) return;
      const above = Math.max(0, root.getBoundingClientRect().top - head().getBoundingClientRect().top);
      const chrome = root.getBoundingClientRect().height - picture.getBoundingClientRect().height + above;
      root.style.setProperty("--board-chrome", `${Math.ceil(chrome)}px`);
    };
    measure();
    this.fitObserver = new ResizeObserver(() => requestAnimationFrame(measure));
    this.fitObserver.observe(root);
    requestAnimationFrame(() => {
      if (window.scrollY !== 0) return;  // the player has scrolled already: theirs to keep
      const { bottom } = root.getBoundingClientRect();
      const { top } = head().getBoundingClientRect();
      // its head to the screen's top: when the controls grow later (they stick to the bottom)
      // the picture gives up the height, and nothing slides under the Play bar
      if (bottom > innerHeight) window.scrollBy(0, top);
    });
  }

  /** The game's title from GET /kinds, in place of its kind (`slug`) shown until then. */
  async showTitle(slug) {
    const kind = (await api.kinds().catch(() => null))?.find((k) => k.kind === slug);
    if (!kind || this.destroyed) return;
    this.kind = kind;  // its reasons' words, for the result's detail
    this.title.textContent = kind.title;
    this.renderHead();
  }

  /** Make the panels beside the board from their modules, show the game in them, and start
   *  polling from the game as first fetched (`etag`). */
  attachPanels([history, analysis, clocks, offers, chat, poller, corr], module, etag) {
    this.offersModule = offers;  // botAnswers and offerStands, for nextDelay
    this.historyPanel = new history.HistoryPanel({
      seatName,
      onView: (ply) => { this.viewPly = ply; this.renderBoard(); },
    });
    this.analysisPanel = new analysis.AnalysisPanel({
      gameId: this.id, onJudged: (plies) => this.historyPanel.setJudged(plies),
      onView: (ply) => this.historyPanel.go(ply),
    });
    this.offers = new offers.OffersPanel({
      act: (kind, seat, action, button) => this.offer(kind, seat, action, button) });
    this.chat = new chat.ChatPanel({ load: (seat) => api.chat(this.game, seat),
                                     send: (seat, text) => api.say(this.game, seat, text) });
    this.root.querySelector(".game-side").prepend(this.historyPanel.el, this.analysisPanel.el);
    this.share.after(this.offers.el);
    this.actions.after(this.chat.el);
    this.corr = new corr.CorrPanel(this);  // explore, conditional moves, notes, next game
    this.actions.before(this.corr.el);
    this.clocks = new clocks.Clocks([0, 1].map(() => h("span", { class: "clock", hidden: true })),
                                    () => this.poller?.now());
    this.poller = new poller.Poller(this.id, etag, {
      onChange: (g) => { this.net.hidden = true; this.apply(g); },
      nextDelay: (unchanged) => this.nextDelay(unchanged),
      onError: (err) => { this.net.hidden = false; this.net.textContent = err.message; },
    });
    this.showHistory();
    this.apply(this.game);
    this.root.querySelector(".game").removeAttribute("aria-busy");
    this.poller.schedule();
  }

  destroy() {
    this.destroyed = true;
    this.poller?.stop();
    this.clocks?.stop();
    this.fitObserver?.disconnect();
    this.corr?.destroy();
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
    if (game.status === "finished") return this.awaitingRatings() ? FIRST_BACKOFF_MS : null;
    if (this.clocks.flagged) return FIRST_BACKOFF_MS;  // the worker is ending the game on time
    if (game.status === "active" && game.seats[game.to_move].bot) return BOT_POLL_MS;
    if (this.offersModule.botAnswers(game)) return BOT_POLL_MS;
    if (this.actingSeat() !== null && !this.offersModule.offerStands(game)) return MY_TURN_POLL_MS;
    return Math.min(FIRST_BACKOFF_MS * 1.6 ** unchanged, MAX_BACKOFF_MS);
  }

  /** A rated game that ended with a move made, whose rating changes the worker is applying. */
  awaitingRatings() {
    const { game } = this;
    return game.rated && !game.rating_changes && game.result?.reason !== "aborted" && game.ply > 0;
  }

  apply(game) {
    const takenBack = Boolean(this.game) && this.game.takebacks !== game.takebacks;
    const moved = !this.game || this.game.ply !== game.ply || takenBack;
    if (takenBack) this.positions = [];  // the end of the history was replaced: fetch it all again
    this.game = game;
    this.renderHead();
    this.clocks?.show(game);
    this.analysisPanel?.update(game);
    if (moved) {
      this.legal = null;
      if (this.onScreen) this.loadPositions();
    }
    if (this.actingSeat() !== null && !this.legal) this.loadLegal();
    this.corr?.update(game, this.mine, moved || !this.corrSeen);
    this.corrSeen = Boolean(this.corr);
    this.renderBoard();
  }

  /** Fetch the positions this page lacks, from the first missing ply up to the game's. */
  async loadPositions() {
    if (this.loadingPositions) return;  // the load under way goes on to the game's new ply
    this.loadingPositions = true;
    try {
      while (this.positions.length <= this.game.ply) {
        const from = this.positions.length;
        const fetched = await api.positions(this.id, from);
        if (this.destroyed) return;
        if (!fetched.length) break;  // nothing newer on the server yet: the next change asks again
        if (from !== this.positions.length) continue;  // a takeback emptied them meanwhile
        this.positions.push(...fetched);
      }
    } catch (err) {
      showAlert(this.alert, err.message);
      return;
    } finally {
      this.loadingPositions = false;
    }
    if (this.positions.length - 1 > this.game.ply) this.poller?.now();  // show the newer game too
    this.showMoves();
  }

  /** The move list up to the game's ply: each position's move and its words (the server's), by
   *  the seat to move before it. */
  showMoves() {
    const upto = Math.min(this.positions.length - 1, this.game.ply);
    this.moves = this.positions.slice(1, upto + 1)
      .map(({ ply, move, words }) => ({ seat: this.positions[ply - 1].to_move, move, words }));
    this.showHistory();
    this.renderInGame();
    this.renderBoard();
  }

  /** The move list as fetched so far, in the history panel once it is made. */
  showHistory() {
    if (!this.moves || !this.historyPanel) return;
    this.historyPanel.update(this.moves, this.game);
    this.viewPly = this.historyPanel.viewPly;
  }

  /** The seat whose player made the game's last move (the server's passes aside), or null. */
  lastMover() {
    if (!this.moves || this.moves.length !== this.game.ply) return null;
    const played = this.moves.filter(({ move }) => move?.type !== "pass");
    return played.length ? played[played.length - 1].seat : null;
  }

  /** Offers and takebacks, and the chat (as the seat this browser plays, if any). */
  renderInGame() {
    const mine = this.mine;
    this.offers?.update(this.game, mine, this.lastMover());
    this.chat?.update(this.game, this.actingSeat() ?? mine[0] ?? null);
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
    const explored = this.corr?.position();
    if (explored) {  // the Explore mode: the server's explored position, either side to move
      this.replayNote.hidden = true;
      this.board.update({ game: { ...game, state: explored.state, to_move: explored.to_move,
                                  ply: explored.ply, status: explored.outcome ? "finished" : "active" },
                          state: explored.state, seat: explored.outcome ? null : explored.to_move,
                          mine: [0, 1], legal: explored.legal, last: null, recent: [],
                          ply: explored.ply, live: true });
      return;
    }
    const replaying = this.viewPly !== null && moves;
    const ply = replaying ? this.viewPly : game.ply;
    const state = replaying ? this.positions[ply].state : game.state;
    const last = moves && moves.length >= ply && ply > 0 ? moves[ply - 1] : null;
    // the moves of the last turn, oldest first: a Partition turn is up to three of them
    let from = ply;
    while (last && from > 1 && moves[from - 2].seat === last.seat) from -= 1;
    const recent = last ? moves.slice(from - 1, ply) : [];
    const legal = this.legal && !this.legal.loading && this.legal.ply === game.ply ? this.legal : null;
    this.replayNote.hidden = !replaying;
    if (replaying) {
      fill(this.replayNote, `Replay: the position after move ${ply} of ${moves.length}. `,
        h("button", { type: "button", class: "link", onclick: () => this.historyPanel.go(moves.length) },
          "Back to the live game"));
    }
    this.board.update({ game, state, seat: replaying ? null : this.actingSeat(), mine: this.mine,
                        legal, last, recent, ply, live: !replaying });
  }

  renderHead() {
    const { game } = this;
    const mine = this.mine;
    this.meta.textContent = [game.rated ? "Rated" : "Casual", timeControlText(game.time_control),
      ...Object.entries(game.options).filter(([, v]) => typeof v !== "object")
        .map(([k, v]) => `${k.replace(/_/g, " ")}: ${v === true ? "yes" : v === false ? "no" : v}`),
    ].join(" · ");
    const event = game.event;
    this.eventLink.hidden = !event;
    if (event?.tournament) {
      fill(this.eventLink, h("a", { href: `#/event/${event.tournament}` }, `Round ${event.round} of its event`));
    } else if (event?.ladder) {
      fill(this.eventLink, h("a", { href: `#/ladder/${event.ladder}` }, "A ladder game"));
    }
    fill(this.players, game.seats.map((seat, i) => h("div", {
      class: ["player", game.to_move === i && game.status === "active" && "to-move"],
    }, seatMark(i),
       h("span", { class: "name" }, seat.player
         ? h("a", { href: `#/player/${encodeURIComponent(seat.player)}` }, seat.player)
         : seatName(game, i)),
       mine.includes(i) ? h("span", { class: "tag" }, "you") : null,
       seat.bot ? h("span", { class: "tag" }, `bot · ${seat.bot}`) : null,
       game.on_vacation?.includes(i) ? h("span", { class: "tag vacation" }, "on vacation") : null,
       game.to_move === i && game.status === "active" ? h("span", { class: "tag turn" }, "to move") : null,
       this.clocks?.els[i])));
    const line = statusLine(game, mine);
    this.status.textContent = game.status === "finished" ? "Game over." : `${line}.`;
    document.title = `${line} · ${this.title.textContent} — Postplay`;
    window.dispatchEvent(new CustomEvent(storage.GAME_SHOWN_EVENT, { detail: {
      id: this.id, ply: game.ply,
      waiting: game.status === "active" && game.to_move !== null
        && storage.isMe(game.seats[game.to_move]?.player) } }));
    this.banner.hidden = game.status !== "finished";
    if (game.status === "finished") {
      const { headline, detail, tone } = resultText(game, mine, this.kind);
      this.banner.className = `banner ${tone}`;
      fill(this.banner, h("strong", {}, headline), h("span", {}, detail), this.ratingChanges());
    }
    const note = game.status === "finished" ? null : clockNote(game.time_control);
    this.clockNote.hidden = !note;
    this.clockNote.textContent = note || "";
    this.renderJoin();
    this.renderShare();
    this.renderActions();
    this.renderInGame();
  }

  /** "ada 1500 → 1662 (+162)" per seat, once the ratings are applied. */
  ratingChanges() {
    const { game } = this;
    if (!game.rating_changes) return this.awaitingRatings()
      ? h("span", { class: "rating-changes muted" }, "Ratings are being updated…") : null;
    return h("span", { class: "rating-changes" }, game.rating_changes.map((c, i) => {
      const delta = Math.round(c.after) - Math.round(c.before);
      return h("span", { class: ["rating-change", delta > 0 && "up"], dataset: { seat: String(i) } },
        `${seatName(game, i)} ${Math.round(c.before)} → ${Math.round(c.after)}${c.provisional ? "?" : ""}`
        + ` (${delta >= 0 ? "+" : ""}${delta})`, i === 0 ? " · " : "");
    }));
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
    const take = h("button", { class: "primary", type: "submit" }, "Take the open seat");
    fill(this.join, h("label", {}, "Your name ", name), take);
    this.join.onsubmit = async (event) => {
      event.preventDefault();
      const who = name.value.trim();
      if (!who) return;
      storage.setPlayerName(who);
      try {
        const response = await api.join(this.id, who);
        storage.remember(this.id, game.kind, { [response.data.seat]: response.data.token });
        if (storage.account()) await (await import("./account.js")).claimStoredGames();
        showRefusal(take, null);
        this.apply(response.data);
        this.poller?.seen(response.etag);
      } catch (err) {
        showRefusal(take, err.message);
      }
    };
  }

  /** A challenge to the signed-in account: Accept or Decline. */
  renderAnswer() {
    this.join.hidden = false;
    if (this.join.dataset.answer) return;
    this.join.dataset.answer = "yes";
    const answer = (call) => async (event) => {
      const button = event.currentTarget;
      try {
        const response = await call(this.id);
        showRefusal(button, null);
        this.join.hidden = true;
        this.apply(response.data);
        this.poller?.seen(response.etag);
      } catch (err) {
        showRefusal(button, err.message);
        this.poller?.now();
      }
    };
    const challenger = this.game.seats.find((s) => !s.open);
    fill(this.join, h("p", {}, `${challenger?.player || challenger?.name || "Someone"} challenges you.`),
      h("div", { class: "buttons", "data-refusal-row": true },
        h("button", { type: "button", class: "primary", onclick: answer(api.accept) }, "Accept"),
        h("button", { type: "button", onclick: answer(api.decline) }, "Decline")));
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
    const links = [h("a", { href: `#/rules/${game.kind}` }, "Rules of this game"),
      h("a", { href: api.exportUrl(game.id), download: `${game.kind}-${game.id}.json`, class: "export" },
        "Download the game (JSON)")];
    if (game.status === "finished" && mine.length && !game.playtest) {
      fill(this.actions, links, h("button", { type: "button", class: "primary",
                                              onclick: (e) => this.rematch(seat ?? mine[0], e.currentTarget) }, "Rematch"));
      return;
    }
    if (game.status !== "active" || seat === null) {
      fill(this.actions, links);
      return;
    }
    const who = mine.length > 1 ? ` for ${seatName(game, seat)}` : "";
    const confirm = h("span", { class: "confirm", hidden: true },
      `Resign${who}? `,
      h("button", { type: "button", class: "danger", onclick: (e) => this.resign(seat, e.currentTarget) }, "Yes, resign"),
      h("button", { type: "button", onclick: () => { confirm.hidden = true; ask.hidden = false; } }, "No"));
    const ask = h("button", { type: "button", onclick: () => { ask.hidden = true; confirm.hidden = false; } },
      `Resign${who}`);
    fill(this.actions, links, h("div", { "data-refusal-row": true }, ask, confirm));
  }

  async rematch(seat, button) {
    try {
      const { data } = await api.rematch(this.game, seat);
      if (data.tokens && Object.keys(data.tokens).length) storage.remember(data.id, data.kind, data.tokens);
      location.hash = `#/game/${data.id}`;
    } catch (err) {
      showRefusal(button, err.message);
    }
  }

  /** Offer, ask or answer: `kind` "draw" or "takeback", for the player of `seat`; a refusal
   *  shows beside the `button` that asked. */
  async offer(kind, seat, action, button) {
    try {
      const response = await (kind === "draw" ? api.draw : api.takeback)(this.game, seat, action);
      showRefusal(button, null);
      this.apply(response.data);
      this.poller?.seen(response.etag);
    } catch (err) {
      showRefusal(button, err.message);
      if (err.status === 409) this.poller?.now();
    }
  }

  async resign(seat, button) {
    try {
      const response = await api.resign(this.game, seat);
      this.apply(response.data);
      this.poller?.seen(response.etag);
    } catch (err) {
      showRefusal(button, err.message);
    }
  }

  /** After a move, focus stays on the board: when the control that played it is gone (the
   *  move bar hides while the other side moves), the board's tab stop takes it. */
  keepFocus() {
    requestAnimationFrame(() => {
      const here = document.activeElement;
      if (here && here !== document.body && here.isConnected && here.getClientRects().length) return;
      this.boardRoot.querySelector("[data-board] [tabindex='0'], svg.board[tabindex='0']")
        ?.focus({ preventScroll: true });
    });
  }

  /** Send a move for the acting seat; true when the server took it. A refusal shows under the
   *  board's Play bar, where the move was made. */
  async submit(move) {
    if (this.corr?.active) return this.corr.play(move).then(() => true);  // never to the game
    const seat = this.actingSeat();
    if (seat === null) return false;
    const bar = this.boardRoot.querySelector("[data-refusal-row]") || this.boardRoot;
    try {
      const response = await api.move(this.game, seat, move);
      showRefusal(bar, null);
      this.apply(response.data);
      this.poller?.seen(response.etag);
      this.keepFocus();
      return true;
    } catch (err) {
      // a refused move is named as the move list would name it
      showRefusal(bar, err.words ? `Not played: ${err.words}. ${err.message}` : err.message);
      if (err.status === 409) this.poller?.now();
      return false;
    }
  }
}
