"""Tournaments: create, join, leave (a withdrawal once it runs), start, cancel, and `advance`,
the workers' one step (start at `starts_at`, record results, apply withdrawals, pair the next
round, finish), run from the due check `<id>|tournament`. Each step is one transaction watching
the tournament, with the games it creates and the outbox's events: a worker killed mid-step
writes nothing, and a step another worker already made finds nothing left to do."""

from __future__ import annotations

import hashlib
import json
import secrets
import time
import uuid
from typing import Sequence

from api.clocks import iso
from api.events import pairing
from api.events.standings import Played, crosstable, scores, standings
from api.games import GAMES, Outcome, Reason
from api.play import service as play
from api.play.view import game_view
from api.players.accounts import BOT_PREFIX, Principal
from api.players.ratings import Rating, bot_account_id
from api.bots import levels as bot_levels
from api.record import GameRecord, Seat, Status
from api.record.errors import BadField, Conflict, Forbidden, NotFound, Stale
from api.store import keys
from api.store.games import Change, GameStore
from api.store.ratings import RatingStore
from api.store.tournaments import TournamentStore, Written

FORMATS = ("round-robin", "swiss", "knockout")
MAX_PLAYERS = 1000
MAX_ROUNDS = 50
REPLAYS = 2  # a drawn knockout game is replayed at most twice, then the higher seed goes through
STEP = "tournament"  # the due check of a tournament's next step


class EventConflict(Conflict):
    """The request does not fit the event as it stands; `field` names what it is about."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field


class NotOrganiser(Forbidden):
    field = "organiser"


# -- what the web asks for --------------------------------------------------------------------


def create(
    tournaments: TournamentStore, account: Principal, body: dict, now: float | None = None
) -> dict:
    """A new tournament, open for entries, the caller its organiser (the settings are checked:
    BadField naming the one refused)."""
    now = time.time() if now is None else now
    account.require("play")
    kind, fmt = body["kind"], body["format"]
    if kind not in GAMES:
        raise BadField("kind", f"There is no game {kind!r}.")
    if fmt not in FORMATS:
        raise BadField("format", f"There is no format {fmt!r}: it is one of {', '.join(FORMATS)}.")
    game = GAMES[kind]
    options = game.check_options(body.get("options"))
    most, least = body["max_players"], body.get("min_players") or 2
    if not 2 <= least <= most:
        raise BadField("min_players", f"min_players must be from 2 to max_players ({most}).")
    rounds = body.get("rounds")
    if fmt == "swiss":
        if rounds is None:
            raise BadField("rounds", "A Swiss tournament needs its number of rounds.")
        if not 1 <= rounds <= min(MAX_ROUNDS, most - 1):
            raise BadField(
                "rounds",
                f"rounds must be from 1 to {min(MAX_ROUNDS, most - 1)} "
                f"for at most {most} players (no pair meets twice).",
            )
    elif rounds is not None:
        raise BadField("rounds", "Only a Swiss tournament has a number of rounds.")
    if body.get("double") and fmt != "round-robin":
        raise BadField("double", "Only a round-robin can be double (each pair playing twice).")
    play.event_game(
        kind,
        options,
        [Seat.for_account("a", "a"), Seat.for_account("b", "b")],
        body.get("time_control"),
        False,
        {},
        now,
    )  # the time control is checked
    rating_range = body.get("rating_range")
    if rating_range is not None and rating_range["min"] > rating_range["max"]:
        raise BadField("rating_range", "rating_range.min is above rating_range.max.")
    tid = uuid.uuid4().hex[:12]
    doc = {
        "id": tid,
        "name": body["name"],
        "kind": kind,
        "options": options,
        "time_control": body.get("time_control") or game.default_time_control,
        "format": fmt,
        "rounds_planned": rounds,
        "double": bool(body.get("double")),
        "max_players": most,
        "min_players": least,
        "starts_ts": body["starts_at"],
        "rated": body.get("rated", True),
        "rating_range": rating_range,
        "invite": secrets.token_urlsafe(8) if body.get("invite_only") else None,
        "organiser": account.id,
        "organiser_name": account.username,
        "status": "open",
        "players": [],
        "rounds": [],
        "seed": secrets.randbits(32),
        "version": 1,
        "created_ts": now,
        "updated_ts": now,
        "bracket": None,
    }
    tournaments.create(doc, [_due(tid, doc["starts_ts"])])
    return doc


def join(
    tournaments: TournamentStore,
    ratings: RatingStore,
    tid: str,
    account: Principal,
    invite: str | None = None,
    player: str | None = None,
    now: float | None = None,
) -> dict:
    """Enter the caller, or (the organiser) a server bot's account `player`, before the start."""
    now = time.time() if now is None else now
    account.require("play")

    def change(doc: dict) -> Written:
        if doc["status"] != "open":
            raise EventConflict("status", "This tournament has started: entries are closed.")
        if player is not None:
            if doc["organiser"] != account.id:
                raise NotOrganiser("Only the organiser may enter a bot account.")
            entrant = _bot_entrant(doc["kind"], player)
        else:
            if doc["invite"] is not None and not secrets.compare_digest(
                invite or "", doc["invite"]
            ):
                raise BadField(
                    "invite",
                    "This tournament is by invitation: its invite code is needed to join."
                    if not invite
                    else "That invite code is not this tournament's.",
                )
            entrant = {"id": account.id, "name": account.username, "bot": None}
        if any(p["id"] == entrant["id"] for p in doc["players"]):
            raise EventConflict("player", f"{entrant['name']} is in this tournament already.")
        if len(doc["players"]) >= doc["max_players"]:
            raise EventConflict(
                "max_players", f"This tournament is full: {doc['max_players']} players."
            )
        entrant["rating"] = _rating(ratings, doc["kind"], entrant["id"])
        if doc["rating_range"] is not None and entrant["bot"] is None:
            lo, hi = doc["rating_range"]["min"], doc["rating_range"]["max"]
            if not lo <= round(entrant["rating"]) <= hi:
                raise BadField(
                    "rating_range",
                    f"This tournament is for players rated {lo} to "
                    f"{hi}; {entrant['name']}'s rating is "
                    f"{round(entrant['rating'])}.",
                )
        doc["players"].append({**entrant, "withdrawn": False, "joined_ts": now})
        doc["updated_ts"] = now
        return Written(
            [["ZADD", keys.account_part_key(entrant["id"], "tournaments"), repr(now), tid]]
        )  # a bot's too: its profile lists the events it played

    return _update(tournaments, tid, change)


