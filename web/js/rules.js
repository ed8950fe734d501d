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
  fill(root, h("article", { class: "card rules" }, title, about, body,
    h("p", {}, h("a", { href: "#/" }, "Back to the lobby"))));
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
  }).catch((err) => fill(body, h("p", { class: "muted" }, err.message)));
  return {};
}
