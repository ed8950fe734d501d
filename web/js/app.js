// The single-page client: routes on the URL's hash to the lobby, a game, the rules, the
// playtests and sweeps, the leaderboards, signing up or in, or a player's profile; the header
// shows who is signed in, and on every page the tab tells a signed-in player how many games wait
// for them (notices.js).
// Each page's module is loaded when its route is first opened (a dynamic import), so a page
// downloads only its own code (the game page's first modules excepted: index.html preloads them
// with this one), and the header's account menu, the notices and the offline worker once the
// first page is drawn; see web/README.md, "Loading".

import { prefetchGame } from "./api.js";
import { ACCOUNT_EVENT, kindOf } from "./storage.js";

const LOBBY = /^#?\/?$/;

/** A route's page: `load(...matches)` imports its module (and may start the page's first
 *  request meanwhile), `mount` names the function that shows it. */
const page = (load, mount) => ({ load, mount });
const LOBBY_PAGE = page(() => import("./lobby.js"), "mountLobby");
const GAME_PAGE = page((id) => {
  const known = kindOf(id);
  preloadBoard(known);
  prefetchGame(id).then(({ data }) => {
    if (data.kind !== known) preloadBoard(data.kind);
  }, () => {});
  return import("./game.js");
}, "mountGame");
const RULES_PAGES = () => import("./rules.js");
const PLAYTEST_PAGES = () => import("./playtests.js");
const ACCOUNT_PAGES = () => import("./account.js");
const SWEEP_PAGES = () => import("./sweeps.js");
const LEADERBOARD_PAGE = page(() => import("./leaderboard.js"), "mountLeaderboard");
const LEARN_PAGES = () => import("./learn.js");
const EVENT_PAGES = () => import("./events.js");

/** Fetch (and compile) module `path` now, for an import to come: the game page's board is
 *  asked for with the game (its other modules are preloaded by index.html). */
const preloaded = new Set();
function preload(path) {
  const href = new URL(path, import.meta.url).href;
  if (preloaded.has(href)) return;
  preloaded.add(href);
  document.head.append(Object.assign(document.createElement("link"), { rel: "modulepreload", href }));
}

/** Preload the board of a game of `kind` (boards/common.js names them: boards/<kind>.js), as
 *  soon as the kind is known: remembered from an earlier visit, else from the game's answer. */
function preloadBoard(kind) {
  if (/^[a-z][a-z-]*$/.test(kind ?? "")) preload(`./boards/${kind}.js`);
}

