// Playtests: start a batch of bot-vs-bot games on the workers (#/playtests, with the recent
// ones), watch its progress and read its report with charts (#/playtest/<id>), and open its
// sample games in the normal game view to replay them.

import * as api from "./api.js";
import { boxPlots, histogram, num, pct, rateBars, splitBar } from "./charts.js";
import { alertBox, fill, h, showAlert, showRefusal, submitting } from "./dom.js";
import { ago } from "./format.js";
import { optionsFieldset } from "./options.js";
import { followBatch } from "./poller.js";
import { playtestToken, rememberPlaytest } from "./storage.js";

const POLL_MS = 1000;         // a running playtest, with If-None-Match
const LIST_POLL_MS = 3000;    // the list, while one of its playtests runs
const LIST_IDLE_MS = 30000;   // the list otherwise
// The server's limits and defaults (api/playtests/__init__.py); it refuses anything else with a message.
const LIMITS = { games: [1, 1000], budget_s: [0, 2], chunk_games: [1, 100], samples: [0, 20] };
const DEFAULTS = { games: 100, budget_s: 0.1, chunk_games: 10, samples: 4 };
const RUNNING = new Set(["running", "cancelling"]);

const STATUS_TEXT = {
  running: "Running",
  cancelling: "Cancelling: queued jobs are dropped, a running one stops after its current game",
  finished: "Finished",
  failed: "Failed: a worker job failed; the report covers the games that were played",
  cancelled: "Cancelled: the report covers the games played before",
};

let kindTitles = {};
let kindReasons = {};  // per kind, each reason's words ("on time"), from GET /kinds

async function loadKinds() {
  const kinds = await api.kinds();
  kindTitles = Object.fromEntries(kinds.map((k) => [k.kind, k.title]));
  kindReasons = Object.fromEntries(kinds.map((k) => [k.kind,
    Object.fromEntries((k.reasons || []).map((r) => [r.reason, r.words]))]));
  return kinds;
}

const titleOf = (slug) => kindTitles[slug] || slug;

/** How a playtest's games ended, in words: a bot game is aborted only at the ply limit. */
function endingText(slug, reason) {
  const words = kindReasons[slug]?.[reason] || reason;
  return reason === "aborted" ? `${words} at the ply limit (counted as draws)` : words;
}

/** Start a playtest and keep its owner token, so this browser may cancel it; its id. */
async function startPlaytest(body) {
  const { data } = await api.startPlaytest(body);
  rememberPlaytest(data.id, data.owner_token);
  return data.id;
}

/** The two bots' names as the report shows them ("greedy A" and "greedy B" in a mirror match). */
export function botNames(bots) {
  return bots[0] === bots[1] ? [`${bots[0]} A`, `${bots[1]} B`] : [...bots];
}

const optionsText = (options) => Object.entries(options || {})
  .filter(([, v]) => v !== null && typeof v !== "object")
  .map(([k, v]) => `${k.replace(/_/g, " ")}: ${v === true ? "yes" : v === false ? "no" : v}`);

const progressText = (p) => (RUNNING.has(p.status) ? `${p.status} · ${p.done} of ${p.total} games`
  : `${p.status} · ${p.done} game${p.done === 1 ? "" : "s"}`);

/* ---------------------------------------------------------------- #/playtests */

export function mountPlaytests(root) {
  const view = new PlaytestsView(root);
  view.start();
  return view;
}

class PlaytestsView {
  constructor(root) {
    this.root = root;
    this.alert = alertBox();
    this.form = h("form", { class: "new-game playtest-form", "aria-label": "New playtest", novalidate: true });
    this.list = h("div", { class: "game-list playtest-list", "aria-live": "polite" },
      h("p", { class: "muted" }, "Loading…"));
    fill(root, h("div", { class: "lobby playtests" },
      h("section", { class: "card new" }, h("h1", {}, "New playtest"),
        h("p", { class: "muted hint" }, "Two bots play a batch of games on the workers, taking turns " +
          "in each seat; the report shows who wins, how often the first player wins, and how long " +
          "the games run."),
        this.alert, this.form),
      h("section", { class: "card mine" }, h("h2", {}, "Recent playtests"), this.list)));
    this.refresh = () => { if (!document.hidden) this.loadList(); };
    document.addEventListener("visibilitychange", this.refresh);
  }

