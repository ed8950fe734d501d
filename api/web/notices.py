"""Told away from the board: the server's VAPID key, an account's Web Push subscriptions and its
inbox. What is sent is the workers' (`api.notify.fanout`)."""

from __future__ import annotations

import marshmallow as ma
from flask import current_app
from flask.views import MethodView
from marshmallow import fields, validate

from api.notify import inbox, push
from api.web.auth import account
from api.web.contract import operation
from api.web.errors import Blueprint, Unacceptable
from api.web.schemas import StrictBoolean, StrictSchema

blp = Blueprint(
    "notices",
    __name__,
    url_prefix="/api/v1",
    description="Told away from the board: Web Push to a device, and the inbox of "
    "every notification.",
)


class PushKeySchema(ma.Schema):
    key = fields.String(
        metadata={
            "description": "The server's VAPID public key: base64url of "
            "the uncompressed P-256 point, the "
            "applicationServerKey of PushManager.subscribe."
        }
    )


class PushKeysSchema(StrictSchema):
    p256dh = fields.String(required=True, validate=validate.Length(min=1, max=200))
    auth = fields.String(required=True, validate=validate.Length(min=1, max=100))


class PushSubscriptionSchema(StrictSchema):
    endpoint = fields.String(
        required=True,
        validate=validate.Length(min=1, max=2000),
        metadata={"description": "https:// on a public address."},
    )
    expirationTime = fields.Float(
        allow_none=True,
        load_default=None,
        metadata={
            "description": "As PushSubscription.toJSON() gives it: when the subscription "
            "expires, in milliseconds since the epoch, or null (ignored)."
        },
    )
    keys = fields.Nested(PushKeysSchema, required=True)


class PushCreateSchema(StrictSchema):
    subscription = fields.Nested(
        PushSubscriptionSchema,
        required=True,
        metadata={"description": "PushSubscription.toJSON() of the device."},
    )
    device = fields.String(
        load_default="",
        validate=validate.Length(max=100),
        metadata={
            "description": "A name for the device, as you will recognise it.",
            "example": "Phone",
        },
    )


class PushDeviceSchema(ma.Schema):
    id = fields.String()
    device = fields.String()
    created_at = fields.String()


class InboxArgsSchema(StrictSchema):
    unread = fields.Integer(
        validate=validate.OneOf([0, 1]),
        load_default=0,
        metadata={"description": "1: only the unread ones."},
    )


class NotificationSchema(ma.Schema):
    id = fields.String()
    type = fields.String(
        metadata={
            "description": "The event: turn, challenge, draw-offer, "
            "takeback, chat, game-over, reminder, "
            "tournament."
        }
    )
    game = fields.String(metadata={"description": "The game's id."})
    title = fields.String(metadata={"description": "The game's title."})
    text = fields.String(metadata={"example": "Your move against ada (Ploid)"})
    url = fields.String(metadata={"description": "The game's page."})
    at = fields.String()
    read = fields.Boolean()


class MarkReadSchema(StrictSchema):
    ids = fields.List(
        fields.String(validate=validate.Length(max=200)), validate=validate.Length(max=500)
    )
    all = StrictBoolean()

    @ma.validates_schema
    def one_of(self, data, **kwargs):
        if ("ids" in data) == bool(data.get("all")):
            raise ma.ValidationError(Unacceptable('Give either "ids" or "all": true.'), "ids")


def _store():
    return current_app.extensions["postplay"]["notices"]


@blp.route("/push/key")
class PushKey(MethodView):
    @operation("getPushKey")
    @blp.response(200, PushKeySchema)
    def get(self):
        """The server's VAPID public key, for PushManager.subscribe"""
        return {"key": push.public_key(_store())}


@blp.route("/me/push")
class PushDevices(MethodView):
    @operation("listPushDevices", auth=("account:read",), refuses=(401, 403))
    @blp.response(200, PushDeviceSchema(many=True))
    def get(self):
        """The devices that get your pushes"""
        return push.listing(_store(), account())

    @operation("addPushDevice", auth=("account:read",), refuses=(400, 401, 403, 422))
    @blp.arguments(PushCreateSchema)
    @blp.response(201, PushDeviceSchema)
    def post(self, body: dict):
        """Push to this device: its Web Push subscription (the same endpoint again replaces it)"""
        return push.subscribe(_store(), account(), body["subscription"], body["device"])


@blp.route("/me/push/<id:subscription_id>")
class PushDevice(MethodView):
    @operation("removePushDevice", auth=("account:read",), refuses=(401, 403, 404))
    @blp.response(204)
    def delete(self, subscription_id: str):
        """Stop pushing to a device"""
        push.unsubscribe(_store(), account(), subscription_id)


@blp.route("/me/notifications")
class Notifications(MethodView):
    @operation("listNotifications", auth=("account:read",), refuses=(400, 401, 403, 422))
    @blp.etag  # made from the answer itself: a poll that matches it is 304, with no body
    @blp.arguments(InboxArgsSchema, location="query")
    @blp.response(200, NotificationSchema(many=True))
    def get(self, args: dict):
        """Your inbox: every notification of the last 30 days, newest first (ETag)"""
        return inbox.listing(_store(), account(), bool(args["unread"]))


@blp.route("/me/notifications/read")
class NotificationsRead(MethodView):
    @operation("markNotificationsRead", auth=("account:read",), refuses=(400, 401, 403, 422))
    @blp.arguments(MarkReadSchema)
    @blp.response(204)
    def post(self, body: dict):
        """Mark notifications read: {"ids": [...]} or {"all": true}"""
        inbox.mark_read(_store(), account(), None if body.get("all") else body["ids"])
