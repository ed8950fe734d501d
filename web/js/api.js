// The public HTTP API (/api/v1): every request the client makes goes through here.

import * as storage from "./storage.js";

const BASE = "/api/v1";

/** A refusal from the API; `message` is the sentence the API wrote for the player. */
export class ApiError extends Error {
  /** `words`: a refused move's, as the server says it (the move list's notation), or null. */
  constructor(status, message, retryAfter = null, words = null) {
    super(message);
    this.status = status;
    this.retryAfter = retryAfter;
    this.words = words;
  }
}

async function request(method, path, { body, token, etag } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  if (etag) headers["If-None-Match"] = etag;
  let response;
  try {
    response = await fetch(BASE + path, {
      method, headers, cache: "no-store",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, "The server cannot be reached; check your connection.");
  }
  noteOffline(response);
  if (response.status === 304) return { status: 304, data: null, etag, headers: response.headers };
  const isJson = (response.headers.get("Content-Type") || "").includes("json");
  const data = isJson ? await response.json() : null;
  if (!response.ok) {
    const retry = Number(response.headers.get("Retry-After")) || null;
    throw new ApiError(response.status, data?.message || `${response.status} ${response.statusText}`,
                       retry, data?.words || null);
  }
  return { status: response.status, data, etag: response.headers.get("ETag"),
           headers: response.headers };
}

/** Fired on window with `detail` true when an answer came from the service worker's copy (the
 *  network is down: the page shows the last known state), false when the network answers again. */
export const OFFLINE_EVENT = "postplay:offline";
let offline = false;

/** Whether the last answer came from the service worker's copy (OFFLINE_EVENT since). */
export const isOffline = () => offline;

function noteOffline(response) {
  const now = response.headers.get("X-Postplay-Offline") === "1";
  if (now === offline) return;
  offline = now;
  window.dispatchEvent(new CustomEvent(OFFLINE_EVENT, { detail: now }));
}

let kindsPromise = null;

/** The games the server offers (fetched once per page load). */
export function kinds() {
  kindsPromise ??= request("GET", "/kinds").then((r) => r.data).catch((err) => {
    kindsPromise = null;
    throw err;
  });
  return kindsPromise;
}

export async function kind(slug) {
  return (await kinds()).find((k) => k.kind === slug) || null;
}

export const rules = (slug) => request("GET", `/kinds/${encodeURIComponent(slug)}/rules`)
  .then((r) => r.data);

export function listGames({ status, kind: slug, pageSize = 20 } = {}) {
  const query = new URLSearchParams({ page_size: pageSize });
  if (status) query.set("status", status);
  if (slug) query.set("kind", slug);
  return request("GET", `/games?${query}`).then((r) => r.data);
}

const prefetched = new Map();  // game id -> the answer asked for while the game page loads

/** Ask for game `id` now, for the game page to take when it asks (the router, on navigation:
 *  the game then travels while the page's modules load); the answer, for the router's own use. */
export function prefetchGame(id) {
  const answer = request("GET", `/games/${id}`, { token: accountToken() });
  answer.catch(() => {});  // a failure reaches the page when it takes the answer
  prefetched.set(id, answer);
  return answer;
}

/** The game, or {status: 304} when `etag` is still current. */
export function game(id, etag) {
  const early = etag ? null : prefetched.get(id);
  prefetched.delete(id);
  // the account token, when signed in, marks the player present at the game: the server keeps
  // push and e-mail quiet about a game being looked at (it reads nothing else from it)
  return early || request("GET", `/games/${id}`, { etag, token: accountToken() });
}
export const history = (id) => request("GET", `/games/${id}/moves`).then((r) => r.data);
/** The state after every ply from `from` on, as the server's engine computes it. */
export const positions = (id, from = 0) => request("GET", `/games/${id}/positions?from=${from}`)
  .then((r) => r.data);
export const legalMoves = (id) => request("GET", `/games/${id}/legal-moves`).then((r) => r.data);
/** The listing narrowed to `mv`: {moves: [mv]} when it is legal now, else {moves: [], note: why}. */
export const checkMove = (id, mv) => request("GET",
  `/games/${id}/legal-moves?move=${encodeURIComponent(JSON.stringify(mv))}`).then((r) => r.data);
/** A new game; signed in, it is the account's (`{"me": true}` seats, challenges). */
export const verifyEmail = (token) => request("POST", "/email/verify", { body: { token } });
export const create = (body) => request("POST", "/games", { body, token: accountToken() });
/** Take a game's open seat: signed in, as the account (a rated game needs one). */
export const join = (id, name) => request("POST", `/games/${id}/join`,
  { body: { name }, token: accountToken() });

/**
 * What plays `seat` of `game`: the seat token when this browser holds one, else the account
 * token when the seat is the signed-in account's; null when neither.
 */
export function credentialFor(game, seat) {
  const token = storage.tokensFor(game.id)[seat];
  if (token) return token;
  return storage.isMe(game.seats[seat]?.player) ? accountToken() : null;
}

export const move = (game, seat, mv) => request("POST", `/games/${game.id}/moves`,
  { token: credentialFor(game, seat), body: { move: mv, ply: game.ply } });
export const resign = (game, seat) =>
  request("POST", `/games/${game.id}/resign`, { token: credentialFor(game, seat) });
/** A new game like `game` with the seats swapped, asked for by a player of `seat` (as the
 * account when the seat is the account's, so the opponent's account gets a challenge). */
export const rematch = (game, seat) => request("POST", `/games/${game.id}/rematch`,
  { token: storage.isMe(game.seats[seat]?.player) ? accountToken() : credentialFor(game, seat) });
/** Perfect-play verdicts: {status: 202, ...} while the worker computes them. */
export const analysis = (id, ply) => request("GET", `/games/${id}/analysis?ply=${ply}`);
export const gameAnalysis = (id) => request("GET", `/games/${id}/analysis/plies`);

/** Playtests: batches of bot-vs-bot games on the workers. */
export const startPlaytest = (body) => request("POST", "/playtests", { body });
export const listPlaytests = ({ pageSize = 20 } = {}) =>
  request("GET", `/playtests?page_size=${pageSize}`).then((r) => r.data);
/** The playtest, or {status: 304} when `etag` is still current. */
export const playtest = (id, etag) => request("GET", `/playtests/${id}`, { etag });
/** Cancel a playtest: only its owner token may. */
export const cancelPlaytest = (id, token) => request("DELETE", `/playtests/${id}`, { token });

/** Sweeps: a playtest per rule variant, compared; signed in, a sweep is the account's. */
export const startSweep = (body) => request("POST", "/playtests/sweeps", { body, token: accountToken() });
export const listSweeps = ({ pageSize = 20 } = {}) =>
  request("GET", `/playtests/sweeps?page_size=${pageSize}`).then((r) => r.data);
/** The sweep, or {status: 304} when `etag` is still current. */
export const sweep = (id, etag) => request("GET", `/playtests/sweeps/${id}`, { etag });
/** Cancel a sweep: its owner token, or the owner account's token. */
export const cancelSweep = (id, token) => request("DELETE", `/playtests/sweeps/${id}`, { token });

/** Accounts: each call below (but signing up, in and recovering) sends the account token. */
function accountToken() {
  return storage.account()?.token || null;
}

/** A request with the account token; a 401 means the token was revoked: this browser signs out. */
async function asAccount(method, path, options = {}) {
  const token = accountToken();
  try {
    return await request(method, path, { ...options, token });
  } catch (err) {
    if (err.status === 401 && token && accountToken() === token) storage.signOut();
    throw err;
  }
}

export const signUp = (username, password) =>
  request("POST", "/accounts", { body: { username, password } }).then((r) => r.data);
export const signIn = (username, password) =>
  request("POST", "/session", { body: { username, password } }).then((r) => r.data);
export const signOut = () => asAccount("DELETE", "/session");
export const recover = (username, recoveryCode, newPassword) => request("POST", "/accounts/recover",
  { body: { username, recovery_code: recoveryCode, new_password: newPassword } }).then((r) => r.data);

export const me = () => asAccount("GET", "/me").then((r) => r.data);
export const updateMe = (settings) => asAccount("PATCH", "/me", { body: settings }).then((r) => r.data);
export const changePassword = (password, newPassword) =>
  asAccount("POST", "/me/password", { body: { password, new_password: newPassword } });
export const deleteAccount = (password) => asAccount("DELETE", "/me", { body: { password } });

export const personalTokens = () => asAccount("GET", "/me/tokens").then((r) => r.data);
/** A personal API token: {description, scopes}; the secret comes back this once. */
export const createPersonalToken = (description, scopes) =>
  asAccount("POST", "/me/tokens", { body: { description, scopes } }).then((r) => r.data);
export const revokePersonalToken = (id) => asAccount("DELETE", `/me/tokens/${encodeURIComponent(id)}`);

export const player = (username) => request("GET", `/players/${encodeURIComponent(username)}`)
  .then((r) => r.data);

/** Bind an anonymous seat of game `id`, held by `seatToken`, to the account (not `asAccount`:
 * a 401 here is about the seat token). */
export const claim = (id, seatToken) => request("POST", `/games/${id}/claim`,
  { token: accountToken(), body: { seat_token: seatToken } }).then((r) => r.data);
/** The account's games, or {status: 304} when `etag` is still current. */
export const myGames = (etag, status = null) =>
  asAccount("GET", `/me/games${status ? `?status=${status}` : ""}`, { etag });
/** {incoming: [games], outgoing: [games]}, or {status: 304} when `etag` is still current. */
export const challenges = (etag) => asAccount("GET", "/me/challenges", { etag });
export const accept = (id) => asAccount("POST", `/games/${id}/accept`);
export const decline = (id) => asAccount("POST", `/games/${id}/decline`);

/** The best rated players of a game: {kind, players: [{rank, username, rating, rd, games,
 * provisional, bot}]}. */
export const leaderboard = (slug, limit = 50) =>
  request("GET", `/leaderboards/${encodeURIComponent(slug)}?limit=${limit}`).then((r) => r.data);

/** In a game: a draw ("offer" | "accept" | "decline") or a takeback ("ask" | "grant" |
 * "refuse") by the player of `seat`. */
export const draw = (game, seat, action) => request("POST", `/games/${game.id}/draw`,
  { token: credentialFor(game, seat), body: { action } });
export const takeback = (game, seat, action) => request("POST", `/games/${game.id}/takeback`,
  { token: credentialFor(game, seat), body: { action } });
/** The chat, read as the player of `seat` (null: a spectator, once the game is over). */
export const chat = (game, seat) => request("GET", `/games/${game.id}/chat`,
  { token: seat === null ? null : credentialFor(game, seat) }).then((r) => r.data);
export const say = (game, seat, text) => request("POST", `/games/${game.id}/chat`,
  { token: credentialFor(game, seat), body: { text } }).then((r) => r.data);
/** The URL of the game as one JSON document (`POST /games/import` reads it back). */
export const exportUrl = (id) => `${BASE}/games/${encodeURIComponent(id)}/export`;

/** The account's vacation: {on, days_left, until, ...}; `setVacation(on)` switches it. */
export const vacation = () => asAccount("GET", "/me/vacation").then((r) => r.data);
export const setVacation = (on) => asAccount("PUT", "/me/vacation", { body: { on } })
  .then((r) => r.data);

/** The explore board: `moves` from a game's position at `ply` (or from `state`) →
 *  {positions, legal_moves, complete, note, outcome}; no game is touched. */
export const explore = (kind, body) => request("POST", `/kinds/${encodeURIComponent(kind)}/explore`,
  { body }).then((r) => r.data);
/** The conditional moves of `seat` ({ply, tree}), and setting them after its move. */
export const conditional = (game, seat) => request("GET", `/games/${game.id}/conditional`,
  { token: credentialFor(game, seat) }).then((r) => r.data);
export const setConditional = (game, seat, tree) => request("PUT", `/games/${game.id}/conditional`,
  { token: credentialFor(game, seat), body: { ply: game.ply, tree } }).then((r) => r.data);
/** The private notes of `seat` ({text}), and replacing them. */
export const notes = (game, seat) => request("GET", `/games/${game.id}/notes`,
  { token: credentialFor(game, seat) }).then((r) => r.data);
export const setNotes = (game, seat, text) => request("PUT", `/games/${game.id}/notes`,
  { token: credentialFor(game, seat), body: { text } }).then((r) => r.data);
/** Web Push: the server's key, this account's devices, one added (a PushSubscription's JSON)
 * or removed. */
export const pushKey = () => request("GET", "/push/key").then((r) => r.data.key);
export const pushDevices = () => asAccount("GET", "/me/push").then((r) => r.data);
export const addPushDevice = (subscription, device) => asAccount("POST", "/me/push",
  { body: { subscription, device } }).then((r) => r.data);
export const removePushDevice = (id) => asAccount("DELETE", `/me/push/${encodeURIComponent(id)}`);
/** The inbox, newest first, or {status: 304} when `etag` is still current. */
export const notifications = (etag) => asAccount("GET", "/me/notifications", { etag });
/** Mark these notification ids read (null: all of them). */
export const markRead = (ids) => asAccount("POST", "/me/notifications/read",
  { body: ids === null ? { all: true } : { ids } });
/** The account's e-mail address: set (a verification link is mailed to it) or forgotten. */
export const setEmail = (address) => asAccount("PUT", "/me/email", { body: { address } }).then((r) => r.data);
export const removeEmail = () => asAccount("DELETE", "/me/email");
/** Learning the games: puzzles (a signed-in try rates the account), the daily puzzle, lessons. */
export const nextPuzzle = (slug) => request("GET", `/puzzles/next?kind=${encodeURIComponent(slug)}`,
  { token: accountToken() }).then((r) => r.data);
export const dailyPuzzle = (slug) => request("GET", `/puzzles/daily?kind=${encodeURIComponent(slug)}`)
  .then((r) => r.data);
export const attemptPuzzle = (id, moves) => request("POST", `/puzzles/${id}/attempt`,
  { body: { moves }, token: accountToken() }).then((r) => r.data);
export const myPuzzles = () => asAccount("GET", "/me/puzzles").then((r) => r.data);
export const lessons = (slug) => request("GET", `/kinds/${encodeURIComponent(slug)}/lessons`)
  .then((r) => r.data.lessons);
export const checkLesson = (slug, n, mv) => request("POST",
  `/kinds/${encodeURIComponent(slug)}/lessons/${n}/check`, { body: { move: mv }, token: accountToken() })
  .then((r) => r.data);

/** Events: tournaments (list, read, create, join, leave, start, cancel) and a ladder per kind. */
export function listTournaments(status, { pageSize = 20 } = {}) {
  return request("GET", `/tournaments?${new URLSearchParams({ status, page_size: pageSize })}`)
    .then((r) => r.data);
}
/** The tournament, or {status: 304} when `etag` is still current. */
export const tournament = (id, etag) => request("GET", `/tournaments/${id}`,
  { etag, token: accountToken() });
export const createTournament = (body) => asAccount("POST", "/tournaments", { body })
  .then((r) => r.data);
export const joinTournament = (id, body = {}) => asAccount("POST", `/tournaments/${id}/join`, { body })
  .then((r) => r.data);
export const leaveTournament = (id) => asAccount("POST", `/tournaments/${id}/leave`).then((r) => r.data);
export const startTournament = (id) => asAccount("POST", `/tournaments/${id}/start`).then((r) => r.data);
export const cancelTournament = (id) => asAccount("DELETE", `/tournaments/${id}`).then((r) => r.data);
export const ladder = (slug) => request("GET", `/ladders/${encodeURIComponent(slug)}`).then((r) => r.data);
export const joinLadder = (slug) => asAccount("POST", `/ladders/${encodeURIComponent(slug)}/join`)
  .then((r) => r.data);
export const challengeOnLadder = (slug, rank) => asAccount("POST",
  `/ladders/${encodeURIComponent(slug)}/challenge`, { body: { rank } }).then((r) => r.data);
