// The public HTTP API (/api/v1): every request the client makes goes through here.

const BASE = "/api/v1";

/** A refusal from the API; `message` is the sentence the API wrote for the player. */
export class ApiError extends Error {
  constructor(status, message, retryAfter = null) {
    super(message);
    this.status = status;
    this.retryAfter = retryAfter;
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
  if (response.status === 304) return { status: 304, data: null, etag, headers: response.headers };
  const isJson = (response.headers.get("Content-Type") || "").includes("json");
  const data = isJson ? await response.json() : null;
  if (!response.ok) {
    const retry = Number(response.headers.get("Retry-After")) || null;
    throw new ApiError(response.status, data?.message || `${response.status} ${response.statusText}`,
                       retry);
  }
  return { status: response.status, data, etag: response.headers.get("ETag"),
           headers: response.headers };
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

/** The game, or {status: 304} when `etag` is still current. */
export const game = (id, etag) => request("GET", `/games/${id}`, { etag });
export const history = (id) => request("GET", `/games/${id}/moves`).then((r) => r.data);
/** The state after every ply from `from` on, as the server's engine computes it. */
export const positions = (id, from = 0) => request("GET", `/games/${id}/positions?from=${from}`)
  .then((r) => r.data);
export const legalMoves = (id) => request("GET", `/games/${id}/legal-moves`).then((r) => r.data);
export const create = (body) => request("POST", "/games", { body });
export const join = (id, name) => request("POST", `/games/${id}/join`, { body: { name } });
export const move = (id, token, mv, ply) =>
  request("POST", `/games/${id}/moves`, { token, body: { move: mv, ply } });
export const resign = (id, token) => request("POST", `/games/${id}/resign`, { token });
/** Perfect-play verdicts: {status: 202, ...} while the worker computes them. */
export const analysis = (id, ply) => request("GET", `/games/${id}/analysis?ply=${ply}`);

/** Playtests: batches of bot-vs-bot games on the workers. */
export const startPlaytest = (body) => request("POST", "/playtests", { body });
export const listPlaytests = ({ pageSize = 20 } = {}) =>
  request("GET", `/playtests?page_size=${pageSize}`).then((r) => r.data);
/** The playtest, or {status: 304} when `etag` is still current. */
export const playtest = (id, etag) => request("GET", `/playtests/${id}`, { etag });
/** Cancel a playtest: only its owner token may. */
export const cancelPlaytest = (id, token) => request("DELETE", `/playtests/${id}`, { token });