  async start() {
    try {
      this.kinds = await loadKinds();
    } catch (err) {
      showAlert(this.alert, err.message);
      return;
    }
    if (this.destroyed) return;
    this.buildForm();
    this.loadList();
  }

  destroy() {
    this.destroyed = true;
    clearTimeout(this.timer);
    document.removeEventListener("visibilitychange", this.refresh);
  }

  buildForm() {
    const playable = this.kinds.filter((k) => k.bots.length);
    const kindSelect = h("select", { name: "kind" }, this.kinds.map((k) => h("option", {
      value: k.kind, disabled: !k.bots.length,
    }, k.bots.length ? k.title : `${k.title} (no bots yet)`)));
    if (playable.length) kindSelect.value = playable[0].kind;
    const options = optionsFieldset();
    const botA = h("select", { name: "bot-a" });
    const botB = h("select", { name: "bot-b" });
    const botLines = h("p", { class: "muted hint" });
    const games = h("input", { name: "games", type: "number", inputmode: "numeric", step: 1,
                               min: LIMITS.games[0], max: LIMITS.games[1], value: DEFAULTS.games });
    const budget = h("input", { name: "budget", type: "number", inputmode: "decimal", step: "any",
                                min: 0.01, max: LIMITS.budget_s[1], value: DEFAULTS.budget_s });
    const seed = h("input", { name: "seed", inputmode: "numeric", placeholder: "random",
                              autocomplete: "off", spellcheck: "false" });
    const chunk = h("input", { name: "chunk", type: "number", inputmode: "numeric", step: 1,
                               min: LIMITS.chunk_games[0], max: LIMITS.chunk_games[1],
                               value: DEFAULTS.chunk_games });
    const samples = h("input", { name: "samples", type: "number", inputmode: "numeric", step: 1,
                                 min: LIMITS.samples[0], max: LIMITS.samples[1], value: DEFAULTS.samples });

    const describeBots = () => {
      const kind = this.kindOf(kindSelect.value);
      const line = (level) => kind.bots.find((b) => b.level === level)?.line || "";
      fill(botLines, h("strong", {}, botA.value), `: ${line(botA.value)} `,
        botB.value !== botA.value ? [h("strong", {}, botB.value), `: ${line(botB.value)}`]
          : "The same level twice is a mirror match.");
    };
    const showKind = () => {
      const kind = this.kindOf(kindSelect.value);
      options.show(kind.options);
      const levels = kind.bots.map((b) => b.level);
      const pick = (select, fallback) => {
        const chosen = select.value;
        fill(select, levels.map((l) => h("option", { value: l }, l)));
        select.value = levels.includes(chosen) ? chosen : fallback;
      };
      // by default a stronger level against the weakest (the list runs weakest first)
      pick(botA, levels[Math.min(1, levels.length - 1)]);
      pick(botB, levels[0]);
      describeBots();
    };
    kindSelect.addEventListener("change", showKind);
    botA.addEventListener("change", describeBots);
    botB.addEventListener("change", describeBots);

    const range = ([lo, hi]) => `${lo} to ${hi}`;
    const submit = h("button", { class: "primary", type: "submit", disabled: !playable.length },
      "Start the playtest");
    fill(this.form,
      h("label", {}, "Game", kindSelect),
      options.el,
      h("div", { class: "pair" }, h("label", {}, "First bot", botA), h("label", {}, "Second bot", botB)),
      botLines,
      h("div", { class: "pair" },
        h("label", {}, "Games", games, h("small", { class: "muted" }, range(LIMITS.games))),
        h("label", {}, "Think time a move (s)", budget,
          h("small", { class: "muted" }, `at most ${LIMITS.budget_s[1]}`))),
      h("label", {}, "Seed (optional)", seed,
        h("small", { class: "muted" }, "The same seed plays the same games; left empty, the server picks one.")),
      h("details", { class: "more" }, h("summary", {}, "More settings"),
        h("div", { class: "pair" },
          h("label", {}, "Games a worker job", chunk, h("small", { class: "muted" }, range(LIMITS.chunk_games))),
          h("label", {}, "Sample games kept", samples, h("small", { class: "muted" }, range(LIMITS.samples))))),
      submit);
    if (playable.length) showKind();
    else showAlert(this.alert, "No game has bots yet, so there is nothing to playtest.");

    const whole = (input, name, [lo, hi], errors) => {
      const n = Number(input.value);
      if (input.value === "" || !Number.isInteger(n) || n < lo || n > hi) {
        errors.push(`${name} must be a whole number from ${lo} to ${hi}.`);
      }
      return n;
    };

    this.form.onsubmit = async (event) => {
      event.preventDefault();
      const { value: opts, errors } = options.read();
      const body = {
        kind: kindSelect.value, options: opts, bots: [botA.value, botB.value],
        games: whole(games, "Games", LIMITS.games, errors),
        chunk_games: whole(chunk, "Games a worker job", LIMITS.chunk_games, errors),
        samples: whole(samples, "Sample games kept", LIMITS.samples, errors),
      };
      const think = Number(budget.value);
      if (budget.value === "" || !(think > LIMITS.budget_s[0] && think <= LIMITS.budget_s[1])) {
        errors.push(`Think time must be more than 0 and at most ${LIMITS.budget_s[1]} seconds a move.`);
      }
      body.budget_s = think;
      const seedText = seed.value.trim();
      if (seedText) {
        if (!/^\d+$/.test(seedText) || !Number.isSafeInteger(Number(seedText))) {
          errors.push(`The seed must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER}.`);
        }
        body.seed = Number(seedText);
      }
      if (errors.length) {
        showRefusal(submit, errors.join(" "));
        return;
      }
      const id = await submitting(submit, null, () => startPlaytest(body));
      if (id) location.hash = `#/playtest/${id}`;
    };
  }

