// The lobby: start a game (game, options, opponent, first player, clock), my games with whose
// turn it is, and the open games anyone may join. Signed in, a game may be a challenge to a
// player by name; my games are the account's (one cheap poll, with If-None-Match) with any this
// browser holds seat tokens for that the account could not claim; and the challenges to and from
// the account are listed, incoming ones with Accept and Decline. A signed-in player's game may be
// rated (by default against a bot or a challenged player) and its open seat may ask for a rating
// range; open games show their players' ratings, and only those this player may join.

import { claimStoredGames } from "./account.js";
import * as api from "./api.js";
import { alertBox, fill, h, showAlert, showRefusal, submitting } from "./dom.js";
import { ago, clockNote, invitee, ratingText, seatName, statusLine, timeControlText } from "./format.js";
import { optionsFieldset, timeControlFields } from "./options.js";
import { Poller } from "./poller.js";
import * as storage from "./storage.js";

const REFRESH_MS = 30000;
const ACCOUNT_POLL_MS = 2000;  // the account's lists: from 2 s after a change, backing off to 30 s

export function mountLobby(root) {
  const view = new Lobby(root);
  view.start();
  return view;
}

class Lobby {
  constructor(root) {
    this.root = root;
    this.account = storage.account();
    this.alert = alertBox();
    this.form = h("form", { class: "new-game", "aria-label": "New game" });
    this.mineList = h("div", { class: "game-list", "aria-live": "polite" });
    this.openList = h("div", { class: "game-list" });
    this.incomingList = h("div", { class: "game-list incoming", "aria-live": "polite" });
    this.outgoingList = h("div", { class: "game-list outgoing" });
    fill(root, h("p", { class: "intro" }, "Postplay: small games of numbers, played by "
      + "correspondence against friends, or right now against a bot."),
    this.firstVisit(),
    h("div", { class: "lobby" },
      this.account ? h("section", { class: "card challenges" }, h("h2", {}, "Incoming challenges"),
        this.incomingList, h("h2", {}, "Your challenges"), this.outgoingList) : null,
      h("section", { class: "card mine" }, h("h2", {}, "My games"), this.mineList),
      h("section", { class: "card new" }, h("h1", {}, "New game"), this.alert, this.form),
      h("section", { class: "card open" }, h("h2", {}, "Open games"), this.openList)));
    this.seen = new Map();  // game id -> {etag, game}: my games as last fetched
    this.localGames = [];   // the games only this browser's seat tokens hold, as last fetched
    this.accountGames = null;  // GET /me/games as last fetched, signed in
    this.refresh = () => { if (!document.hidden) this.loadLists(); };
    document.addEventListener("visibilitychange", this.refresh);
  }

  /** For a first visit (no account, no game in this browser): three steps, in order. */
  firstVisit() {
    if (this.account || storage.myGames().length) return null;
    const playBot = () => {
      const opponent = this.form.querySelector("select[name=opponent]");
      const bot = opponent && [...opponent.options].find((o) => o.value.startsWith("bot:"));
      if (bot) opponent.value = bot.value;
      opponent?.dispatchEvent(new Event("change"));
      this.form.scrollIntoView({ block: "start" });
      this.form.querySelector("input[name=name]")?.focus({ preventScroll: true });
    };
    return h("ol", { class: "first-visit card", "aria-label": "New here? Three steps" },
      h("li", {}, h("button", { type: "button", class: "link", onclick: playBot }, "Play a bot now"),
        ": pick a game below and start; no account needed."),
      h("li", {}, h("a", { href: "#/rules" }, "Learn the rules"), " of every game, with examples."),
      h("li", {}, h("a", { href: "#/signup" }, "Sign up"),
        " to play friends by correspondence, a move a day, on any device."));
  }

  /** Signed in: poll the account's games and challenges, each with If-None-Match. */
  watchAccount() {
    const nextDelay = (unchanged) => Math.min(ACCOUNT_POLL_MS * 1.5 ** unchanged, REFRESH_MS);
    const onError = (err) => showAlert(this.alert, err.message);
    this.gamesPoller = new Poller("me", null, {
      fetch: (_, etag) => api.myGames(etag), nextDelay, onError,
      onChange: (games) => { this.accountGames = games; this.renderMine(); },
    });
    this.challengesPoller = new Poller("me", null, {
      fetch: (_, etag) => api.challenges(etag), nextDelay, onError,
      onChange: (lists) => this.renderChallenges(lists),
    });
    this.gamesPoller.now();
    this.challengesPoller.now();
  }

