// Polling one game (or one playtest, or the account's games): If-None-Match on every poll, paused
// while the tab is hidden (or, with `hiddenDelay`, slowed to one poll in that long), and a delay
// the page chooses after each poll (about 1 s while a bot thinks, backing off in slow games).

import * as api from "./api.js";

export class Poller {
  /**
   * `etag`: the tag of the game the page already shows.
   * `onChange(game, etag)`: a new version arrived.
   * `nextDelay(unchanged)`: ms until the next poll given how many polls in a row changed
   *   nothing, or null to stop (the game is over).
   * `onError(err)`: a poll failed (it is retried after a longer delay).
   * `fetch(id, etag)`: the request, `api.game` unless given (`api.playtest` for a playtest).
   * `hiddenDelay`: ms; while the tab is hidden, poll no more often than that instead of pausing.
   */
  constructor(id, etag, { onChange, nextDelay, onError, fetch = api.game, hiddenDelay = null }) {
    Object.assign(this, { id, etag, onChange, nextDelay, onError, fetch, hiddenDelay });
    this.unchanged = 0;
    this.timer = null;
    this.stopped = false;
    this.inFlight = false;
    this.lastPoll = 0;
    this.onVisibility = () => {
      if (!document.hidden) this.now();
      else if (this.hiddenDelay === null) this.pause();
      else this.schedule();
    };
    document.addEventListener("visibilitychange", this.onVisibility);
  }

  /** Schedule the next poll from the page's delay policy. */
  schedule(errorDelay = null) {
    clearTimeout(this.timer);
    this.timer = null;
    if (this.stopped || !this.pollsNow()) return;
    let delay = errorDelay ?? this.nextDelay(this.unchanged);
    if (delay === null) return;
    if (document.hidden) delay = Math.max(delay, this.lastPoll + this.hiddenDelay - Date.now());
    this.timer = setTimeout(() => this.poll(), delay);
  }

  /** Whether polls run in the tab's present state (hidden tabs only with `hiddenDelay`). */
  pollsNow() {
    return !document.hidden || this.hiddenDelay !== null;
  }

  /** Poll at once (a visible tab again, a clock at zero, a move of mine that just landed). */
  now() {
    this.unchanged = 0;
    this.poll();
  }

  /** The page applied a game it got some other way (its own move): start over, fast. */
  seen(etag) {
    this.etag = etag;
    this.unchanged = 0;
    this.schedule();
  }

  pause() {
    clearTimeout(this.timer);
    this.timer = null;
  }

  async poll() {
    if (this.stopped || this.inFlight || !this.pollsNow()) return;
    this.inFlight = true;
    this.lastPoll = Date.now();
    clearTimeout(this.timer);
    let errorDelay = null;
    try {
      const response = await this.fetch(this.id, this.etag);
      if (this.stopped) return;
      if (response.status === 304) {
        this.unchanged += 1;
      } else {
        this.etag = response.etag;
        this.unchanged = 0;
        this.onChange(response.data, response.etag);
      }
    } catch (err) {
      errorDelay = (err.retryAfter || Math.min(5 * 2 ** Math.min(this.unchanged, 3), 30)) * 1000;
      this.unchanged += 1;
      this.onError(err);
    } finally {
      this.inFlight = false;
    }
    this.schedule(errorDelay);
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    document.removeEventListener("visibilitychange", this.onVisibility);
  }
}

/**
 * Follow one batch on the workers (a playtest, a sweep) on `page`: `load()` gives its first
 * response, then `fetch` polls it every `delayMs` while `running()`; each new version goes to
 * `page.apply`, a failed poll shows in `page.net`, and `page.poller` is the poller. When the first
 * load fails, `notFound(err)` shows it instead.
 */
export async function followBatch(page, { load, fetch, running, delayMs, notFound }) {
  let response;
  try {
    response = await load();
  } catch (err) {
    notFound(err);
    return;
  }
  if (page.destroyed) return;
  page.poller = new Poller(page.id, response.etag, {
    fetch,
    onChange: (data) => { page.net.hidden = true; page.apply(data); },
    nextDelay: () => (running() ? delayMs : null),
    onError: (err) => { page.net.hidden = false; page.net.textContent = err.message; },
  });
  page.apply(response.data);
  page.poller.schedule();
}
