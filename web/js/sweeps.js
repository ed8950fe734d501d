// Sweeps: a designer's comparison of rule variants. #/sweeps starts one (the game, two bots, the
// options to vary with their values, all from GET /kinds) and lists the recent ones; #/sweep/<id>
// follows its progress, then draws the comparison (first-player win rate per variant with its 95 %
// interval and the 50 % line, game lengths as box plots), links each variant to its playtest
// report and sample games, and offers the comparison as CSV and the whole sweep as JSON.

import * as api from "./api.js";
import { boxPlots, num, pct, rateBars } from "./charts.js";
import { alertBox, fill, h, showAlert, submitting } from "./dom.js";
import { ago } from "./format.js";
import { optionField } from "./options.js";
import { followBatch } from "./poller.js";
import { botNames } from "./playtests.js";
import * as storage from "./storage.js";

const POLL_MS = 1500;        // a running sweep, with If-None-Match
const LIST_POLL_MS = 3000;   // the list, while one of its sweeps runs
const LIST_IDLE_MS = 30000;  // the list otherwise
// The server's limits and defaults (api/playtests/sweeps.py and api/playtests/__init__.py).
const MAX_VARIANTS = 24;
const LIMITS = { games: [1, 1000], budget_s: [0, 2] };
const DEFAULTS = { games: 50, budget_s: 0.1 };
const RUNNING = new Set(["running", "cancelling"]);
const CHART_LABEL = 44;  // characters of a variant's label a chart row has room for

const STATUS_TEXT = {
  running: "Running",
  cancelling: "Cancelling: queued jobs are dropped, running ones stop after their current game",
  finished: "Finished",
  failed: "Failed: a worker job failed; the comparison covers the games that were played",
  cancelled: "Cancelled: the comparison covers the games played before",
};

const short = (text, most = CHART_LABEL) => (text.length > most ? `${text.slice(0, most - 1)}…` : text);
const words = (name) => name.replace(/_/g, " ");

/** A variant named in words: "even start: on, n: 60" (its label is the raw keys). */
const spoken = (variant) => Object.entries(variant.values || {}).map(([name, value]) =>
  `${words(name)}: ${value === true ? "on" : value === false ? "off"
    : typeof value === "object" ? JSON.stringify(value) : value}`).join(", ") || variant.label;

/** The exact two-sided sign test, as the server runs it (api/playtests/sweeps.py). */
function signTest(better, worse) {
  const n = better + worse;
  const logFact = [0];
  for (let k = 1; k <= n; k += 1) logFact.push(logFact[k - 1] + Math.log(k));
  let tail = 0;
  for (let k = 0; k <= Math.min(better, worse); k += 1) {
    tail += Math.exp(logFact[n] - logFact[k] - logFact[n - k] - n * Math.LN2);
  }
  return Math.min(1, 2 * tail);
}

/** About how many games a variant would need, at the rates seen, for its paired test to tell
 *  it from the most balanced one (Holm's adjustment taken at its largest, `tests` times): null
 *  when it won and lost as often (no number of games would). */
function gamesToTell(test, games, tests, alpha) {
  if (!test || test.better === test.worse) return null;
  for (let k = 2; k <= 1000; k += 1) {
    if (signTest(k * test.better, k * test.worse) * tests < alpha) return k * games;
  }
  return null;
}

/** The credential that may cancel sweep `s` here: the owner token this browser keeps, or the
 *  signed-in account's token when the sweep is the account's; null when neither. */
function cancelToken(s) {
  return storage.playtestToken(s.id)
    || (s.owner && storage.isMe(s.owner) ? storage.account()?.token : null) || null;
}

/* ---------------------------------------------------------------- #/sweeps */

export function mountSweeps(root) {
  const view = new SweepsView(root);
  view.start();
  return view;
}

/**
 * One option's row in the sweep form: a fixed value (the game form's own field) or, with "Vary"
 * ticked, the values to try. read() gives {fixed, values, error}: `values` when varied, else
 * `fixed` (undefined at the default).
 */