  async start() {
    try {
      this.kinds = await api.kinds();
    } catch (err) {
      showAlert(this.alert, err.message);
      this.kinds = [];  // the lists still show, each game by its slug
    }
    if (this.destroyed) return;
    if (this.kinds.length) this.buildForm();
    if (this.account) {
      this.watchAccount();
      this.myRatings = await api.me().then((me) => me.ratings).catch(() => ({}));
      if (this.destroyed) return;
    }
    this.loadLists();
    this.timer = setInterval(this.refresh, REFRESH_MS);
  }

  destroy() {
    this.destroyed = true;
    clearInterval(this.timer);
    this.gamesPoller?.stop();
    this.challengesPoller?.stop();
    document.removeEventListener("visibilitychange", this.refresh);
  }

  buildForm() {
    // not `required`: the browser's "Please fill out this field" would hide the form's own line
    const name = h("input", { name: "name", "aria-required": "true", maxlength: 40,
                              autocomplete: "nickname", value: storage.playerName(),
                              placeholder: "Your name" });
    this.nameInput = name;
    const challengee = h("input", { name: "challenge", maxlength: 20, autocomplete: "off",
                                    autocapitalize: "none", spellcheck: "false" });
    const challengeLine = h("label", { hidden: true }, "Their username", challengee);
    const kindSelect = h("select", { name: "kind" },
      this.kinds.map((k) => h("option", { value: k.kind }, k.title)));
    const summary = h("p", { class: "muted summary" });
    const options = optionsFieldset();
    const opponent = h("select", { name: "opponent" });
    const opponentLine = h("p", { class: "muted hint" });
    const first = h("select", { name: "first" },
      h("option", { value: "random" }, "Coin flip"),
      h("option", { value: "0" }, "Me"),
      h("option", { value: "1" }, "My opponent"));
    const clock = h("fieldset", { class: "clock-fields" });
    // the clock said in so many words by the game's name: a fast default (Factor Bingo's) must
    // not go unnoticed
    const clockLine = h("p", { class: "clock-line", "aria-live": "polite" });
    let clockFields = null;
    const rated = h("input", { type: "checkbox", name: "rated" });
    const ratedLine = h("label", { class: "check", hidden: true }, rated, " Rated game");
    const rangeMin = h("input", { type: "number", name: "rating_min", min: 0, max: 4000, step: 50 });
    const rangeMax = h("input", { type: "number", name: "rating_max", min: 0, max: 4000, step: 50 });
    const rangeLine = h("div", { class: "rating-range", hidden: true },
      h("label", {}, "Rating from", rangeMin), h("label", {}, "to", rangeMax));
    const showClock = () => {
      const { value } = clockFields.read();
      const note = clockNote(value);
      clockLine.hidden = !note;
      clockLine.textContent = note || "";
    };
    clock.addEventListener("input", showClock);
    clock.addEventListener("change", showClock);

    const describeOpponent = () => {
      const kind = this.kindOf(kindSelect.value);
      const bot = kind.bots.find((b) => `bot:${b.level}` === opponent.value);
      opponentLine.textContent = bot ? bot.line : {
        invite: "You get a link to send; whoever opens it takes the other seat. The game is not "
          + "listed under Open games.",
        challenge: "They find it under their incoming challenges; the game starts when they accept.",
        open: "The game is listed under Open games for anyone to join (and you get a link too).",
        local: "Both seats are played from this browser, taking turns.",
      }[opponent.value];
      challengeLine.hidden = opponent.value !== "challenge";
      challengee.required = opponent.value === "challenge";
      // rated games are between accounts (or against a server bot): as the server decides
      ratedLine.hidden = !this.account || opponent.value === "local";
      // casual against a bot unless the player asks (the API's default for a bot game is rated)
      rated.checked = Boolean(this.account) && opponent.value === "challenge";
      rangeLine.hidden = !this.account || opponent.value !== "open";
    };
    const showKind = () => {
      const kind = this.kindOf(kindSelect.value);
      summary.replaceChildren(kind.summary || "", " ",
        h("a", { href: `#/rules/${kind.kind}`, class: "nav-link" }, `Rules of ${kind.title}`), " ",
        h("a", { href: `#/learn/${kind.kind}`, class: "nav-link" }, "Lessons"),
        ...(kind.kind === "prime-drop" ? [] : [" ",
          h("a", { href: `#/daily/${kind.kind}`, class: "nav-link" }, "Daily puzzle")]));
      options.show(kind.options);
      const chosen = opponent.value;
      fill(opponent,
        kind.bots.length ? h("optgroup", { label: "A bot" }, kind.bots.map((b) =>
          h("option", { value: `bot:${b.level}` }, `Bot: ${b.level}`))) : null,
        h("optgroup", { label: "A person" },
          this.account ? h("option", { value: "challenge" }, "A player, by username (a challenge)") : null,
          h("option", { value: "invite" }, "A friend, by invite link"),
          h("option", { value: "open" }, "Anyone (open seat)"),
          h("option", { value: "local" }, "Two players on this device")));
      if ([...opponent.options].some((o) => o.value === chosen)) opponent.value = chosen;
      describeOpponent();
      clockFields = timeControlFields(kind.time_controls, ...formClock(kind));
      fill(clock, h("legend", {}, "Clock"), clockFields.el);
      showClock();
    };
    kindSelect.addEventListener("change", showKind);
    opponent.addEventListener("change", describeOpponent);

    const submit = h("button", { class: "primary", type: "submit" }, "Start the game");
    fill(this.form,
      this.account ? h("p", { class: "muted" }, "Playing as ", h("strong", {}, this.account.username))
        : h("label", {}, "Your name", name),
      h("label", {}, "Game", kindSelect), clockLine, summary,
      options.el,
      h("label", {}, "Opponent", opponent), opponentLine, challengeLine, ratedLine, rangeLine,
      h("label", {}, "First to move", first),
      clock, submit);
    showKind();

    this.form.onsubmit = async (event) => {
      event.preventDefault();
      const player = this.account?.username || name.value.trim();
      const other = opponent.value;
      const { value: opts, errors } = options.read();
      const tc = clockFields.read();
      if (tc.error) errors.push(tc.error);
      if (!player) errors.push("Please give your name: it is how your opponent sees you.");
      if (other === "challenge" && !challengee.value.trim()) {
        errors.push("Please give the username of the player to challenge.");
      }
      if (errors.length) {
        showRefusal(submit, errors.join(" "));
        return;
      }
      if (!this.account) storage.setPlayerName(player);
      const me = this.account ? { me: true } : { human: { name: player } };
      const them = other.startsWith("bot:") ? { bot: other.slice(4) }
        : other === "local" ? { human: { name: `${player} (2)` } }
          : other === "challenge" ? { player: challengee.value.trim() }
            : { open: true, listed: other === "open" };  // an invite: only those with the link see it
      if (!rangeLine.hidden && (rangeMin.value || rangeMax.value)) {
        them.rating_range = { min: Number(rangeMin.value || 0), max: Number(rangeMax.value || 4000) };
      }
      const body = { kind: kindSelect.value, options: opts, seats: [me, them],
                     first: first.value === "random" ? "random" : Number(first.value),
                     time_control: tc.value };
      if (!ratedLine.hidden) body.rated = rated.checked;
      const response = await submitting(submit, null, () => api.create(body));
      if (!response) return;
      const tokens = response.data.tokens || {};
      // signed in, the account plays its own seat: only a second seat on this device has a token
      if (Object.keys(tokens).length) storage.remember(response.data.id, body.kind, tokens);
      location.hash = `#/game/${response.data.id}`;
    };
  }

