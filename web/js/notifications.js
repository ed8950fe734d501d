// Told away from the board: the header's bell (the inbox's unread count; each entry opens its
// game) and the Notifications settings page (#/notifications): Web Push for this device (the
// browser asks for permission only after the click), the channels of each event, quiet when
// present, and the e-mail, reminder and digest settings.

import * as api from "./api.js";
import { alertBox, fill, h, s, showAlert } from "./dom.js";
import { Poller } from "./poller.js";
import * as storage from "./storage.js";

const EVENTS = [
  ["turn", "Your move"], ["challenge", "A challenge"], ["draw-offer", "A draw offered"],
  ["takeback", "A takeback asked"], ["chat", "A chat message"], ["game-over", "A game over"],
  ["reminder", "A reminder before your clock runs out"], ["tournament", "A tournament pairing"],
];
const CHANNELS = [["push", "Push"], ["email", "E-mail"], ["inbox", "Inbox"]];
// as the server's defaults (api/notify/fanout.py): an event never set shows these
const DEFAULTS = { push: true, inbox: true, email: ["turn", "challenge", "reminder", "tournament"] };
const PUSH_KEY = "postplay.push";  // this browser's subscription id, as the server named it
const HINT_KEY = "postplay.push-hint";  // the username of an account just made here (account.js)
const BELL_MS = 60000;
const BELL_HIDDEN_MS = 300000;

let bellPoller = null;

function bellIcon() {
  return s("svg", { viewBox: "0 0 24 24", width: 20, height: 20, class: "bell-icon", "aria-hidden": "true" },
    s("path", { d: "M12 3a6 6 0 0 0-6 6v4l-2 3h16l-2-3V9a6 6 0 0 0-6-6zM10 19a2 2 0 0 0 4 0",
                fill: "none", stroke: "currentColor", "stroke-width": 2, "stroke-linejoin": "round" }));
}

/** The header's bell: the unread count, and the inbox under it. */
export function bell() {
  bellPoller?.stop();
  const count = h("span", { class: "bell-count", hidden: true });
  const list = h("ul", { class: "bell-list" });
  const panel = h("div", { class: "notices-panel bell-panel" }, list,
    h("p", {}, h("button", { type: "button", class: "link", onclick: () => readAll() }, "Mark all read"),
      " · ", h("a", { href: "#/notifications" }, "Settings")));
  const menu = h("details", { class: "notices-menu bell" },
    h("summary", { "aria-label": "Notifications" }, bellIcon(), count), panel);
  let shown = [];
  const readAll = async () => {
    await api.markRead(null).catch(() => {});
    bellPoller?.now();
  };
  const render = (items) => {
    shown = items;
    const unread = items.filter((n) => !n.read).length;
    count.hidden = unread === 0;
    count.textContent = unread > 99 ? "99+" : String(unread);
    menu.querySelector("summary").setAttribute("aria-label", `Notifications, ${unread} unread`);
    fill(list, items.length ? items.slice(0, 20).map((n) => h("li", { class: n.read ? "read" : "unread" },
      h("a", { href: `#/game/${encodeURIComponent(n.game)}`, onclick: () => {
        menu.open = false;
        if (!n.read) api.markRead([n.id]).then(() => bellPoller?.now(), () => {});
      } }, n.text), " ", h("small", { class: "muted" }, new Date(n.at).toLocaleString())))
      : h("li", { class: "muted" }, "Nothing yet."));
  };
  bellPoller = new Poller("inbox", null, {
    fetch: (_, etag) => api.notifications(etag),
    nextDelay: () => (storage.account() ? BELL_MS : null),  // signed out: the bell is gone
    hiddenDelay: BELL_HIDDEN_MS,
    onChange: render,
    onError: () => {},  // the next poll tries again
  });
  bellPoller.now();
  menu.addEventListener("toggle", () => { if (menu.open) bellPoller?.now(); });
  render(shown);
  return menu;
}

/** On a game of the signed-in account: a line to the settings, the first time after sign-up. */
export function firstGameHint(game) {
  const me = storage.account();
  if (!me || localStorage.getItem(HINT_KEY) !== me.username) return null;
  if (!game.seats.some((seat) => storage.isMe(seat.player))) return null;
  localStorage.removeItem(HINT_KEY);
  return h("p", { class: "card hint push-hint" }, "Correspondence games last days: ",
    h("a", { href: "#/notifications" }, "be told when it is your move"),
    ", on this device, even with Postplay closed.");
}

function channelsOf(notify, event) {
  const chosen = notify?.[event];
  if (Array.isArray(chosen)) return new Set(chosen);
  if (chosen === false) return new Set();
  return new Set(CHANNELS.map(([c]) => c).filter((c) => DEFAULTS[c] === true || DEFAULTS[c].includes(event)));
}

