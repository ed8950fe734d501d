"""Partition (v0.8a, the singleton test): cut one open region of hexes apart with sticks.

Rules: ../../seeds/partition.md. A turn is three actions, each one move (one ply): the same seat
stays `to_move` until its third action, or until the game ends mid-turn. The turn never passes
early, so there is no forced pass: while the game runs the open region has at least two hexes
(an equal split of 5 or fewer ends the game, any other split keeps the larger part open), so it has
an edge without a stick (a spanning tree) and some normal stick is always legal.

Hexes are numbered `row * 6 + col` on an odd-r board. A stick between hexes 0 and 6 leaves the open
region whole, and the same seat acts again:

>>> layout = ["red", "orange", "yellow", "green", "blue", "purple"] * 6
>>> state = Partition.new(Partition.check_options({"layout": layout}), first=0, seed=0)
>>> state = state.apply(Stick((0, 6)))
>>> state.to_move, state.actions_left, state.open_size
(0, 2, 36)

Corner hex 0 now touches only hex 1, so a stick there would close a one-hex region, which the
singleton restriction forbids while another stick would not close one:

>>> state.apply(Stick((0, 1)))
Traceback (most recent call last):
...
api.games.base.IllegalMove: A stick may not close a one-hex region while another stick would not.

Hexes 0, 1 and 2 (red, orange, yellow) are cut off by seat 1's third stick, for a closing point:

>>> for edge in ((1, 6), (1, 7), (2, 7), (2, 8), (2, 3)):
...     state = state.apply(Stick(edge))
>>> state.closed_regions(), state.points, state.to_move, state.actions_left
([[0, 1, 2]], (0, 1), 0, 3)
"""

from __future__ import annotations

import bisect
import dataclasses
import functools
import itertools
import random
from typing import Any, NamedTuple

from api.games.base import (
    Boolean,
    Field,
    Game,
    IllegalMove,
    ListOf,
    Maybe,
    Move,
    Obj,
    Option,
    Outcome,
    Pair,
    Reason,
    Shape,
    State,
    Text,
    Whole,
    by_seat,
    per_seat,
    wire,
)
from api.games.bits import set_bits as hexes_of  # the hex ids in a bit mask, increasing
from api.games.registry import register

ROWS = COLS = 6
HEXES = ROWS * COLS
ROW_NAMES = "ABCDEF"  # a hex's name is its row's letter and its column's number (`hex_name`)
COLOURS = ("red", "orange", "yellow", "green", "blue", "purple")
DISCS_PER_COLOUR = HEXES // len(COLOURS)
ACTIONS_PER_TURN = 3
MAX_CLAIMS = 2
MAX_SUBDIVISIONS = 2
FINAL_SPLIT_MAX = 5  # an equal split into parts of this size or smaller ends the game
CLOSING_COLOURS = 3  # a closed region with this many colours earns its closer a point


def _neighbours(hex_id: int) -> tuple[int, ...]:
    """The hexes next to `hex_id` on the odd-r board (odd rows sit half a hex to the right)."""
    r, c = divmod(hex_id, COLS)
    shift = 0 if r % 2 else -1
    cells = [
        (r, c - 1),
        (r, c + 1),
        (r - 1, c + shift),
        (r - 1, c + shift + 1),
        (r + 1, c + shift),
        (r + 1, c + shift + 1),
    ]
    return tuple(sorted(rr * COLS + cc for rr, cc in cells if 0 <= rr < ROWS and 0 <= cc < COLS))


NEIGHBOURS = tuple(_neighbours(h) for h in range(HEXES))
EDGES = tuple((a, b) for a in range(HEXES) for b in NEIGHBOURS[a] if a < b)
ALL_LINKS = tuple(sum(1 << n for n in NEIGHBOURS[h]) for h in range(HEXES))
ALL_HEXES = (1 << HEXES) - 1
BITS = tuple(1 << h for h in range(HEXES))  # bit h stands for hex h

Edge = tuple[int, int]