def leave(
    tournaments: TournamentStore, tid: str, account: Principal, now: float | None = None
) -> dict:
    """Before the start, leave; once it runs, withdraw: the workers resign the player's running
    games of it, and it is paired no more."""
    now = time.time() if now is None else now

    def change(doc: dict) -> Written:
        entry = next((p for p in doc["players"] if p["id"] == account.id), None)
        if entry is None or entry["withdrawn"]:
            raise EventConflict("player", "You are not playing in this tournament.")
        if doc["status"] in ("finished", "cancelled"):
            raise EventConflict("status", "This tournament is over.")
        doc["updated_ts"] = now
        if doc["status"] == "open":
            doc["players"].remove(entry)
            return Written([["ZREM", keys.account_part_key(account.id, "tournaments"), tid]])
        entry["withdrawn"] = True
        return Written([_due(tid, 0)])

    return _update(tournaments, tid, change)


def start(
    tournaments: TournamentStore, tid: str, account: Principal, now: float | None = None
) -> dict:
    """The organiser starts it now (the workers pair its first round at once)."""
    now = time.time() if now is None else now

    def change(doc: dict) -> Written:
        _organiser(doc, account)
        if doc["status"] != "open":
            raise EventConflict("status", "This tournament has started already.")
        if len(doc["players"]) < doc["min_players"]:
            raise EventConflict(
                "min_players",
                f"It takes at least {doc['min_players']} "
                f"players to start; {len(doc['players'])} "
                f"entered.",
            )
        doc["starts_ts"] = min(doc["starts_ts"], now)
        doc["updated_ts"] = now
        return Written([_due(tid, 0)])

    return _update(tournaments, tid, change)


def cancel(
    tournaments: TournamentStore, tid: str, account: Principal, now: float | None = None
) -> dict:
    now = time.time() if now is None else now

    def change(doc: dict) -> Written:
        _organiser(doc, account)
        if doc["status"] != "open" or doc["rounds"]:
            raise EventConflict(
                "status", "Only a tournament that has not started can be cancelled."
            )
        doc["status"], doc["updated_ts"] = "cancelled", now
        return Written([["ZREM", keys.due_key(), f"{tid}|{STEP}"]])

    return _update(tournaments, tid, change)


# -- the workers' step ------------------------------------------------------------------------


