// A player's public profile (#/player/<name>): username, member since, the bot flag, ratings
// with a chart of each one's history, and their recent finished games with each result from
// their side; the events they took part in, each linked, with their placing and score; on one's
// own, the vacation switch.

import * as api from "./api.js";
import { ratingLine } from "./charts.js";
import { fill, h } from "./dom.js";
import { FORMATS } from "./events.js";
import { ago, ratingText, seatName } from "./format.js";
import { isMe } from "./storage.js";
import { vacationCard } from "./vacation.js";

export function mountProfile(root, encoded) {
  const username = decodeURIComponent(encoded);
  const view = { destroyed: false, destroy() { this.destroyed = true; } };
  fill(root, h("section", { class: "card profile" }, h("h1", {}, username),
    h("p", { class: "muted" }, "Loading…")));
  Promise.all([api.player(username), api.kinds().catch(() => [])]).then(([profile, kinds]) => {
    if (!view.destroyed) show(root, profile, kinds);
  }).catch((err) => {
    if (view.destroyed) return;
    fill(root, h("section", { class: "card profile" }, h("h1", {}, username),
      h("p", { class: "alert", role: "alert" }, err.message),
      h("p", {}, h("a", { href: "#/" }, "Back to the lobby"))));
  });
  return view;
}

function show(root, profile, kinds) {
  const title = (slug) => kinds.find((k) => k.kind === slug)?.title || slug;
  const ratings = Object.entries(profile.ratings || {});
  const since = new Date(profile.created_at).toLocaleDateString(undefined,
    { year: "numeric", month: "long", day: "numeric" });
  document.title = `${profile.username} — Postplay`;
  fill(root, h("section", { class: "card profile" },
    h("h1", {}, profile.username, profile.bot ? h("span", { class: "tag" }, "bot") : null),
    h("p", { class: "muted since" }, `Member since ${since}`),
    ratings.length ? h("div", {}, h("h2", {}, "Ratings"),
      h("ul", { class: "ratings" }, ratings.map(([slug, rating]) =>
        h("li", { dataset: { kind: slug } }, `${title(slug)}: `, h("strong", {}, ratingText(rating)),
          h("span", { class: "muted" }, ` · RD ${Math.round(rating.rd)} · ${rating.games} rated games`
            + (rating.provisional ? " · provisional" : "")),
          historyChart(profile.rating_history?.[slug], `${title(slug)} rating of ${profile.username}`)))))
      : null,
    h("h2", {}, "Recent games"),
    profile.games?.length
      ? h("div", { class: "game-list" },
        h("ul", {}, profile.games.map((game) => gameRow(game, profile.username, title))))
      : h("p", { class: "muted" }, "No finished games yet."),
    h("h2", {}, "Events"),
    profile.events?.length
      ? h("ul", { class: "profile-events" }, profile.events.map((event) => eventRow(event, title)))
      : h("p", { class: "muted" }, "No events yet.")),
    isMe(profile.username) ? vacationCard() : null);
}

/** The rating after each rated game, as a line inside its ± RD band. */
function historyChart(points, label) {
  return points?.length ? h("figure", { class: "rating-chart" }, ratingLine(points, label)) : null;
}

/** "win", "loss" or "draw" for the seat `username` holds, or "aborted". */
function outcomeFor(game, username) {
  const seat = game.seats.findIndex((s) => s.player?.toLowerCase() === username.toLowerCase());
  const { winner, reason } = game.result || {};
  if (reason === "aborted") return "aborted";
  if (winner === null || winner === undefined) return "draw";
  return winner === seat ? "win" : "loss";
}

function gameRow(game, username, title) {
  const seat = game.seats.findIndex((s) => s.player?.toLowerCase() === username.toLowerCase());
  const outcome = outcomeFor(game, username);
  const opponent = seat === -1 ? null : seatName(game, 1 - seat);
  return h("li", { class: "game-row", dataset: { game: game.id } },
    h("a", { href: `#/game/${game.id}` }, h("strong", {}, title(game.kind)),
      opponent ? ` vs ${opponent}` : ""),
    h("span", { class: ["outcome", outcome] }, outcome),
    h("span", { class: "muted" }, ago(game.updated_at)));
}

const STANDING = { open: "not started", running: "playing", cancelled: "cancelled" };

/** An event the player took part in: its name linked, its format and game, where they placed
 * (once it is over) and their score. */
function eventRow(event, title) {
  const placed = event.placing ? `${ordinal(event.placing)} place` : STANDING[event.status] || event.status;
  return h("li", { class: "event-row", dataset: { event: event.id, status: event.status } },
    h("a", { href: `#/event/${event.id}` }, h("strong", {}, event.name)),
    h("span", { class: "muted" }, `${FORMATS[event.format] || event.format} · ${title(event.kind)}`),
    h("span", { class: "placing" }, placed),
    h("span", { class: "score" }, `${points(event.score)} ${event.score === 1 ? "point" : "points"}`));
}

/** 1 → "1st", 2 → "2nd", 11 → "11th", 23 → "23rd". */
function ordinal(n) {
  const tens = n % 100, ones = n % 10;
  const suffix = tens >= 11 && tens <= 13 ? "th" : { 1: "st", 2: "nd", 3: "rd" }[ones] || "th";
  return `${n}${suffix}`;
}

/** A score in points, a half as ½ (2.5 → "2½", 0.5 → "½"). */
function points(score) {
  const whole = Math.floor(score);
  return score - whole ? `${whole || ""}½` : String(whole);
}
