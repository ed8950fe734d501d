"""Ratings: Glicko-2 per kind for accounts, the server's bot levels included (each has an account
`bot-<kind>-<level>`, flagged bot, with no password), leaderboards and fair pairing.

The formulas are Glickman's ("Example of the Glicko-2 system", `glicko2_step`). Every rated
game is its own rating
period, as Lichess does it: a player's rating after a game is Glicko-2's one-period update
against the opponent's rating before it, its RD first grown by the time since its last rated
game (`Rating.aged`: a rating left alone for months is less certain, so the next games move it
more; the ratings shown are as of each account's last rated game). A game's ratings are
applied by the worker (`apply_game`), once: the game's `rating_changes` (the record says it is
done) land in one script with both ratings, their histories and the leaderboard, and only while
none of them changed since they were read, so a job run twice, or two games of one account
ending together, can neither apply a game twice nor lose an update.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
import time
from typing import Sequence

from api.bots import levels as bot_levels
from api.bots import unavailable as bot_unavailable
from api.bots.match import PLY_LIMIT, play_game
from api.clocks import iso
from api.games import GAMES, BadOption, get_game
from api.notify.events import GAME_EVENTS
from api.record.errors import NotEligible, Stale
from api.record import GameRecord, Seat
from api.players.accounts import BOT_PREFIX, DEFAULT_SETTINGS, Principal
from api.store.accounts import AccountStore
from api.store.games import Change, GameStore
from api.store.ratings import RatingStore

START_RATING = 1500.0
START_RD = 350.0
START_VOLATILITY = 0.06
TAU = 0.5  # the system constant: how fast volatility may change
PROVISIONAL_RD = 110.0  # a rating whose RD is above this is provisional (marked "?")
# the rating periods a day without games counts for, growing the RD (Lichess's constant: an RD
# of 50 grows to about 105 in a year without rated games, 350 being the most it can reach)
RATING_PERIODS_PER_DAY = 0.21436
GLICKO2_SCALE = 173.7178  # Glickman's q: RD on the usual scale over phi on the Glicko-2 one
HISTORY_SHOWN = 200  # points of a profile's rating chart, per kind
MAX_LEADERBOARD = 100


@dataclasses.dataclass(frozen=True)
class Rating:
    """A Glicko-2 rating on the usual scale (1500 / 350), its volatility, and the rated games it
    stands on."""

    rating: float = START_RATING
    rd: float = START_RD
    vol: float = START_VOLATILITY
    games: int = 0
    updated_ts: float | None = None  # when its last rated game was rated

    def aged(self, now: float) -> "Rating":
        """The rating as the next rated game finds it: its RD grown by the rating periods
        without games since `updated_ts` (Glicko-2's pre-period step, phi' = sqrt(phi^2 +
        periods * sigma^2), as Lichess applies it, for a fraction of a period too), at most the
        start RD.

        >>> round(Rating(1500, 50, 0.06, 10, 0).aged(365 * 86400).rd)
        105
        """
        if self.updated_ts is None or now <= self.updated_ts:
            return self
        periods = (now - self.updated_ts) / 86400 * RATING_PERIODS_PER_DAY
        phi = math.hypot(self.rd / GLICKO2_SCALE, math.sqrt(periods) * self.vol)
        return dataclasses.replace(self, rd=min(START_RD, phi * GLICKO2_SCALE))

    @property
    def provisional(self) -> bool:
        return self.rd > PROVISIONAL_RD

    def view(self) -> dict:
        """The rating as the API shows it."""
        return {
            "rating": round(self.rating),
            "rd": round(self.rd, 1),
            "volatility": round(self.vol, 6),
            "games": self.games,
            "provisional": self.provisional,
        }

    def to_dict(self, now: float) -> dict:
        return {
            "rating": self.rating,
            "rd": self.rd,
            "vol": self.vol,
            "games": self.games,
            "updated_ts": now,
        }

    @classmethod
    def from_dict(cls, data: dict | None) -> "Rating":
        if data is None:
            return cls()
        return cls(data["rating"], data["rd"], data["vol"], data["games"], data.get("updated_ts"))

    @classmethod
    def from_raw(cls, raw: bytes) -> "Rating":
        """From a stored document (b"": never rated, the start rating)."""
        return cls.from_dict(json.loads(raw) if raw else None)


# Written here rather than taken from the `glicko2` package: its volatility step had mu^2
# where Glickman's step 5 has phi^2, and mending that needed its name-mangled attributes. This
# is the paper's algorithm, step by step, on the Glicko-2 scale (mu, phi), Illinois iteration
# and all; its worked example is the doctest.
VOLATILITY_EPSILON = 0.000001  # the convergence tolerance of step 5


def glicko2_step(
    rating: float,
    rd: float,
    vol: float,
    results: list[tuple[float, float, float]],
    tau: float = TAU,
) -> tuple[float, float, float]:
    """Rating, RD and volatility after one rating period of `results` (the opponent's rating
    and RD before the period, the player's score), on the usual scale.

    Glickman's worked example (a 1500/200 player, volatility 0.06, tau 0.5: a win against
    1400/30, losses against 1550/100 and 1700/300):

    >>> rating, rd, vol = glicko2_step(1500, 200, 0.06,
    ...                                [(1400, 30, 1), (1550, 100, 0), (1700, 300, 0)])
    >>> round(rating, 2), round(rd, 2), round(vol, 6)
    (1464.05, 151.52, 0.059996)

    The paper gives 1464.06, 151.52 and 0.05999, having rounded mu' to -0.2069 on the way.
    """
    # step 2: the Glicko-2 scale
    mu, phi = (rating - START_RATING) / GLICKO2_SCALE, rd / GLICKO2_SCALE
    opponents = [
        (
            (r - START_RATING) / GLICKO2_SCALE,
            1 / math.sqrt(1 + 3 * (d / GLICKO2_SCALE) ** 2 / math.pi**2),
            score,
        )
        for r, d, score in results
    ]
    expected = [1 / (1 + math.exp(-g * (mu - mu_j))) for mu_j, g, _ in opponents]
    # steps 3 and 4: the estimated variance, and the improvement the results show
    v = 1 / sum(g**2 * e * (1 - e) for (_, g, _), e in zip(opponents, expected))
    gains = sum(g * (score - e) for (_, g, score), e in zip(opponents, expected))
    delta = v * gains
    # step 5: the new volatility, by the Illinois algorithm
    a = math.log(vol**2)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta**2 - phi**2 - v - ex) / (2 * (phi**2 + v + ex) ** 2) - (x - a) / tau**2

    big_a = a
    if delta**2 > phi**2 + v:
        big_b = math.log(delta**2 - phi**2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > VOLATILITY_EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    new_vol = math.exp(big_a / 2)
    # steps 6 to 8: the pre-period RD, the new RD and rating, back on the usual scale
    phi_star = math.sqrt(phi**2 + new_vol**2)
    new_phi = 1 / math.sqrt(1 / phi_star**2 + 1 / v)
    new_mu = mu + new_phi**2 * gains
    return new_mu * GLICKO2_SCALE + START_RATING, new_phi * GLICKO2_SCALE, new_vol


def rate(player: Rating, results: list[tuple[Rating, float]]) -> Rating:
    """The player's rating after one rating period of `results`: (the opponent's rating before
    the period, the player's score: 1 a win, 0.5 a draw, 0 a loss).

    >>> after = rate(Rating(1500, 200), [(Rating(1400, 30), 1), (Rating(1550, 100), 0)])
    >>> round(after.rating), after.games
    (1492, 2)
    """
    rating, rd, vol = glicko2_step(
        player.rating, player.rd, player.vol, [(o.rating, o.rd, score) for o, score in results]
    )
    return Rating(rating, rd, vol, player.games + len(results), player.updated_ts)


def after_game(first: Rating, second: Rating, score: float) -> tuple[Rating, Rating]:
    """Both players' ratings after one game that the first scored `score` in (its own period)."""
    return rate(first, [(second, score)]), rate(second, [(first, 1 - score)])


