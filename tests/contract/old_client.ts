// A client written against the types openapi-typescript made from the document as it stood
// before the contract work of issue 43 (openapi-before-43.json: no operationId, no security
// scheme, errors as `default` only). It plays a game against a bot naming only what a client of
// that document could name: paths, methods, path and header parameters, request bodies and
// statuses, never an operation's name. tests/api/test_old_clients.py type-checks it with tsc
// against that document's types and against today's.
import type { paths } from "./openapi";

type Kinds = paths["/api/v1/kinds"]["get"]["responses"]["200"]["content"]["application/json"];
type CreateBody = NonNullable<
  paths["/api/v1/games"]["post"]["requestBody"]
>["content"]["application/json"];
type Created = paths["/api/v1/games"]["post"]["responses"]["201"]["content"]["application/json"];
type GameAt = paths["/api/v1/games/{game_id}"]["get"]["parameters"]["path"];
type PollHeaders = NonNullable<paths["/api/v1/games/{game_id}"]["get"]["parameters"]["header"]>;
type Game = paths["/api/v1/games/{game_id}"]["get"]["responses"]["200"]["content"]["application/json"];
type Listing =
  paths["/api/v1/games/{game_id}/legal-moves"]["get"]["responses"]["200"]["content"]["application/json"];
type MoveBody = NonNullable<
  paths["/api/v1/games/{game_id}/moves"]["post"]["requestBody"]
>["content"]["application/json"];
type Moved =
  paths["/api/v1/games/{game_id}/moves"]["post"]["responses"]["201"]["content"]["application/json"];
type Refusal =
  paths["/api/v1/games/{game_id}/moves"]["post"]["responses"]["default"]["content"]["application/json"];
type Resigned =
  paths["/api/v1/games/{game_id}/resign"]["post"]["responses"]["201"]["content"]["application/json"];

// the statuses this client tells apart, each a key of its operation's responses
const LISTED: keyof paths["/api/v1/kinds"]["get"]["responses"] = 200;
const CREATED: keyof paths["/api/v1/games"]["post"]["responses"] = 201;
const READ: keyof paths["/api/v1/games/{game_id}"]["get"]["responses"] = 200;
const UNCHANGED: keyof paths["/api/v1/games/{game_id}"]["get"]["responses"] = 304;
const MOVED: keyof paths["/api/v1/games/{game_id}/moves"]["post"]["responses"] = 201;
const RESIGNED: keyof paths["/api/v1/games/{game_id}/resign"]["post"]["responses"] = 201;

const BASE = "http://127.0.0.1:8000";

async function call<T>(method: string, path: string, expect: number | string, init: {
  token?: string; body?: unknown; headers?: PollHeaders;
} = {}): Promise<{ status: number; etag?: string; data?: T }> {
  const headers: Record<string, string> = { "Content-Type": "application/json", ...init.headers };
  if (init.token) headers.Authorization = `Bearer ${init.token}`;
  const answer = await fetch(BASE + path, { method, headers, body: JSON.stringify(init.body) });
  if (answer.status === UNCHANGED) return { status: answer.status };
  if (answer.status !== expect) throw new Error(((await answer.json()) as Refusal).message);
  return { status: answer.status, etag: answer.headers.get("ETag") ?? undefined,
           data: (await answer.json()) as T };
}

const gamePath = (at: GameAt, tail = "") => `/api/v1/games/${at.game_id}${tail}`;

/** A listed move as this client sends it: a challenge with the factor it proposes. */
function toSend(listed: NonNullable<Listing["moves"]>[number]): MoveBody["move"] {
  return listed.type === "challenge"
    ? { type: "challenge", from: listed.from, to: listed.to, factor: 2 }
    : listed;
}

export async function playAgainstABot(kind: string): Promise<string> {
  const kinds = (await call<Kinds>("GET", "/api/v1/kinds", LISTED)).data!;
  const bot = kinds.find((k) => k.kind === kind)!.bots![0].level!;
  const body: CreateBody = { kind, seats: [{ human: { name: "Ada" } }, { bot }] };
  const created = (await call<Created>("POST", "/api/v1/games", CREATED, { body })).data!;
  // (the document of then required few of an answer's fields: this client checks for them)
  const at: GameAt = { game_id: created.id ?? "" };
  const token: string | undefined = created.tokens?.["0"];
  let [ply, status, toMove] = [created.ply, created.status, created.to_move];
  let reason: string | undefined;
  let etag: string | undefined;
  for (let moves = 0; status !== "finished"; ) {
    const headers: PollHeaders = etag ? { "If-None-Match": etag } : {};
    const polled = await call<Game>("GET", gamePath(at), READ, { headers });
    if (polled.status === UNCHANGED || !polled.data) continue;
    const game: Game = polled.data;
    [ply, status, toMove, etag, reason] = [game.ply, game.status, game.to_move, polled.etag,
                                           game.result?.reason];
    if (status === "finished" || toMove !== 0) continue;
    if (moves === 60) {
      const resigned = await call<Resigned>("POST", gamePath(at, "/resign"), RESIGNED, { token });
      return resigned.data!.result?.reason ?? "resign";
    }
    const listing = (await call<Listing>("GET", gamePath(at, "/legal-moves"), READ)).data!;
    const sent: MoveBody = { move: toSend(listing.moves![0]), ply: ply ?? 0 };
    const moved = (await call<Moved>("POST", gamePath(at, "/moves"), MOVED, { token, body: sent }));
    [ply, status, moves] = [moved.data!.ply, moved.data!.status, moves + 1];
  }
  return reason ?? "finished";
}
