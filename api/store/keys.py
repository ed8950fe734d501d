"""Every Redis key Postplay writes, in one place."""
PREFIX = "pp"


def game_key(game_id: str) -> str:
    """The game document (JSON); once the game is over, its archive (`api.store.archive`:
    record, history and seat hashes in one compressed value)."""
    return f"{PREFIX}:game:{game_id}"


def moves_key(game_id: str) -> str:
    """The game's history while it runs: a list of JSON entries `{ply, seat, move, at}` (gone
    once the game is over and archived)."""
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


def due_key() -> str:
    """Sorted set of the checks the workers owe the games, by when they are due: members
    "<game id>|deadline" and "<game id>|rule:<name>". A worker claims a due member by pushing its
    score a lease ahead, and removes it once done, so a worker that dies mid-check leaves it to
    be claimed again when the lease runs out."""
    return f"{PREFIX}:due"


def bots_to_move_key() -> str:
    """Sorted set of the games where a server bot is to move, by when its turn began: what the
    reconciler checks against the bot-move jobs, so that a lost job is found."""
    return f"{PREFIX}:bots-to-move"


def client_bot_games_key(client_hash: str) -> str:
    """Set of the bot-vs-bot games a client (its address, hashed) started, to limit them."""
    return f"{PREFIX}:client:{client_hash}:bot-games"


def client_playtests_key(client_hash: str) -> str:
    """Set of the playtests a client (its address, hashed) started, to limit those running."""
    return f"{PREFIX}:client:{client_hash}:playtests"


def deletable_key() -> str:
    """Sorted set of the games that ended with no move made, by when they may be deleted."""
    return f"{PREFIX}:deletable"


def account_key(account_id: str) -> str:
    """An account (JSON: username, argon2id password hash, settings, created time)."""
    return f"{PREFIX}:account:{account_id}"


def username_key(username: str) -> str:
    """Username (lower case) -> account id: taken with SET NX, so one sign-up wins a name."""
    return f"{PREFIX}:username:{username.lower()}"


def auth_token_key(token_hash: str) -> str:
    """SHA-256 of an account's token (sign-in or personal) -> JSON {id, account, kind, scopes,
    description, created_ts}."""
    return f"{PREFIX}:auth-token:{token_hash}"


def account_part_key(account_id: str, part: str) -> str:
    """An account's parts: "tokens" (hash: token id -> its SHA-256), "token-use" (hash: token id
    -> last use), "recovery" (set of the SHA-256 of its unused recovery codes), "games" (sorted
    set of its games by creation), "challenges" (sorted set of the games waiting for it)."""
    return f"{PREFIX}:account:{account_id}:{part}"


def sign_in_failures_key(who: str) -> str:
    """Failed sign-ins of one name or one client (hashed) in the current window."""
    return f"{PREFIX}:sign-in-failures:{who}"


def worker_key(name: str) -> str:
    """A live worker's heartbeat (expires unless renewed): what /health counts."""
    return f"{PREFIX}:worker:{name}"


def workers_key() -> str:
    """Set of the names of the workers that have sent a heartbeat."""
    return f"{PREFIX}:workers"


def reconciler_key() -> str:
    """The lock that elects the one worker that reconciles, with its name."""
    return f"{PREFIX}:reconciler"


def attempts_key(job_id: str) -> str:
    """How often the reconciler has enqueued a job again."""
    return f"{PREFIX}:attempts:{job_id}"


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