def advance(
    tournaments: TournamentStore, games: GameStore, followups, tid: str, now: float | None = None
) -> list[GameRecord]:
    """One step of the tournament, whatever it needs now: start it (or cancel it, too few
    players), record the results of its games that ended, resign the running games of those who
    withdrew, pair the next round, or finish it. The games it created (their bots' moves are
    then enqueued; the reconciler enqueues them again should this process die first)."""
    now = time.time() if now is None else now
    doc = tournaments.load(tid)
    if doc is None or doc["status"] != "running" and doc["status"] != "open":
        return []
    _resign_withdrawn(games, followups, doc, now)
    pending = [p["game_id"] for r in doc["rounds"] for p in r["pairings"] if p["result"] is None]
    ended = {r.id: r for r in games.load_many(pending) if r.status is Status.FINISHED}

    def change(doc: dict) -> Written:
        created: list[tuple[GameRecord, list[dict]]] = []
        writes: list[list] = []
        if doc["status"] == "open":
            if now < doc["starts_ts"]:
                return Written([_due(tid, doc["starts_ts"])], [])
            if len(doc["players"]) < doc["min_players"]:
                doc["status"] = "cancelled"
                return Written(_over_notices(doc, now), [])
            doc["status"] = "running"
            _seed(doc)
            writes += [_notice(p["id"], doc, "started", now) for p in _people(doc)]
        for rnd in doc["rounds"]:
            for p in rnd["pairings"]:
                if p["result"] is None and p["game_id"] in ended:
                    outcome = ended[p["game_id"]].result
                    assert outcome is not None  # a finished game has its outcome
                    p["result"] = {"winner": outcome.winner, "reason": outcome.reason.value}
        if doc["format"] == "knockout" and doc["rounds"]:
            created = _knockout_replays(doc, now)
        if not created and all(
            p["result"] is not None for r in doc["rounds"] for p in r["pairings"]
        ):
            created = _next_round(doc, games, now)
            if not created and not _knockout_replays_pending(doc):
                doc["status"] = "finished"
                doc["final"] = _standings(doc)
                writes += _over_notices(doc, now)
        doc["updated_ts"] = now
        for record, forced in created:
            writes += games.new_game_writes(record, forced)
            writes += [
                _notice(s.account, doc, "paired", now, record)
                for s in record.seats
                if s.account is not None
            ]
        return Written(writes, created)

    try:
        _, written = tournaments.update(tid, change)
    except KeyError:
        return []
    assert isinstance(written.after, list)  # what `change` wrote: the games it created
    records = [record for record, _ in written.after]
    for record in records:
        followups.after_change(record)
    return records


def stalled(tournaments: TournamentStore, games: GameStore, now: float) -> list[str]:
    """The running tournaments with a step owed and no due check to make it (what the
    reconciler sets due again): a game of theirs ended unrecorded, or a round is complete."""
    found = []
    due = (
        games.redis.zmscore(keys.due_key(), [f"{t}|{STEP}" for t in tournaments.running()])
        if tournaments.running()
        else []
    )
    for tid, score in zip(tournaments.running(), due):
        if score is not None:
            continue
        doc = tournaments.load(tid)
        assert doc is not None  # listed as running: tournaments are never deleted
        pending = [
            p["game_id"] for r in doc["rounds"] for p in r["pairings"] if p["result"] is None
        ]
        if (
            not pending
            or any(r.status is Status.FINISHED for r in games.load_many(pending))
            or any(p["withdrawn"] for p in doc["players"])
        ):
            games.redis.zadd(keys.due_key(), {f"{tid}|{STEP}": now})
            found.append(tid)
    return found


def _resign_withdrawn(games: GameStore, followups, doc: dict, now: float) -> None:
    """Resign the running games of the players who withdrew (each its own write: one made
    already is a no-op, so a step run twice resigns nothing twice)."""
    gone = {p["id"] for p in doc["players"] if p["withdrawn"]}
    if not gone:
        return
    for rnd in doc["rounds"]:
        for p in rnd["pairings"]:
            if p["result"] is None and gone & set(p["seats"]):
                seat = 0 if p["seats"][0] in gone else 1

                def change(record: GameRecord, seat=seat) -> Change:
                    if record.status is Status.FINISHED:
                        raise Stale
                    record.finish(Outcome(1 - seat, Reason.RESIGN))
                    return Change(record, at=now)

                try:
                    followups.after_change(games.update(p["game_id"], change).record)
                except (Stale, KeyError):
                    pass


