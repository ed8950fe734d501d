// The single-page client: routes on the URL's hash to the lobby, a game, the rules, the
// playtests and sweeps, the leaderboards, signing up or in, or a player's profile; the header
// shows who is signed in, and on every page the tab tells a signed-in player how many games wait
// for them (notices.js).

import { mountSignIn, mountSignUp, renderAccountNav } from "./account.js";
import { mountGame } from "./game.js";
import { mountLeaderboard } from "./leaderboard.js";
import { mountLobby } from "./lobby.js";
import { startNotices } from "./notices.js";
import { mountPlaytest, mountPlaytests } from "./playtests.js";
import { mountProfile } from "./profile.js";
import { mountRules, mountRulesIndex } from "./rules.js";
import { mountSweep, mountSweeps } from "./sweeps.js";
import { ACCOUNT_EVENT } from "./storage.js";

const LOBBY = /^#?\/?$/;

// [pattern, mount, follows]: a page that `follows` the account is mounted again when this
// browser signs in or out (the sign-up page is not: it is showing the recovery codes)
const ROUTES = [
  [LOBBY, mountLobby, true],
  [/^#\/game\/([\w-]+)$/, mountGame, true],
  [/^#\/rules\/?$/, mountRulesIndex],
  [/^#\/rules\/([\w-]+)$/, mountRules],
  [/^#\/playtests\/?$/, mountPlaytests],
  [/^#\/playtest\/([\w-]+)$/, mountPlaytest],
  [/^#\/leaderboards?\/?$/, mountLeaderboard],
  [/^#\/leaderboard\/([\w-]+)$/, mountLeaderboard],
  [/^#\/sweeps\/?$/, mountSweeps],
  [/^#\/sweep\/([\w-]+)$/, mountSweep],
  [/^#\/signup$/, mountSignUp],
  [/^#\/signin$/, mountSignIn],
  [/^#\/player\/([^/]+)$/, mountProfile],
];

const root = document.getElementById("view");
const accountNav = document.getElementById("account");
let current = null;
let follows = false;

function route() {
  current?.destroy?.();
  const hash = location.hash;
  for (const [pattern, mount, followsAccount] of ROUTES) {
    const match = pattern.exec(hash);
    if (match) {
      follows = Boolean(followsAccount);
      current = mount(root, ...match.slice(1));
      root.focus({ preventScroll: true });
      window.scrollTo(0, 0);
      return;
    }
  }
  location.hash = "#/";
}

function showAccount() {
  renderAccountNav(accountNav, () => {
    if (!LOBBY.test(location.hash)) location.hash = "#/";
  });
}

window.addEventListener(ACCOUNT_EVENT, () => {
  showAccount();
  if (follows) route();
});
window.addEventListener("hashchange", route);
showAccount();
route();
startNotices();