  kindOf(slug) {
    return this.kinds.find((k) => k.kind === slug);
  }

  async loadList() {
    clearTimeout(this.timer);
    let items;
    try {
      items = await api.listPlaytests();
    } catch (err) {
      if (this.destroyed) return;
      fill(this.list, h("p", { class: "muted" }, err.message));
      this.timer = setTimeout(this.refresh, LIST_IDLE_MS);
      return;
    }
    if (this.destroyed) return;
    if (!items.length) {
      fill(this.list, h("p", { class: "muted" }, "No playtests yet."));
    } else {
      fill(this.list, h("ul", {}, items.map((p) => h("li", {
        class: ["game-row", RUNNING.has(p.status) && "running"], dataset: { playtest: p.id },
      }, h("a", { href: `#/playtest/${p.id}` }, h("strong", {}, titleOf(p.kind)),
           ` · ${botNames(p.bots).join(" vs ")}`),
         h("span", { class: ["turn", `status-${p.status}`] }, progressText(p)),
         h("span", { class: "muted" }, ago(p.created_at))))));
    }
    const running = items.some((p) => RUNNING.has(p.status));
    this.timer = setTimeout(this.refresh, running ? LIST_POLL_MS : LIST_IDLE_MS);
  }
}

/* ---------------------------------------------------------------- #/playtest/<id> */

export function mountPlaytest(root, id) {
  const view = new PlaytestView(root, id);
  view.start();
  return view;
}

class PlaytestView {
  constructor(root, id) {
    this.root = root;
    this.id = id;
    this.playtest = null;
    this.title = h("h1", {}, "Playtest");
    this.meta = h("p", { class: "meta muted" });
    this.sweep = h("p", { class: "sweep-of", hidden: true });
    this.alert = alertBox();
    this.net = h("p", { class: "net muted", hidden: true });
    this.progress = h("div", { class: "pt-progress", "aria-live": "polite" });
    this.actions = h("div", { class: "confirm" });
    this.report = h("div", { class: "report" });
    fill(root, h("section", { class: "playtest" },
      h("div", { class: "card" }, this.title, this.meta, this.sweep, this.alert, this.net, this.progress,
        this.actions, h("p", {}, h("a", { href: "#/playtests" }, "All playtests"))),
      this.report));
  }

  start() {
    return followBatch(this, {
      load: async () => (await Promise.all([api.playtest(this.id), loadKinds().catch(() => null)]))[0],
      fetch: api.playtest, delayMs: POLL_MS, running: () => RUNNING.has(this.playtest.status),
      notFound: (err) => fill(this.root, h("section", { class: "card" }, h("h1", {}, "Playtest not found"),
        h("p", {}, err.message), h("p", {}, h("a", { href: "#/playtests" }, "All playtests")))),
    });
  }