def _seed(doc: dict) -> None:
    """Seed by rating, best first (equal ratings in an order drawn from the tournament's
    seed)."""

    def tie(p: dict) -> str:
        return hashlib.sha256(f"{doc['seed']}:{p['id']}".encode()).hexdigest()

    doc["players"].sort(key=lambda p: (-p["rating"], tie(p)))
    for i, p in enumerate(doc["players"]):
        p["seed"] = i + 1


def _next_round(doc: dict, games: GameStore, now: float) -> list[tuple[GameRecord, list]]:
    """The games of the next round(s): all of a round-robin's at once, a Swiss round while
    rounds are left, a knockout round while more than one player is left."""
    ids = [p["id"] for p in doc["players"]]
    active = [p["id"] for p in doc["players"] if not p["withdrawn"]]
    if doc["format"] == "round-robin":
        if doc["rounds"]:
            return []
        tables = pairing.round_robin(ids, doc["double"])
        return [
            g
            for r, (pairs, byes) in enumerate(tables, 1)
            for g in _add_round(doc, r, pairs, byes, now)
        ]
    if doc["format"] == "swiss":
        r = len(doc["rounds"]) + 1
        if r > doc["rounds_planned"] or len(active) < 2:
            return []
        pairs, byes = pairing.swiss_round(_entrants(doc, active), r)
        return _add_round(doc, r, pairs, byes, now)
    return _knockout_round(doc, now)


def _add_round(
    doc: dict,
    r: int,
    pairs: list[tuple[str, str]],
    byes: list[str],
    now: float,
    extra: list[dict] | None = None,
) -> list[tuple[GameRecord, list]]:
    created = []
    rnd: dict = {"round": r, "pairings": [], "byes": list(byes)}
    for k, (a, b) in enumerate(pairs):
        record, forced = _game(doc, a, b, r, now)
        rnd["pairings"].append(
            {
                "seats": [a, b],
                "game_id": record.id,
                "result": None,
                **((extra or [{}] * len(pairs))[k]),
            }
        )
        created.append((record, forced))
    doc["rounds"].append(rnd)
    return created


def _game(doc: dict, first: str, second: str, r: int, now: float):
    by_id = {p["id"]: p for p in doc["players"]}
    seats = [
        Seat.for_bot(by_id[i]["bot"]) if by_id[i]["bot"] else Seat.for_account(i, by_id[i]["name"])
        for i in (first, second)
    ]
    return play.event_game(
        doc["kind"],
        doc["options"],
        seats,
        doc["time_control"],
        doc["rated"],
        {"tournament": doc["id"], "round": r},
        now,
    )


def _entrants(doc: dict, active: list[str]) -> list[pairing.Entrant]:
    halves = {i: 0 for i in active}
    met: dict[str, set[str]] = {i: set() for i in active}
    firsts, seconds, bye = ({i: 0 for i in active} for _ in range(3))
    for rnd in doc["rounds"]:
        for b in rnd["byes"]:
            if b in halves:
                halves[b] += 2
                bye[b] = 1
        for p in rnd["pairings"]:
            a, b = p["seats"]
            for seat, who in enumerate((a, b)):
                if who not in halves:
                    continue
                met[who].add((b, a)[seat])
                (firsts if seat == 0 else seconds)[who] += 1
                w = p["result"]["winner"] if p["result"]["reason"] != "aborted" else "x"
                halves[who] += 0 if w == "x" else 1 if w is None else 2 * (w == seat)
    rank = {p["id"]: p["seed"] for p in doc["players"]}
    return [
        pairing.Entrant(
            i, rank[i], halves[i], frozenset(met[i]), firsts[i], seconds[i], bool(bye[i])
        )
        for i in active
    ]


# -- knockout -------------------------------------------------------------------------------


def _knockout_round(doc: dict, now: float) -> list[tuple[GameRecord, list]]:
    """The next knockout round from the winners of the last (the first: the bracket)."""
    seeds = {p["id"]: p["seed"] for p in doc["players"]}
    matches: Sequence[tuple[str, str | None]]
    if doc["bracket"] is None:
        matches, _ = pairing.knockout_first_round([p["id"] for p in doc["players"]])
    else:
        winners = [m["winner"] for m in doc["bracket"][-1]]
        if len(winners) <= 1:
            return []
        matches = pairing.knockout_next_round(winners)
    doc["bracket"] = (doc["bracket"] or []) + [
        [
            {"players": list(m), "winner": m[0] if m[1] is None else None, "games": 0}
            for m in matches
        ]
    ]
    r = len(doc["bracket"])
    played = [(k, (a, b)) for k, (a, b) in enumerate(matches) if b is not None]
    pairs = [
        (a, b) if seeds[a] <= seeds[b] else (b, a) for _, (a, b) in played
    ]  # higher seed first
    created = _add_round(
        doc,
        r,
        pairs,
        [m[0] for m in matches if m[1] is None],
        now,
        [{"match": k, "replay": 0} for k, _ in played],
    )
    for k, _ in played:
        doc["bracket"][-1][k]["games"] = 1
    return created


