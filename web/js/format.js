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

/** "3 pieces placed": what a score counts, in the words of the kind's entry of GET /kinds
 *  (`score_words`); null when it has none. */
function scoreWords(kind) {
  const words = kind?.score_words;
  return words ? (n) => `${n} ${n === 1 ? words.one : words.many}` : null;
}

/** The words of the game's reason, from its kind's entry of GET /kinds (`kind`, null until it is
 *  loaded: the detail is then the reason's name). */
function endingOf(game, kind) {
  return kind?.reasons?.find((r) => r.reason === game.result.reason) || null;
}

/** "{loser} resigned." with the seats' names in. */
const fillNames = (sentence, names) => sentence.replace(/\{(winner|loser)\}/g, (_, k) => names[k]);

/** The result as a headline, a reason and a tone for its colours: {headline, detail, tone}, where
 *  tone is "win" or "loss" for the one seat this browser plays, else "draw" or "over". `kind` is
 *  the game's kind from GET /kinds, whose reasons give the detail its words. */
export function resultText(game, mine, kind = null) {
  const text = resultWords(game, mine, endingOf(game, kind), scoreWords(kind));
  const { winner, reason } = game.result;
  const mineOnly = mine.length === 1;
  const tone = reason === "aborted" ? "over" : winner === null ? "draw"
    : mineOnly ? (mine[0] === winner ? "win" : "loss") : "over";
  return { ...text, tone };
}

function resultWords(game, mine, ending, words) {
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
    let detail = ending?.draw || "";
    if (game.ply === 0) detail = "The first move never came in time.";
    else if (game.seats.every((s) => s.bot)) {
      detail = `Two bots played ${game.ply} moves without an end in sight, so the server stopped the game.`;
    }
    return { headline: "Game aborted", detail };
  }
  if (winner === null) {
    return { headline: reason === "agreement" ? "Draw by agreement" : `Draw${score}`,
             detail: ending?.draw || "" };
  }
  const name = seatName(game, winner);
  const headline = mine.length === 1 && mine[0] === winner ? "You win"
    : mine.length === 1 ? `${name} wins — you lose` : `${name} wins`;
  const loser = seatName(game, 1 - winner);
  const tally = scores && words ? `${name}: ${words(scores[winner])}; ${loser}: ${words(scores[1 - winner])}. ` : "";
  const detail = ending?.win ? tally + fillNames(ending.win, { winner: name, loser }) : reason;
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

/** 60 → "1 min", 86400 → "1 d", 90 → "90 s". */
function spoken(sec) {
  if (sec % 86400 === 0) return `${sec / 86400} d`;
  if (sec % 3600 === 0) return `${sec / 3600} h`;
  if (sec % 60 === 0) return `${sec / 60} min`;
  return `${sec} s`;
}

/** "5 min + 5 s", "3 days per move", … for a time control. */
export function timeControlText(tc) {
  const d = spoken;
  switch (tc?.type) {
    case "fischer": return `${d(tc.initial_s)} + ${d(tc.increment_s)} a move`;
    case "byoyomi": return `${tc.main_s ? d(tc.main_s) + " then " : ""}${tc.periods} × ${d(tc.period_s)} byo-yomi`;
    case "correspondence": return `${tc.days_per_move} day${tc.days_per_move === 1 ? "" : "s"} per move`;
    case "banked": return `${d(tc.initial_s)} bank + ${d(tc.increment_s)} a move (max ${d(tc.max_s)})`;
    default: return "No clock";
  }
}

/**
 * A sentence about a game's clock for the players, or null when it has none: what runs out
 * and what happens then (a fast clock can end a game in minutes).
 */
export function clockNote(tc) {
  const d = spoken;
  switch (tc?.type) {
    case "byoyomi": return `Clock: ${timeControlText(tc)}. ${tc.main_s ? `After ${d(tc.main_s)} of main time, each` : "Each"} `
      + `move must come within ${d(tc.period_s)}; a slower move uses up a period, and when the last of `
      + `${tc.periods} runs out the game is lost on time.`;
    case "fischer": return `Clock: ${timeControlText(tc)}. When your time runs out, you lose the game.`;
    case "correspondence": return `Clock: ${timeControlText(tc)}. A move that takes longer loses the game.`;
    case "banked": return `Clock: ${timeControlText(tc)}. When your bank runs out, you lose the game.`;
    default: return null;
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

/** A rating as the API gives it ({rating, provisional, ...} or a number): "1662?" when
 * provisional. */
export function ratingText(rating) {
  if (typeof rating === "number") return String(Math.round(rating));
  const value = Math.round(rating.rating ?? rating.value);
  return rating.provisional ? `${value}?` : String(value);
}