  kindOf(slug) {
    return this.kinds.find((k) => k.kind === slug);
  }

  titleOf(slug) {
    return this.kindOf(slug)?.title || slug;
  }

  /** This browser's seat-token games (signed in: those the account did not claim) and open games. */
  async loadLists() {
    const mine = storage.myGames();
    const local = this.account ? mine.filter((entry) => entry.claim !== "claimed") : mine;
    const [games, open] = await Promise.all([
      Promise.all(local.map((entry) => this.myGame(entry))),
      api.listGames({ status: "waiting" }).catch((err) => { showAlert(this.alert, err.message); return []; }),
    ]);
    if (this.destroyed) return;
    this.localGames = games;
    this.renderMine();
    const held = new Set(mine.map((m) => m.id));
    this.renderOpen(open.filter((g) => !held.has(g.id) && !storage.seatsHeld(g).length && !invitee(g)
      && this.mayJoin(g)));
  }

  /** Whether this player may take the game's open seat: a rated game needs an account, and a
   * seat's rating range a rating inside it (the server refuses the others). */
  mayJoin(game) {
    const seat = game.seats.find((s) => s.open);
    if (!this.account) return !game.rated && !seat?.rating_range;
    if (!seat?.rating_range) return true;
    const mine = Math.round(this.myRatings?.[game.kind]?.rating ?? 1500);
    return seat.rating_range.min <= mine && mine <= seat.rating_range.max;
  }

