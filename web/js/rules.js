// The rules pages: an index of the games, and each game's rules (HTML rendered by the server from
// its Markdown, GET /kinds/{kind}/rules) with its options and bots from GET /kinds.

import * as api from "./api.js";
import { fill, h } from "./dom.js";

export function mountRulesIndex(root) {
  api.kinds().then((kinds) => fill(root, h("section", { class: "card rules" },
    h("h1", {}, "Rules"),
    h("ul", { class: "kinds" }, kinds.map((k) => h("li", {},
      h("a", { href: `#/rules/${k.kind}` }, h("strong", {}, k.title)), " — ", k.summary))))))
    .catch((err) => fill(root, h("p", { class: "alert", role: "alert" }, err.message)));
  return {};
}

export function mountRules(root, slug) {
  const body = h("div", { class: "markdown" }, h("p", { class: "muted" }, "Loading the rules…"));
  const about = h("div", {});
  const title = h("h1", {}, slug);
  fill(root, h("article", { class: "card rules" }, title, about,
    h("p", {}, h("a", { href: `#/learn/${slug}` }, "Lessons"),
      slug === "prime-drop" ? null : [" · ", h("a", { href: `#/puzzles/${slug}` }, "Puzzles")]),
    body, h("p", {}, h("a", { href: "#/" }, "Back to the lobby"))));
  api.kind(slug).then((kind) => {
    if (!kind) return;
    title.textContent = `${kind.title}: rules`;
    fill(about, h("p", { class: "summary" }, kind.summary),
      kind.options.length ? h("details", {}, h("summary", {}, "Options"),
        h("ul", {}, kind.options.map((o) => h("li", {}, h("code", {}, o.name), ": ", o.description,
          ` Default: ${JSON.stringify(o.default)}.`)))) : null,
      kind.bots.length ? h("details", {}, h("summary", {}, "Bots"),
        h("ul", {}, kind.bots.map((b) => h("li", {}, h("strong", {}, b.level), ": ", b.line)))) : null);
  }).catch(() => {});
  api.rules(slug).then((rules) => {
    body.innerHTML = rules.html;  // the server escapes any HTML in the Markdown
    boxLongTables(body);
  }).catch((err) => fill(body, h("p", { class: "muted" }, err.message)));
  return {};
}

const LONG_TABLE_ROWS = 12;

/** A long table (Factor/Multiple's results for n = 2 to 200) scrolls in a box of its own instead
 *  of making the page metres long; a box that scrolls is reachable by keyboard, and named. */
function boxLongTables(body) {
  for (const wrap of body.querySelectorAll(".table-wrap")) {
    const table = wrap.querySelector("table");
    if (table.rows.length > LONG_TABLE_ROWS) wrap.classList.add("long");
    if (wrap.classList.contains("long") || wrap.scrollWidth > wrap.clientWidth) {
      let heading = wrap.previousElementSibling;
      while (heading && !/^H[2-6]$/.test(heading.tagName)) heading = heading.previousElementSibling;
      Object.assign(wrap, { tabIndex: 0 });
      wrap.setAttribute("role", "region");
      wrap.setAttribute("aria-label", `Table${heading ? `: ${heading.textContent}` : ""}`);
    }
  }
}
