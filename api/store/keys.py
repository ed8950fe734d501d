"""Every Redis key Postplay writes, in one place."""
PREFIX = "pp"


def game_key(game_id: str) -> str:
    """The game document (JSON)."""
    return f"{PREFIX}:game:{game_id}"


def moves_key(game_id: str) -> str:
    """The game's history: a list of JSON entries `{ply, seat, move, at}`."""
    return f"{PREFIX}:game:{game_id}:moves"


def seat_hashes_key(game_id: str) -> str:
    """Hash: seat index -> SHA-256 of that seat's token."""
    return f"{PREFIX}:game:{game_id}:tokens"


def token_key(token_hash: str) -> str:
    """Token index: SHA-256 of a token -> "<game id>:<seat>", to tell 401 from 403."""
    return f"{PREFIX}:token:{token_hash}"


def analysis_key(game_id: str, ply: int) -> str:
    """A cached analysis of one position."""
    return f"{PREFIX}:game:{game_id}:analysis:{ply}"


def pending_key(job_id: str) -> str:
    """Marks a job as requested, so that polling does not enqueue it again."""
    return f"{PREFIX}:pending:{job_id}"


def lobby_key(status: str | None = None, kind: str | None = None) -> str:
    """Sorted set of game ids by creation time: all games, or those of one status and/or kind."""
    return f"{PREFIX}:games:{status or '*'}:{kind or '*'}"


def lobby_keys(status: str, kind: str) -> list[str]:
    """Every lobby index a game of this status and kind belongs to."""
    return [lobby_key(s, k) for s in (None, status) for k in (None, kind)]


def playtest_key(playtest_id: str | None = None, part: str | None = None) -> str:
    """A playtest's spec (JSON), or one of its parts: "games" (hash: game index -> JSON record),
    "chunks" (hash: chunk index -> JSON status), "cancelled" (set once a cancel is asked).
    Without an id: the sorted set of playtest ids by creation time."""
    if playtest_id is None:
        return f"{PREFIX}:playtests"
    return f"{PREFIX}:playtest:{playtest_id}" + (f":{part}" if part else "")