@dataclasses.dataclass(frozen=True)
class Stick(Move):
    """A normal stick on an edge of the open region; `close` names a hex of the part to close
    when the stick splits the region into equal parts and the split is not the final one."""

    move_type = "stick"
    edge: Edge = wire(Pair(ordered=True), description="[hex, hex]")
    close: int | None = wire(
        Maybe(Whole(0, HEXES - 1)),
        default=None,
        description=(
            "A hex of the part to close, on an equal split that does not end the game; left out "
            "otherwise."
        ),
    )

    def words(self, before: State) -> str:
        """The move's words.

        >>> Stick((6, 12)).words(None)
        'places a stick between B1 and C1'
        >>> Stick((14, 15), close=8).words(None)
        'places a stick between C3 and C4, closing the part with B3'
        """
        closing = "" if self.close is None else f", closing the part with {hex_name(self.close)}"
        return f"places a stick {between(self.edge)}{closing}"


@dataclasses.dataclass(frozen=True)
class Claim(Move):
    """Take the disc on `hex` (in a closed region): its colour becomes the mover's."""

    move_type = "claim"
    hex: int = wire(Whole())

    def words(self, before: State) -> str:
        """The disc's colour, read in `before`, and its hex."""
        assert isinstance(before, PartitionState)
        colour = before.colours[self.hex] if 0 <= self.hex < HEXES else None
        disc = "the disc" if colour is None else f"the {COLOURS[colour]} disc"
        return f"claims {disc} on {hex_name(self.hex)}"


@dataclasses.dataclass(frozen=True)
class Subdivide(Move):
    """A stick inside a closed region that splits it in two."""

    move_type = "subdivide"
    edge: Edge = wire(Pair(ordered=True), description="[hex, hex]")

    def words(self, before: State) -> str:
        return f"subdivides {between(self.edge)}"


def _check_layout(value: Any) -> list[str] | None:
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != HEXES or any(c not in COLOURS for c in value):
        raise ValueError(f"Option layout must list {HEXES} colours from {', '.join(COLOURS)}.")
    if any(value.count(c) != DISCS_PER_COLOUR for c in COLOURS):
        raise ValueError(f"Option layout must hold {DISCS_PER_COLOUR} discs of each colour.")
    return list(value)


@register
class Partition(Game):
    slug = "partition"
    title = "Partition"
    reasons = (Reason.SCORE,)
    score_words = (
        "point (closing points plus regions held)",
        "points (closing points plus regions held)",
    )
    summary = (
        "Cut a board of coloured hexes apart with sticks, three actions a turn. Close "
        "colourful regions for points, claim two colours, and own the most regions."
    )
    options = (
        Option(
            "layout",
            "json",
            None,
            "The 36 disc colours by hex id, 6 of each colour; "
            "by default they are shuffled from the game's seed.",
            check=_check_layout,
            shape=Maybe(ListOf(Text(choices=tuple(COLOURS)), length=HEXES)),
        ),
        Option(
            "singleton_rule",
            "bool",
            True,
            "A stick may not close a one-hex region while another stick would not.",
        ),
    )
    moves = (Stick, Claim, Subdivide)

    @classmethod
    def new(cls, options: dict, first: int, seed: int) -> "PartitionState":
        layout = options.get("layout")
        if layout is None:
            layout = [c for c in COLOURS for _ in range(DISCS_PER_COLOUR)]
            random.Random(seed).shuffle(layout)
        return PartitionState(
            colours=tuple(COLOURS.index(c) for c in layout),
            links=ALL_LINKS,
            open=ALL_HEXES,
            closed=(),
            claimed=((), ()),
            subdivisions_left=(MAX_SUBDIVISIONS, MAX_SUBDIVISIONS),
            actions_left=ACTIONS_PER_TURN,
            turn=first,
            points=(0, 0),
            singleton_rule=options.get("singleton_rule", True),
        )


