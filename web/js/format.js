// Words (and the seat marks) for the player: seat names, whose turn, results, durations.

import { h } from "./dom.js";

/** Seat 0 plays White, seat 1 Black, in every game. */
export const SEAT_COLOUR = ["White", "Black"];

/** A seat's mark: a white disc for seat 0, a black one for seat 1. */
export function seatMark(seat) {
  return h("span", { class: `mark seat${seat}`, role: "img", "aria-label": SEAT_COLOUR[seat] });
}

/** A seat's name: an account's username, a guest's name, a bot's level, or who it waits for. */
export function seatName(game, seat) {
  const s = game.seats[seat];
  if (s.open) return s.invited ? `${s.invited} (invited)` : "Open seat";
  return s.player || s.name || `Seat ${seat + 1}`;
}

/** The username a challenge waits for, or null when `game` is no challenge. */
export function invitee(game) {
  return game.status === "waiting" ? game.seats.find((s) => s.open && s.invited)?.invited || null : null;
}

const REASONS = {
  "all-tiles-played": ({ winner }) => `${winner} played every tile.`,
  "no-moves": ({ loser }) => `${loser} had no legal move left.`,
  score: () => "The higher score wins.",
  bingo: () => "More complete lines win; with equal lines, whoever made the last call loses.",
  resign: ({ loser }) => `${loser} resigned.`,
  time: ({ loser }) => `${loser} ran out of time.`,
  "timeout-rule": ({ winner }) => `By the timeout rule: ${winner} held fewer tiles for enough turns in a row.`,
  repetition: ({ winner }) => `The same position arose a third time, and ${winner} held fewer tiles.`,
};

/** The result as a headline and a reason: {headline, detail}. */
export function resultText(game, mine) {
  const { winner, reason, scores } = game.result;
  const score = scores ? ` (${scores.join("–")})` : "";
  const unanswered = game.seats.find((s) => s.open);
  if (reason === "aborted" && unanswered) {
    return unanswered.invited
      ? { headline: "Challenge not taken",
          detail: `${unanswered.invited} declined it, or did not answer within 7 days.` }
      : { headline: "Game aborted", detail: "Nobody took the open seat in time." };
  }
  if (reason === "aborted") {
    return { headline: "Game aborted", detail: game.ply === 0
      ? "The first move never came before the clock ran out."
      : `Two bots played ${game.ply} moves without an end in sight, so the server stopped the game.` };
  }
  if (winner === null && reason === "repetition") {
    return { headline: "Draw", detail: "The same position arose a third time, with equal tile counts." };
  }
  if (winner === null) return { headline: `Draw${score}`, detail: `Equal ${reason === "bingo" ? "lines" : "scores"}.` };
  const name = seatName(game, winner);
  const headline = mine.length === 1 && mine[0] === winner ? "You win"
    : mine.length === 1 ? `${name} wins — you lose` : `${name} wins`;
  const detail = (REASONS[reason] || (() => reason))({ winner: name, loser: seatName(game, 1 - winner) });
  return { headline: `${headline}${score}`, detail };
}

/** One line for lists: whose turn it is, or how it ended. */
export function statusLine(game, mine) {
  if (game.status === "waiting") {
    return invitee(game) ? `A challenge to ${invitee(game)}: waiting for an answer` : "Waiting for an opponent";
  }
  if (game.status === "finished") return resultText(game, mine).headline;
  const seat = game.to_move;
  if (mine.includes(seat)) return mine.length === 1 ? "Your turn" : `${seatName(game, seat)} to move`;
  if (game.seats[seat].bot) return `${seatName(game, seat)} is thinking`;
  return `${seatName(game, seat)} to move`;
}

/** 75 → "1:15", 3725 → "1:02:05", 200000 → "2d 7h". */
export function duration(seconds) {
  const t = Math.max(0, seconds);
  if (t >= 86400) return `${Math.floor(t / 86400)}d ${Math.floor((t % 86400) / 3600)}h`;
  const whole = Math.ceil(t - 1e-9);
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const sec = String(whole % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${sec}` : `${minutes}:${sec}`;
}

/** "5 min + 5 s", "3 days per move", … for a time control. */
export function timeControlText(tc) {
  const d = (sec) => {
    if (sec % 86400 === 0) return `${sec / 86400} d`;
    if (sec % 3600 === 0) return `${sec / 3600} h`;
    if (sec % 60 === 0) return `${sec / 60} min`;
    return `${sec} s`;
  };
  switch (tc?.type) {
    case "fischer": return `${d(tc.initial_s)} + ${d(tc.increment_s)} a move`;
    case "byoyomi": return `${tc.main_s ? d(tc.main_s) + " then " : ""}${tc.periods} × ${d(tc.period_s)} byo-yomi`;
    case "correspondence": return `${tc.days_per_move} day${tc.days_per_move === 1 ? "" : "s"} per move`;
    case "banked": return `${d(tc.initial_s)} bank + ${d(tc.increment_s)} a move (max ${d(tc.max_s)})`;
    default: return "No clock";
  }
}

export function ago(iso) {
  const sec = (Date.now() - Date.parse(iso)) / 1000;
  if (sec < 60) return "just now";
  if (sec < 3600) return `${Math.floor(sec / 60)} min ago`;
  if (sec < 86400) return `${Math.floor(sec / 3600)} h ago`;
  return `${Math.floor(sec / 86400)} d ago`;
}

/** A cell as the API's messages name it: [row, col]. */
export const cellName = (r, c) => `[${r}, ${c}]`;
