// The page a verification mail links to (#/email/verify/<token>): it sends the token to
// POST /api/v1/email/verify (no sign-in needed) and says whether the address is now verified.

import { verifyEmail } from "./api.js";
import { fill, h } from "./dom.js";

export function mountVerify(root, token) {
  const view = { destroyed: false, destroy() { this.destroyed = true; } };
  document.title = "E-mail address — Postplay";
  const card = (...lines) => fill(root, h("section", { class: "card" },
    h("h1", {}, "Your e-mail address"), ...lines, h("p", {}, h("a", { href: "#/" }, "To the lobby"))));
  card(h("p", { class: "muted" }, "Verifying…"));
  verifyEmail(token).then(() => {
    if (!view.destroyed) card(h("p", { role: "status" }, "Your address is verified: Postplay will e-mail you."));
  }).catch((err) => {
    if (!view.destroyed) card(h("p", { class: "alert", role: "alert" }, err.message));
  });
  return view;
}