def _knockout_replays(doc: dict, now: float) -> list[tuple[GameRecord, list]]:
    """Decide the matches of the running round whose last game ended: a win goes through, a
    draw (or an abort) is replayed with the first move swapped, at most twice, and then the
    higher seed goes through. The replays' games."""
    seeds = {p["id"]: p["seed"] for p in doc["players"]}
    rnd, matches = doc["rounds"][-1], doc["bracket"][-1]
    created = []
    for k, match in enumerate(matches):
        if match["winner"] is not None:
            continue
        last = [p for p in rnd["pairings"] if p.get("match") == k][-1]
        if last["result"] is None:
            continue
        winner = last["result"]["winner"]
        if winner is not None and last["result"]["reason"] != "aborted":
            match["winner"] = last["seats"][winner]
        elif last["replay"] >= REPLAYS:
            match["winner"] = min(match["players"], key=lambda player: seeds[player])
        else:
            first, second = last["seats"][1], last["seats"][0]
            record, forced = _game(doc, first, second, rnd["round"], now)
            rnd["pairings"].append(
                {
                    "seats": [first, second],
                    "game_id": record.id,
                    "result": None,
                    "match": k,
                    "replay": last["replay"] + 1,
                }
            )
            match["games"] += 1
            created.append((record, forced))
    return created


def _knockout_replays_pending(doc: dict) -> bool:
    return (
        doc["format"] == "knockout"
        and bool(doc["bracket"])
        and any(m["winner"] is None for m in doc["bracket"][-1])
    )


# -- standings and the view -------------------------------------------------------------------


def _played(doc: dict) -> tuple[list[Played], list[str]]:
    games, byes = [], []
    for rnd in doc["rounds"]:
        byes += rnd["byes"]
        for p in rnd["pairings"]:
            if p["result"] is not None and p["result"]["reason"] != "aborted":
                first, second = p["seats"]
                games.append(Played(first, second, p["result"]["winner"]))
    return games, byes


def _standings(doc: dict) -> list[dict]:
    ids = [p["id"] for p in doc["players"]]
    games, byes = _played(doc)
    seeds = {p["id"]: p.get("seed", 0) for p in doc["players"]}
    reached = {}
    for depth, matches in enumerate(doc.get("bracket") or []):
        for m in matches:
            for who in m["players"]:
                if who is not None:
                    reached[who] = depth + (m["winner"] == who)
    return standings(
        ids, games, [] if doc["format"] == "knockout" else byes, doc["format"], seeds, reached
    )


def view(doc: dict, account_id: str | None = None) -> dict:
    """The tournament as the API shows it (its invite code to its organiser only)."""
    names = {p["id"]: p["name"] for p in doc["players"]}
    rows = doc.get("final") or _standings(doc)
    out = {
        k: doc[k]
        for k in (
            "id",
            "name",
            "kind",
            "options",
            "time_control",
            "format",
            "double",
            "max_players",
            "min_players",
            "rated",
            "rating_range",
            "status",
            "version",
        )
    }
    out.update(
        rounds_planned=doc["rounds_planned"],
        starts_at=iso(doc["starts_ts"]),
        created_at=iso(doc["created_ts"]),
        updated_at=iso(doc["updated_ts"]),
        organiser=doc["organiser_name"],
        invite_only=doc["invite"] is not None,
        players=[
            {
                "player": p["name"],
                "bot": p["bot"] is not None,
                "rating": round(p["rating"]),
                "seed": p.get("seed"),
                "withdrawn": p["withdrawn"],
            }
            for p in doc["players"]
        ],
        standings=[{**row, "player": names[row["player"]]} for row in rows],
        rounds=[
            {
                "round": r["round"],
                "byes": [names[b] for b in r["byes"]],
                "pairings": [
                    {
                        "seats": [names[s] for s in p["seats"]],
                        "game_id": p["game_id"],
                        "result": p["result"],
                        **({"replay": p["replay"]} if "replay" in p else {}),
                    }
                    for p in r["pairings"]
                ],
            }
            for r in doc["rounds"]
        ],
    )
    if doc["format"] == "round-robin":
        table = crosstable([p["id"] for p in doc["players"]], _played(doc)[0])
        out["crosstable"] = [
            {"player": names[p], "results": {names[o]: v for o, v in row.items()}}
            for p, row in table.items()
        ]
    if account_id is not None and account_id == doc["organiser"] and doc["invite"]:
        out["invite"] = doc["invite"]
    return out