// [pattern, page, follows]: a page that `follows` the account is mounted again when this
// browser signs in or out (the sign-up page is not: it is showing the recovery codes)
const ROUTES = [
  [LOBBY, LOBBY_PAGE, true],
  [/^#\/game\/([\w-]+)$/, GAME_PAGE, true],
  [/^#\/rules\/?$/, page(RULES_PAGES, "mountRulesIndex")],
  [/^#\/rules\/([\w-]+)$/, page(RULES_PAGES, "mountRules")],
  [/^#\/playtests\/?$/, page(PLAYTEST_PAGES, "mountPlaytests")],
  [/^#\/playtest\/([\w-]+)$/, page(PLAYTEST_PAGES, "mountPlaytest")],
  [/^#\/sweeps\/?$/, page(SWEEP_PAGES, "mountSweeps")],
  [/^#\/sweep\/([\w-]+)$/, page(SWEEP_PAGES, "mountSweep")],
  [/^#\/leaderboards?\/?$/, LEADERBOARD_PAGE],
  [/^#\/learn\/?$/, page(LEARN_PAGES, "mountLearnIndex")],
  [/^#\/learn\/([\w-]+)$/, page(LEARN_PAGES, "mountLearn"), true],
  [/^#\/puzzles\/([\w-]+)$/, page(LEARN_PAGES, "mountPuzzles"), true],
  [/^#\/daily\/([\w-]+)$/, page(LEARN_PAGES, "mountDaily"), true],
  [/^#\/leaderboard\/([\w-]+)$/, LEADERBOARD_PAGE],
  [/^#\/events\/?$/, page(EVENT_PAGES, "mountEvents"), true],
  [/^#\/event\/([\w-]+)$/, page(EVENT_PAGES, "mountEvent"), true],
  [/^#\/ladders?\/?$/, page(EVENT_PAGES, "mountLadder"), true],
  [/^#\/ladder\/([\w-]+)$/, page(EVENT_PAGES, "mountLadder"), true],
  [/^#\/signup$/, page(ACCOUNT_PAGES, "mountSignUp")],
  [/^#\/signin$/, page(ACCOUNT_PAGES, "mountSignIn")],
  [/^#\/player\/([^/]+)$/, page(() => import("./profile.js"), "mountProfile")],
  [/^#\/notifications$/, page(() => import("./notifications.js"), "mountNotifications"), true],
  [/^#\/email\/verify\/([\w.-]+)$/, page(() => import("./email.js"), "mountVerify")],
];

const root = document.getElementById("view");
const accountNav = document.getElementById("account");
let current = null;
let follows = false;
let routing = 0;  // the latest navigation: a slower import for an earlier one mounts nothing

async function route() {
  current?.destroy?.();
  current = null;
  const hash = location.hash;
  const found = ROUTES.find(([pattern]) => pattern.test(hash));
  if (!found) {
    location.hash = "#/";
    return;
  }
  const [pattern, { load, mount }, followsAccount] = found;
  const matches = pattern.exec(hash).slice(1);
  const navigation = ++routing;
  // the page left is gone at once: nothing on it can be used while the next one loads
  root.replaceChildren(Object.assign(document.createElement("p"), { className: "muted", textContent: "Loading…" }));
  let module;
  try {
    module = await load(...matches);
  } catch {
    root.replaceChildren(Object.assign(document.createElement("p"), {
      className: "alert", textContent: "This page could not be loaded; check your connection and reload." }));
    return;
  }
  if (navigation !== routing) return;
  follows = Boolean(followsAccount);
  current = module[mount](root, ...matches);
  if (navigation > 1) {  // a page opened from another: focus and the top of the new one (the
    root.focus({ preventScroll: true });  // page first loaded has both already, and asking
    window.scrollTo(0, 0);  // would lay it out before its first frame)
  }
}

async function showAccount() {
  const { renderAccountNav } = await import("./account.js");
  renderAccountNav(accountNav, () => {
    if (!LOBBY.test(location.hash)) location.hash = "#/";
  });
}

/** What every page has beyond its own (the account menu, the notices, the offline worker),
 *  once the first page is drawn (its `drawn` promise, if it has one): its first frame waits for
 *  none of their modules. */
async function startChrome() {
  await Promise.resolve(current?.drawn).catch(() => {});
  const [, notices, offline] = await Promise.all([showAccount(), import("./notices.js"),
                                                  import("./offline.js")]);
  notices.startNotices();
  offline.registerOffline();
}

window.addEventListener(ACCOUNT_EVENT, () => {
  showAccount();
  if (follows) route();
});
window.addEventListener("hashchange", route);

// the header's menus (More, and the player's under their name) close when a page is chosen, on
// Escape (focus back on the menu's summary), and on a tap or click outside them
const HEADER_MENUS = "header.site details.site-menu, header.site details.account-menu";
window.addEventListener("hashchange", () => {
  for (const menu of document.querySelectorAll(HEADER_MENUS)) menu.open = false;
});
document.addEventListener("keydown", (event) => {
  const menu = event.target.closest?.(HEADER_MENUS);
  if (event.key !== "Escape" || !menu?.open) return;
  menu.open = false;
  menu.querySelector("summary").focus();
});
document.addEventListener("click", (event) => {
  for (const menu of document.querySelectorAll(`:is(${HEADER_MENUS})[open]`)) {
    if (!menu.contains(event.target)) menu.open = false;
  }
});

route().then(startChrome).catch(() => {});  // (offline, their modules not cached: nothing more to show)
