"""Accounts and a signed-in player's things: sign-up, sign-in and out, recovery, the account,
its personal tokens, its games and challenges, and players' public profiles."""

from __future__ import annotations

import time

import marshmallow as ma
from flask import current_app, request
from marshmallow import fields
from flask.views import MethodView

from api.clocks import iso
from api.events import service as events
from api.notify import digests, endpoints, mailboxes
from api.play import service as play
from api.play import vacation
from api.record import Status
from api.store.tournaments import TournamentStore
from api.games import GAMES
from api.players import accounts as players
from api.players import ratings
from api.web.auth import account, account_with_games
from api.web.contract import operation
from api.web.errors import Blueprint, ErrorSchema
from api.web.events import PlayerEventSchema
from api.web.fast_paths import my_games_etag_data
from api.web.games import GameOfKind, public
from api.web.schemas import (
    AccountSchema,
    CredentialsSchema,
    MyGamesArgsSchema,
    NewTokenSchema,
    PasswordChangeSchema,
    PasswordSchema,
    RatingPointSchema,
    RatingSchema,
    RecoverSchema,
    SettingsSchema,
    SignedInSchema,
    SignedUpSchema,
    TokenCreateSchema,
    TokenSchema,
)

blp = Blueprint(
    "accounts",
    __name__,
    url_prefix="/api/v1",
    description="Accounts, sign-in tokens, personal API tokens, a player's games "
    "and challenges, profiles.",
)
RECENT_GAMES = 20
PROFILE_EVENTS = 20  # the tournaments a profile lists, newest entry first
# the answers of the password paths besides their own (api/players/accounts.py, passwords.py)
HELD_BACK = (
    "Too many failed checks in the last 15 minutes (see the API's rate limiting): the "
    "error body, with Retry-After, the seconds until the window ends."
)
NO_SLOT = (
    "Every password-checking slot is taken just now: the error body, with Retry-After (seconds)."
)
WEAK = (
    "A new password shorter than 10 characters, or too easy to guess (zxcvbn's estimate): the "
    "error names the field and its message says why."
)


class ChallengesSchema(ma.Schema):
    incoming = fields.List(
        fields.Nested(GameOfKind),
        metadata={"description": "Challenges to you, waiting for you to accept or decline."},
    )
    outgoing = fields.List(
        fields.Nested(GameOfKind), metadata={"description": "Challenges you made that still wait."}
    )


class ProfileSchema(ma.Schema):
    username = fields.String()
    created_at = fields.String()
    bot = fields.Boolean()
    ratings = fields.Dict(
        keys=fields.String(),
        values=fields.Nested(RatingSchema),
        metadata={"description": "Per kind, once rated games exist."},
    )
    rating_history = fields.Dict(
        keys=fields.String(),
        values=fields.List(fields.Nested(RatingPointSchema)),
        metadata={
            "description": "Per rated kind, the rating after each of the last 200 rated games, "
            "oldest first."
        },
    )
    games = fields.List(
        fields.Nested(GameOfKind), metadata={"description": "Recent finished games, newest first."}
    )
    events = fields.List(
        fields.Nested(PlayerEventSchema),
        metadata={
            "description": f"The tournaments the player took part in (not those cancelled before "
            f"the start), newest entry first, at most {PROFILE_EVENTS}: each with the player's "
            f"score and, once it is over, placing."
        },
    )


def _stores():
    ext = current_app.extensions["postplay"]
    return ext["accounts"], ext["store"]


def _ratings():
    return current_app.extensions["postplay"]["ratings"]


def account_view(data: dict, rated: dict | None = None) -> dict:
    return {
        "username": data["username"],
        "created_at": iso(data["created_ts"]),
        "bot": data["settings"]["bot"],
        "settings": data["settings"],
        "ratings": rated or {},
        "vacation": vacation.view(_stores()[0], data),
        "email": mailboxes.view(data),
    }


def _token_view(entry: dict) -> dict:
    last = entry.get("last_used_ts")
    return {
        "id": entry["id"],
        "kind": entry["kind"],
        "description": entry["description"],
        "scopes": entry["scopes"],
        "created_at": iso(entry["created_ts"]),
        "last_used_at": None if last is None else iso(last),
    }


