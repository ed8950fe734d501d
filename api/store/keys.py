"""Every Redis key Postplay writes, in one place."""

PREFIX = "pp"
# every id a path may name (games, playtests, sweeps, webhooks, tokens) is made as
# `uuid.uuid4().hex[:12]` (a sample game's as a SHA-256's first 12 hex digits): an id of any other
# shape names no key of its own, and may name a neighbouring one ("<id>:moves")
ID_PATTERN = "[0-9a-f]{12}"


def game_key(game_id: str) -> str:
    """The game document (JSON); once the game is over, its archive (`api.store.archive`:
    record, history and seat hashes in one compressed value)."""
    return f"{PREFIX}:game:{game_id}"


def moves_key(game_id: str) -> str:
    """The game's history while it runs: a list of JSON entries `{ply, seat, move, at}` (gone
    once the game is over and archived)."""
    return f"{PREFIX}:game:{game_id}:moves"


def chat_key(game_id: str) -> str:
    """The game's chat: a list of JSON messages `{seat, name, text, at}`."""
    return f"{PREFIX}:game:{game_id}:chat"


def seat_hashes_key(game_id: str) -> str:
    """Hash: seat index -> SHA-256 of that seat's token."""
    return f"{PREFIX}:game:{game_id}:tokens"


def rematch_key(game_id: str) -> str:
    """A finished game's one rematch: its id, or "" while it is being made (expiring, so a web
    process that died making it leaves the rematch to be asked again)."""
    return f"{PREFIX}:game:{game_id}:rematch"


def token_key(token_hash: str) -> str:
    """Token index: SHA-256 of a token -> "<game id>:<seat>", to tell 401 from 403."""
    return f"{PREFIX}:token:{token_hash}"


def analysis_key(game_id: str, ply: int | str) -> str:
    """A cached analysis of one position (ply "*": the pattern of all the game's)."""
    return f"{PREFIX}:game:{game_id}:analysis:{ply}"


def due_key() -> str:
    """Sorted set of the checks the workers owe the games, by when they are due: members
    "<game id>|deadline", "<game id>|rule:<name>", "<game id>|reminder" (the reminders before
    the deadline) and "<account id>|digest" (an account's daily e-mail). A worker claims a due member by pushing its
    score a lease ahead, and removes it once done, so a worker that dies mid-check leaves it to
    be claimed again when the lease runs out."""
    return f"{PREFIX}:due"


def bots_to_move_key() -> str:
    """Sorted set of the games where a server bot is to move (or to answer an offer), by when
    that began: what the reconciler checks against the bot-move jobs, so that a lost job is
    found."""
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
    set of its games by creation), "challenges" (sorted set of the games waiting for it),
    "vacation" (JSON: its vacation allowance, api.play.vacation), "tournaments" (sorted set of the
    tournaments it entered, by when)."""
    return f"{PREFIX}:account:{account_id}:{part}"


def sign_in_failures_key(who: str) -> str:
    """Failed password checks of one name, address, pair of them or account (hashed) in the
    current window."""
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


def rating_key(account_id: str, kind: str) -> str:
    """An account's Glicko-2 rating in one kind (JSON: rating, rd, vol, games, updated_ts)."""
    return f"{PREFIX}:rating:{account_id}:{kind}"


def rating_history_key(account_id: str, kind: str) -> str:
    """An account's rating after each of its rated games in one kind: a list of JSON entries
    `{ts, rating, rd, game, opponent, score}`, oldest first."""
    return f"{PREFIX}:rating:{account_id}:{kind}:history"


def leaderboard_key(kind: str) -> str:
    """Sorted set of the rated accounts of one kind by rating."""
    return f"{PREFIX}:leaderboard:{kind}"


def ratings_due_key() -> str:
    """Sorted set of the rated games that ended and whose ratings are not applied yet, by when
    they ended: written with the record that ends the game, removed with the one that applies
    them, and what the reconciler checks against the rating jobs, so that a lost job is found."""
    return f"{PREFIX}:ratings-due"


def outbox_key() -> str:
    """Stream of the events the changes to account games call for (JSON entries written in the
    change's own script, `api.notify.events.notices`). The workers read it as one consumer
    group, so an entry a worker read but did not fan out before dying is claimed by another."""
    return f"{PREFIX}:outbox"