  destroy() {
    this.destroyed = true;
    this.poller?.stop();
    document.title = "Postplay";
  }

  apply(p) {
    this.playtest = p;
    const names = botNames(p.bots);
    this.title.textContent = `Playtest: ${titleOf(p.kind)}`;
    this.meta.textContent = [`${names.join(" vs ")}`, `${p.total} games`,
      `think time ${num(p.budget_s, 3)} s a move`, `seed ${p.seed}`, ...optionsText(p.options),
      `started ${ago(p.created_at)}`].join(" · ");
    document.title = `${progressText(p)} · ${titleOf(p.kind)} playtest — Postplay`;
    if (p.sweep) {  // one variant of a sweep: the comparison is on the sweep's page
      this.sweep.hidden = false;
      fill(this.sweep, `Variant ${p.sweep.variant + 1} of a `,
        h("a", { href: `#/sweep/${p.sweep.id}` }, "sweep"), ".");
    }
    this.renderProgress(p);
    if (!RUNNING.has(p.status)) this.poller?.stop();  // over: not even a poll when the tab shows again
    if (p.report && !this.reportShown) {
      this.reportShown = true;
      this.renderReport(p, p.report);
    }
  }

  renderProgress(p) {
    const running = RUNNING.has(p.status);
    const failed = p.chunks.filter((c) => c.status === "failed" || c.status === "cancelled");
    const jobs = {};
    for (const c of p.chunks) jobs[c.status] = (jobs[c.status] || 0) + 1;
    fill(this.progress,
      h("p", { class: ["status", `status-${p.status}`] }, `${STATUS_TEXT[p.status] || p.status}.`),
      h("div", { class: "progress-row" },
        h("progress", { max: p.total, value: p.done, "aria-label": "Games played" }),
        h("span", { class: "done" }, `${p.done} of ${p.total} games`)),
      h("p", { class: "muted jobs" }, `Worker jobs: ${Object.entries(jobs).map(([k, n]) => `${n} ${k}`).join(", ")}.`),
      failed.filter((c) => c.error).map((c) => h("p", { class: "note bad" },
        `Games ${c.first_game + 1}–${c.first_game + c.games}: ${c.status}. ${c.error}`)));
    const token = playtestToken(p.id);  // only the browser that started it may cancel it
    if (running && p.status === "running" && token) {
      const cancel = h("button", { type: "button", class: "danger", onclick: () => this.cancel(cancel, token) },
        "Cancel the playtest");
      fill(this.actions, cancel);
    } else if (!running) {
      fill(this.actions, h("button", { type: "button", onclick: (e) => this.again(e.target) },
        "Play the same games again"));
    } else {
      fill(this.actions);
    }
  }

  async cancel(button, token) {
    button.disabled = true;
    try {
      const response = await api.cancelPlaytest(this.id, token);
      this.apply(response.data);
    } catch (err) {
      showRefusal(button, err.message);
    }
    this.poller.now();
  }

  /** A new playtest with this one's settings and seed. */
  async again(button) {
    const p = this.playtest;
    button.disabled = true;
    try {
      const id = await startPlaytest({
        kind: p.kind, options: p.options, bots: p.bots, games: p.total, seed: p.seed,
        budget_s: p.budget_s, chunk_games: p.chunk_games, samples: p.samples });
      location.hash = `#/playtest/${id}`;
    } catch (err) {
      showRefusal(button, err.message);
      button.disabled = false;
    }
  }

  renderReport(p, r) {
    if (!r.games) {
      fill(this.report, h("section", { class: "card" }, h("h2", {}, "Report"),
        h("p", {}, "No games were played, so there is nothing to report.")));
      return;
    }
    fill(this.report,
      this.resultsCard(p, r),
      this.ratesCard(p, r),
      r.length ? this.lengthCard(r) : null,
      r.scores ? this.scoresCard(p, r) : null,
      this.samplesCard(p, r));
  }