def score_of_first(winner: int | None) -> float:
    """Seat 0's score in a game won by `winner` (None: a draw)."""
    return 0.5 if winner is None else 1.0 - winner


# -- bot accounts ------------------------------------------------------------------------------


def bot_account_id(kind: str, level: str) -> str:
    """The account of a server bot level: its id and its username."""
    return f"{BOT_PREFIX}{kind}-{level}"


def bot_account(kind: str, level: str, now: float) -> dict:
    """A server bot level's account: flagged bot, and with no password it cannot sign in."""
    name = bot_account_id(kind, level)
    return {
        "id": name,
        "username": name,
        "created_ts": now,
        "password_hash": None,
        "settings": {**DEFAULT_SETTINGS, "bot": True},
        "deleted": False,
        "server_bot": {"kind": kind, "level": level},
    }


def seat_account(kind: str, seat: Seat) -> str | None:
    """The account a seat is rated as: its player's, or its bot level's."""
    if seat.account is not None:
        return seat.account
    return None if seat.bot is None else bot_account_id(kind, seat.bot)


# -- rated or casual, and who may join -----------------------------------------------------------


def decide_rated(seats: list[Seat], asked: bool | None) -> bool:
    """Whether a new game with these seats is rated: as `asked`, by default when every person's
    seat is an account's (taken or challenged) and a person plays. BadOption when a rated game
    is asked for that cannot be rated."""
    people = [s for s in seats if s.bot is None]
    held = [s.account or s.invited for s in people]
    yourself = len(held) == 2 and held[0] is not None and held[0] == held[1]
    if asked is None:
        return bool(people) and all(held) and not yourself
    if not asked:
        return False
    if not people:
        raise BadOption(
            "rated",
            "A game between two bots is not rated: the bots' ratings "
            "come from their ladders (postplay seed-ratings).",
        )
    if not all(h or s.open for h, s in zip(held, people)):
        raise BadOption(
            "rated",
            "A rated game needs an account in every seat a person plays: "
            "sign in, challenge a player by name, or leave the seat open.",
        )
    if yourself:
        raise BadOption("rated", "You cannot play yourself in a rated game.")
    return True