function optionRow(option) {
  const fixed = optionField(option);
  const vary = h("input", { type: "checkbox", "aria-label": `Vary ${words(option.name)}` });
  let picker;
  if (option.type === "bool" || option.choices) {
    const choices = option.type === "bool" ? [true, false] : option.choices;
    const boxes = choices.map((c) => [c, h("input", { type: "checkbox", checked: true })]);
    picker = { el: h("div", { class: "sweep-choices" }, boxes.map(([c, box]) =>
      h("label", {}, box, ` ${String(c)}`))),
    read: () => boxes.filter(([, box]) => box.checked).map(([c]) => c) };
  } else {
    const int = option.type === "int";
    const text = h("textarea", { rows: int ? 1 : 3, spellcheck: "false",
                                 "aria-label": `Values of ${words(option.name)}`,
                                 value: int ? `${option.default}` : JSON.stringify(option.default) });
    picker = { el: h("div", {}, text, h("small", { class: "muted" }, int
      ? `Whole numbers${option.min !== undefined ? ` from ${option.min} to ${option.max}` : ""}, separated by commas.`
      : "One JSON value a line.")),
    read: () => {
      const parts = text.value.split(int ? /[,\s]+/ : /\n/).map((p) => p.trim()).filter(Boolean);
      try {
        return parts.map((p) => JSON.parse(p));
      } catch {
        const shape = int ? "whole numbers separated by commas" : "one JSON value a line";
        return { error: `Values of ${words(option.name)}: ${shape}, please.` };
      }
    } };
  }
  const values = h("div", { class: "sweep-values field", hidden: true },
    h("span", { class: "label" }, `${words(option.name)}: the values to try`), picker.el,
    h("small", { class: "muted" }, option.description));
  const show = () => {
    values.hidden = !vary.checked;
    fixed.el.hidden = vary.checked;
  };
  vary.addEventListener("change", show);
  const el = h("div", { class: "sweep-option", dataset: { option: option.name } },
    h("label", { class: "vary-toggle" }, vary, " Vary"), fixed.el, values);
  return {
    name: option.name, el, vary, onChange: (f) => el.addEventListener("change", f),
    read() {
      if (!vary.checked) {
        const { value, error, isDefault } = fixed.read();
        return { error, fixed: isDefault ? undefined : value };
      }
      const picked = picker.read();
      if (picked.error) return { error: picked.error };
      if (!picked.length) return { error: `Pick at least one value of ${words(option.name)} to vary.` };
      return { values: picked };
    },
  };
}

class SweepsView {
  constructor(root) {
    this.alert = alertBox();
    this.form = h("form", { class: "new-game playtest-form sweep-form", "aria-label": "New sweep", novalidate: true });
    this.list = h("div", { class: "game-list sweep-list", "aria-live": "polite" },
      h("p", { class: "muted" }, "Loading…"));
    fill(root, h("div", { class: "lobby playtests sweeps" },
      h("section", { class: "card new" }, h("h1", {}, "New sweep"),
        h("p", { class: "muted hint" }, "Compare rule variants side by side: one playtest per " +
          "combination of the values you pick (at most 24), every variant on the same seeds, so " +
          "each game is played under every variant. The comparison shows how often the first " +
          "player wins in each, and which variants differ from the most balanced one."),
        this.alert, this.form),
      h("section", { class: "card mine" }, h("h2", {}, "Recent sweeps"), this.list,
        h("p", {}, h("a", { href: "#/playtests" }, "Single playtests")))));
    this.refresh = () => { if (!document.hidden) this.loadList(); };
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
    this.loadList();
  }

  destroy() {
    this.destroyed = true;
    clearTimeout(this.timer);
    document.removeEventListener("visibilitychange", this.refresh);
  }