@blp.route("/accounts")
class Accounts(MethodView):
    @operation("signUp", refuses=(409, 422))
    @blp.arguments(CredentialsSchema)
    @blp.response(201, SignedUpSchema)
    @blp.alt_response(422, schema=ErrorSchema, description=WEAK)
    @blp.alt_response(503, schema=ErrorSchema, description=NO_SLOT)
    def post(self, body: dict):
        """Sign up: the account, a token for this device and ten recovery codes (shown once)"""
        created, token, codes = players.sign_up(_stores()[0], body["username"], body["password"])
        return {"account": account_view(created), "token": token, "recovery_codes": codes}


@blp.route("/accounts/recover")
class Recover(MethodView):
    @operation("recoverAccount", refuses=(401, 422, 429))
    @blp.arguments(RecoverSchema)
    @blp.response(201, SignedInSchema)
    @blp.alt_response(422, schema=ErrorSchema, description=WEAK)
    @blp.alt_response(429, schema=ErrorSchema, description=HELD_BACK)
    @blp.alt_response(503, schema=ErrorSchema, description=NO_SLOT)
    def post(self, body: dict):
        """Set a new password with a recovery code (spent); every other sign-in ends"""
        recovered, token = players.recover(
            _stores()[0],
            body["username"],
            body["recovery_code"],
            body["new_password"],
            request.remote_addr or "",
        )
        return {"account": account_view(recovered), "token": token}


@blp.route("/session")
class Session(MethodView):
    @operation("signIn", refuses=(401, 429))
    @blp.arguments(CredentialsSchema)
    @blp.response(201, SignedInSchema)
    @blp.alt_response(429, schema=ErrorSchema, description=HELD_BACK)
    @blp.alt_response(503, schema=ErrorSchema, description=NO_SLOT)
    def post(self, body: dict):
        """Sign in: a token for this device"""
        signed_in, token = players.sign_in(
            _stores()[0], body["username"], body["password"], request.remote_addr or ""
        )
        return {"account": account_view(signed_in), "token": token}

    @operation("signOut", auth=("account",), refuses=(401,))
    @blp.response(204)
    def delete(self):
        """Sign out: this token is revoked at once"""
        players.sign_out(_stores()[0], account())


@blp.route("/me")
class Me(MethodView):
    @operation("getMe", auth=("account:read",), refuses=(401, 403))
    @blp.response(200, AccountSchema)
    def get(self):
        """The signed-in account"""
        who = account()
        who.require("read")
        webhooks = current_app.extensions["postplay"]["webhooks"]
        return {
            **account_view(who.account, ratings.ratings_view(_ratings(), who.id)),
            "webhooks_disabled": endpoints.disabled(webhooks, who.id),
            "unread": current_app.extensions["postplay"]["notices"].unread(who.id),
        }

    @operation("updateSettings", auth=("account:session",), refuses=(401, 403))
    @blp.arguments(SettingsSchema)
    @blp.response(200, AccountSchema)
    def patch(self, changes: dict):
        """Change settings: allow_takebacks, notify (per event, its channels),
        quiet_when_present, bot, reminder_minutes, digest_hour, timezone"""
        updated = players.update_settings(_stores()[0], account(), changes)
        if {"digest_hour", "timezone"} & changes.keys():  # the digest moves to the new hour
            digests.schedule_digest(
                current_app.extensions["postplay"]["mails"], updated, time.time()
            )
        return account_view(updated)

    @operation("deleteAccount", auth=("account:session",), refuses=(401, 403))
    @blp.arguments(PasswordSchema)
    @blp.response(204)
    @blp.alt_response(429, schema=ErrorSchema, description=HELD_BACK)
    @blp.alt_response(503, schema=ErrorSchema, description=NO_SLOT)
    def delete(self, body: dict):
        """Delete the account (its games stay; its name shows as deleted)"""
        accounts, games = _stores()
        who = account()
        players.delete_account(accounts, who, body["password"], request.remote_addr or "")
        play.forget_account(games, accounts, who.id)


