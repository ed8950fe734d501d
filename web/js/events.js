// Events (#/events, #/event/<id>) and ladders (#/ladders, #/ladder/<kind>): tournaments open for
// entries, running and finished, a form that creates one with its format's own fields; an
// event's page with its players, standings, crosstable (round-robin) and rounds, each game
// linked, and the join, leave, start and cancel its reader may use; a game's standing ladder,
// joined at the bottom, challenged up to three ranks above. The workers run every step of an
// event: these pages poll what they did.

import * as api from "./api.js";
import { alertBox, fill, h, submitting } from "./dom.js";
import { timeControlText } from "./format.js";
import { optionsFieldset, timeControlFields } from "./options.js";
import * as storage from "./storage.js";

const REFRESH_MS = 5000;
export const FORMATS = { "round-robin": "Round-robin", swiss: "Swiss", knockout: "Knockout" };
const STATUSES = [["open", "Open for entries"], ["running", "Running"], ["finished", "Finished"]];
const TIEBREAKS = { sonneborn_berger: "SB", buchholz_cut1: "Buchholz −1", direct_encounter: "Direct",
                    wins: "Wins" };
const CHALLENGE_REACH = 3;  // ranks above one's own a ladder challenge may reach

/** A view that refreshes `load` every REFRESH_MS until it is left. */
function polled(load) {
  const view = {
    destroyed: false, timer: null,
    destroy() { this.destroyed = true; clearTimeout(this.timer); },
    async refresh() {
      clearTimeout(this.timer);
      try { await load(view); } catch { /* shown by load; the next refresh tries again */ }
      if (!this.destroyed) this.timer = setTimeout(() => this.refresh(), REFRESH_MS);
    },
  };
  view.drawn = view.refresh();
  return view;
}

const playerLink = (name) => h("a", { href: `#/player/${encodeURIComponent(name)}` }, name);
const isMe = (name) => storage.account()?.username === name;

// ------------------------------------------------------------------------------ the list

export function mountEvents(root) {
  const lists = Object.fromEntries(STATUSES.map(([status]) => [status,
    h("div", { class: "event-list", dataset: { status } }, h("p", { class: "muted" }, "Loading…"))]));
  const form = h("form", { class: "new-game new-event", "aria-label": "New event" });
  document.title = "Events — Postplay";
  fill(root, h("div", { class: "events" },
    h("section", { class: "card" }, h("h1", {}, "Events"),
      h("p", { class: "muted" }, "Round-robin, Swiss and knockout tournaments played by "
        + "correspondence; the server pairs each round and starts its games. Each game also has "
        + "a standing ", h("a", { href: "#/ladders" }, "ladder"), "."),
      STATUSES.map(([status, title]) => [h("h2", {}, title), lists[status]])),
    h("section", { class: "card" }, h("h2", {}, "Create an event"), form)));
  showForm(form);
  return polled(async (view) => {
    await Promise.all(STATUSES.map(async ([status]) => {
      let items;
      try {
        items = await api.listTournaments(status);
      } catch (err) {
        if (!view.destroyed) fill(lists[status], h("p", { class: "alert", role: "alert" }, err.message));
        throw err;
      }
      if (view.destroyed) return;
      fill(lists[status], items.length ? h("ul", { class: "events-list" }, items.map((t) => h("li", {},
        h("a", { href: `#/event/${t.id}` }, t.name), " ",
        h("span", { class: "muted" }, `${FORMATS[t.format] || t.format} · ${t.kind} · `
          + `${t.players.length}/${t.max_players} players`
          + (status === "open" ? ` · starts ${new Date(t.starts_at).toLocaleString()}` : "")),
        t.invite_only ? h("span", { class: "tag" }, "invite only") : null)))
        : h("p", { class: "muted" }, "None."));
    }));
  });
}

