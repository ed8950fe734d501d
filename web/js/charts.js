// Small SVG charts for the playtest reports: rate bars with the 95 % intervals the server sends
// (api/playtests computes them), a histogram of whole numbers, box plots of spreads. Each returns
// an <svg class="chart"> that scales to its box (a fixed 360-unit-wide drawing, so text stays
// readable on a phone) with a role and a label, and marks its data on the elements (data-count,
// data-rate) for tests and tools.

import { s } from "./dom.js";

const WIDTH = 360;
const PAD = 8;

/** 0.8333 → "83 %". */
export const pct = (x) => (x === null || x === undefined ? "–" : `${Math.round(x * 100)} %`);

/** A number with at most `digits` decimals, trailing zeros dropped: 5.333 → "5.3". */
export const num = (x, digits = 1) => String(Number(Number(x).toFixed(digits)));

function svg(height, label, ...children) {
  return s("svg", { class: "chart", viewBox: `0 0 ${WIDTH} ${height}`, role: "img", "aria-label": label,
                    preserveAspectRatio: "xMidYMid meet" },
    s("title", {}, label), ...children);
}

/** Tick values from lo to hi at a step of 1, 2 or 5 times a power of ten (about `count` ticks). */
export function niceTicks(lo, hi, count = 5) {
  if (hi <= lo) return [lo];
  const raw = (hi - lo) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((m) => m >= raw);
  const ticks = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) {
    ticks.push(Number(t.toFixed(10)));
  }
  return ticks;
}

/**
 * Horizontal bars of rates from 0 to 1, each with its 95 % interval as a whisker, and a dashed
 * line at 50 %. rows: [{label, rate, ci: [lo, hi] | null, tone}], `tone` a class for the bar.
 */
export function rateBars(rows, label) {
  const rowH = 42;
  const top = 4;
  const axisY = top + rows.length * rowH + 4;
  const x = (v) => PAD + v * (WIDTH - 2 * PAD);
  const parts = [];
  rows.forEach((row, i) => {
    const y = top + i * rowH;
    const barY = y + 19;
    parts.push(s("text", { class: "chart-label", x: PAD, y: y + 13 }, row.label));
    parts.push(s("rect", { class: "chart-track", x: x(0), y: barY, width: x(1) - x(0), height: 14, rx: 3 }));
    if (row.rate !== null && row.rate !== undefined) {
      parts.push(s("rect", { class: ["chart-bar", row.tone], x: x(0), y: barY,
                             width: Math.max(0, x(row.rate) - x(0)), height: 14, rx: 3,
                             dataset: { rate: String(row.rate) } }));
    }
    if (row.ci) {
      const [lo, hi] = row.ci.map(x);
      const mid = barY + 7;
      parts.push(s("g", { class: "chart-ci", dataset: { lo: String(row.ci[0]), hi: String(row.ci[1]) } },
        s("line", { x1: lo, x2: hi, y1: mid, y2: mid }),
        s("line", { x1: lo, x2: lo, y1: mid - 6, y2: mid + 6 }),
        s("line", { x1: hi, x2: hi, y1: mid - 6, y2: mid + 6 })));
    }
  });
  parts.push(s("line", { class: "chart-even", x1: x(0.5), x2: x(0.5), y1: top + 16, y2: axisY }));
  for (const t of [0, 0.25, 0.5, 0.75, 1]) {
    parts.push(s("text", { class: "chart-tick", x: x(t), y: axisY + 13,
                           "text-anchor": t === 0 ? "start" : t === 1 ? "end" : "middle" }, pct(t)));
  }
  return svg(axisY + 18, label, ...parts);
}

/**
 * A histogram of whole numbers in bins [{from, to, count}] (the API's shape), with optional
 * vertical markers [{value, label, tone}] (the mean, the median, zero).
 */
