// The leaderboards (#/leaderboards, #/leaderboard/<kind>): one game's best rated players, with
// tabs for the others; a provisional rating (RD above 110) is marked "?", bots are tagged.

import * as api from "./api.js";
import { fill, h } from "./dom.js";
import { ratingText } from "./format.js";

export function mountLeaderboard(root, slug) {
  const view = { destroyed: false, destroy() { this.destroyed = true; } };
  fill(root, h("section", { class: "card leaderboard" }, h("h1", {}, "Leaderboards"),
    h("p", { class: "muted" }, "Loading…")));
  api.kinds().then(async (kinds) => {
    const kind = kinds.find((k) => k.kind === slug) || kinds[0];
    const board = await api.leaderboard(kind.kind);
    if (!view.destroyed) show(root, kinds, kind, board);
  }).catch((err) => {
    if (view.destroyed) return;
    fill(root, h("section", { class: "card leaderboard" }, h("h1", {}, "Leaderboards"),
      h("p", { class: "alert", role: "alert" }, err.message)));
  });
  return view;
}

function show(root, kinds, kind, board) {
  document.title = `${kind.title} leaderboard — Postplay`;
  fill(root, h("section", { class: "card leaderboard" },
    h("h1", {}, "Leaderboards"),
    h("ul", { class: "kind-tabs" }, kinds.map((k) => h("li", {},
      h("a", { href: `#/leaderboard/${k.kind}`, "aria-current": k.kind === kind.kind ? "page" : null },
        k.title)))),
    h("h2", {}, kind.title),
    board.players.length ? h("div", { class: "table-wrap" }, h("table", { class: "numbers board" },
      h("thead", {}, h("tr", {}, ["#", "Player", "Rating", "RD", "Games"].map((c) =>
        h("th", { scope: "col" }, c)))),
      h("tbody", {}, board.players.map((p) => h("tr", { dataset: { player: p.username } },
        h("td", {}, String(p.rank)),
        h("th", { scope: "row" }, h("a", { href: `#/player/${encodeURIComponent(p.username)}` }, p.username),
          p.bot ? h("span", { class: "tag" }, "bot") : null),
        h("td", { class: p.provisional ? "provisional" : null }, ratingText(p)),
        h("td", {}, String(Math.round(p.rd))),
        h("td", {}, String(p.games)))))))
      : h("p", { class: "muted" }, "Nobody is rated in this game yet: rated games between "
        + "accounts, and against the server's bots, put players here."),
    h("p", { class: "muted" }, "Glicko-2 ratings; a rating marked ? is provisional (its RD, the "
      + "rating deviation, is above 110).")));
}