@dataclasses.dataclass(frozen=True, eq=False)
class PartitionState(State):
    colours: tuple[int | None, ...]  # colour index per hex; None once its disc is claimed
    links: tuple[int, ...]  # per hex, a bit mask of the neighbours with no stick between
    open: int  # bit mask of the open region; 0 once the game is over
    closed: tuple[int, ...]  # bit masks of the closed regions, by lowest hex
    claimed: tuple[tuple[int, ...], tuple[int, ...]]
    subdivisions_left: tuple[int, int]
    actions_left: int
    turn: int  # the seat whose turn it is (or was, when the game ended)
    points: tuple[int, int]  # closing points
    singleton_rule: bool

    shape = Shape(
        "PartitionState",
        (
            Field("rows", Whole()),
            Field("cols", Whole()),
            Field(
                "colours",
                ListOf(Maybe(Text(choices=COLOURS))),
                "The disc colour by hex id; null once claimed.",
            ),
            Field("sticks", ListOf(Pair())),
            Field(
                "regions",
                ListOf(
                    Obj(
                        Shape(
                            "PartitionRegion",
                            (Field("hexes", ListOf(Whole())), Field("closed", Boolean())),
                        )
                    )
                ),
            ),
            Field("claimed", per_seat(ListOf(Text(choices=COLOURS)))),
            Field("claims_left", per_seat(Whole())),
            Field("subdivisions_left", per_seat(Whole())),
            Field("actions_left", Whole()),
            Field("points", per_seat(Whole())),
            Field("turn", Whole()),
            Field("singleton_rule", Boolean()),
        ),
    )

    game = Partition

    # --- whose turn, and what is legal ---

    @property
    def to_move(self) -> int | None:
        return None if self.is_over() else self.turn

    @property
    def open_size(self) -> int:
        return self.open.bit_count()

    def is_over(self) -> bool:
        return not self.open

    def legal_moves(self) -> list[Move]:
        if self.is_over():
            return []
        return [*self.stick_moves(), *self.claim_moves(), *self.subdivide_moves()]

    def stick_moves(self) -> list[Stick]:
        """Every legal normal stick: first those that leave the open region whole, then those
        that split it in edge order, with one move per `close` choice on an equal split that
        does not end the game."""
        size = self.open_size
        edges = self.open_edges
        moves = [STICKS[edge] for edge in edges.whole]
        singles: list[Stick] = []
        bridges = edges.bridges
        for edge in sorted(bridges):
            side = bridges[edge]
            part = side.bit_count()
            if 2 * part == size and part > FINAL_SPLIT_MAX:
                closes = sorted((lowest_hex(side), lowest_hex(self.open ^ side)))
                moves += [Stick(edge, hex_id) for hex_id in closes]
            elif min(part, size - part) == 1 and size > 2:
                singles.append(STICKS[edge])
            else:
                moves.append(STICKS[edge])
        if singles and (not moves or not self.singleton_rule):
            moves += singles
        return moves

    def claim_moves(self) -> list[Claim]:
        if len(self.claimed[self.turn]) >= MAX_CLAIMS:
            return []
        taken = set(self.claimed[0] + self.claimed[1])
        closed = ALL_HEXES ^ self.open
        return [
            CLAIMS[h]
            for h in hexes_of(closed)
            if self.colours[h] is not None and self.colours[h] not in taken
        ]

    def subdivide_moves(self) -> list[Subdivide]:
        if not self.subdivisions_left[self.turn]:
            return []
        return [
            SUBDIVISIONS[edge]
            for region in self.closed
            if region & (region - 1)  # a region of one hex has no edge to subdivide on
            for edge in sorted(self.region_edges(region).bridges)
        ]

    def region_edges(self, region: int) -> "RegionEdges":
        """The edges without a stick inside `region`: where a stick would leave it whole, and
        where it would split it (its bridges)."""
        return region_edges(region, self.links)

    @functools.cached_property
    def open_edges(self) -> "RegionEdges":
        return self.region_edges(self.open) if self.open else RegionEdges([], {})

    # --- applying an action ---

    def apply(self, move: Move) -> "PartitionState":
        if self.is_over():
            raise IllegalMove("The game is over.")
        if isinstance(move, Stick):
            return self._place_stick(move)
        if isinstance(move, Claim):
            return self._claim(move.hex)
        if isinstance(move, Subdivide):
            return self._subdivide(move.edge)
        raise IllegalMove("In Partition you place a stick, claim a colour or subdivide.")

    def _place_stick(self, move: Stick) -> "PartitionState":
        a, b = edge = _check_edge(move.edge, self.links)
        if not (self.open >> a & 1 and self.open >> b & 1):
            raise IllegalMove(
                f"The edge {between(edge)} is not in the open region; "
                "only a subdivision may go inside a closed region."
            )
        side = self.open_edges.bridges.get(edge, 0)
        links = cut_edge(self.links, a, b)
        if not side:
            if move.close is not None:
                raise IllegalMove(
                    "This stick does not split the open region, so there is "
                    "nothing to close; leave out 'close'."
                )
            return self._next_action(links=links)
        other = self.open ^ side
        part, size = side.bit_count(), self.open_size
        final = 2 * part == size and part <= FINAL_SPLIT_MAX
        if 2 * part == size and not final:
            if move.close is None:
                raise IllegalMove(
                    "This stick splits the open region into two equal parts: "
                    "name a hex of the part to close in 'close'."
                )
            if not (0 <= move.close < HEXES and self.open >> move.close & 1):
                raise IllegalMove(f"Hex {hex_name(move.close)} is in neither part of the split.")
            closing = side if side >> move.close & 1 else other
        elif move.close is not None:
            raise IllegalMove(
                "Only an equal split that does not end the game lets you choose "
                "the part to close; leave out 'close'."
            )
        else:
            closing = side if 2 * part < size else other
        if (
            not final
            and closing.bit_count() == 1
            and self.singleton_rule
            and not self._only_singleton_sticks
        ):
            raise IllegalMove(
                "A stick may not close a one-hex region while another stick would not."
            )
        closes = (side, other) if final else (closing,)
        points = list(self.points)
        points[self.turn] += sum(self.closing_point(region) for region in closes)
        return self._next_action(
            links=links,
            open=0 if final else self.open ^ closing,
            closed=_with_regions(self.closed, closes),
            points=tuple(points),
        )

    @functools.cached_property
    def _only_singleton_sticks(self) -> bool:
        """True when every normal stick would close a one-hex region (they become legal)."""
        size = self.open_size
        edges = self.open_edges
        return not edges.whole and all(
            min(side.bit_count(), size - side.bit_count()) == 1 for side in edges.bridges.values()
        )

    def _claim(self, hex_id: int) -> "PartitionState":
        if not 0 <= hex_id < HEXES:
            raise IllegalMove(f"There is no hex {hex_id}; hexes are numbered 0 to {HEXES - 1}.")
        if self.open >> hex_id & 1:
            raise IllegalMove(
                f"Hex {hex_name(hex_id)} is in the open region; claim from a closed region."
            )
        colour = self.colours[hex_id]
        if colour is None:
            raise IllegalMove(f"The disc on {hex_name(hex_id)} has already been claimed.")
        mine, theirs = self.claimed[self.turn], self.claimed[1 - self.turn]
        if len(mine) >= MAX_CLAIMS:
            raise IllegalMove(f"You have already claimed {MAX_CLAIMS} colours.")
        if colour in theirs:
            raise IllegalMove(f"{COLOURS[colour].capitalize()} belongs to the other player.")
        if colour in mine:
            raise IllegalMove(f"{COLOURS[colour].capitalize()} is already yours.")
        colours = list(self.colours)
        colours[hex_id] = None
        claimed = list(self.claimed)
        claimed[self.turn] = mine + (colour,)
        return self._next_action(colours=tuple(colours), claimed=tuple(claimed))

    def _subdivide(self, edge: Edge) -> "PartitionState":
        a, b = edge = _check_edge(edge, self.links)
        region = next((r for r in self.closed if r >> a & 1), 0)
        if not region >> b & 1:
            raise IllegalMove(
                f"The edge {between(edge)} is not inside a closed region; "
                "a subdivision splits a closed region."
            )
        if not self.subdivisions_left[self.turn]:
            raise IllegalMove("You have used both your subdivisions.")
        links = cut_edge(self.links, a, b)
        part = flood(a, links)
        if part >> b & 1:
            raise IllegalMove("A subdivision must split its region in two; this stick would not.")
        left = list(self.subdivisions_left)
        left[self.turn] -= 1
        rest = tuple(r for r in self.closed if r != region)
        return self._next_action(
            links=links,
            closed=_with_regions(rest, (part, region ^ part)),
            subdivisions_left=tuple(left),
        )

    def _next_action(self, **changes) -> "PartitionState":
        """The state after one action: the turn passes after the third, unless the game ended.
        Made by copying the fields rather than by `dataclasses.replace`, which runs the frozen
        `__init__` (a checked `object.__setattr__` per field): the bots' searches make hundreds
        of thousands of states, and this takes a fifth of the time."""
        if self.actions_left > 1 or changes.get("open") == 0:
            changes["actions_left"] = self.actions_left - 1
        else:
            changes.update(actions_left=ACTIONS_PER_TURN, turn=1 - self.turn)
        fields = self.__dict__  # also holds the cached properties, which must not be copied
        state = object.__new__(PartitionState)
        state.__dict__.update({name: fields[name] for name in STATE_FIELDS}, **changes)
        return state

    # --- scoring ---

    def closing_point(self, region: int) -> int:
        """1 when the region holds discs of at least three colours, else 0."""
        colours = sum(1 for discs in disc_masks(self.colours) if discs & region)
        return int(colours >= CLOSING_COLOURS)

    def region_owner(self, region: int) -> int | None:
        """The seat with more of its claimed colours' discs in the region, None on a tie."""
        counts = [
            sum(1 for h in hexes_of(region) if self.colours[h] in self.claimed[seat])
            for seat in (0, 1)
        ]
        return None if counts[0] == counts[1] else int(counts[1] > counts[0])

    def totals(self) -> list[int]:
        """Closing points plus a point for every closed region a seat owns."""
        totals = list(self.points)
        for region in self.closed:
            owner = self.region_owner(region)
            if owner is not None:
                totals[owner] += 1
        return totals

    def outcome(self) -> Outcome | None:
        if not self.is_over():
            return None
        totals = self.totals()
        winner = None if totals[0] == totals[1] else int(totals[1] > totals[0])
        return Outcome(winner, Reason.SCORE, totals)

    def closed_regions(self) -> list[list[int]]:
        return [list(hexes_of(r)) for r in self.closed]

    # --- serialisation ---

    def to_dict(self) -> dict:
        regions = _sorted_regions(self.closed + ((self.open,) if self.open else ()))
        return {
            "rows": ROWS,
            "cols": COLS,
            "colours": [None if c is None else COLOURS[c] for c in self.colours],
            "sticks": [list(e) for e in EDGES if not self.links[e[0]] >> e[1] & 1],
            "regions": [{"hexes": list(hexes_of(r)), "closed": r != self.open} for r in regions],
            "claimed": [[COLOURS[c] for c in seat] for seat in self.claimed],
            "claims_left": [MAX_CLAIMS - len(seat) for seat in self.claimed],
            "subdivisions_left": list(self.subdivisions_left),
            "actions_left": self.actions_left,
            "points": list(self.points),
            "turn": self.turn,
            "singleton_rule": self.singleton_rule,
        }

    facts_shape = Shape(
        "PartitionFacts",
        (
            Field(
                "closed_regions",
                ListOf(
                    Obj(
                        Shape(
                            "PartitionClosedRegion",
                            (
                                Field("hexes", ListOf(Whole())),
                                Field(
                                    "owner",
                                    Maybe(Whole()),
                                    "The seat with more discs of its claimed colours here "
                                    "(null on a tie).",
                                ),
                            ),
                        )
                    )
                ),
                "each closed region (in `regions`' order) and its owner were the game to end now.",
            ),
            Field("regions_held", per_seat(Whole()), "closed regions owned."),
            Field("totals", per_seat(Whole()), "points plus regions held."),
            Field(
                "equal_splits",
                ListOf(
                    Obj(
                        Shape(
                            "PartitionEqualSplit",
                            (
                                Field("edge", Pair(), "[hex, hex]"),
                                Field(
                                    "sides",
                                    ListOf(
                                        Obj(
                                            Shape(
                                                "PartitionSide",
                                                (
                                                    Field(
                                                        "close",
                                                        Whole(),
                                                        "The hex a stick's `close` names to close this side.",
                                                    ),
                                                    Field("hexes", ListOf(Whole())),
                                                ),
                                            )
                                        ),
                                        2,
                                    ),
                                ),
                            ),
                        )
                    )
                ),
                "the sticks that split the open region into equal parts without ending the game, "
                "so that their maker names the side to close; each with its two sides.",
            ),
        ),
    )

    def facts(self) -> dict:
        """Each closed region's owner were the game to end now, the regions each seat holds, the
        totals, and every equal split of the open region that lets its maker choose the part to
        close (its two sides, each named by the hex a stick's `close` gives)."""
        owners = [self.region_owner(region) for region in self.closed]
        return {
            "closed_regions": [
                {"hexes": list(hexes_of(region)), "owner": owner}
                for region, owner in zip(self.closed, owners)
            ],
            "regions_held": [owners.count(seat) for seat in (0, 1)],
            "totals": self.totals(),
            "equal_splits": [
                {
                    "edge": list(edge),
                    "sides": [
                        {"close": lowest_hex(side), "hexes": list(hexes_of(side))}
                        for side in sorted((part, self.open ^ part), key=lowest_hex)
                    ],
                }
                for edge, part in sorted(self.open_edges.bridges.items())
                if 2 * part.bit_count() == self.open_size and part.bit_count() > FINAL_SPLIT_MAX
            ],
        }

    @classmethod
    def from_dict(cls, data: dict) -> "PartitionState":
        links = links_after(data["sticks"])
        masks = [(sum(1 << h for h in r["hexes"]), r["closed"]) for r in data["regions"]]
        return cls(
            colours=tuple(None if c is None else COLOURS.index(c) for c in data["colours"]),
            links=links,
            open=sum(m for m, closed in masks if not closed),
            closed=_sorted_regions(tuple(m for m, closed in masks if closed)),
            claimed=by_seat(tuple(COLOURS.index(c) for c in seat) for seat in data["claimed"]),
            subdivisions_left=tuple(data["subdivisions_left"]),
            actions_left=data["actions_left"],
            turn=data["turn"],
            points=tuple(data["points"]),
            singleton_rule=data["singleton_rule"],
        )