def check_joiner(
    ratings: RatingStore | None, record: GameRecord, seat: Seat, account: Principal | None
) -> None:
    """Refuse (NotEligible) a player who may not take the open `seat`: a rated game needs an
    account, and a seat with a rating range a rating inside it."""
    if account is None:
        if record.rated:
            raise NotEligible("This game is rated: sign in to take its seat.")
        if seat.rating_range is not None:
            raise NotEligible(
                "This seat asks for a rating range: sign in, so that your rating can be checked."
            )
        return
    if record.rated and account.id in record.accounts:
        raise NotEligible("You cannot play yourself in a rated game.")
    if seat.rating_range is not None:
        lo, hi = seat.rating_range
        assert ratings is not None  # whoever lets accounts join passes the ratings beside them
        (raw,) = ratings.read(record.kind, [account.id])
        mine = round(Rating.from_raw(raw).rating)
        if not lo <= mine <= hi:
            raise NotEligible(
                f"This seat is for players rated {lo} to {hi} in "
                f"{GAMES[record.kind].title}; your rating there is {mine}."
            )


# -- applying a game's ratings (the worker) ----------------------------------------------------


def apply_game(
    games: GameStore, ratings: RatingStore, game_id: str, now: float | None = None
) -> list[dict] | None:
    """Apply a rated game's ratings: the game's `rating_changes`, or None (a no-op) when they
    are applied already or the game is not rated, not over or gone."""
    now = time.time() if now is None else now

    def change(record: GameRecord) -> Change:
        if not record.rating_due:
            raise Stale
        ids: list[str] = []
        for s in record.seats:
            account_id = seat_account(record.kind, s)
            assert account_id is not None  # a rated game has an account or a bot in every seat
            ids.append(account_id)
        names = [
            s.name if s.bot is None else bot_account_id(record.kind, s.bot) for s in record.seats
        ]
        result = record.result
        assert result is not None  # the ratings are due once the game is over
        before, after, guards, writes = _game_writes(
            ratings,
            record.kind,
            ids,
            names,
            score_of_first(result.winner),
            record.id,
            _bots(record),
            now,
        )
        record.rating_changes = [
            {
                "before": round(b.rating, 1),
                "after": round(a.rating, 1),
                "rd_before": round(b.rd, 1),
                "rd_after": round(a.rd, 1),
                "provisional": a.provisional,
            }
            for b, a in zip(before, after)
        ]
        return Change(record, guards=guards, writes=writes, at=now)

    try:
        return games.update(game_id, change).record.rating_changes
    except (Stale, KeyError):
        return None