  /** One of my games, asked for with the tag of the copy already shown (304: keep it). */
  async myGame(entry) {
    const seen = this.seen.get(entry.id);
    try {
      const response = await api.game(entry.id, seen?.etag);
      if (response.status !== 304) this.seen.set(entry.id, { etag: response.etag, game: response.data });
      return this.seen.get(entry.id).game;
    } catch (err) {
      return { id: entry.id, kind: entry.kind, missing: err.status === 404 ? err.message : null,
               error: err.message };
    }
  }

  /** My games: the account's (its challenges are listed with the challenges), then this browser's. */
  renderMine() {
    if (this.account && this.accountGames === null) return;  // the account's games are on their way
    const listed = new Set((this.accountGames || []).map((g) => g.id));
    const games = [...(this.accountGames || []).filter((g) => !invitee(g)),
                   ...this.localGames.filter((g) => !listed.has(g.id))];
    if (!games.length) {
      fill(this.mineList, h("p", { class: "muted" }, "No games yet: start a new one, or join an open game."));
      return;
    }
    const order = (g) => (g.error ? 4 : g.status === "finished" ? 3 : this.myTurn(g) ? 0
      : g.status === "active" ? 1 : 2);
    const sorted = [...games].sort((a, b) => order(a) - order(b));
    fill(this.mineList, h("ul", {}, sorted.map((g) => {
      const stored = Object.keys(storage.tokensFor(g.id)).length > 0;
      const forget = h("button", { type: "button", class: "link", onclick: () => {
        storage.forget(g.id);
        this.loadLists();
      } }, "Forget");
      if (g.error) {
        return h("li", { class: "game-row" }, h("span", {}, this.titleOf(g.kind)),
          h("span", { class: "muted" }, g.missing || g.error), g.missing && stored ? forget : null);
      }
      const mine = storage.seatsHeld(g);
      const opponents = g.seats.map((seat, i) => i).filter((i) => !mine.includes(i) || mine.length > 1)
        .map((i) => (!g.seats[i].open || g.seats[i].invited ? seatName(g, i)
          : g.seats[i].listed === false ? "invited friend" : "open seat")).join(" vs ");
      return h("li", { class: ["game-row", this.myTurn(g) && "my-turn"], dataset: { game: g.id } },
        h("a", { href: `#/game/${g.id}` }, h("strong", {}, this.titleOf(g.kind)), ` vs ${opponents}`),
        h("span", { class: "turn" }, statusLine(g, mine)),
        g.event ? h("a", { class: "tag", href: g.event.tournament ? `#/event/${g.event.tournament}`
          : `#/ladder/${g.event.ladder}` }, g.event.tournament ? "event" : "ladder") : null,
        g.status !== "finished" ? clockBadge(g.time_control, true) : null,
        h("span", { class: "muted" }, ago(g.updated_at)),
        g.status === "finished" && stored ? forget : null);
    })));
  }

  myTurn(game) {
    return game.status === "active" && storage.seatsHeld(game).includes(game.to_move);
  }