def webhooks_key(account_id: str) -> str:
    """Hash: an account's webhook endpoint ids -> JSON {id, url, events, secret, created_ts}."""
    return f"{PREFIX}:account:{account_id}:webhooks"


def webhooks_disabled_key(account_id: str) -> str:
    """Hash: the account's endpoint ids the workers disabled -> JSON {at, reason}."""
    return f"{PREFIX}:account:{account_id}:webhooks-disabled"


def webhook_log_key(account_id: str, endpoint_id: str) -> str:
    """List of an endpoint's recent delivery attempts (JSON), newest first."""
    return f"{PREFIX}:account:{account_id}:webhook:{endpoint_id}:deliveries"


def delivery_key(delivery_id: str) -> str:
    """A webhook delivery still owed (JSON: the event's body, its endpoint, attempts so far)."""
    return f"{PREFIX}:delivery:{delivery_id}"


def deliveries_due_key() -> str:
    """Sorted set of the deliveries owed, by when their next attempt is due; claimed with a lease
    as `due_key` is, so an attempt a dead worker began is made again by another."""
    return f"{PREFIX}:deliveries-due"


def vapid_key() -> str:
    """The server's VAPID private key (PEM), made by the first process that needs one (SET NX)."""
    return f"{PREFIX}:vapid"


def push_subscriptions_key(account_id: str) -> str:
    """Hash: an account's Web Push subscription ids -> JSON {id, device, endpoint, keys,
    created_ts}."""
    return f"{PREFIX}:account:{account_id}:push"


def inbox_key(account_id: str) -> str:
    """Sorted set of an account's notification ids by when they happened (kept 30 days)."""
    return f"{PREFIX}:account:{account_id}:inbox"


def inbox_items_key(account_id: str) -> str:
    """Hash: an account's notification ids -> JSON {id, type, game, text, ts}."""
    return f"{PREFIX}:account:{account_id}:inbox-items"


def inbox_unread_key(account_id: str) -> str:
    """Set of the account's notification ids not yet marked read."""
    return f"{PREFIX}:account:{account_id}:inbox-unread"


def notify_log_key(account_id: str, channel: str) -> str:
    """List of the recent delivery attempts (JSON) of an account's push, e-mail or inbox, newest
    first."""
    return f"{PREFIX}:account:{account_id}:notify:{channel}:deliveries"


def presence_key(account_id: str, where: str) -> str:
    """A marker living POSTPLAY_PRESENT_S seconds: the account read the game `where` (or, `where`
    being "games", its list of games) that recently."""
    return f"{PREFIX}:account:{account_id}:present:{where}"


def sweep_key(sweep_id: str | None = None, part: str | None = None) -> str:
    """A sweep's spec (JSON, with its variants' playtest ids), or its "view" (JSON: the view of
    the sweep once it is over, which never changes again). Without an id: the sorted set of sweep
    ids by creation time. A sweep's playtests are ordinary playtests, not listed."""
    if sweep_id is None:
        return f"{PREFIX}:sweeps"
    return f"{PREFIX}:sweep:{sweep_id}" + (f":{part}" if part else "")


def client_sweeps_key(client_hash: str) -> str:
    """Set of the sweeps a client (its address, hashed) started, to limit those running."""
    return f"{PREFIX}:client:{client_hash}:sweeps"


def mail_key(mail_id: str) -> str:
    """An e-mail still owed (JSON: its kind, account, address for a verification, data), kept
    until it is sent or given up on; its id makes its Message-ID, so a repeat is the same mail."""
    return f"{PREFIX}:mail:{mail_id}"


def mails_due_key() -> str:
    """Sorted set of the e-mails owed, by when their next attempt is due; claimed with a lease
    as `due_key` is, so a mail a dead worker was sending is sent again by another."""
    return f"{PREFIX}:mails-due"


def mail_secret_key() -> str:
    """The secret the links in e-mails (verification, unsubscribe) are signed with: made by the
    first process that needs it."""
    return f"{PREFIX}:mail-secret"


def reminded_key(game_id: str, turn_started_ts: float, minutes: int) -> str:
    """Set once the reminder `minutes` before the deadline of the turn that started at
    `turn_started_ts` was written to the outbox: a reminder fires once per turn."""
    return f"{PREFIX}:game:{game_id}:reminded:{turn_started_ts!r}:{minutes}"