/** The Notifications settings page. */
export function mountNotifications(root) {
  if (!storage.account()) {
    fill(root, h("section", { class: "card" }, h("h1", {}, "Notifications"),
      h("p", {}, h("a", { href: "#/signin" }, "Sign in"), " to be told of your games away from the board.")));
    return { destroy() {} };
  }
  const alert = alertBox();
  const pushPart = h("section", { class: "card", id: "push-settings" }, h("h2", {}, "Push to this device"));
  const channelsPart = h("section", { class: "card", id: "channel-settings" }, h("h2", {}, "What tells you of what"));
  // e-mail: its address and whether it is verified (GET /me `email`), set by the e-mail settings
  const emailPart = h("section", { class: "card settings-fields", id: "email-settings" }, h("h2", {}, "E-mail"));
  // reminders before a flag falls, the daily digest's hour and the time zone (settings
  // reminder_minutes, digest_hour, timezone)
  const timingPart = h("section", { class: "card settings-fields", id: "timing-settings" }, h("h2", {}, "Reminders and the daily digest"));
  fill(root, h("h1", {}, "Notifications"), alert, pushPart, channelsPart, emailPart, timingPart);
  let me = null;
  let saving = Promise.resolve();
  // one change at a time: the server writes the whole of an account's settings with each
  const save = (changes) => {
    saving = saving.then(() => api.updateMe(changes)).then((found) => {
      me = found;
      showAlert(alert, null);
    }, (err) => showAlert(alert, err.message));
    return saving;
  };
  api.me().then((found) => {
    me = found;
    drawPush(pushPart, alert);
    drawChannels(channelsPart, me, save);
    drawEmail(emailPart, me, alert);
    drawTiming(timingPart, me, save);
  }, (err) => showAlert(alert, err.message));
  return { destroy() {} };
}

function pushSupported() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

async function drawPush(part, alert) {
  const state = h("p", { class: "push-state", "aria-live": "polite" });
  const on = h("button", { type: "button", class: "primary", name: "push-on" }, "Turn on push for this device");
  const off = h("button", { type: "button", name: "push-off" }, "Turn off push for this device");
  const devices = h("ul", { class: "push-devices" });
  fill(part, h("h2", {}, "Push to this device"), state, on, off, devices);
  const show = async () => {
    const mine = localStorage.getItem(PUSH_KEY);
    let listed = [];
    try {
      listed = await api.pushDevices();
    } catch (err) {
      showAlert(alert, err.message);
    }
    const here = listed.some((d) => d.id === mine);
    on.hidden = here;
    off.hidden = !here;
    state.textContent = !pushSupported() ? "This browser cannot get pushes."
      : Notification.permission === "denied" ? "This browser blocks notifications from this site: allow them in its settings first."
        : here ? "This device gets a notification when it is your move, even with Postplay closed."
          : "This device gets nothing while Postplay is closed.";
    on.disabled = !pushSupported() || Notification.permission === "denied";
    fill(devices, listed.map((d) => h("li", {}, d.device || "A device", d.id === mine ? " (this one)" : "",
      " ", h("button", { type: "button", class: "link", onclick: async () => {
        await api.removePushDevice(d.id).catch((err) => showAlert(alert, err.message));
        show();
      } }, "Remove"))));
  };
  on.onclick = async () => {
    on.disabled = true;
    try {
      // asked only now, after the click: browsers ignore (or punish) a request made unasked
      if (await Notification.requestPermission() !== "granted") throw new Error("Notifications were not allowed.");
      const registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" })
        .then(() => navigator.serviceWorker.ready);
      const key = await api.pushKey();
      const subscription = await registration.pushManager.subscribe({
        userVisibleOnly: true, applicationServerKey: fromBase64Url(key) });
      const device = await api.addPushDevice(subscription.toJSON(), deviceName());
      localStorage.setItem(PUSH_KEY, device.id);
      showAlert(alert, null);
    } catch (err) {
      showAlert(alert, `Push could not be turned on: ${err.message}`);
    }
    show();
  };
  off.onclick = async () => {
    const mine = localStorage.getItem(PUSH_KEY);
    try {
      if (mine) await api.removePushDevice(mine);
      const registration = await navigator.serviceWorker.getRegistration("/");
      await (await registration?.pushManager.getSubscription())?.unsubscribe();
    } catch (err) {
      showAlert(alert, err.message);
    }
    localStorage.removeItem(PUSH_KEY);
    show();
  };
  show();
}