def rate_on_worker(connection, game_id: str) -> bool:
    """The rating job: apply the game's ratings; True when this run applied them."""
    return (
        apply_game(GameStore(connection, GAME_EVENTS), RatingStore(connection), game_id) is not None
    )


def rate_ladder_game(
    ratings: RatingStore,
    kind: str,
    levels: tuple[str, str],
    winner: int | None,
    now: float | None = None,
) -> tuple[Rating, Rating]:
    """Rate one ladder game between two bot levels (seat 0 played levels[0]); their ratings
    after it. Retried on a newer rating, so two ladders at once lose no game."""
    now = time.time() if now is None else now
    ids = [bot_account_id(kind, level) for level in levels]
    while True:
        _, after, guards, writes = _game_writes(
            ratings, kind, ids, ids, score_of_first(winner), None, list(levels), now
        )
        if ratings.commit(guards, writes):
            return after


def _bots(record: GameRecord) -> list[str | None]:
    return [s.bot for s in record.seats]


def _game_writes(
    ratings: RatingStore,
    kind: str,
    ids: list[str],
    names: Sequence[str | None],
    score: float,
    game_id: str | None,
    bots: list[str | None],
    now: float,
):
    """Both players' ratings before and after one game, what was read, and the writes that
    store the new ratings (creating a bot level's account the first time it is rated)."""
    raws = ratings.read(kind, ids)
    before = [Rating.from_raw(raw).aged(now) for raw in raws]
    after = after_game(before[0], before[1], score)
    writes: list[list] = []
    for seat, (account_id, rating) in enumerate(zip(ids, after)):
        level = bots[seat]
        if level is not None:
            writes += ratings.account_writes(bot_account(kind, level, now))
        entry = {
            "ts": now,
            "rating": rating.rating,
            "rd": rating.rd,
            "game": game_id,
            "opponent": names[1 - seat],
            "score": score if seat == 0 else 1 - score,
        }
        writes += ratings.writes(kind, account_id, rating.to_dict(now), entry)
    return before, after, ratings.guards(kind, ids, raws), writes


# -- the ladders that seed the bots' ratings ---------------------------------------------------