  /** The challenges to the account (Accept, Decline) and from it (waiting for an answer). */
  renderChallenges({ incoming, outgoing }) {
    const row = (g, who, ...rest) => h("li", { class: "game-row", dataset: { game: g.id } },
      h("a", { href: `#/game/${g.id}` }, h("strong", {}, this.titleOf(g.kind)), who),
      clockBadge(g.time_control), ...rest);
    fill(this.incomingList, incoming.length ? h("ul", {}, incoming.map((g) => {
      const from = g.seats.find((s) => !s.open);
      return row(g, ` from ${from?.player || from?.name || "someone"}`,
        h("span", { class: "muted" }, ago(g.created_at)),
        h("span", { class: "answer", "data-refusal-row": true },
          h("button", { type: "button", class: "primary", onclick: (e) => this.answer(api.accept, g, e.currentTarget) }, "Accept"),
          h("button", { type: "button", onclick: (e) => this.answer(api.decline, g, e.currentTarget) }, "Decline")));
    })) : h("p", { class: "muted" }, "None right now."));
    fill(this.outgoingList, outgoing.length ? h("ul", {}, outgoing.map((g) =>
      row(g, ` to ${invitee(g) || "someone"}`, h("span", { class: "turn" }, "Waiting for an answer"))))
      : h("p", { class: "muted" }, "None waiting: challenge a player by choosing them as the opponent."));
  }

  /** Accept (and open the game) or decline a challenge. */
  async answer(call, game, button) {
    try {
      const response = await call(game.id);
      if (call === api.accept) location.hash = `#/game/${response.data.id}`;
    } catch (err) {
      showRefusal(button, err.message);
    }
    this.challengesPoller.now();
    this.gamesPoller.now();
  }

  renderOpen(games) {
    if (!games.length) {
      fill(this.openList, h("p", { class: "muted" }, "No open games right now."));
      return;
    }
    fill(this.openList, h("ul", {}, games.map((g) => {
      const host = g.seats.find((s) => !s.open);
      const range = g.seats.find((s) => s.open)?.rating_range;
      return h("li", { class: "game-row", dataset: { game: g.id } },
        h("a", { href: `#/game/${g.id}` }, h("strong", {}, this.titleOf(g.kind)),
          ` with ${host?.name || "someone"}`,
          host?.rating ? h("span", { class: "seat-rating muted" }, ` (${ratingText(host.rating)})`) : null),
        g.rated ? h("span", { class: "tag" }, range ? `rated · ${range.min}–${range.max}` : "rated") : null,
        clockBadge(g.time_control),
        h("span", { class: "muted" }, ago(g.created_at)),
        h("button", { type: "button", onclick: (e) => this.join(g, e.currentTarget) }, "Join"));
    })));
  }

  async join(game, button) {
    const name = this.account?.username || this.nameInput?.value.trim();
    if (!name) {
      showRefusal(button, "Please give your name first (at the top of New game).");
      return;
    }
    if (!this.account) storage.setPlayerName(name);
    try {
      const response = await api.join(game.id, name);
      storage.remember(game.id, game.kind, { [response.data.seat]: response.data.token });
      if (this.account) await claimStoredGames();
      location.hash = `#/game/${game.id}`;
    } catch (err) {
      showRefusal(button, err.message);
      this.loadLists();
    }
  }
}

/** The clock the New game form preselects for `kind`, and its default as a named choice: the
 *  API's default when it is none or days a move, else no clock (a fast clock is a choice the
 *  player makes), the default then offered by name as the tournament clock. */
function formClock(kind) {
  const tc = kind.default_time_control;
  if (tc.type === "none" || tc.type === "correspondence") return [tc, null];
  const calm = "none" in kind.time_controls ? { type: "none" } : { type: "correspondence", days_per_move: 3 };
  return [calm, { label: `The tournament clock: ${timeControlText(tc)}`, value: tc }];
}

/** A list row's clock: plain for none or days a move, marked when a fast clock runs (only
 *  then shown at all when `onlyFast`). */
function clockBadge(tc, onlyFast = false) {
  const fast = tc && (tc.type === "byoyomi" || tc.type === "fischer");
  if (onlyFast && !fast) return null;
  return h("span", { class: fast ? "clock-badge" : "muted" }, timeControlText(tc));
}
