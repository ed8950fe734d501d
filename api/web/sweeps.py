"""The sweep resources: start one playtest per rule variant, watch them, read the comparison,
cancel them all."""

from __future__ import annotations

from flask import current_app, request
from flask.views import MethodView

from api.playtests import sweeps
from api.playtests.storage import REPORTS
from api.store.playtests import RUNNING_STATUSES
from api.store.sweeps import SweepStore
from api.web.contract import operation
from api.web.errors import Blueprint, abort
from api.web.playtests import new_owner, require_owner
from api.web.sweep_schemas import SweepCreatedSchema, SweepCreateSchema, SweepSchema

blp = Blueprint(
    "sweeps",
    __name__,
    url_prefix="/api/v1/playtests/sweeps",
    description="Designers' sweeps: one playtest per rule variant on the workers, "
    "the variants compared on paired games.",
)


def _store() -> SweepStore:
    return SweepStore(current_app.extensions["postplay"]["redis"], REPORTS)


def _view(sweep_id: str) -> dict:
    view = _store().view(sweep_id)
    if view is None:
        abort(404, message=f"There is no sweep {sweep_id!r}.")
    return view


@blp.route("")
class Sweeps(MethodView):
    @operation("startSweep", auth=("account:play",), anonymous=True, refuses=(401, 403, 422, 429))
    @blp.arguments(SweepCreateSchema)
    @blp.response(202, SweepCreatedSchema)
    def post(self, body: dict):
        """Start a sweep: a playtest per variant (the cross product of `vary`), each on the
        same seeds, on the workers (with an account token it is the account's; else keep the
        `owner_token`: it alone may cancel the sweep)"""
        spec = sweeps.check_request(**body)
        store = _store()
        owner_token, owner_account = new_owner()
        started = store.start(spec, owner_token, owner_account, client=request.remote_addr or "")
        view = store.view(started["id"])
        assert view is not None  # started just above
        return view if owner_token is None else {**view, "owner_token": owner_token}

    @operation("listSweeps")
    @blp.response(200, SweepSchema(many=True))
    @blp.paginate()
    def get(self, pagination_parameters):
        """List sweeps, newest first, with their progress (reports and comparison are on each
        sweep)"""
        views, total = _store().list(
            pagination_parameters.first_item, pagination_parameters.page_size
        )
        pagination_parameters.item_count = total
        return views


@blp.route("/<id:sweep_id>")
class SweepResource(MethodView):
    @operation("getSweep", refuses=(404,))
    @blp.etag
    @blp.response(200, SweepSchema)
    def get(self, sweep_id: str):
        """A sweep: progress per variant while it runs, then each variant's report and the
        comparison (If-None-Match gives 304 when nothing changed)"""
        return _view(sweep_id)

    @operation("cancelSweep", auth=("owner", "account:play"), refuses=(401, 403, 404, 409))
    @blp.response(200, SweepSchema)
    def delete(self, sweep_id: str):
        """Cancel a sweep (Authorization: Bearer <owner token>, or the owner account's token):
        every variant's queued chunks never run, running ones stop after their current game;
        the games played are kept, reported and compared"""
        view = _view(sweep_id)
        store = _store()
        require_owner(
            lambda token, account_id: store.is_owner(sweep_id, token, account_id), "sweep"
        )
        if view["status"] not in RUNNING_STATUSES:
            abort(409, message="The sweep is over: there is nothing to cancel.")
        store.cancel(sweep_id)
        return store.view(sweep_id)