def moves_analysis_key(digest: str) -> str:
    """A whole game's analysis (JSON), kept by what it analysed (`api.store.analyses.digest`:
    kind, options, first, seed, moves), so that identical records share it."""
    return f"{PREFIX}:analysis:moves:{digest}"


def analysis_owner_key(digest: str) -> str:
    """The client whose request has the whole-game analysis of `digest` queued or running."""
    return f"{PREFIX}:analysis:owner:{digest}"


def analyses_running_key(client: str) -> str:
    """Sorted set: the whole-game analyses a client has queued or running, by when their claim
    runs out (a lost job frees its place then)."""
    return f"{PREFIX}:analysis:running:{client}"


def analysis_cpu_key(client: str, hour: int) -> str:
    """The CPU seconds a client's analyses used in one clock hour (`hour`: epoch hours)."""
    return f"{PREFIX}:analysis:cpu:{client}:{hour}"


def tournament_key(tournament_id: str) -> str:
    """A tournament (JSON: its settings, players, rounds with their games and results, status,
    version), changed only in a transaction watching it (`api.store.tournaments`)."""
    return f"{PREFIX}:tournament:{tournament_id}"


def tournaments_key(status: str | None = None) -> str:
    """Sorted set of tournament ids by creation: all of them, or those of one status."""
    return f"{PREFIX}:tournaments:{status or '*'}"


def ladder_key(kind: str) -> str:
    """A kind's standing ladder (JSON: its players by rank, their open ladder games)."""
    return f"{PREFIX}:ladder:{kind}"


def conditional_key(game_id: str, seat: int) -> str:
    """A seat's conditional moves (JSON `{"ply", "takebacks", "tree"}`): read by that seat only,
    and by the change of its opponent's move, which plays or drops them (gone once the game is
    over)."""
    return f"{PREFIX}:game:{game_id}:conditional:{seat}"


def notes_key(game_id: str, seat: int) -> str:
    """A seat's private notes on the game (plain text), kept while the game is."""
    return f"{PREFIX}:game:{game_id}:notes:{seat}"


def puzzle_key(puzzle_id: str) -> str:
    """A puzzle (JSON, `api.learn.puzzles`) with its Glicko-2 rating and plays."""
    return f"{PREFIX}:puzzle:{puzzle_id}"


def puzzles_by_rating_key(kind: str) -> str:
    """Sorted set of a kind's puzzle ids by rating, for `GET /puzzles/next`."""
    return f"{PREFIX}:puzzles:{kind}"


def puzzles_seeded_key() -> str:
    """Set once the shipped seed set (seeds/puzzles.jsonl) is loaded: the first start's mark."""
    return f"{PREFIX}:puzzles:seeded"


def puzzles_mined_key() -> str:
    """Set of the finished games and playtest games already mined, so none is mined twice."""
    return f"{PREFIX}:puzzles:mined"


def puzzles_owed_key() -> str:
    """Sorted set of the finished games whose mining was enqueued and has not ended, by when it
    was: the reconciler enqueues again the ones whose job died with its worker."""
    return f"{PREFIX}:puzzles:owed"


def daily_puzzle_key(kind: str, day: str) -> str:
    """The puzzle id of a kind's daily puzzle on `day` (YYYY-MM-DD, UTC), set once."""
    return f"{PREFIX}:puzzles:daily:{kind}:{day}"


def puzzle_tries_key(account_id: str) -> str:
    """Hash: puzzle id -> JSON of the account's first decided attempt (solved, ratings, at)."""
    return f"{PREFIX}:account:{account_id}:puzzles"


def puzzle_rating_key(account_id: str, kind: str) -> str:
    """An account's puzzle rating of a kind (JSON Rating), apart from its game rating."""
    return f"{PREFIX}:account:{account_id}:puzzle-rating:{kind}"


def lessons_passed_key(account_id: str) -> str:
    """Hash: "<kind>:<n>" -> when the account first passed that lesson."""
    return f"{PREFIX}:account:{account_id}:lessons"


def puzzles_seen_key(account_id: str) -> str:
    """Set of the puzzle ids `GET /puzzles/next` has shown the account, never shown again."""
    return f"{PREFIX}:account:{account_id}:puzzles-seen"