  resultsCard(p, r) {
    const names = botNames(p.bots);
    const games = r.games;
    const cell = (stat, value) => h("td", { dataset: { stat } }, String(value));
    const short = r.games < p.total
      ? h("p", { class: "note bad" }, `${r.games} of the ${p.total} games asked for were played.`) : null;
    const firstLosses = r.first_player.losses;
    return h("section", { class: "card results", "aria-label": "Results" },
      h("h2", {}, "Results"),
      h("p", { class: "games-played" }, h("strong", { dataset: { stat: "games" } }, String(games)),
        ` game${games === 1 ? "" : "s"} played`, r.wins.draws ? `, ${r.wins.draws} without a winner` : "", "."),
      short,
      splitBar([
        { count: r.wins.by_bot[0], label: `${names[0]} wins`, tone: "bot0" },
        { count: r.wins.draws, label: "draws", tone: "draw" },
        { count: r.wins.by_bot[1], label: `${names[1]} wins`, tone: "bot1" },
      ], `${names[0]} won ${r.wins.by_bot[0]}, ${r.wins.draws} draws, ${names[1]} won ${r.wins.by_bot[1]}`),
      h("p", { class: "legend" },
        h("span", {}, h("span", { class: "key bot0" }), ` ${names[0]} wins`),
        h("span", {}, h("span", { class: "key draw" }), " draws"),
        h("span", {}, h("span", { class: "key bot1" }), ` ${names[1]} wins`)),
      h("div", { class: "table-wrap" }, h("table", { class: "numbers by-bot" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Bot"), h("th", { scope: "col" }, "Wins"),
          h("th", { scope: "col" }, "Losses"), h("th", { scope: "col" }, "Draws"))),
        h("tbody", {}, r.bots.map((line, i) => h("tr", { dataset: { bot: String(i) } },
          h("th", { scope: "row" }, names[i], h("small", { class: "muted by-seat" },
            h("span", { dataset: { stat: "wins-white" } }, String(line.wins_by_seat[0])), " as White, ",
            h("span", { dataset: { stat: "wins-black" } }, String(line.wins_by_seat[1])), " as Black")),
          cell("wins", line.wins), cell("losses", line.losses), cell("draws", line.draws)))))),
      h("div", { class: "table-wrap" }, h("table", { class: "numbers by-seat" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Seat"), h("th", { scope: "col" }, "Wins"),
          h("th", { scope: "col" }, "Draws"))),
        h("tbody", {},
          h("tr", { dataset: { seat: "0" } }, h("th", { scope: "row" }, "White (seat 0)"),
            cell("wins", r.wins.by_seat[0]), cell("draws", r.wins.draws)),
          h("tr", { dataset: { seat: "1" } }, h("th", { scope: "row" }, "Black (seat 1)"),
            cell("wins", r.wins.by_seat[1]), cell("draws", r.wins.draws)),
          h("tr", { dataset: { seat: "first" } }, h("th", { scope: "row" }, "Moving first"),
            cell("wins", r.first_player.wins), cell("draws", r.first_player.draws)),
          h("tr", { dataset: { seat: "second" } }, h("th", { scope: "row" }, "Moving second"),
            cell("wins", firstLosses), cell("draws", r.first_player.draws))))),
      h("p", { class: "muted reasons" }, "How the games ended: ",
        Object.entries(r.reasons).map(([reason, n]) => `${endingText(p.kind, reason)} ${n}`).join(", "), "."));
  }

  ratesCard(p, r) {
    const names = botNames(p.bots);
    const n = r.games;
    const line = (name, wins, rate, ci) => `${name}: ${wins} of ${n} won, ${pct(rate)}` +
      (ci ? ` (95 %: ${pct(ci[0])}–${pct(ci[1])})` : "");
    const seat = (i, colour) => {
      const wins = r.wins.by_seat[i];
      const ci = r.wins.ci95_by_seat[i];
      return { label: line(colour, wins, wins / n, ci), rate: wins / n, ci, tone: `seat${i}` };
    };
    const fp = r.first_player;
    const rows = [
      ...r.bots.map((b, i) => ({ label: line(names[i], b.wins, b.win_rate, b.ci95), rate: b.win_rate,
                                  ci: b.ci95, tone: `bot${i}` })),
      seat(0, "White"), seat(1, "Black"),
      { label: line("Moving first", fp.wins, fp.win_rate, fp.ci95), rate: fp.win_rate, ci: fp.ci95,
        tone: "first" },
    ];
    const verdict = !fp.ci95 ? "" : fp.ci95[0] > 0.5 ? "Moving first wins more often than not, beyond chance."
      : fp.ci95[1] < 0.5 ? "Moving second wins more often than not, beyond chance."
        : "These games cannot tell whether moving first helps: the interval spans 50 %.";
    return h("section", { class: "card rates", "aria-label": "Win rates" },
      h("h2", {}, "Win rates"),
      rateBars(rows, "Win rates by bot, by seat and for the first player, with 95 % intervals"),
      h("p", { class: "first-player" }, h("strong", {}, `First player wins ${pct(fp.win_rate)}`),
        fp.ci95 ? ` (95 % interval ${pct(fp.ci95[0])} to ${pct(fp.ci95[1])}). ` : ". ", verdict),
      h("p", { class: "muted hint-after" }, "Bars: share of all games won (draws count as not won); " +
        "whiskers: the Wilson 95 % interval; dashed line: 50 %."));
  }

  lengthCard(r) {
    const L = r.length;
    return h("section", { class: "card length", "aria-label": "Game length" },
      h("h2", {}, "Game length"),
      histogram(L.histogram, {
        label: `Game lengths in plies: mean ${num(L.mean)}, median ${num(L.median)}`,
        markers: [{ value: L.mean, label: `mean ${num(L.mean)}`, tone: "mean" },
                  { value: L.median, label: `median ${num(L.median)}`, tone: "median" }],
      }),
      h("p", { class: "muted" }, `Plies (moves, the server's passes included): mean ${num(L.mean)}, ` +
        `median ${num(L.median)}, standard deviation ${num(L.stdev)}, middle half ${num(L.p25)} to ` +
        `${num(L.p75)}, shortest ${num(L.min)}, longest ${num(L.max)}.`));
  }

  scoresCard(p, r) {
    const names = botNames(p.bots);
    const S = r.scores;
    const M = S.margin;
    const rows = [
      ...S.by_bot.map((stats, i) => ({ label: names[i], stats, tone: `bot${i}` })),
      { label: "White", stats: S.by_seat[0], tone: "seat0" },
      { label: "Black", stats: S.by_seat[1], tone: "seat1" },
    ];
    const markers = [{ value: M.mean, label: `mean ${num(M.mean)}`, tone: "mean" }];
    if (M.histogram.length && M.histogram[0].from <= 0 && M.histogram[M.histogram.length - 1].to >= 0) {
      markers.push({ value: 0, label: "even", tone: "zero" });
    }
    return h("section", { class: "card scores", "aria-label": "Scores" },
      h("h2", {}, "Scores"),
      h("p", { class: "muted" }, `Over the ${S.games} scored games.`),
      boxPlots(rows, "Score spread by bot and by seat"),
      h("p", { class: "muted" }, "Whiskers: lowest to highest; box: the middle half; line: the median; dot: the mean."),
      h("h3", {}, `Margin: ${names[0]} minus ${names[1]}`),
      M.histogram.length ? histogram(M.histogram, { label: `Score margins of ${names[0]} over ${names[1]}`,
                                                    markers, tone: "margin" }) : null,
      h("p", { class: "muted" }, `Mean ${num(M.mean)}, median ${num(M.median)}, standard deviation ` +
        `${num(M.stdev)}, from ${num(M.min)} to ${num(M.max)}.`));
  }

  samplesCard(p, r) {
    const names = botNames(p.bots);
    // the first bot sits in seat index % 2 (api/playtests/__init__.py seating)
    const nameIn = (sample, seat) => names[(sample.index % 2) ^ seat];
    const colour = ["White", "Black"];
    return h("section", { class: "card samples", "aria-label": "Sample games" },
      h("h2", {}, "Sample games"),
      r.samples.length ? h("ul", { class: "sample-list" }, r.samples.map((g) => h("li", { dataset: { game: g.game_id } },
        h("a", { href: `#/game/${g.game_id}` }, `Game ${g.index + 1}: ${nameIn(g, 0)} (White) vs ${nameIn(g, 1)} (Black)`),
        h("span", { class: "muted" }, ` ${colour[g.first]} first; `,
          g.winner === null ? "no winner" : `${nameIn(g, g.winner)} wins`,
          ` in ${g.plies} plies.`))))
        : h("p", { class: "muted" }, "This playtest kept no sample games."),
      r.samples.length ? h("p", { class: "muted" }, "Each opens in the game view, where the move list steps through it.") : null);
  }
}
