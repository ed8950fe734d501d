// The single-page client: routes on the URL's hash to the lobby, a game, the rules, or the
// playtests.

import { mountGame } from "./game.js";
import { mountLobby } from "./lobby.js";
import { mountPlaytest, mountPlaytests } from "./playtests.js";
import { mountRules, mountRulesIndex } from "./rules.js";

const ROUTES = [
  [/^#?\/?$/, mountLobby],
  [/^#\/game\/([\w-]+)$/, mountGame],
  [/^#\/rules\/?$/, mountRulesIndex],
  [/^#\/rules\/([\w-]+)$/, mountRules],
  [/^#\/playtests\/?$/, mountPlaytests],
  [/^#\/playtest\/([\w-]+)$/, mountPlaytest],
];

const root = document.getElementById("view");
let current = null;

function route() {
  current?.destroy?.();
  const hash = location.hash;
  for (const [pattern, mount] of ROUTES) {
    const match = pattern.exec(hash);
    if (match) {
      current = mount(root, ...match.slice(1));
      root.focus({ preventScroll: true });
      window.scrollTo(0, 0);
      return;
    }
  }
  location.hash = "#/";
}

window.addEventListener("hashchange", route);
route();
