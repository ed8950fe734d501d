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


def lobby_key(status: str | None = None, kind: str | None = None) -> str:
    """Sorted set of game ids by creation time: all games, or those of one status and/or kind."""
    return f"{PREFIX}:games:{status or '*'}:{kind or '*'}"


def lobby_keys(status: str, kind: str) -> list[str]:
    """Every lobby index a game of this status and kind belongs to."""
    return [lobby_key(s, k) for s in (None, status) for k in (None, kind)]