export function histogram(bins, { label, markers = [], tone = "" } = {}) {
  const height = 190;
  const left = 30;
  const right = WIDTH - PAD;
  const top = markers.length ? 40 : 16;
  const bottom = height - 22;
  const maxCount = Math.max(1, ...bins.map((b) => b.count));
  const yTicks = niceTicks(0, maxCount, 4).filter((t) => Number.isInteger(t));
  const yMax = Math.max(maxCount, yTicks[yTicks.length - 1]);
  const y = (c) => bottom - (c / yMax) * (bottom - top);
  const start = bins[0].from;
  const span = bins[bins.length - 1].to - start + 1;
  const x = (v) => left + ((v - start) / span) * (right - left);
  const parts = [];
  for (const t of yTicks) {
    parts.push(s("line", { class: "chart-grid", x1: left, x2: right, y1: y(t), y2: y(t) }));
    parts.push(s("text", { class: "chart-tick", x: left - 4, y: y(t) + 4, "text-anchor": "end" }, String(t)));
  }
  const binText = (b) => (b.from === b.to ? String(b.from) : `${b.from}–${b.to}`);
  const slot = (right - left) / bins.length;
  const longest = Math.max(...bins.map((b) => binText(b).length));
  const every = Math.max(1, Math.ceil((longest * 6.5 + 4) / slot));
  bins.forEach((b, i) => {
    const x0 = x(b.from);
    const x1 = x(b.to + 1);
    const gap = Math.min(2, (x1 - x0) / 5);
    parts.push(s("rect", { class: ["chart-bar", tone], x: x0 + gap / 2, y: y(b.count),
                           width: Math.max(0.5, x1 - x0 - gap), height: bottom - y(b.count),
                           dataset: { count: String(b.count), from: String(b.from), to: String(b.to) } },
      s("title", {}, `${binText(b)}: ${b.count}`)));
    if (b.count && slot >= 14) {
      parts.push(s("text", { class: "chart-count", x: (x0 + x1) / 2, y: y(b.count) - 3,
                             "text-anchor": "middle" }, String(b.count)));
    }
    if (i % every === 0) {
      parts.push(s("text", { class: "chart-tick", x: (x0 + x1) / 2, y: bottom + 14,
                             "text-anchor": "middle" }, binText(b)));
    }
  });
  parts.push(s("line", { class: "chart-axis", x1: left, x2: right, y1: bottom, y2: bottom }));
  markers.forEach((m, i) => {
    const mx = x(m.value + 0.5);
    if (mx < left - 0.5 || mx > right + 0.5) return;
    parts.push(s("line", { class: ["chart-marker", m.tone], x1: mx, x2: mx, y1: top - 4, y2: bottom }));
    const anchor = mx > right - 40 ? "end" : mx < left + 40 ? "start" : "middle";
    parts.push(s("text", { class: ["chart-marker-label", m.tone], x: mx, y: 11 + (i % 2) * 12,
                           "text-anchor": anchor }, m.label));
  });
  return svg(height, label, ...parts);
}

/**
 * Box plots on one shared axis: rows [{label, stats: {min, p25, median, p75, max, mean}, tone}].
 * The whisker spans min to max, the box the middle half, a line the median, a dot the mean.
 */
export function boxPlots(rows, label) {
  const rowH = 46;
  const top = 4;
  const lo = Math.min(...rows.map((r) => r.stats.min));
  const hi = Math.max(...rows.map((r) => r.stats.max));
  const ticks = niceTicks(lo, hi, 5);
  const a = Math.min(lo, ticks[0]);
  const b = Math.max(hi, ticks[ticks.length - 1], a + 1);
  const x = (v) => PAD + 6 + ((v - a) / (b - a)) * (WIDTH - 2 * PAD - 12);
  const axisY = top + rows.length * rowH + 2;
  const parts = [];
  for (const t of ticks) {
    parts.push(s("line", { class: "chart-grid", x1: x(t), x2: x(t), y1: top + 16, y2: axisY }));
    parts.push(s("text", { class: "chart-tick", x: x(t), y: axisY + 13, "text-anchor": "middle" }, num(t)));
  }
  rows.forEach((row, i) => {
    const { min, p25, median, p75, max, mean } = row.stats;
    const y = top + i * rowH;
    const mid = y + 30;
    parts.push(s("text", { class: "chart-label", x: PAD, y: y + 13 },
      `${row.label}: median ${num(median)}, mean ${num(mean)}, ${num(min)} to ${num(max)}`));
    parts.push(s("g", { class: ["chart-box", row.tone] },
      s("line", { class: "whisker", x1: x(min), x2: x(max), y1: mid, y2: mid }),
      s("line", { class: "whisker", x1: x(min), x2: x(min), y1: mid - 6, y2: mid + 6 }),
      s("line", { class: "whisker", x1: x(max), x2: x(max), y1: mid - 6, y2: mid + 6 }),
      s("rect", { class: "box", x: x(p25), y: mid - 9, width: Math.max(1, x(p75) - x(p25)), height: 18 }),
      s("line", { class: "median", x1: x(median), x2: x(median), y1: mid - 9, y2: mid + 9 }),
      s("circle", { class: "mean", cx: x(mean), cy: mid, r: 3 })));
  });
  return svg(axisY + 18, label, ...parts);
}