def seed_ladders(
    ratings: RatingStore,
    kinds: list[str],
    games: int,
    budget_s: float,
    seed: int = 0,
    progress=None,
) -> dict[str, dict[str, Rating]]:
    """Seed the bot levels' ratings: `games` rounds per kind, each round one game of every
    pair of its levels (seats and first move alternating), each game rated as it ends. The
    ratings after, per kind and level."""
    out = {}
    for kind in kinds:
        # the levels that play the game's default options (Ploid's perfect bot plays only the
        # small boards its solver finishes): the ladders play those options
        defaults = get_game(kind).check_options({})
        names = [n for n in bot_levels(kind) if bot_unavailable(kind, n, defaults) is None]
        for round_ in range(games):
            for pair_index, (a, b) in enumerate(itertools.combinations(names, 2)):
                levels = (a, b) if round_ % 2 == 0 else (b, a)
                played = play_game(
                    kind,
                    {},
                    levels,
                    seed + round_ * 1000 + pair_index,
                    first=(round_ // 2) % 2,
                    budget_s=budget_s,
                    max_plies=PLY_LIMIT,
                )
                if played.outcome.reason == "aborted":
                    continue  # a game that cycled to the ply limit says nothing of strength
                rate_ladder_game(ratings, kind, levels, played.outcome.winner)
                if progress is not None:
                    progress(kind, levels, played.outcome.winner)
        out[kind] = bot_ratings(ratings, kind)
    return out


def bot_ratings(ratings: RatingStore, kind: str) -> dict[str, Rating]:
    """Every bot level of `kind` with its rating (the start rating before any game)."""
    names = list(bot_levels(kind))
    raws = ratings.read(kind, [bot_account_id(kind, n) for n in names])
    return {name: Rating.from_raw(raw) for name, raw in zip(names, raws)}


def bot_table(ratings: RatingStore, kind: str) -> str:
    """The rules page's section on the bots' ratings (Markdown), as they stand now."""
    rows = [
        f"| {level} | [{bot_account_id(kind, level)}](#/player/{bot_account_id(kind, level)})"
        f" | {round(r.rating)}{'?' if r.provisional else ''} | {round(r.rd)} | {r.games} |"
        for level, r in bot_ratings(ratings, kind).items()
    ]
    if not rows:
        return ""
    return (
        "\n\n## The bots' ratings\n\n"
        "Each bot level has an account of its own and a Glicko-2 rating, seeded by ladder "
        "games between the levels and moved by every rated game it plays. As they stand "
        "now (a rating marked ? is provisional: its RD is above 110):\n\n"
        "| bot | account | rating | RD | games |\n|---|---|---|---|---|\n" + "\n".join(rows) + "\n"
    )


# -- what the API shows ------------------------------------------------------------------------


def ratings_view(ratings: RatingStore, account_id: str) -> dict[str, dict]:
    """The account's ratings per kind it has played rated games of."""
    return {
        kind: Rating.from_dict(doc).view()
        for kind, doc in ratings.of_account(account_id, list(GAMES)).items()
    }


def history_view(ratings: RatingStore, account_id: str, kinds: list[str]) -> dict[str, list]:
    """Per kind, the account's rating after each of its last rated games: a chart's points."""
    return {
        kind: [
            {
                "at": iso(e["ts"]),
                "rating": round(e["rating"], 1),
                "rd": round(e["rd"], 1),
                "game": e["game"],
                "opponent": e["opponent"],
                "score": e["score"],
            }
            for e in ratings.history(account_id, kind, HISTORY_SHOWN)
        ]
        for kind in kinds
    }


def seat_ratings(ratings: RatingStore, records: list[GameRecord]) -> dict[str, list]:
    """Per game, each seat's current rating in the game's kind (None for a seat no account or
    bot holds), in one round trip: what the lobby shows beside names."""
    wanted = {r.id: [seat_account(r.kind, s) for s in r.seats] for r in records}
    kinds = {r.id: r.kind for r in records}
    docs = ratings.many(sorted({(a, kinds[g]) for g, ids in wanted.items() for a in ids if a}))
    return {
        g: [None if a is None else Rating.from_dict(docs.get((a, kinds[g]))).view() for a in ids]
        for g, ids in wanted.items()
    }


def leaderboard(ratings: RatingStore, accounts: AccountStore, kind: str, limit: int) -> list[dict]:
    """The `limit` best rated accounts of `kind` (deleted ones left out), best first."""
    ids = ratings.top(kind, limit)
    docs = ratings.many([(a, kind) for a in ids])
    found = accounts.load_many(ids)
    rows: list[dict] = []
    for account_id in ids:
        account, doc = found.get(account_id), docs.get((account_id, kind))
        if account is None or account["deleted"] or doc is None:
            continue
        rows.append(
            {
                "rank": len(rows) + 1,
                "username": account["username"],
                "bot": account["settings"]["bot"],
                **Rating.from_dict(doc).view(),
            }
        )
    return rows
