// Accounts in the browser: the header's sign-in links (or the player's menu), the sign-up
// page that shows the recovery codes once, the sign-in page with recovery by code, and claiming
// the games this browser holds seat tokens for when it signs in.

import * as api from "./api.js";
import { alertBox, fill, h, showAlert } from "./dom.js";
import { noticesMenu } from "./notices.js";
import * as storage from "./storage.js";

const USERNAME_HINT = "3 to 20 letters, digits, _ or -";
const PASSWORD_HINT = "At least 10 characters, not easy to guess: a few uncommon words do well";

/** Fill the header's account links: Sign in / Sign up, or the bell and the player's menu under
 *  their name (Profile, Notifications, Notices, Sign out). */
export function renderAccountNav(nav, onSignedOut) {
  const me = storage.account();
  if (!me) {
    fill(nav, h("a", { href: "#/signin" }, "Sign in"), h("a", { href: "#/signup" }, "Sign up"));
    return;
  }
  const signOut = async () => {
    try {
      await api.signOut();
    } catch {
      // the token may be revoked already: this browser forgets it either way
    }
    storage.signOut();
    onSignedOut();
  };
  const bellSlot = h("span", { class: "bell-slot" });
  import("./notifications.js").then((m) => bellSlot.replaceChildren(m.bell()), () => {});
  // the bell beside the player's name, and the rest under the name, as Lichess's header has it:
  // the header stays one row on a phone whatever the name's length
  fill(nav, bellSlot,
    h("details", { class: "account-menu" },
      h("summary", { class: "me", title: me.username }, h("span", { class: "me-name" }, me.username)),
      h("div", { class: "account-menu-panel" },
        h("a", { href: `#/player/${encodeURIComponent(me.username)}`, class: "profile" }, "Profile"),
        h("a", { href: "#/notifications" }, "Notifications"),
        noticesMenu(),
        h("button", { type: "button", class: "link", onclick: signOut }, "Sign out"))));
}

/**
 * Offer every seat token this browser holds to the account, once per game, so the games started
 * before signing in follow the player; those the server refuses stay this browser's alone.
 */
export async function claimStoredGames() {
  for (const entry of storage.myGames()) {
    if (entry.claim) continue;
    let outcome = "claimed";
    for (const token of Object.values(entry.tokens)) {
      try {
        await api.claim(entry.id, token);
      } catch (err) {
        if (err.status === 0 || err.status >= 500 || err.status === 429) return;  // try next time
        outcome = "refused";
      }
    }
    storage.markClaim(entry.id, outcome);
  }
}

/** Signed in with `session` ({token, account}): claim this browser's games, then the lobby. */
async function enter(session) {
  storage.signIn(session.account.username, session.token);
  await claimStoredGames();
}

function field(label, input, hint) {
  return h("label", {}, label, input, hint ? h("small", { class: "muted" }, hint) : null);
}

function usernameInput() {
  // the server's refusal says what is wrong with a name, so the browser checks only that it is there
  return h("input", { name: "username", required: true, autocomplete: "username",
                      autocapitalize: "none", spellcheck: "false" });
}

function passwordInput(name, autocomplete) {
  return h("input", { name, type: "password", required: true, autocomplete });
}

/** A form whose submit runs `action` with its button disabled and shows a refusal in `alert`. */
function wire(form, alert, action) {
  form.onsubmit = async (event) => {
    event.preventDefault();
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    try {
      showAlert(alert, null);
      await action();
    } catch (err) {
      showAlert(alert, err.message);
    } finally {
      button.disabled = false;
    }
  };
}

export function mountSignUp(root) {
  const alert = alertBox();
  const username = usernameInput();
  const password = passwordInput("password", "new-password");
  const form = h("form", { class: "account-form", "aria-label": "Sign up" },
    field("Username", username, USERNAME_HINT),
    field("Password", password, PASSWORD_HINT),
    h("button", { class: "primary", type: "submit" }, "Sign up"));
  const card = h("section", { class: "card account-page" }, h("h1", {}, "Sign up"),
    h("p", { class: "muted" }, "An account keeps your games on every device you sign in from, and "
      + "lets others challenge you by name. Games you play here without one are claimed for it."),
    alert, form,
    h("p", {}, "Have an account already? ", h("a", { href: "#/signin" }, "Sign in")));
  fill(root, card);
  wire(form, alert, async () => {
    const created = await api.signUp(username.value.trim(), password.value);
    localStorage.setItem("postplay.push-hint", created.account.username);  // notifications.js
    await enter(created);
    showRecoveryCodes(card, created.account.username, created.recovery_codes);
  });
  return {};
}

/** The recovery codes, shown this once, and a button on to the lobby. */
function showRecoveryCodes(card, username, codes) {
  const done = h("span", { class: "muted", "aria-live": "polite" });
  const copy = h("button", { type: "button", onclick: async () => {
    try {
      await navigator.clipboard.writeText(codes.join("\n"));
      done.textContent = "Copied.";
    } catch {
      done.textContent = "Copying is not allowed here: select the codes and copy them.";
    }
  } }, "Copy the codes");
  const onward = h("button", { type: "button", class: "primary", onclick: () => { location.hash = "#/"; } },
    "I have saved them: continue");
  fill(card, h("h1", {}, `Welcome, ${username}`),
    h("div", { class: "notice", role: "note" },
      h("strong", {}, "Save these recovery codes now. "),
      "There is no e-mail: if you lose your password, one of these codes is the only way back into "
      + "your account. Each works once, and they are not shown again."),
    h("ol", { class: "recovery-codes" }, codes.map((code) => h("li", {}, h("code", {}, code)))),
    h("div", { class: "copy-row" }, copy, done),
    onward);
  onward.focus();
}

export function mountSignIn(root) {
  const alert = alertBox();
  const username = usernameInput();
  const password = passwordInput("password", "current-password");
  const form = h("form", { class: "account-form", "aria-label": "Sign in" },
    field("Username", username), field("Password", password),
    h("button", { class: "primary", type: "submit" }, "Sign in"));
  wire(form, alert, async () => {
    await enter(await api.signIn(username.value.trim(), password.value));
    location.hash = "#/";
  });

  const recoverAlert = alertBox();
  const recoverName = usernameInput();
  const code = h("input", { name: "recovery_code", required: true, autocomplete: "one-time-code",
                            autocapitalize: "none", spellcheck: "false" });
  const newPassword = passwordInput("new_password", "new-password");
  const recoverForm = h("form", { class: "account-form", "aria-label": "Recover your account" },
    field("Username", recoverName), field("Recovery code", code),
    field("New password", newPassword, PASSWORD_HINT),
    h("button", { type: "submit" }, "Set the new password and sign in"));
  wire(recoverForm, recoverAlert, async () => {
    await enter(await api.recover(recoverName.value.trim(), code.value.trim(), newPassword.value));
    location.hash = "#/";
  });

  fill(root, h("section", { class: "card account-page" }, h("h1", {}, "Sign in"), alert, form,
    h("p", {}, "New here? ", h("a", { href: "#/signup" }, "Sign up")),
    h("details", { class: "recover" },
      h("summary", {}, "Lost your password? Use a recovery code"),
      h("p", { class: "muted" }, "Each of the codes you saved when signing up works once."),
      recoverAlert, recoverForm)));
  return {};
}