STATE_FIELDS = tuple(field.name for field in dataclasses.fields(PartitionState))


# --- region helpers on bit masks (bit h stands for hex h) ---


def lowest_hex(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def flood(start: int, links: tuple[int, ...]) -> int:
    """The bit mask of hexes reachable from `start` without crossing a stick."""
    seen = frontier = 1 << start
    while frontier:
        reach = 0
        for h in hexes_of(frontier):
            reach |= links[h]
        frontier = reach & ~seen
        seen |= frontier
    return seen


class RegionEdges(NamedTuple):
    """The edges without a stick inside a region, in two parts."""

    whole: list[Edge]  # a stick here leaves the region whole
    bridges: dict[Edge, int]  # a stick here splits it: the bit mask of the hexes it cuts off
    #                            from the region's lowest hex


def region_edges(region: int, links: tuple[int, ...]) -> RegionEdges:
    """The edges without a stick inside `region`, told apart in one pass instead of one flood
    fill per edge: grow a breadth-first tree of the region. Every other edge closes a cycle with
    the tree edges between its ends, named by the hexes in exactly one of the two ends' ancestor
    sets; a tree edge on no cycle is a bridge, and a stick there cuts off the subtree below it."""
    root = lowest_hex(region)
    order, parent = [root], [-1] * HEXES
    ancestors = [0] * HEXES  # per hex: itself and the hexes above it in the tree
    ancestors[root] = seen = BITS[root]
    on_cycle = 0  # hexes whose tree edge up to their parent lies on a cycle
    whole: list[Edge] = []
    for h in order:
        linked, mine, among = links[h], ancestors[h], AMONG[h]
        # edges to higher hexes already in the tree close cycles (each is met once, from its
        # lower end); a breadth-first tree joins no hex to an ancestor other than its parent
        closing = linked & seen & ~mine & ABOVE[h]
        fresh = linked & ~seen
        seen |= fresh
        for n in among[closing]:
            on_cycle |= mine ^ ancestors[n]
            whole.append(EDGE_TO[h][n])
        for n in among[fresh]:
            parent[n] = h
            ancestors[n] = mine | BITS[n]
            order.append(n)
    below = list(BITS)  # per hex: its subtree, filled in from the leaves up
    bridges: dict[Edge, int] = {}
    for h in reversed(order[1:]):
        p = parent[h]
        below[p] |= below[h]
        if on_cycle >> h & 1:
            whole.append(EDGE_TO[p][h])
        else:
            bridges[EDGE_TO[p][h]] = below[h]
    return RegionEdges(whole, bridges)


# moves are immutable values, so every listing shares these
STICKS = {edge: Stick(edge) for edge in EDGES}
SUBDIVISIONS = {edge: Subdivide(edge) for edge in EDGES}
CLAIMS = tuple(Claim(h) for h in range(HEXES))


def _among(hex_id: int) -> dict[int, tuple[int, ...]]:
    """Every bit mask of some of the hex's neighbours, mapped to those neighbours in order."""
    near = NEIGHBOURS[hex_id]
    return {
        sum(BITS[n] for n in chosen): chosen
        for k in range(len(near) + 1)
        for chosen in itertools.combinations(near, k)
    }


# tables for region_edges, which looks a mask of a hex's neighbours up as a whole rather
# than picking its bits out one by one
AMONG = tuple(_among(h) for h in range(HEXES))
ABOVE = tuple(-(2 << h) for h in range(HEXES))  # per hex: the bits of the higher hexes
EDGE_TO = tuple(
    {n: (min(h, n), max(h, n)) for n in NEIGHBOURS[h]} for h in range(HEXES)
)  # per hex: its neighbours -> the edges to them


def _check_edge(edge: Edge, links: tuple[int, ...]) -> Edge:
    a, b = edge
    if not (0 <= a < HEXES and 0 <= b < HEXES) or b not in NEIGHBOURS[a]:
        where = (
            f"{hex_name(a)} and {hex_name(b)}"
            if 0 <= a < HEXES and 0 <= b < HEXES
            else f"hexes {a} and {b}"
        )
        raise IllegalMove(f"There is no edge between {where}: they are not neighbours.")
    if not links[a] >> b & 1:
        raise IllegalMove(f"The edge {between(edge)} already has a stick.")
    return edge


def hex_name(hex_id: int) -> str:
    """A hex as the rules page and the board's margins name it: its row's letter (A at the
    top) and its column's number (1 at the left); the API's id is `row * 6 + col`.

    >>> hex_name(0), hex_name(8), hex_name(35)
    ('A1', 'B3', 'F6')
    """
    if not 0 <= hex_id < HEXES:
        return f"hex {hex_id}"
    row, col = divmod(hex_id, COLS)
    return f"{ROW_NAMES[row]}{col + 1}"


def between(edge: Edge) -> str:
    """An edge as the rules page names it: `between B1 and C1`."""
    return f"between {hex_name(edge[0])} and {hex_name(edge[1])}"


def links_after(sticks) -> tuple[int, ...]:
    """Per hex, the neighbours it still touches once `sticks` (edges `[a, b]`) are placed."""
    links = ALL_LINKS
    for a, b in sticks:
        links = cut_edge(links, a, b)
    return links


def cut_edge(links: tuple[int, ...], a: int, b: int) -> tuple[int, ...]:
    """The links once a stick lies between hexes a and b."""
    out = list(links)
    out[a] &= ~(1 << b)
    out[b] &= ~(1 << a)
    return tuple(out)


def _sorted_regions(regions: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(sorted(regions, key=lowest_hex))


def _with_regions(closed: tuple[int, ...], regions: tuple[int, ...]) -> tuple[int, ...]:
    """`closed` (sorted by lowest hex) with `regions` put in their places: fewer comparisons
    than sorting it all again. Disjoint regions sort by their lowest bits as by their lowest
    hexes."""
    out = list(closed)
    for region in regions:
        bisect.insort(out, region, key=_lowest_bit)
    return tuple(out)


def _lowest_bit(mask: int) -> int:
    return mask & -mask


@functools.lru_cache(maxsize=256)  # discs change only on claims, so positions share these
def disc_masks(colours: tuple[int | None, ...]) -> tuple[int, ...]:
    """Per colour, the bit mask of the hexes still holding a disc of it (`colours`: a state's,
    a colour index per hex or None)."""
    masks = [0] * len(COLOURS)
    for h, colour in enumerate(colours):
        if colour is not None:
            masks[colour] |= 1 << h
    return tuple(masks)
