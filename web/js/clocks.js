// Clocks counting down in the browser between polls. The server's `clocks` are as of its
// response; the mover's clock runs on from there, by the same arithmetic as api/clocks.py.

import { duration } from "./format.js";

/** The mover's clock `elapsed` seconds after the server showed `clock`. */
export function advance(tc, clock, elapsed) {
  if (tc.type !== "byoyomi") return { remaining_s: Math.max(0, clock.remaining_s - elapsed) };
  if (elapsed <= clock.remaining_s) return { ...clock, remaining_s: clock.remaining_s - elapsed };
  let t = elapsed - clock.remaining_s;
  let periods = clock.periods_left;
  const current = clock.period_remaining_s ?? tc.period_s;
  if (periods > 0 && t < current) {
    return { remaining_s: 0, periods_left: periods, period_remaining_s: current - t };
  }
  t -= current;
  periods -= 1 + Math.floor(t / tc.period_s);
  if (periods <= 0) return { remaining_s: 0, periods_left: 0, period_remaining_s: 0 };
  return { remaining_s: 0, periods_left: periods, period_remaining_s: tc.period_s - (t % tc.period_s) };
}

/** Seconds until the clock's owner loses, from the clock as shown. */
export function secondsLeft(tc, clock) {
  if (tc.type !== "byoyomi") return clock.remaining_s;
  if (clock.remaining_s > 0) return clock.remaining_s + clock.periods_left * tc.period_s;
  if (!clock.periods_left) return 0;
  return (clock.period_remaining_s ?? tc.period_s) + (clock.periods_left - 1) * tc.period_s;
}

/** The clock as text: "4:59", "0:42 · 3 periods", "1:00 + 5 × 1:00". */
export function clockText(tc, clock) {
  if (tc.type !== "byoyomi") return duration(clock.remaining_s);
  if (clock.remaining_s > 0) {
    return `${duration(clock.remaining_s)} + ${clock.periods_left} × ${duration(tc.period_s)}`;
  }
  const left = clock.period_remaining_s ?? (clock.periods_left ? tc.period_s : 0);
  const n = clock.periods_left;
  return `${duration(left)} · ${n} period${n === 1 ? "" : "s"}`;
}

/**
 * Ticking clock displays: `els` are one element per seat; `onFlag` is called once when the
 * mover's clock reaches zero here (the server ends the game; the page should poll).
 */
export class Clocks {
  constructor(els, onFlag) {
    this.els = els;
    this.onFlag = onFlag;
    this.timer = null;
  }

  /** Show the clocks of a freshly fetched game (also after a 304: it keeps the old snapshot). */
  show(game) {
    this.game = game;
    this.shownAt = performance.now();
    this.flagged = false;
    clearInterval(this.timer);
    this.timer = null;
    if (!game.clocks) {
      this.els.forEach((el) => { el.hidden = true; });
      return;
    }
    this.els.forEach((el) => { el.hidden = false; });
    this.tick();
    if (game.status === "active" && game.to_move !== null) {
      this.timer = setInterval(() => this.tick(), 250);
    }
  }

  tick() {
    const { game } = this;
    const tc = game.time_control;
    const elapsed = (performance.now() - this.shownAt) / 1000;
    game.clocks.forEach((clock, seat) => {
      // a player's vacation stands a correspondence game's clocks still
      const running = game.status === "active" && seat === game.to_move && !game.on_vacation?.length;
      const now = running ? advance(tc, clock, elapsed) : clock;
      const left = secondsLeft(tc, now);
      const el = this.els[seat];
      el.textContent = clockText(tc, now);
      el.classList.toggle("running", running);
      el.classList.toggle("low", running && left < 30);
      if (running && left <= 0 && !this.flagged) {
        this.flagged = true;
        this.onFlag();
      }
    });
  }

  stop() {
    clearInterval(this.timer);
  }
}