  buildForm() {
    const playable = this.kinds.filter((k) => k.bots.length && k.options.length);
    const kindSelect = h("select", { name: "kind" }, playable.map((k) => h("option", { value: k.kind }, k.title)));
    const options = h("fieldset", { class: "options sweep-options" });
    const botA = h("select", { name: "bot-a", "aria-label": "First bot" });
    const botB = h("select", { name: "bot-b", "aria-label": "Second bot" });
    const games = h("input", { name: "games", type: "number", inputmode: "numeric", step: 1,
                               min: LIMITS.games[0], max: LIMITS.games[1], value: DEFAULTS.games });
    const budget = h("input", { name: "budget", type: "number", inputmode: "decimal", step: "any",
                                min: 0.01, max: LIMITS.budget_s[1], value: DEFAULTS.budget_s });
    const seed = h("input", { name: "seed", inputmode: "numeric", placeholder: "random", autocomplete: "off" });
    const count = h("p", { class: "muted sweep-count", "aria-live": "polite" });
    let rows = [];

    const recount = () => {
      const varied = rows.map((r) => r.read()).filter((r) => r.values);
      const variants = varied.reduce((n, r) => n * r.values.length, 1);
      const total = variants * Number(games.value || 0);
      count.classList.toggle("bad", variants > MAX_VARIANTS);
      count.textContent = !varied.length ? "Tick Vary on at least one option."
        : `${variants} variant${variants === 1 ? "" : "s"} × ${games.value || 0} games = ${total} games` +
          (variants > MAX_VARIANTS ? ` (at most ${MAX_VARIANTS} variants)` : ".");
    };
    const showKind = () => {
      const kind = this.kinds.find((k) => k.kind === kindSelect.value);
      rows = kind.options.map(optionRow);
      // a sweep varies something: start with the first option whose values a tick can pick
      const first = kind.options.findIndex((o) => o.type !== "json");
      if (rows.length) rows[Math.max(0, first)].vary.checked = true;
      rows.forEach((r) => { r.vary.dispatchEvent(new Event("change")); r.onChange(recount); });
      fill(options, h("legend", {}, "Options: hold each fixed, or vary it over values"), rows.map((r) => r.el));
      const levels = kind.bots.map((b) => b.level);
      for (const [select, pick] of [[botA, levels[levels.length - 1]], [botB, levels[levels.length - 1]]]) {
        fill(select, levels.map((l) => h("option", { value: l }, l)));
        select.value = pick;  // by default the strongest bot against itself: the rules, not the bots, differ
      }
      recount();
    };
    kindSelect.addEventListener("change", showKind);
    games.addEventListener("input", recount);
    const submit = h("button", { class: "primary", type: "submit", disabled: !playable.length }, "Start the sweep");
    fill(this.form,
      h("label", {}, "Game", kindSelect),
      h("div", { class: "pair" }, h("label", {}, "First bot", botA), h("label", {}, "Second bot", botB)),
      options,
      h("div", { class: "pair" },
        h("label", {}, "Games per variant", games,
          h("small", { class: "muted" }, `${LIMITS.games[0]} to ${LIMITS.games[1]}`)),
        h("label", {}, "Think time a move (s)", budget,
          h("small", { class: "muted" }, `at most ${LIMITS.budget_s[1]}`))),
      h("label", {}, "Seed (optional)", seed,
        h("small", { class: "muted" },
          "Every variant plays the games of this seed; left empty, the server picks one.")),
      count, submit);
    if (playable.length) showKind();

    this.form.onsubmit = async (event) => {
      event.preventDefault();
      const errors = [];
      const vary = {};
      const fixed = {};
      for (const row of rows) {
        const read = row.read();
        if (read.error) errors.push(read.error);
        else if (read.values) vary[row.name] = read.values;
        else if (read.fixed !== undefined) fixed[row.name] = read.fixed;
      }
      if (!Object.keys(vary).length) errors.push("Tick Vary on at least one option, with the values to try.");
      const n = Number(games.value);
      if (!Number.isInteger(n) || n < LIMITS.games[0] || n > LIMITS.games[1]) {
        errors.push(`Games per variant must be a whole number from ${LIMITS.games[0]} to ${LIMITS.games[1]}.`);
      }
      const think = Number(budget.value);
      if (!(think > 0 && think <= LIMITS.budget_s[1])) {
        errors.push(`Think time must be more than 0 and at most ${LIMITS.budget_s[1]} s.`);
      }
      const body = { kind: kindSelect.value, bots: [botA.value, botB.value], games_per_variant: n,
                     vary, options: fixed, budget_s: think };
      const seedText = seed.value.trim();
      if (seedText) {
        if (!/^\d+$/.test(seedText) || !Number.isSafeInteger(Number(seedText))) {
          errors.push("The seed must be a whole number.");
        }
        body.seed = Number(seedText);
      }
      if (errors.length) {
        showAlert(this.alert, errors.join(" "));
        return;
      }
      const id = await submitting(submit, this.alert, async () => {
        const { data } = await api.startSweep(body);
        if (data.owner_token) storage.rememberPlaytest(data.id, data.owner_token);
        return data.id;
      });
      if (id) location.hash = `#/sweep/${id}`;
    };
  }

