// A small Postplay client written against the types openapi-typescript generates from
// openapi/openapi.json (tests/api/test_clients.py type-checks it with tsc): create a game
// against a bot, poll it with its ETag, and play a listed legal move on your turn.
import type { components, paths } from "./openapi";

type Schemas = components["schemas"];
type Game = Schemas["Game"];
type Created = paths["/api/v1/games"]["post"]["responses"]["201"]["content"]["application/json"];
type Listing = Schemas["LegalMoves"];
type Move = Schemas["MoveBody"]["move"];
type ApiError = Schemas["Error"];

const BASE = "http://127.0.0.1:8000/api/v1";

async function call<T>(method: string, path: string, token?: string, body?: unknown,
                       etag?: string): Promise<{ status: number; etag?: string; data?: T }> {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (etag) headers["If-None-Match"] = etag;
  const answer = await fetch(BASE + path, { method, headers, body: JSON.stringify(body) });
  if (answer.status === 304) return { status: 304, etag };
  if (!answer.ok) throw new Error(((await answer.json()) as ApiError).message);
  return { status: answer.status, etag: answer.headers.get("ETag") ?? undefined,
           data: (await answer.json()) as T };
}

/** A listed move, sent back as it is; a Prime Drop challenge with the factor you propose. */
function toSend(listed: Listing["moves"][number], factor: number): Move {
  return listed.type === "challenge" ? { ...listed, factor } : listed;
}

export async function playAgainstABot(kind: Game["kind"], bot: string): Promise<string> {
  const body: Schemas["GameCreate"] = { kind, seats: [{ human: { name: "Ada" } }, { bot }] };
  const created = (await call<Created>("POST", "/games", undefined, body)).data!;
  const token: string | undefined = created.tokens["0"];
  let game: Game = created;
  let etag: string | undefined;
  while (game.status !== "finished") {
    const polled = await call<Game>("GET", `/games/${game.id}`, undefined, undefined, etag);
    if (polled.status === 304 || !polled.data) continue;
    [game, etag] = [polled.data, polled.etag];
    if (game.status === "finished" || game.to_move !== 0) continue;
    const listing = (await call<Listing>("GET", `/games/${game.id}/legal-moves`)).data!;
    const move = toSend(listing.moves[0], 3);
    const sent: Schemas["MoveBody"] = { move, ply: game.ply };
    game = (await call<Game>("POST", `/games/${game.id}/moves`, token, sent)).data!;
  }
  const result: Schemas["Result"] | null = game.result;
  return result ? result.reason : "unfinished";
}