/** The create form: the format's own fields shown for that format only. */
async function showForm(form) {
  if (!storage.account()) {
    fill(form, h("p", {}, h("a", { href: "#/signin" }, "Sign in"), " to create an event."));
    return;
  }
  const kinds = await api.kinds();
  const alert = alertBox();
  const kindSelect = h("select", { name: "kind" }, kinds.map((k) => h("option", { value: k.kind }, k.title)));
  const format = h("select", { name: "format" },
    Object.entries(FORMATS).map(([value, title]) => h("option", { value }, title)));
  const name = h("input", { name: "name", required: true, maxlength: 80, autocomplete: "off" });
  const rounds = h("input", { name: "rounds", type: "number", min: 1, max: 50, value: 3 });
  const double = h("input", { name: "double", type: "checkbox" });
  const maxPlayers = h("input", { name: "max_players", type: "number", min: 2, max: 1000, value: 8 });
  const minPlayers = h("input", { name: "min_players", type: "number", min: 2, max: 1000, value: 2 });
  const tomorrow = new Date(Date.now() + 86400e3);
  tomorrow.setSeconds(0, 0);
  const local = new Date(tomorrow - tomorrow.getTimezoneOffset() * 60e3).toISOString().slice(0, 16);
  const startsAt = h("input", { name: "starts_at", type: "datetime-local", value: local, required: true });
  const rated = h("input", { name: "rated", type: "checkbox", checked: true });
  const inviteOnly = h("input", { name: "invite_only", type: "checkbox" });
  const rangeMin = h("input", { name: "rating_min", type: "number", min: 0, max: 4000, step: 50 });
  const rangeMax = h("input", { name: "rating_max", type: "number", min: 0, max: 4000, step: 50 });
  const roundsLine = h("label", {}, "Rounds", rounds);
  const doubleLine = h("label", { class: "check" }, double, " Double round-robin (each pair plays twice)");
  const options = optionsFieldset();
  const clock = h("fieldset", { class: "clock-fields" });
  let clockFields = null;
  const showKind = () => {
    const kind = kinds.find((k) => k.kind === kindSelect.value);
    options.show(kind.options || []);
    const shapes = Object.fromEntries(Object.entries(kind.time_controls)
      .filter(([type]) => type === "correspondence" || type === "banked"));
    clockFields = timeControlFields(Object.keys(shapes).length ? shapes : kind.time_controls,
                                    { type: "correspondence", days_per_move: 3 });
    fill(clock, h("legend", {}, "Clock"), clockFields.el);
  };
  const showFormat = () => {
    roundsLine.hidden = format.value !== "swiss";
    doubleLine.hidden = format.value !== "round-robin";
  };
  kindSelect.addEventListener("change", showKind);
  format.addEventListener("change", showFormat);
  showKind();
  showFormat();
  const submit = h("button", { class: "primary", type: "submit" }, "Create the event");
  fill(form, h("label", {}, "Name", name), h("label", {}, "Game", kindSelect),
    h("label", {}, "Format", format), roundsLine, doubleLine,
    h("label", {}, "Most players", maxPlayers), h("label", {}, "Fewest players to start", minPlayers),
    h("label", {}, "Starts at", startsAt), options.el, clock,
    h("label", { class: "check" }, rated, " Rated"),
    h("label", { class: "check" }, inviteOnly, " Invite only (players join with a code)"),
    h("div", { class: "rating-range" }, h("label", {}, "Rating from", rangeMin), h("label", {}, "to", rangeMax)),
    alert, submit);
  form.onsubmit = async (event) => {
    event.preventDefault();
    const { value: opts, errors } = options.read();
    const tc = clockFields.read();
    if (tc.error) errors.push(tc.error);
    const when = new Date(startsAt.value);
    if (Number.isNaN(when.getTime())) errors.push("Please give the start's date and time.");
    if ((rangeMin.value === "") !== (rangeMax.value === "")) errors.push("Give both ends of the rating range, or neither.");
    if (errors.length) {
      fill(alert, errors.join(" "));
      alert.hidden = false;
      return;
    }
    const body = { name: name.value.trim(), kind: kindSelect.value, format: format.value,
                   options: opts, time_control: tc.value, max_players: Number(maxPlayers.value),
                   min_players: Number(minPlayers.value), starts_at: when.toISOString(),
                   rated: rated.checked, invite_only: inviteOnly.checked };
    if (format.value === "swiss") body.rounds = Number(rounds.value);
    if (format.value === "round-robin") body.double = double.checked;
    if (rangeMin.value !== "") body.rating_range = { min: Number(rangeMin.value), max: Number(rangeMax.value) };
    const made = await submitting(submit, alert, () => api.createTournament(body));
    if (made) location.hash = `#/event/${made.id}`;
  };
}

// ------------------------------------------------------------------------------ one event