  async loadList() {
    clearTimeout(this.timer);
    let items;
    try {
      items = await api.listSweeps();
    } catch (err) {
      if (this.destroyed) return;
      fill(this.list, h("p", { class: "muted" }, err.message));
      this.timer = setTimeout(this.refresh, LIST_IDLE_MS);
      return;
    }
    if (this.destroyed) return;
    const title = (slug) => this.kinds.find((k) => k.kind === slug)?.title || slug;
    fill(this.list, !items.length ? h("p", { class: "muted" }, "No sweeps yet.")
      : h("ul", {}, items.map((sw) => h("li", {
        class: ["game-row", RUNNING.has(sw.status) && "running"], dataset: { sweep: sw.id } },
        h("a", { href: `#/sweep/${sw.id}` }, h("strong", {}, title(sw.kind)),
          ` · ${Object.keys(sw.vary).map(words).join(", ")} · ${sw.variants.length} variants`),
        h("span", { class: ["turn", `status-${sw.status}`] }, `${sw.status} · ${sw.done} of ${sw.total} games`),
        h("span", { class: "muted" }, ago(sw.created_at))))));
    const running = items.some((sw) => RUNNING.has(sw.status));
    this.timer = setTimeout(this.refresh, running ? LIST_POLL_MS : LIST_IDLE_MS);
  }
}

/* ---------------------------------------------------------------- #/sweep/<id> */

export function mountSweep(root, id) {
  const view = new SweepView(root, id);
  view.start();
  return view;
}

class SweepView {
  constructor(root, id) {
    this.root = root;
    this.id = id;
    this.title = h("h1", {}, "Sweep");
    this.meta = h("p", { class: "meta muted" });
    this.alert = alertBox();
    this.net = h("p", { class: "net muted", hidden: true });
    this.progress = h("div", { class: "pt-progress", "aria-live": "polite" });
    this.actions = h("div", { class: "confirm" });
    this.comparison = h("div", { class: "report sweep-report" });
    this.urls = [];
    fill(root, h("section", { class: "playtest sweep" },
      h("div", { class: "card" }, this.title, this.meta, this.alert, this.net, this.progress, this.actions,
        h("p", {}, h("a", { href: "#/sweeps" }, "All sweeps"))),
      this.comparison));
  }

  start() {
    return followBatch(this, {
      load: async () => {
        const [response, kinds] = await Promise.all([api.sweep(this.id), api.kinds().catch(() => [])]);
        this.kinds = kinds;
        return response;
      },
      fetch: api.sweep, delayMs: POLL_MS, running: () => RUNNING.has(this.sweep.status),
      notFound: (err) => fill(this.root, h("section", { class: "card" }, h("h1", {}, "Sweep not found"),
        h("p", {}, err.message), h("p", {}, h("a", { href: "#/sweeps" }, "All sweeps")))),
    });
  }

  destroy() {
    this.destroyed = true;
    this.poller?.stop();
    this.urls.forEach((url) => URL.revokeObjectURL(url));
    document.title = "Postplay";
  }

  apply(sw) {
    this.sweep = sw;
    const title = this.kinds.find((k) => k.kind === sw.kind)?.title || sw.kind;
    this.title.textContent = `Sweep: ${title}`;
    const fixed = Object.entries(sw.options).filter(([, v]) => v !== null && typeof v !== "object")
      .map(([k, v]) => `${words(k)}: ${v}`);
    this.meta.textContent = [botNames(sw.bots).join(" vs "), `${sw.games_per_variant} games per variant`,
      `think time ${num(sw.budget_s, 3)} s a move`, `seed ${sw.seed}`, ...fixed,
      sw.owner ? `by ${sw.owner}` : null, `started ${ago(sw.created_at)}`].filter(Boolean).join(" · ");
    document.title = `${sw.status} · ${title} sweep — Postplay`;
    this.renderProgress(sw);
    if (!RUNNING.has(sw.status)) this.poller?.stop();
    if (sw.comparison && !this.shown) {
      this.shown = true;
      this.renderComparison(sw, sw.comparison);
    }
  }

