"""The playtest resources: start a batch of bot-vs-bot games, watch it, read its report, cancel it;
and who owns a playtest or sweep (an account, or whoever holds its owner token)."""

from __future__ import annotations

import secrets
from typing import Callable

from flask import current_app, request
from flask.views import MethodView

from api import playtests
from api.playtests.storage import REPORTS
from api.store.playtests import RUNNING_STATUSES, PlaytestStore
from api.web.auth import account, bearer_token
from api.web.contract import operation
from api.web.errors import Blueprint, abort
from api.web.playtest_schemas import PlaytestCreatedSchema, PlaytestCreateSchema, PlaytestSchema

blp = Blueprint(
    "playtests",
    __name__,
    url_prefix="/api/v1/playtests",
    description="Playtests: batches of bot-vs-bot games on the workers, with reports.",
)


def _store() -> PlaytestStore:
    return PlaytestStore(current_app.extensions["postplay"]["redis"], REPORTS)


def _view(playtest_id: str) -> dict:
    view = _store().view(playtest_id)
    if view is None:
        abort(404, message=f"There is no playtest {playtest_id!r}.")
    return view


def new_owner() -> tuple[str | None, dict | None]:
    """The owner of a playtest or sweep being started: the account of the request's token
    (which needs the "play" scope), else a new owner token to hand back once."""
    who = account(required=False)
    if who is None:
        return secrets.token_urlsafe(24), None
    who.require("play")
    return None, who.account


def require_owner(is_owner: Callable[[str, str | None], bool], what: str) -> None:
    """Refuse unless the request's token is the owner token, or the owner account's (401 with
    no token, 403 with another's)."""
    token = bearer_token()
    if token is None:
        abort(
            401,
            message=f"Cancelling needs the {what}'s owner token or its owner's account "
            "token: send 'Authorization: Bearer <token>'.",
        )
    who = account(required=False)
    if who is not None:
        who.require("play")
    if not is_owner(token, None if who is None else who.id):
        abort(
            403,
            message=f"That is not this {what}'s owner token: only whoever started it "
            "may cancel it.",
        )


@blp.route("")
class Playtests(MethodView):
    @operation(
        "startPlaytest", auth=("account:play",), anonymous=True, refuses=(401, 403, 422, 429)
    )
    @blp.arguments(PlaytestCreateSchema)
    @blp.response(202, PlaytestCreatedSchema)
    def post(self, body: dict):
        """Start a playtest: its games run on the workers, in chunks (with an account token it is
        the account's; else keep the `owner_token`: it alone may cancel the playtest)"""
        spec = playtests.check_request(**body)
        store = _store()
        owner_token, owner_account = new_owner()
        started = store.start(
            spec, owner_token, client=request.remote_addr or "", owner_account=owner_account
        )
        view = store.view(started["id"])
        assert view is not None  # started just above
        return view if owner_token is None else {**view, "owner_token": owner_token}

    @operation("listPlaytests")
    @blp.response(200, PlaytestSchema(many=True))
    @blp.paginate()
    def get(self, pagination_parameters):
        """List playtests, newest first, with their progress (reports are on each playtest)"""
        views, total = _store().list(
            pagination_parameters.first_item, pagination_parameters.page_size
        )
        pagination_parameters.item_count = total
        return views


@blp.route("/<id:playtest_id>")
class PlaytestResource(MethodView):
    @operation("getPlaytest", refuses=(404,))
    @blp.etag
    @blp.response(200, PlaytestSchema)
    def get(self, playtest_id: str):
        """A playtest: progress while it runs, then its report (If-None-Match gives 304 when
        nothing changed)"""
        return _view(playtest_id)

    @operation("cancelPlaytest", auth=("owner", "account:play"), refuses=(401, 403, 404, 409))
    @blp.response(200, PlaytestSchema)
    def delete(self, playtest_id: str):
        """Cancel a playtest (Authorization: Bearer <owner token>, or the owner account's
        token): queued chunks never run, a running chunk stops after its current game; the games
        played are kept and reported"""
        view = _view(playtest_id)
        store = _store()
        require_owner(
            lambda token, account_id: store.is_owner(playtest_id, token, account_id), "playtest"
        )
        if view["status"] not in RUNNING_STATUSES:
            abort(409, message="The playtest is over: there is nothing to cancel.")
        store.cancel(playtest_id)
        return store.view(playtest_id)
