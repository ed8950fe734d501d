// The vacation switch, on the signed-in player's own profile: the days left, going on vacation
// and coming back. While it lasts, the clocks of the player's correspondence games stand still.

import * as api from "./api.js";
import { alertBox, fill, h, submitting } from "./dom.js";

const when = (iso) => new Date(iso).toLocaleString(undefined,
  { month: "long", day: "numeric", hour: "2-digit", minute: "2-digit" });
const days = (n) => `${n} day${n === 1 ? "" : "s"}`;

/** The vacation card; it fetches the account's vacation and keeps itself up to date. */
export function vacationCard() {
  const alert = alertBox();
  const line = h("p", { class: "vacation-line", "aria-live": "polite" }, "Loading…");
  const button = h("button", { type: "button", class: "vacation-switch", hidden: true });
  const card = h("section", { class: "card vacation", "aria-label": "Vacation" },
    h("h2", {}, "Vacation"), line, alert, button,
    h("p", { class: "muted" }, "Away for a while? On vacation, the clocks of your correspondence "
      + "games stand still, your opponents' too, and each game's deadline moves on by the time "
      + "you are away. Other clocks keep running."));
  let shown = null;

  const show = (vacation) => {
    shown = vacation;
    fill(line, vacation.on
      ? [h("strong", {}, "You are on vacation"), ` until ${when(vacation.until)} at the latest: `,
         `${days(vacation.days_left)} left.`]
      : `${days(vacation.days_left)} of vacation left (${vacation.days_per_year} a year, `
        + `up to ${vacation.max_days} banked; the next days come on ${when(vacation.next_days_at)}).`);
    button.hidden = false;
    button.textContent = vacation.on ? "Come back from vacation" : "Go on vacation";
    button.classList.toggle("primary", !vacation.on);
    button.disabled = !vacation.on && vacation.days_left <= 0;
  };
  button.onclick = async () => {
    const switched = await submitting(button, alert, () => api.setVacation(!shown.on));
    if (switched) show(switched);
  };
  api.vacation().then(show).catch((err) => { line.textContent = err.message; });
  return card;
}