  renderProgress(sw) {
    fill(this.progress,
      h("p", { class: ["status", `status-${sw.status}`] }, `${STATUS_TEXT[sw.status] || sw.status}.`),
      h("div", { class: "progress-row" },
        h("progress", { max: sw.total, value: sw.done, "aria-label": "Games played" }),
        h("span", { class: "done" }, `${sw.done} of ${sw.total} games`)),
      h("ul", { class: "variant-progress" }, sw.variants.map((v) => h("li", { dataset: { variant: String(v.index) } },
        h("a", { href: `#/playtest/${v.playtest_id}` }, v.label),
        h("span", { class: ["muted", `status-${v.status}`] }, ` ${v.status}, ${v.done} of ${v.total}`)))));
    const token = cancelToken(sw);
    if (sw.status === "running" && token) {
      const cancel = h("button", { type: "button", class: "danger", onclick: () => this.cancel(cancel, token) },
        "Cancel the sweep");
      fill(this.actions, cancel);
    } else {
      fill(this.actions);
    }
  }

  async cancel(button, token) {
    button.disabled = true;
    try {
      this.apply((await api.cancelSweep(this.id, token)).data);
    } catch (err) {
      showAlert(this.alert, err.message);
    }
    this.poller.now();
  }

  renderComparison(sw, c) {
    if (c.balanced === null) {
      fill(this.comparison, h("section", { class: "card" }, h("h2", {}, "Comparison"),
        h("p", {}, "No games were played, so there is nothing to compare.")));
      return;
    }
    const rows = c.variants.map((row) => ({ row, variant: sw.variants[row.variant] }));
    const played = rows.filter(({ row }) => row.games);
    const tests = Math.max(1, played.length - 1);
    const verdict = ({ row }) => {
      if (row.variant === c.balanced) return "most balanced";
      if (!row.vs_balanced) return "no games";
      if (row.vs_balanced.differs) return "differs";
      const needed = gamesToTell(row.vs_balanced, row.games, tests, c.alpha);
      return needed === null ? "no clear difference"
        : `not enough games to tell (about ${needed} would)`;
    };
    // greedy against greedy plays one game over and over: every game of a variant the same
    const same = played.length && played.every(({ row }) => row.games > 1 && row.length
      && row.length.min === row.length.max
      && [row.first_player.wins, row.first_player.losses, row.first_player.draws].includes(row.games));
    const ciText = (ci) => (ci ? `${pct(ci[0])}–${pct(ci[1])}` : "–");
    fill(this.comparison,
      same ? h("p", { class: "alert sweep-same", role: "status" }, "Every game of each variant went "
        + "the same way: both bots seem to play the same moves every time (deterministic), so more "
        + "games tell nothing new. Pick a bot that varies its play, such as random, for one seat.") : null,
      h("section", { class: "card sweep-rates", "aria-label": "First-player win rate by variant" },
        h("h2", {}, "First player's win rate"),
        rateBars(played.map((r) => ({
          // the count that would tell is in the table: the chart's line stays within its width
          label: `${short(spoken(r.variant), 34)}: ${pct(r.row.first_player.win_rate)} · ${verdict(r).replace(/ \(.*/, "")}`,
          rate: r.row.first_player.win_rate, ci: r.row.first_player.ci95,
          tone: r.row.variant === c.balanced ? "balanced" : r.row.vs_balanced?.differs ? "differs" : "",
        })), "First player's win rate per variant, with 95 % intervals and the 50 % line"),
        h("p", { class: "muted hint-after" }, "Bars: share of games the first player won (draws count as not won); " +
          "whiskers: the Wilson 95 % interval; dashed line: 50 %. ",
          h("strong", {}, `Most balanced: ${spoken(sw.variants[c.balanced])}`),
          " (the first player's score, wins plus half the draws, nearest 50 %)."),
        h("p", { class: "muted" }, `Each other variant is tested against it on the paired games (same seed, ` +
          `seats and first mover): ${c.test}; "differs" means an adjusted p below ${c.alpha}.`)),
      h("section", { class: "card sweep-lengths", "aria-label": "Game length by variant" },
        h("h2", {}, "Game length"),
        boxPlots(played.map((r) => ({ label: short(spoken(r.variant), 30), stats: r.row.length, tone: "" })),
          "Game lengths in plies per variant"),
        h("p", { class: "muted" },
          "Plies. Whiskers: shortest to longest; box: the middle half; line: the median; dot: the mean.")),
      played.some((r) => r.row.score_margin)
        ? h("section", { class: "card sweep-margins", "aria-label": "Score margin by variant" },
        h("h2", {}, "First player's score margin"),
        boxPlots(played.filter((r) => r.row.score_margin).map((r) => ({
          label: short(spoken(r.variant), 30), stats: r.row.score_margin, tone: "" })),
          "The first player's score minus the second's, per variant")) : null,
      h("section", { class: "card sweep-table", "aria-label": "Comparison table" },
        h("h2", {}, "Variants"),
        h("div", { class: "table-wrap" }, h("table", { class: "numbers sweep-numbers" },
          h("thead", {}, h("tr", {}, ["Variant", "Games", "1st wins", "Draws", "1st losses", "1st win rate",
            "95 %", "Draw rate", "Mean plies", "Paired: better / worse", "p (adj.)", "Verdict"]
            .map((t) => h("th", { scope: "col" }, t)))),
          h("tbody", {}, rows.map((r) => {
            const { row, variant } = r;
            const fp = row.first_player;
            const test = row.vs_balanced;
            return h("tr", { dataset: { variant: String(row.variant) }, class: verdict(r).replace(/ \(.*/, "").replace(/ /g, "-") },
              h("th", { scope: "row" }, h("a", { href: `#/playtest/${variant.playtest_id}` }, spoken(variant)),
                variant.report?.samples?.length ? h("small", { class: "muted by-seat" }, "samples: ",
                  variant.report.samples.slice(0, 2).map((g, i) => [i ? ", " : "",
                    h("a", { href: `#/game/${g.game_id}` }, `game ${g.index + 1}`)])) : null),
              h("td", {}, String(row.games)), h("td", {}, String(fp.wins)), h("td", {}, String(fp.draws)),
              h("td", {}, String(fp.losses)), h("td", { dataset: { stat: "win-rate" } }, pct(fp.win_rate)),
              h("td", {}, ciText(fp.ci95)), h("td", {}, pct(row.draw_rate)),
              h("td", {}, row.length ? num(row.length.mean) : "–"),
              h("td", {}, test ? `${test.better} / ${test.worse}` : "–"),
              h("td", {}, test ? num(test.p_adjusted, 3) : "–"),
              h("td", { dataset: { stat: "verdict" } }, verdict(r)));
          })))),
        h("p", { class: "downloads" }, "Download: ",
          this.download("csv", `sweep-${sw.id}.csv`, "text/csv", toCsv(sw), "comparison (CSV)"), " · ",
          this.download("json", `sweep-${sw.id}.json`, "application/json", JSON.stringify(sw, null, 2),
            "whole sweep (JSON)"))));
  }

  /** A link that saves `text` as file `name` (a blob URL, let go when the page goes). */
  download(cls, name, type, text, label) {
    const url = URL.createObjectURL(new Blob([text], { type }));
    this.urls.push(url);
    return h("a", { class: cls, href: url, download: name }, label);
  }
}

/** The comparison as CSV, a line per variant (the columns of `postplay sweep --csv`). */
export function toCsv(sw) {
  const c = sw.comparison;
  const names = Object.keys(sw.vary);
  const header = ["variant", "label", ...names.map((n) => `option ${n}`), "playtest_id", "games", "first_wins",
    "first_draws", "first_losses", "first_win_rate", "first_ci95_low", "first_ci95_high", "first_score",
    "draw_rate", "length_mean", "length_median", "margin_mean", "margin_stdev", "balanced", "paired_better",
    "paired_worse", "p_value", "p_adjusted", "differs"];
  const cell = (v) => {
    const text = v === null || v === undefined ? "" : String(v);
    return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  const lines = c.variants.map((row) => {
    const v = sw.variants[row.variant];
    const fp = row.first_player;
    const t = row.vs_balanced || {};
    return [row.variant, v.label, ...names.map((n) => JSON.stringify(v.values[n])), v.playtest_id, row.games,
      fp.wins, fp.draws, fp.losses, fp.win_rate, fp.ci95?.[0], fp.ci95?.[1], fp.score, row.draw_rate,
      row.length?.mean, row.length?.median, row.score_margin?.mean, row.score_margin?.stdev,
      row.variant === c.balanced ? "True" : "False", t.better, t.worse, t.p_value, t.p_adjusted,
      t.differs === undefined ? "" : t.differs ? "True" : "False"].map(cell).join(",");
  });
  return [header.map(cell).join(","), ...lines].join("\r\n") + "\r\n";
}
