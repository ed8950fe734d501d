// The lobby: start a game (game, options, opponent, first player, clock), my games with whose
// turn it is, and the open games anyone may join.

import * as api from "./api.js";
import { alertBox, fill, h, showAlert } from "./dom.js";
import { ago, statusLine, timeControlText } from "./format.js";
import { optionsFieldset, timeControlFields } from "./options.js";
import * as storage from "./storage.js";

const REFRESH_MS = 30000;

export function mountLobby(root) {
  const view = new Lobby(root);
  view.start();
  return view;
}

class Lobby {
  constructor(root) {
    this.root = root;
    this.alert = alertBox();
    this.form = h("form", { class: "new-game", "aria-label": "New game" });
    this.mineList = h("div", { class: "game-list", "aria-live": "polite" });
    this.openList = h("div", { class: "game-list" });
    fill(root, h("div", { class: "lobby" },
      h("section", { class: "card mine" }, h("h2", {}, "My games"), this.mineList),
      h("section", { class: "card new" }, h("h1", {}, "New game"), this.alert, this.form),
      h("section", { class: "card open" }, h("h2", {}, "Open games"), this.openList)));
    this.seen = new Map();  // game id -> {etag, game}: my games as last fetched
    this.refresh = () => { if (!document.hidden) this.loadLists(); };
    document.addEventListener("visibilitychange", this.refresh);
  }

  async start() {
    try {
      this.kinds = await api.kinds();
    } catch (err) {
      showAlert(this.alert, err.message);
      return;
    }
    if (this.destroyed) return;
    this.buildForm();
    this.loadLists();
    this.timer = setInterval(this.refresh, REFRESH_MS);
  }

  destroy() {
    this.destroyed = true;
    clearInterval(this.timer);
    document.removeEventListener("visibilitychange", this.refresh);
  }

  buildForm() {
    const name = h("input", { name: "name", required: true, maxlength: 40, autocomplete: "nickname",
                              value: storage.playerName(), placeholder: "Your name" });
    this.nameInput = name;
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
    let clockFields = null;

    const describeOpponent = () => {
      const kind = this.kindOf(kindSelect.value);
      const bot = kind.bots.find((b) => `bot:${b.level}` === opponent.value);
      opponentLine.textContent = bot ? bot.line : {
        invite: "You get a link to send; whoever opens it takes the other seat. The game is not "
          + "listed under Open games.",
        open: "The game is listed under Open games for anyone to join (and you get a link too).",
        local: "Both seats are played from this browser, taking turns.",
      }[opponent.value];
    };
    const showKind = () => {
      const kind = this.kindOf(kindSelect.value);
      summary.replaceChildren(kind.summary || "", " ",
        h("a", { href: `#/rules/${kind.kind}` }, "Rules"));
      options.show(kind.options);
      const chosen = opponent.value;
      fill(opponent,
        kind.bots.length ? h("optgroup", { label: "A bot" }, kind.bots.map((b) =>
          h("option", { value: `bot:${b.level}` }, `Bot: ${b.level}`))) : null,
        h("optgroup", { label: "A person" },
          h("option", { value: "invite" }, "A friend, by invite link"),
          h("option", { value: "open" }, "Anyone (open seat)"),
          h("option", { value: "local" }, "Two players on this device")));
      if ([...opponent.options].some((o) => o.value === chosen)) opponent.value = chosen;
      describeOpponent();
      clockFields = timeControlFields(kind.time_controls, kind.default_time_control);
      fill(clock, h("legend", {}, "Clock"), clockFields.el);
    };
    kindSelect.addEventListener("change", showKind);
    opponent.addEventListener("change", describeOpponent);

    const submit = h("button", { class: "primary", type: "submit" }, "Start the game");
    fill(this.form,
      h("label", {}, "Your name", name),
      h("label", {}, "Game", kindSelect), summary,
      options.el,
      h("label", {}, "Opponent", opponent), opponentLine,
      h("label", {}, "First to move", first),
      clock, submit);
    showKind();

    this.form.onsubmit = async (event) => {
      event.preventDefault();
      const player = name.value.trim();
      const { value: opts, errors } = options.read();
      const tc = clockFields.read();
      if (tc.error) errors.push(tc.error);
      if (!player) errors.push("Please give your name.");
      if (errors.length) {
        showAlert(this.alert, errors.join(" "));
        return;
      }
      storage.setPlayerName(player);
      const other = opponent.value;
      const me = { human: { name: player } };
      const them = other.startsWith("bot:") ? { bot: other.slice(4) }
        : other === "local" ? { human: { name: `${player} (2)` } }
          : { open: true, listed: other === "open" };  // an invite: only those with the link see it
      const body = { kind: kindSelect.value, options: opts, seats: [me, them],
                     first: first.value === "random" ? "random" : Number(first.value),
                     time_control: tc.value };
      submit.disabled = true;
      try {
        const response = await api.create(body);
        storage.remember(response.data.id, body.kind, response.data.tokens);
        showAlert(this.alert, null);
        location.hash = `#/game/${response.data.id}`;
      } catch (err) {
        showAlert(this.alert, err.message);
      } finally {
        submit.disabled = false;
      }
    };
  }

