// What the browser remembers: the player's name, the seat tokens of their games and the owner
// tokens of the playtests it started.

const GAMES_KEY = "postplay.games";
const NAME_KEY = "postplay.name";
const PLAYTESTS_KEY = "postplay.playtests";

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
