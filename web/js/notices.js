// Telling a signed-in player that games wait for them, on every page: one poll of /me/games with
// If-None-Match (every 20 s while the tab is visible, at most once a minute while it is hidden),
// the count of games where it is their move in the tab's title ("(3) Postplay") and as a badge on
// the favicon, and, when switched on in the account menu (both off by default), a browser
// notification and a short sound when a game turns to them while the tab is hidden.

import * as api from "./api.js";
import { h } from "./dom.js";
import { Poller } from "./poller.js";
import * as storage from "./storage.js";

const VISIBLE_MS = 20000;
const HIDDEN_MS = 60000;
const SETTINGS_KEY = "postplay.notices";
const COUNTED = /^\(\d+\+?\) /;

let poller = null;
let waiting = null;  // game id -> ply, for the games where it is my move (null: not polled yet)
let count = 0;
let plainIcon = null;  // the favicon's own SVG text, fetched once
let audio = null;

/** {notify, sound}: what the player switched on (both off by default). */
export function settings() {
  try {
    return { notify: false, sound: false, ...JSON.parse(localStorage.getItem(SETTINGS_KEY)) };
  } catch {
    return { notify: false, sound: false };
  }
}

function save(changes) {
  localStorage.setItem(SETTINGS_KEY, JSON.stringify({ ...settings(), ...changes }));
}

/** Start watching the account's games (again when this browser signs in or out). */
export function startNotices() {
  watch();
  window.addEventListener(storage.ACCOUNT_EVENT, watch);
  window.addEventListener(storage.GAME_SHOWN_EVENT, shown);
  // the Notices pop-up belongs to the page it was opened on: leaving the page closes it
  window.addEventListener("hashchange", () => {
    for (const menu of document.querySelectorAll("details.notices-menu[open]")) menu.open = false;
  });
  // a page that sets its own title loses the count: put it back
  new MutationObserver(showCount).observe(document.querySelector("title"),
    { childList: true, characterData: true, subtree: true });
}

function watch() {
  poller?.stop();
  poller = null;
  waiting = null;
  setCount(0);
  if (!storage.account()) return;
  poller = new Poller("me", null, {
    fetch: (_, etag) => api.myGames(etag, "active"),
    nextDelay: () => VISIBLE_MS,
    hiddenDelay: HIDDEN_MS,
    onChange: seen,
    onError: () => {},  // the next poll tries again; the page shows its own errors
  });
  poller.now();
}

/** The games where it is my move: count them, and tell of those new since the last poll. */
function seen(games) {
  const mine = games.filter((g) => g.to_move !== null && storage.isMe(g.seats[g.to_move]?.player));
  const turned = waiting === null ? [] : mine.filter((g) => waiting.get(g.id) !== g.ply);
  waiting = new Map(mine.map((g) => [g.id, g.ply]));
  setCount(mine.length);
  if (turned.length && document.hidden) tell(turned);
}

/** A game page shows a game: count it as that page says, without waiting for the next poll. */
function shown({ detail: { id, ply, waiting: mine } }) {
  if (waiting === null || mine === waiting.has(id) && (!mine || waiting.get(id) === ply)) return;
  if (mine) waiting.set(id, ply);
  else waiting.delete(id);
  setCount(waiting.size);
}

function setCount(n) {
  count = n;
  showCount();
  showBadge();
}

function showCount() {
  const plain = document.title.replace(COUNTED, "");
  const wanted = count ? `(${count > 99 ? "99+" : count}) ${plain}` : plain;
  if (document.title !== wanted) document.title = wanted;
}

async function showBadge() {
  const link = document.querySelector("link[rel=icon]");
  if (!link) return;
  link.dataset.plain ??= link.getAttribute("href");
  if (!count) {
    link.setAttribute("href", link.dataset.plain);
    return;
  }
  try {
    plainIcon ??= await fetch(link.dataset.plain).then((r) => r.text());
  } catch {
    return;  // no badge this time; the title still counts
  }
  const label = count > 9 ? "9+" : String(count);
  const badge = '<circle cx="23" cy="9" r="9" fill="#dc2626" stroke="#fff" stroke-width="1.5"/>'
    + '<text x="23" y="13" font-family="sans-serif" font-size="12" font-weight="bold" '
    + `text-anchor="middle" fill="#fff">${label}</text>`;
  const svg = plainIcon.replace(/<\/svg>\s*$/, `${badge}</svg>`);
  if (count) link.setAttribute("href", `data:image/svg+xml,${encodeURIComponent(svg)}`);
}

/** A browser notification and a sound, as switched on, for games that just turned to me. */
function tell(games) {
  const { notify, sound } = settings();
  if (notify && "Notification" in window && Notification.permission === "granted") {
    for (const game of games) {
      const opponent = game.seats[1 - game.to_move];
      const shown = new Notification("Your move on Postplay", {
        body: `${game.kind} against ${opponent?.player || opponent?.name || "your opponent"}`,
        tag: `postplay-${game.id}`, icon: document.querySelector("link[rel=icon]")?.dataset.plain,
      });
      shown.onclick = () => {
        window.focus();
        location.hash = `#/game/${game.id}`;
      };
    }
  }
  if (sound) chime();
}

/** Two short tones from the Web Audio API: no sound file to fetch. */
function chime() {
  try {
    audio ??= new AudioContext();
    const start = audio.currentTime;
    [660, 880].forEach((frequency, i) => {
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.frequency.value = frequency;
      gain.gain.setValueAtTime(0.15, start + i * 0.18);
      gain.gain.exponentialRampToValueAtTime(0.001, start + i * 0.18 + 0.16);
      tone.connect(gain).connect(audio.destination);
      tone.start(start + i * 0.18);
      tone.stop(start + i * 0.18 + 0.17);
    });
  } catch {
    // no audio here: the title and badge still tell
  }
}

/** The account menu's "Notices": switch the browser notification and the sound on or off. */
export function noticesMenu() {
  const { notify, sound } = settings();
  const note = h("small", { class: "muted", "aria-live": "polite" });
  const supported = "Notification" in window;
  const notifyBox = h("input", { type: "checkbox", name: "notify", checked: notify && supported,
                                 disabled: !supported });
  notifyBox.onchange = async () => {
    note.textContent = "";
    if (notifyBox.checked && Notification.permission !== "granted") {
      const answer = await Notification.requestPermission();
      if (answer !== "granted") {
        notifyBox.checked = false;
        note.textContent = "This browser does not allow notifications from this site.";
      }
    }
    save({ notify: notifyBox.checked });
  };
  const soundBox = h("input", { type: "checkbox", name: "sound", checked: sound });
  soundBox.onchange = () => {
    save({ sound: soundBox.checked });
    if (soundBox.checked) chime();  // a click lets the page play sound: a sample now
  };
  return h("details", { class: "notices-menu" },
    h("summary", {}, "Notices"),
    h("div", { class: "notices-panel" },
      h("p", { class: "muted" }, "The tab's title and icon count the games waiting for your move."),
      h("label", {}, notifyBox, " A browser notification when a game waits for me and this tab "
        + "is hidden"),
      h("label", {}, soundBox, " A sound then too"),
      supported ? note : h("small", { class: "muted" }, "This browser has no notifications.")));
}