  kindOf(slug) {
    return this.kinds.find((k) => k.kind === slug);
  }

  titleOf(slug) {
    return this.kindOf(slug)?.title || slug;
  }

  async loadLists() {
    const mine = storage.myGames();
    const [games, open] = await Promise.all([
      Promise.all(mine.map((entry) => this.myGame(entry))),
      api.listGames({ status: "waiting" }).catch((err) => { showAlert(this.alert, err.message); return []; }),
    ]);
    if (this.destroyed) return;
    this.renderMine(games);
    const held = new Set(mine.map((m) => m.id));
    this.renderOpen(open.filter((g) => !held.has(g.id)));
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

  renderMine(games) {
    if (!games.length) {
      fill(this.mineList, h("p", { class: "muted" }, "No games yet: start a new one, or join an open game."));
      return;
    }
    const order = (g) => (g.error ? 4 : g.status === "finished" ? 3 : this.myTurn(g) ? 0
      : g.status === "active" ? 1 : 2);
    const sorted = [...games].sort((a, b) => order(a) - order(b));
    fill(this.mineList, h("ul", {}, sorted.map((g) => {
      const mine = Object.keys(storage.tokensFor(g.id)).map(Number);
      const forget = h("button", { type: "button", class: "link", onclick: () => {
        storage.forget(g.id);
        this.loadLists();
      } }, "Forget");
      if (g.error) {
        return h("li", { class: "game-row" }, h("span", {}, this.titleOf(g.kind)),
          h("span", { class: "muted" }, g.missing || g.error), g.missing ? forget : null);
      }
      const opponents = g.seats.filter((_, i) => !mine.includes(i) || mine.length > 1)
        .map((s) => (!s.open ? s.name : s.listed === false ? "invited friend" : "open seat")).join(" vs ");
      return h("li", { class: ["game-row", this.myTurn(g) && "my-turn"], dataset: { game: g.id } },
        h("a", { href: `#/game/${g.id}` }, h("strong", {}, this.titleOf(g.kind)), ` vs ${opponents}`),
        h("span", { class: "turn" }, statusLine(g, mine)),
        h("span", { class: "muted" }, ago(g.updated_at)),
        g.status === "finished" ? forget : null);
    })));
  }

  myTurn(game) {
    const mine = Object.keys(storage.tokensFor(game.id)).map(Number);
    return game.status === "active" && mine.includes(game.to_move);
  }

  renderOpen(games) {
    if (!games.length) {
      fill(this.openList, h("p", { class: "muted" }, "No open games right now."));
      return;
    }
    fill(this.openList, h("ul", {}, games.map((g) => {
      const host = g.seats.find((s) => !s.open);
      return h("li", { class: "game-row", dataset: { game: g.id } },
        h("a", { href: `#/game/${g.id}` }, h("strong", {}, this.titleOf(g.kind)),
          ` with ${host?.name || "someone"}`),
        h("span", { class: "muted" }, timeControlText(g.time_control)),
        h("span", { class: "muted" }, ago(g.created_at)),
        h("button", { type: "button", onclick: () => this.join(g) }, "Join"));
    })));
  }

  async join(game) {
    const name = this.nameInput.value.trim();
    if (!name) {
      showAlert(this.alert, "Please give your name first.");
      this.nameInput.focus();
      return;
    }
    storage.setPlayerName(name);
    try {
      const response = await api.join(game.id, name);
      storage.remember(game.id, game.kind, { [response.data.seat]: response.data.token });
      location.hash = `#/game/${game.id}`;
    } catch (err) {
      showAlert(this.alert, err.message);
      this.loadLists();
    }
  }
}
