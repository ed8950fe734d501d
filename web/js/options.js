// Form fields for game options and time controls, built from GET /kinds (defaults and limits).

import { fill, h } from "./dom.js";

const words = (name) => name.replace(/_s$/, "").replace(/_/g, " ");

const isCountTable = (value) => value !== null && typeof value === "object" && !Array.isArray(value)
  && Object.values(value).every(Number.isInteger);

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** "a, b or c" */
const either = (items) => items.length < 2 ? items.join("")
  : `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}`;

/** The option's choices or range and its default, in words: "Choose default or random; left
 *  as it is, default." */
function limits(option) {
  const unchanged = `left as it is, ${option.default}`;
  if (option.choices) return `Choose ${either(option.choices.map(String))}; ${unchanged}.`;
  if (option.min !== undefined && option.max !== undefined) {
    return `A whole number from ${option.min} to ${option.max}; ${unchanged}.`;
  }
  return null;
}

/**
 * One option's field: {name, el, read()}, where read() gives {value, error, isDefault}.
 * int → a number box (a list when it has choices), bool → a check box, choice → a list,
 * json → a number per key for a table of counts (Prime Drop's tiles), else a JSON text box.
 */
export function optionField(option) {
  const id = `opt-${option.name}`;
  const hint = h("small", { class: "muted" }, option.description,
    limits(option) ? ` ${limits(option)}` : "");
  const labelled = (control) => h("div", { class: "field" },
    h("label", { for: id }, words(option.name)), control, hint);
  const done = (value) => ({ value, error: null, isDefault: same(value, option.default) });

  if (option.type === "bool") {
    const box = h("input", { id, type: "checkbox", checked: option.default });
    return { name: option.name, read: () => done(box.checked),
             el: h("div", { class: "field check" }, h("label", {}, box, " ", words(option.name)), hint) };
  }
  if (option.choices) {
    const select = h("select", { id }, option.choices.map((c) =>
      h("option", { value: String(c), selected: c === option.default }, String(c))));
    const parse = option.type === "int" ? Number : String;
    return { name: option.name, el: labelled(select), read: () => done(parse(select.value)) };
  }
  if (option.type === "int") {
    const box = h("input", { id, type: "number", inputmode: "numeric", step: 1, min: option.min,
                             max: option.max, value: option.default, required: true });
    return { name: option.name, el: labelled(box), read: () => {
      const value = Number(box.value);
      const ok = box.value !== "" && Number.isInteger(value)
        && (option.min === undefined || value >= option.min)
        && (option.max === undefined || value <= option.max);
      return ok ? done(value)
        : { error: `Option ${words(option.name)} must be a whole number from ${option.min} to ${option.max}.` };
    } };
  }
  if (isCountTable(option.default)) {
    const boxes = Object.entries(option.default).map(([key, count]) => [key,
      h("input", { type: "number", inputmode: "numeric", min: 0, step: 1, value: count,
                   "aria-label": `${words(option.name)}: ${key}` })]);
    const el = h("div", { class: "field" }, h("span", { class: "label" }, words(option.name)),
      h("div", { class: "count-table" }, boxes.map(([key, box]) => h("label", {}, h("span", {}, key), box))),
      h("small", { class: "muted" }, option.description));
    return { name: option.name, el, read: () => {
      const value = Object.fromEntries(boxes.map(([key, box]) => [key, Number(box.value)]));
      return Object.values(value).every((n) => Number.isInteger(n) && n >= 0) ? done(value)
        : { error: `Option ${words(option.name)} needs a whole number of 0 or more for each entry.` };
    } };
  }
  const text = h("textarea", { id, rows: 2, spellcheck: "false",
                               placeholder: option.default === null ? "Leave empty for the default"
                                 : JSON.stringify(option.default) });
  return { name: option.name, el: labelled(text), read: () => {
    if (!text.value.trim()) return { value: option.default, error: null, isDefault: true };
    try {
      return done(JSON.parse(text.value));
    } catch {
      return { error: `Option ${words(option.name)} is not valid JSON.` };
    }
  } };
}

/**
 * A form's "Options" fieldset: show(options) fills it with a field for each of a kind's options
 * (from GET /kinds); read() gives {value, errors}: the options set away from their defaults, and
 * what is wrong with any that cannot be read.
 */
