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