/** One bar split into parts [{count, label, tone}] in proportion, with the counts written in. */
export function splitBar(parts, label) {
  const total = parts.reduce((sum, p) => sum + p.count, 0) || 1;
  const x = (v) => PAD + (v / total) * (WIDTH - 2 * PAD);
  const out = [];
  let at = 0;
  for (const p of parts) {
    const x0 = x(at);
    const x1 = x(at + p.count);
    at += p.count;
    if (!p.count) continue;
    out.push(s("rect", { class: ["chart-bar", p.tone], x: x0, y: 4, width: x1 - x0, height: 26,
                         dataset: { count: String(p.count) } }, s("title", {}, `${p.label}: ${p.count}`)));
    if (x1 - x0 >= 18) {
      out.push(s("text", { class: ["chart-inside", p.tone], x: (x0 + x1) / 2, y: 22, "text-anchor": "middle" },
        String(p.count)));
    }
  }
  return svg(34, label, ...out);
}

/**
 * A rating over the games it stands on: a line through points [{rating, rd, at}] (oldest first)
 * inside a shaded band of ± RD (clipped to the drawing), a rating axis, and the games counted
 * along the bottom. Each point marks its data (data-rating, data-rd).
 */
export function ratingLine(points, label) {
  const height = 190;
  const left = 40;
  const right = WIDTH - PAD;
  const top = 10;
  const bottom = height - 24;
  const values = points.map((p) => p.rating);
  const ticks = niceTicks(Math.min(...values) - 40, Math.max(...values) + 40, 4);
  const lo = ticks[0];
  const hi = Math.max(ticks[ticks.length - 1], lo + 1);
  const clip = (v) => Math.min(hi, Math.max(lo, v));
  const y = (v) => bottom - ((clip(v) - lo) / (hi - lo)) * (bottom - top);
  const x = (i) => (points.length === 1 ? (left + right) / 2
    : left + (i / (points.length - 1)) * (right - left));
  const parts = [];
  for (const t of ticks) {
    parts.push(s("line", { class: "chart-grid", x1: left, x2: right, y1: y(t), y2: y(t) }));
    parts.push(s("text", { class: "chart-tick", x: left - 4, y: y(t) + 4, "text-anchor": "end" }, String(t)));
  }
  const upper = points.map((p, i) => `${x(i)},${y(p.rating + p.rd)}`);
  const lower = points.map((p, i) => `${x(i)},${y(p.rating - p.rd)}`).reverse();
  parts.push(s("polygon", { class: "chart-band", points: [...upper, ...lower].join(" ") }));
  parts.push(s("polyline", { class: "chart-line", points: points.map((p, i) => `${x(i)},${y(p.rating)}`).join(" ") }));
  points.forEach((p, i) => {
    parts.push(s("circle", { class: "chart-point", cx: x(i), cy: y(p.rating), r: 2.5,
                             dataset: { rating: String(p.rating), rd: String(p.rd) } },
      s("title", {}, `Game ${i + 1}: ${Math.round(p.rating)} (RD ${Math.round(p.rd)})`)));
  });
  parts.push(s("line", { class: "chart-axis", x1: left, x2: right, y1: bottom, y2: bottom }));
  parts.push(s("text", { class: "chart-tick", x: left, y: bottom + 15 }, "game 1"));
  if (points.length > 1) {
    parts.push(s("text", { class: "chart-tick", x: right, y: bottom + 15, "text-anchor": "end" },
      `game ${points.length}`));
  }
  return svg(height, label, ...parts);
}