export function mountEvent(root, id) {
  const alert = alertBox();
  const body = h("div", {}, h("p", { class: "muted" }, "Loading…"));
  fill(root, h("section", { class: "card event" }, body, alert));
  let etag = null;
  let shown = null;
  const act = (button, action) => submitting(button, alert, async () => {
    shown = await action();
    etag = null;
    draw();
  });
  const draw = () => fill(body, ...eventParts(shown, act));
  return polled(async (view) => {
    let answer;
    try {
      answer = await api.tournament(id, etag);
    } catch (err) {
      if (!view.destroyed && !shown) fill(body, h("h1", {}, "Event"), h("p", { class: "alert", role: "alert" }, err.message));
      throw err;
    }
    if (view.destroyed || answer.status === 304) return;
    etag = answer.etag;
    shown = answer.data;
    draw();
  });
}

function eventParts(t, act) {
  document.title = `${t.name} — Postplay`;
  const me = storage.account();
  const entered = t.players.some((p) => isMe(p.player) && !p.withdrawn);
  const organiser = isMe(t.organiser);
  const controls = [];
  if (me && t.status === "open" && !entered) {
    const invite = t.invite_only && !organiser ? h("input", { name: "invite", autocomplete: "off" }) : null;
    const join = h("button", { class: "primary", type: "button" }, "Join");
    join.onclick = () => act(join, () => api.joinTournament(t.id, invite ? { invite: invite.value.trim() } : {}));
    controls.push(invite ? h("label", {}, "Invite code", invite) : null, join);
  }
  if (me && entered && ["open", "running"].includes(t.status)) {
    const leave = h("button", { type: "button" }, t.status === "open" ? "Leave" : "Withdraw");
    leave.onclick = () => act(leave, () => api.leaveTournament(t.id));
    controls.push(leave);
  }
  if (organiser && t.status === "open") {
    const start = h("button", { type: "button" }, "Start now");
    start.onclick = () => act(start, () => api.startTournament(t.id));
    const cancel = h("button", { type: "button", class: "danger" }, "Cancel the event");
    cancel.onclick = () => act(cancel, () => api.cancelTournament(t.id));
    controls.push(start, cancel);
  }
  const rules = [FORMATS[t.format] || t.format,
    t.format === "swiss" ? `${t.rounds_planned} rounds` : null,
    t.format === "round-robin" && t.double ? "double" : null,
    t.kind, timeControlText(t.time_control), t.rated ? "rated" : "casual",
    t.rating_range ? `ratings ${t.rating_range.min}–${t.rating_range.max}` : null,
    `${t.min_players}–${t.max_players} players`].filter(Boolean).join(" · ");
  return [
    h("h1", {}, t.name),
    h("p", { class: "event-status", dataset: { status: t.status } },
      h("strong", {}, t.status), " · ", rules),
    h("p", { class: "muted" }, "Organised by ", playerLink(t.organiser),
      t.status === "open" ? ` · starts ${new Date(t.starts_at).toLocaleString()}` : ""),
    t.invite ? h("p", {}, "Invite code: ", h("code", { class: "invite" }, t.invite)) : null,
    controls.length ? h("div", { class: "event-actions" }, controls) : null,
    h("h2", {}, "Players"),
    t.players.length ? h("ul", { class: "event-players" }, t.players.map((p) => h("li", {},
      playerLink(p.player), ` (${p.rating})`, p.bot ? h("span", { class: "tag" }, "bot") : null,
      p.withdrawn ? h("span", { class: "tag" }, "withdrawn") : null)))
      : h("p", { class: "muted" }, "Nobody has joined yet."),
    t.rounds.length ? standingsTable(t) : null,
    t.crosstable && t.rounds.length ? crosstable(t) : null,
    t.rounds.length ? [h("h2", {}, "Rounds"), t.rounds.map(roundPart)] : null,
  ];
}

function standingsTable(t) {
  const breaks = Object.keys(t.standings[0]?.tiebreaks || {});
  return [h("h2", {}, "Standings"), h("div", { class: "table-wrap" }, h("table", { class: "numbers standings" },
    h("thead", {}, h("tr", {}, ["#", "Player", "Score", ...breaks.map((b) => TIEBREAKS[b] || b), "Played"]
      .map((c) => h("th", { scope: "col" }, c)))),
    h("tbody", {}, t.standings.map((row) => h("tr", { dataset: { player: row.player } },
      h("td", {}, String(row.rank)), h("th", { scope: "row" }, playerLink(row.player)),
      h("td", {}, String(row.score)), breaks.map((b) => h("td", {}, String(row.tiebreaks[b]))),
      h("td", {}, String(row.played)))))))];
}