function drawChannels(part, me, save) {
  const notify = me.settings.notify || {};
  const rows = EVENTS.map(([event, label]) => {
    const chosen = channelsOf(notify, event);
    const boxes = CHANNELS.map(([channel, name]) => {
      const box = h("input", { type: "checkbox", name: `${event}.${channel}`, checked: chosen.has(channel),
                               "aria-label": `${label}: ${name}` });
      box.onchange = () => {
        const picked = CHANNELS.map(([c]) => c).filter((c) => part.querySelector(`[name="${event}.${c}"]`).checked);
        save({ notify: { [event]: picked } });
      };
      return h("td", {}, box);
    });
    return h("tr", {}, h("th", { scope: "row" }, label), boxes);
  });
  const quiet = h("input", { type: "checkbox", name: "quiet_when_present",
                             checked: me.settings.quiet_when_present !== false });
  quiet.onchange = () => save({ quiet_when_present: quiet.checked });
  fill(part, h("h2", {}, "What tells you of what"),
    h("table", { class: "channels" }, h("thead", {}, h("tr", {}, h("th", {}, "Event"),
      CHANNELS.map(([, name]) => h("th", { scope: "col" }, name)))), h("tbody", {}, rows)),
    h("p", { class: "muted" }, "Turns are never e-mailed one by one: e-mail on for your move means one digest a day."),
    h("label", {}, quiet, " Quiet when present: no push or e-mail about a game I am looking at (the inbox still keeps it)"));
}

// ---- e-mail: the address and whether it is verified (GET /me `email`; PUT, DELETE /me/email) ---
function drawEmail(part, me, alert) {
  const email = me.email || null;
  const address = h("input", { name: "email", type: "email", autocomplete: "email",
                               value: email?.address || "" });
  const state = h("p", { id: "email-state", "aria-live": "polite" }, email === null ? "No address set."
    : [email.address, " ", h("small", { class: email.verified ? "" : "muted" },
      email.verified ? "(verified)" : "(not verified yet: open the link mailed to it)")]);
  const form = h("form", { class: "email-form" }, h("label", {}, "Address ", address),
    h("button", { type: "submit" }, "Save and send the link"),
    email ? h("button", { type: "button", class: "link", onclick: async () => {
      await api.removeEmail().then(() => { me.email = null; }, (err) => showAlert(alert, err.message));
      drawEmail(part, me, alert);
    } }, "Forget the address") : null);
  form.onsubmit = async (event) => {
    event.preventDefault();
    try {
      me.email = await api.setEmail(address.value.trim());
      showAlert(alert, null);
    } catch (err) {
      showAlert(alert, err.message);  // (503: this server sends no e-mail)
      return;
    }
    drawEmail(part, me, alert);
  };
  fill(part, h("h2", {}, "E-mail"), state, form);
}

// ---- reminders and the digest: settings.reminder_minutes, digest_hour, timezone ---------------
function drawTiming(part, me, save) {
  const { settings } = me;
  if (!("reminder_minutes" in settings) && !("digest_hour" in settings)) {
    fill(part, h("h2", {}, "Reminders and the daily digest"),
      h("p", { class: "muted" }, "This server sends no reminders or digests."));
    return;
  }
  const reminders = h("input", { name: "reminder_minutes", inputmode: "numeric",
                                 value: (settings.reminder_minutes || []).join(", ") });
  reminders.onchange = () => save({ reminder_minutes: reminders.value.split(/[\s,]+/).filter(Boolean).map(Number) });
  const hour = h("input", { name: "digest_hour", type: "number", min: 0, max: 23, value: settings.digest_hour ?? 8 });
  hour.onchange = () => save({ digest_hour: Number(hour.value) });
  const zone = h("input", { name: "timezone", value: settings.timezone
    || Intl.DateTimeFormat().resolvedOptions().timeZone });
  zone.onchange = () => save({ timezone: zone.value });
  fill(part, h("h2", {}, "Reminders and the daily digest"),
    h("label", {}, "Remind me this many minutes before my clock runs out ", reminders),
    h("label", {}, "The daily digest at (hour) ", hour),
    h("label", {}, "In the time zone ", zone));
}

function deviceName() {
  const agent = navigator.userAgent;
  const browser = /Firefox\//.test(agent) ? "Firefox" : /Edg\//.test(agent) ? "Edge"
    : /Chrom(e|ium)\//.test(agent) ? "Chrome" : /Safari\//.test(agent) ? "Safari" : "A browser";
  const system = /Android/.test(agent) ? "Android" : /iPhone|iPad/.test(agent) ? "iOS"
    : /Mac OS/.test(agent) ? "macOS" : /Windows/.test(agent) ? "Windows" : /Linux/.test(agent) ? "Linux" : "";
  return system ? `${browser} on ${system}` : browser;
}

function fromBase64Url(text) {
  const base64 = (text + "=".repeat((4 - (text.length % 4)) % 4)).replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}
