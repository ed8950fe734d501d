"""An account's webhooks: register, list, delete, and each one's delivery log. The deliveries
themselves are the workers' (`api.notify.delivery`)."""

from __future__ import annotations

from flask import current_app
from flask.views import MethodView

from api.notify import endpoints
from api.web.auth import account
from api.web.contract import operation
from api.web.errors import Blueprint
from api.web.schemas import (
    DeliveryAttemptSchema,
    NewWebhookSchema,
    WebhookCreateSchema,
    WebhookSchema,
)

blp = Blueprint(
    "webhooks",
    __name__,
    url_prefix="/api/v1/me/webhooks",
    description="Webhooks: the server tells your program of turns, game ends, "
    "challenges, offers and chat, signed per Standard Webhooks.",
)


def _store():
    return current_app.extensions["postplay"]["webhooks"]


@blp.route("")
class Webhooks(MethodView):
    @operation("listWebhooks", auth=("account:webhooks",), refuses=(401, 403))
    @blp.response(200, WebhookSchema(many=True))
    def get(self):
        """Your webhooks (a disabled one says when and why)"""
        return endpoints.listing(_store(), account())

    @operation("createWebhook", auth=("account:webhooks",), refuses=(401, 403, 422))
    @blp.arguments(WebhookCreateSchema)
    @blp.response(201, NewWebhookSchema)
    def post(self, body: dict):
        """Register a webhook for some events (the signing secret is shown only now)"""
        created, secret = endpoints.register(
            _store(), account(), body["url"], body["events"], fmt=body["format"]
        )
        return {**created, "secret": secret}


@blp.route("/<id:webhook_id>")
class Webhook(MethodView):
    @operation("deleteWebhook", auth=("account:webhooks",), refuses=(401, 403, 404))
    @blp.response(204)
    def delete(self, webhook_id: str):
        """Delete a webhook (deliveries still owed to it are dropped)"""
        endpoints.remove(_store(), account(), webhook_id)


@blp.route("/<id:webhook_id>/deliveries")
class Deliveries(MethodView):
    @operation("listDeliveries", auth=("account:webhooks",), refuses=(401, 403, 404))
    @blp.response(200, DeliveryAttemptSchema(many=True))
    def get(self, webhook_id: str):
        """The webhook's recent delivery attempts, newest first (status, latency, error)"""
        return endpoints.deliveries(_store(), account(), webhook_id)