function crosstable(t) {
  const names = t.crosstable.map((row) => row.player);
  const cell = (row, other) => {
    if (row.player === other) return h("td", { class: "self" }, "—");
    return h("td", {}, (row.results[other] || []).map((v) => (v === 0.5 ? "½" : String(v))).join(" ") || "·");
  };
  return [h("h2", {}, "Crosstable"), h("div", { class: "table-wrap" }, h("table", { class: "numbers crosstable" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"),
      names.map((n, i) => h("th", { scope: "col", title: n }, String(i + 1))))),
    h("tbody", {}, t.crosstable.map((row, i) => h("tr", {},
      h("th", { scope: "row" }, `${i + 1}. `, playerLink(row.player)), names.map((n) => cell(row, n)))))))];
}

function resultText(pairing) {
  const r = pairing.result;
  if (!r) return "playing";
  if (r.winner === null || r.winner === undefined) return "draw";
  return `${pairing.seats[r.winner]} won`;
}

function roundPart(r) {
  return h("section", { class: "event-round", dataset: { round: r.round } },
    h("h3", {}, `Round ${r.round}`),
    h("ul", { class: "pairings" }, r.pairings.map((p) => h("li", {},
      h("a", { href: `#/game/${p.game_id}`, class: "pairing" }, `${p.seats[0]} – ${p.seats[1]}`),
      p.replay ? ` (replay ${p.replay})` : "", " ", h("span", { class: "muted" }, resultText(p)))),
      r.byes.map((b) => h("li", { class: "bye" }, `${b}: bye`))));
}

// ------------------------------------------------------------------------------ ladders

export function mountLadder(root, slug) {
  const alert = alertBox();
  const body = h("div", {}, h("p", { class: "muted" }, "Loading…"));
  fill(root, h("section", { class: "card ladder" }, h("h1", {}, "Ladders"), body, alert));
  let kinds = null;
  let kind = null;
  let shown = null;
  const draw = () => fill(body, ...ladderParts(kinds, kind, shown, (button, action) =>
    submitting(button, alert, async () => {
      const answer = await action();
      if (answer.ranks) {
        shown = answer;
        draw();
      } else {
        location.hash = `#/game/${answer.id}`;  // a challenge: its game starts
      }
    })));
  return polled(async (view) => {
    kinds ??= await api.kinds();
    kind = kinds.find((k) => k.kind === slug) || kinds[0];
    const answer = await api.ladder(kind.kind);
    if (view.destroyed) return;
    shown = answer;
    draw();
  });
}

function ladderParts(kinds, kind, ladder, act) {
  document.title = `${kind.title} ladder — Postplay`;
  const me = storage.account();
  const mine = ladder.ranks.find((r) => isMe(r.player));
  let join = null;
  if (me && !mine) {
    join = h("button", { class: "primary", type: "button" }, "Join this ladder");
    join.onclick = () => act(join, () => api.joinLadder(kind.kind));
  }
  const canChallenge = (r) => mine && !mine.open_game && !r.open_game
    && r.rank < mine.rank && r.rank >= mine.rank - CHALLENGE_REACH;
  return [
    h("ul", { class: "kind-tabs" }, kinds.map((k) => h("li", {},
      h("a", { href: `#/ladder/${k.kind}`, "aria-current": k.kind === kind.kind ? "page" : null }, k.title)))),
    h("h2", {}, kind.title),
    h("p", { class: "muted" }, "Join at the bottom and challenge a player up to three ranks above "
      + "you, one open ladder game at a time; the winner takes the higher of the two ranks."),
    join,
    ladder.ranks.length ? h("div", { class: "table-wrap" }, h("table", { class: "numbers ladder-ranks" },
      h("thead", {}, h("tr", {}, ["#", "Player", "Game"].map((c) => h("th", { scope: "col" }, c)))),
      h("tbody", {}, ladder.ranks.map((r) => {
        let action = r.open_game ? h("a", { href: `#/game/${r.open_game}` }, "playing") : null;
        if (canChallenge(r)) {
          action = h("button", { type: "button", "aria-label": `Challenge ${r.player}` }, "Challenge");
          action.onclick = () => act(action, () => api.challengeOnLadder(kind.kind, r.rank));
        }
        return h("tr", { dataset: { player: r.player } }, h("td", {}, String(r.rank)),
          h("th", { scope: "row" }, playerLink(r.player)), h("td", {}, action));
      }))))
      : h("p", { class: "muted" }, "Nobody is on this ladder yet."),
  ];
}
