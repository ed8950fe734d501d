// Postplay's service worker (served at /sw.js, scope /): the app opens without the network and
// shows the last known state of the player's games.
//   - The shell (index.html and every file of the client) is kept in a cache named for the
//     client's version: the server writes SHELL_VERSION (a hash of the files) and SHELL_FILES into
//     this file, so a deploy changes the worker, which fetches the new shell and drops the old.
//   - Everything is network-first: online, the page always gets the server's current files (a
//     304 when unchanged) and answers, never a stale module; the caches serve only when the
//     network fails. API answers (GET only) are kept as they arrive and, served from the cache,
//     carry `X-Postplay-Offline: 1` so the page can say it is offline.

const SHELL_VERSION = "__SHELL_VERSION__";
const SHELL_FILES = __SHELL_FILES__;
const SHELL = `postplay-shell-${SHELL_VERSION}`;
const API = "postplay-api";

// what only helps to move (and moves need the network) is not kept
const NOT_KEPT = /\/(legal-moves|analysis)$/;
// every page names the games by their titles, from GET /kinds: kept with the shell's install
const KINDS = "/api/v1/kinds";

self.addEventListener("install", (event) => {
  event.waitUntil(Promise.all([
    caches.open(SHELL).then((cache) => cache.addAll(SHELL_FILES)),
    caches.open(API).then((cache) => cache.add(KINDS)),
  ]).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((n) => n !== SHELL && n !== API).map((n) => caches.delete(n))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && url.pathname === "/") {
    event.respondWith(networkFirst(request, SHELL, "/"));
  } else if (url.pathname.startsWith("/api/v1/") && !NOT_KEPT.test(url.pathname)) {
    event.respondWith(networkFirst(request, API));
  } else if (url.pathname.startsWith("/static/") || url.pathname.startsWith("/rules-assets/")) {
    event.respondWith(networkFirst(request, SHELL));
  }
});

/** The network's answer (kept when it is a whole 200), else the cached one marked offline. */
async function networkFirst(request, cacheName, fallbackKey = null) {
  const cache = await caches.open(cacheName);
  try {
    const response = await fetch(request);
    if (response.status === 200) cache.put(fallbackKey || request, response.clone());
    return response;
  } catch (err) {
    const kept = await cache.match(fallbackKey || request, { ignoreVary: true });
    if (!kept) throw err;
    const headers = new Headers(kept.headers);
    headers.set("X-Postplay-Offline", "1");
    return new Response(kept.body, { status: kept.status, statusText: kept.statusText, headers });
  }
}

// Web Push (js/notifications.js subscribes; api/notify/push.py sends): the decrypted payload is
// {id, type, game, title, body, url}; it is shown at once (a push must show something), tagged
// with its id so a push repeated by the server replaces the first, and a click focuses a tab
// already on the game, or any tab of the site sent there, or opens one.
self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { body: event.data?.text() };
  }
  event.waitUntil(self.registration.showNotification(data.title ? `Postplay: ${data.title}` : "Postplay", {
    body: data.body || "Something happened in one of your games.",
    tag: data.id || undefined,
    icon: "/static/icons/icon-192.png",
    data: { url: new URL(data.url || "/", self.location.origin).href, game: data.game || null },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil(openGame(event.notification.data?.url || new URL("/", self.location.origin).href));
});

/** Show `url` (a game's page): in the tab already on it, else in a tab of the site sent there,
 *  else in a new one; that tab is focused. */
async function openGame(url) {
  const open = await self.clients.matchAll({ type: "window" });  // this worker's: navigate() needs that
  const tab = open.find((c) => c.url === url) || open[0];
  if (!tab) return self.clients.openWindow(url);
  const there = tab.url === url ? tab : (await tab.navigate(url)) || tab;
  return there.focus().catch(() => there);  // (focus is a click's to allow)
}