@blp.route("/me/password")
class Password(MethodView):
    @operation("changePassword", auth=("account:session",), refuses=(401, 403, 422))
    @blp.arguments(PasswordChangeSchema)
    @blp.response(204)
    @blp.alt_response(422, schema=ErrorSchema, description=WEAK)
    @blp.alt_response(429, schema=ErrorSchema, description=HELD_BACK)
    @blp.alt_response(503, schema=ErrorSchema, description=NO_SLOT)
    def post(self, body: dict):
        """Change the password; the account's other sign-ins end"""
        players.change_password(
            _stores()[0],
            account(),
            body["password"],
            body["new_password"],
            request.remote_addr or "",
        )


@blp.route("/me/tokens")
class Tokens(MethodView):
    @operation("listTokens", auth=("account:session",), refuses=(401, 403))
    @blp.response(200, TokenSchema(many=True))
    def get(self):
        """The account's tokens (sign-ins and personal), with their last use"""
        who = account()
        who.require_session()
        return [_token_view(e) for e in _stores()[0].tokens(who.id)]

    @operation("createToken", auth=("account:session",), refuses=(401, 403, 422))
    @blp.arguments(TokenCreateSchema)
    @blp.response(201, NewTokenSchema)
    def post(self, body: dict):
        """A personal API token with scopes (the secret is shown only now)"""
        entry, token = players.create_personal_token(
            _stores()[0], account(), body["description"], body["scopes"]
        )
        return {**_token_view(entry), "token": token}


@blp.route("/me/tokens/<id:token_id>")
class Token(MethodView):
    @operation("revokeToken", auth=("account:session",), refuses=(401, 403, 404))
    @blp.response(204)
    def delete(self, token_id: str):
        """Revoke a token"""
        players.revoke_token(_stores()[0], account(), token_id)


@blp.route("/me/games")
class MyGames(MethodView):
    @operation("listMyGames", auth=("account:read",), refuses=(401, 403))
    @blp.etag
    @blp.arguments(MyGamesArgsSchema, location="query")
    @blp.response(200, GameOfKind(many=True))
    def get(self, args: dict):
        """The account's games: its turn first, by deadline (ETag: one poll for all of them)"""
        accounts, games = _stores()
        # the token, its account and the versions of its games in one round trip (as the poll
        # answered before Flask reads them, api/web/fast_paths.py)
        who, versions = account_with_games()
        who.require("read")
        # the ETag is every game's version, read without the games: a poll that matches it is
        # answered 304 here (raised by set_etag); one made as a game changes is answered again
        blp.set_etag(my_games_etag_data(versions, args.get("status")))
        records = play.games_of(
            games, accounts, who, args.get("status"), [game_id for game_id, _ in versions]
        )
        return [public(r) for r in records]


@blp.route("/me/challenges")
class Challenges(MethodView):
    @operation("listChallenges", auth=("account:read",), refuses=(401, 403))
    @blp.etag  # made from the answer itself: a poll that matches it is 304, with no body
    @blp.response(200, ChallengesSchema)
    def get(self):
        """Challenges to the account and those it made, still waiting (ETag)"""
        accounts, games = _stores()
        found = play.challenges_of(games, accounts, account())
        return {side: [public(r) for r in records] for side, records in found.items()}


@blp.route("/players/<name:username>")
class Player(MethodView):
    @operation("getPlayer", refuses=(404,))
    @blp.response(200, ProfileSchema)
    def get(self, username: str):
        """A player's public profile: ratings, recent finished games, the events played"""
        accounts, games = _stores()
        found = players.profile(accounts, username)
        finished = [
            r
            for r in games.load_many(accounts.game_ids(found["id"]))
            if r.status is Status.FINISHED
        ]
        finished.sort(key=lambda r: -r.updated_ts)
        rated = ratings.ratings_view(_ratings(), found["id"])
        return {
            "username": found["username"],
            "created_at": iso(found["created_ts"]),
            "bot": found["settings"]["bot"],
            "ratings": rated,
            "rating_history": ratings.history_view(
                _ratings(), found["id"], [k for k in GAMES if k in rated]
            ),
            "games": [public(r) for r in finished[:RECENT_GAMES]],
            "events": events.of_player(
                TournamentStore(current_app.extensions["postplay"]["redis"]),
                found["id"],
                PROFILE_EVENTS,
                cancelled=False,
            ),
        }
