// What the browser remembers: the signed-in account (its token and username), the player's
// name, the seat tokens of their games, the owner tokens of the playtests and sweeps it
// started (one store: their ids never collide) and the kinds of the games it showed lately.

const ACCOUNT_KEY = "postplay.account";
const GAMES_KEY = "postplay.games";
const NAME_KEY = "postplay.name";
const PLAYTESTS_KEY = "postplay.playtests";
const KINDS_KEY = "postplay.kinds";
const KINDS_KEPT = 100;  // the games last shown whose kind is remembered

/** Fired on window when this browser signs in or out (in this tab or another). */
export const ACCOUNT_EVENT = "postplay:account";

/** Fired on window by a game page as it shows a game: detail {id, ply, waiting}, `waiting` when
 *  it is this account's move there (so the tab's count agrees with the page at once). */
export const GAME_SHOWN_EVENT = "postplay:game-shown";

/** The object stored under `key`, or {} when there is none (or it is not JSON). */
function read(key) {
  try {
    return JSON.parse(localStorage.getItem(key)) || {};
  } catch {
    return {};
  }
}

function load() {
  return read(GAMES_KEY);
}

function save(games) {
  localStorage.setItem(GAMES_KEY, JSON.stringify(games));
}

/** My games, newest first: [{id, kind, tokens: {"0": token}, added}]. */
export function myGames() {
  return Object.entries(load())
    .map(([id, entry]) => ({ id, ...entry }))
    .sort((a, b) => b.added - a.added);
}

/** Keep the tokens of seats I hold in game `id` (merged with any I already hold). */
export function remember(id, kind, tokens) {
  const games = load();
  const entry = games[id] || { kind, tokens: {}, added: Date.now() };
  Object.assign(entry.tokens, tokens);
  games[id] = entry;
  save(games);
}

export function forget(id) {
  const games = load();
  delete games[id];
  save(games);
}

/** {seat: token} for the seats of game `id` this browser holds. */
export function tokensFor(id) {
  return load()[id]?.tokens || {};
}

/** The kind of game `id`, when this browser has shown it lately or holds a seat in it: its
 *  game page then loads the board while the game is on its way. */
export function kindOf(id) {
  return recentKinds().find(([seen]) => seen === id)?.[1] ?? load()[id]?.kind;
}

/** Remember that game `id` is of `kind` (the last KINDS_KEPT games shown are). */
export function rememberKind(id, kind) {
  const recent = recentKinds();
  if (recent[0]?.[0] === id && recent[0][1] === kind) return;
  const kept = [[id, kind], ...recent.filter(([seen]) => seen !== id)].slice(0, KINDS_KEPT);
  localStorage.setItem(KINDS_KEY, JSON.stringify(kept));
}

/** [[id, kind]] of the games shown lately, the latest first. */
function recentKinds() {
  const recent = read(KINDS_KEY);
  return Array.isArray(recent) ? recent : [];
}

/** Note that game `id`'s seat tokens were offered to the account (`claimed` or `refused`). */
export function markClaim(id, outcome) {
  const games = load();
  if (!games[id]) return;
  games[id].claim = outcome;
  save(games);
}

/** The signed-in account, {username, token}, or null when signed out. */
export function account() {
  const stored = read(ACCOUNT_KEY);
  return stored.token && stored.username ? stored : null;
}

export function signIn(username, token) {
  localStorage.setItem(ACCOUNT_KEY, JSON.stringify({ username, token }));
  window.dispatchEvent(new Event(ACCOUNT_EVENT));
}

export function signOut() {
  localStorage.removeItem(ACCOUNT_KEY);
  window.dispatchEvent(new Event(ACCOUNT_EVENT));
}

window.addEventListener("storage", (event) => {
  if (event.key === ACCOUNT_KEY) window.dispatchEvent(new Event(ACCOUNT_EVENT));
});

/** Whether `username` names the signed-in account (usernames are unique whatever their case). */
export function isMe(username) {
  const me = account();
  return Boolean(me && username && me.username.toLowerCase() === username.toLowerCase());
}

/** The seats of `game` this browser plays: those it holds a token for, and the account's. */
export function seatsHeld(game) {
  const tokens = tokensFor(game.id);
  return game.seats.map((seat, i) => i).filter((i) => tokens[i] || isMe(game.seats[i].player));
}

export function playerName() {
  return localStorage.getItem(NAME_KEY) || "";
}

export function setPlayerName(name) {
  localStorage.setItem(NAME_KEY, name);
}

/** Keep the owner token of a playtest this browser started: it alone may cancel it. */
export function rememberPlaytest(id, ownerToken) {
  const owned = read(PLAYTESTS_KEY);
  owned[id] = ownerToken;
  localStorage.setItem(PLAYTESTS_KEY, JSON.stringify(owned));
}

/** The owner token of playtest `id`, when this browser started it. */
export function playtestToken(id) {
  return read(PLAYTESTS_KEY)[id] || null;
}