def placing(doc: dict, account_id: str) -> int | None:
    """The player's rank in a finished tournament."""
    return next(
        (row["rank"] for row in doc.get("final") or [] if row["player"] == account_id), None
    )


def score(doc: dict, account_id: str) -> float:
    """The player's score in the tournament so far (the final standings' once it is over)."""
    final = next((row for row in doc.get("final") or [] if row["player"] == account_id), None)
    if final is not None:
        return final["score"]
    games, byes = _played(doc)
    ids = [p["id"] for p in doc["players"]]
    counted = [] if doc["format"] == "knockout" else byes  # as the standings count them
    return scores(ids, games, counted).get(account_id, 0) / 2


def of_player(
    tournaments: TournamentStore, account_id: str, limit: int, cancelled: bool = True
) -> list[dict]:
    """The tournaments the player entered, newest entry first, at most `limit`: each with the
    player's placing once it is over and its score so far (`cancelled` False leaves out those
    cancelled before they started)."""
    rows = []
    for doc in tournaments.of_account(account_id):
        if doc["status"] == "cancelled" and not cancelled:
            continue
        rows.append(
            {
                **{k: doc[k] for k in ("id", "name", "kind", "format", "status")},
                "placing": placing(doc, account_id),
                "score": score(doc, account_id),
            }
        )
        if len(rows) == limit:
            break
    return rows


# -- helpers ------------------------------------------------------------------------------


def _update(tournaments: TournamentStore, tid: str, change) -> dict:
    try:
        return tournaments.update(tid, change)[0]
    except KeyError:
        raise NotFound(f"There is no tournament {tid!r}.") from None


def _organiser(doc: dict, account: Principal) -> None:
    if doc["organiser"] != account.id:
        raise NotOrganiser("Only the tournament's organiser may do this.")


def _bot_entrant(kind: str, player: str) -> dict:
    level = player.removeprefix(f"{BOT_PREFIX}{kind}-")
    if (
        not player.startswith(BOT_PREFIX)
        or level not in bot_levels(kind)
        or bot_account_id(kind, level) != player
    ):
        raise BadField(
            "player",
            f"{player!r} is not a bot account of {GAMES[kind].title}: "
            f"they are " + ", ".join(bot_account_id(kind, lv) for lv in bot_levels(kind)) + ".",
        )
    return {"id": player, "name": player, "bot": level}


def _rating(ratings: RatingStore, kind: str, account_id: str) -> float:
    (raw,) = ratings.read(kind, [account_id])
    return Rating.from_raw(raw).rating


def _people(doc: dict) -> list[dict]:
    return [p for p in doc["players"] if p["bot"] is None]


def _due(tid: str, at: float) -> list:
    return ["ZADD", keys.due_key(), repr(at), f"{tid}|{STEP}"]


def _over_notices(doc: dict, now: float) -> list[list]:
    return [
        _notice(p["id"], doc, "finished" if doc["status"] == "finished" else "cancelled", now)
        for p in _people(doc)
    ]


def _notice(
    account_id: str, doc: dict, what: str, now: float, record: GameRecord | None = None
) -> list:
    """An outbox entry of type `tournament`: "paired" (its data the new game), "started",
    "finished" or "cancelled" (its data the tournament's name, id and status)."""
    data = (
        game_view(record, now)
        if record is not None
        else {"id": doc["id"], "kind": doc["kind"], "name": doc["name"], "status": doc["status"]}
    )
    data["tournament"] = {"id": doc["id"], "name": doc["name"], "event": what}
    entry = {
        "id": f"msg_{uuid.uuid4().hex}",
        "type": "tournament",
        "account": account_id,
        "game": record.id if record is not None else None,
        "ts": now,
        "body": json.dumps(
            {"type": "tournament", "timestamp": iso(now), "data": data}, separators=(",", ":")
        ),
    }
    return ["XADD", keys.outbox_key(), "*", "event", json.dumps(entry, separators=(",", ":"))]