export function optionsFieldset() {
  const el = h("fieldset", { class: "options" });
  let fields = [];
  return {
    el,
    show(options) {
      fields = options.map(optionField);
      fill(el, h("legend", {}, "Options"),
        fields.length ? fields.map((f) => f.el) : h("p", { class: "muted" }, "None."));
    },
    read() {
      const value = {};
      const errors = [];
      for (const field of fields) {
        const { value: v, error, isDefault } = field.read();
        if (error) errors.push(error);
        else if (!isDefault) value[field.name] = v;
      }
      return { value, errors };
    },
  };
}

const CLOCK_NAMES = {
  none: "No clock",
  fischer: "Time + increment (Fischer)",
  byoyomi: "Byo-yomi periods",
  correspondence: "Days per move",
  banked: "Banked time",
};

const CLOCK_DEFAULTS = {
  fischer: { initial_s: 600, increment_s: 5 },
  byoyomi: { main_s: 0, periods: 5, period_s: 60 },
  correspondence: { days_per_move: 3 },
  banked: { initial_s: 3 * 86400, increment_s: 86400, max_s: 7 * 86400 },
};

const UNITS = { d: 86400, h: 3600, m: 60, min: 60, s: 1 };

/** "90" or "90s" → 90, "5m" → 300, "1h 30m" → 5400, "2d" → 172800; NaN when unreadable. */
export function parseDuration(text) {
  const t = text.trim().toLowerCase();
  if (/^\d+(\.\d+)?$/.test(t)) return Number(t);
  const parts = [...t.matchAll(/(\d+(?:\.\d+)?)\s*(d|h|min|m|s)/g)];
  if (!parts.length || parts.map((p) => p[0]).join("").replace(/\s/g, "") !== t.replace(/\s/g, "")) return NaN;
  return parts.reduce((sum, [, n, unit]) => sum + Number(n) * UNITS[unit], 0);
}

/** 5400 → "1h 30m". */
export function showDuration(seconds) {
  const out = [];
  let t = seconds;
  for (const [unit, size] of [["d", 86400], ["h", 3600], ["m", 60], ["s", 1]]) {
    if (t >= size) {
      out.push(`${Math.floor(t / size)}${unit}`);
      t %= size;
    }
  }
  return out.join(" ") || "0s";
}

/** The clock fields: a type, then that type's fields; read() gives {value, error}. `preferred`
 *  is the clock preselected; `named` ({label, value}), when given, is one more choice in the
 *  list, a clock by its name (a game's tournament clock), its fields filled in. */
export function timeControlFields(shapes, preferred, named = null) {
  const PRESET = "preset";
  const type = h("select", { "aria-label": "Clock type" },
    named ? h("option", { value: PRESET }, named.label) : null,
    Object.keys(shapes).map((t) =>
      h("option", { value: t, selected: t === preferred.type }, CLOCK_NAMES[t] || t)));
  const fields = h("div", { class: "clock-shape" });
  let inputs = [];
  const typeOf = () => (type.value === PRESET ? named.value.type : type.value);
  const show = () => {
    const shape = shapes[typeOf()];
    const start = type.value === PRESET ? named.value
      : type.value === preferred.type ? preferred : CLOCK_DEFAULTS[type.value] || {};
    inputs = Object.entries(shape).map(([name, { min, max }]) => {
      const isTime = name.endsWith("_s");
      const box = h("input", isTime
        ? { value: showDuration(start[name] ?? min), "aria-label": words(name), spellcheck: "false" }
        : { type: "number", step: 1, min, max, value: start[name] ?? min, "aria-label": words(name) });
      const hint = isTime ? `${showDuration(min)} to ${showDuration(max)}, e.g. 90s, 5m, 1h 30m, 2d`
        : `${min} to ${max}`;
      return { name, min, max, isTime, box,
               el: h("label", {}, words(name), box, h("small", { class: "muted" }, hint)) };
    });
    fields.replaceChildren(...inputs.map((i) => i.el));
  };
  type.addEventListener("change", show);
  show();
  return {
    el: h("div", {}, type, fields),
    read() {
      const value = { type: typeOf() };
      for (const { name, min, max, isTime, box } of inputs) {
        const n = isTime ? parseDuration(box.value) : Number(box.value);
        if (!Number.isFinite(n) || n < min || n > max || (!isTime && !Number.isInteger(n))) {
          const range = isTime ? `${showDuration(min)} to ${showDuration(max)}` : `${min} to ${max}`;
          return { error: `Clock ${words(name)} must be from ${range}.` };
        }
        value[name] = n;
      }
      return { value, error: null };
    },
  };
}
