"""E-mail: an account's address (set, verified by the link mailed to it, removed) and the
one-click unsubscribe every mail links to. Nothing here sends a mail: each is owed to the
workers (`api.notify.mail`)."""

from __future__ import annotations

import marshmallow as ma
from flask import current_app
from flask.views import MethodView
from flask_smorest import abort
from marshmallow import fields, validate

from api.notify import mail, mailboxes
from api.store.accounts import AccountStore
from api.store.mail import MailStore
from api.web.auth import account
from api.web.contract import operation
from api.web.errors import Blueprint
from api.web.schemas import EmailSchema, StrictSchema

blp = Blueprint(
    "email",
    __name__,
    url_prefix="/api/v1",
    description="E-mail: your address, verified by a link, and one-click "
    "unsubscribe from each kind of mail.",
)


class EmailAddressSchema(StrictSchema):
    address = fields.String(
        required=True,
        validate=validate.Length(min=1, max=1000),
        metadata={"example": "ada@example.org"},
    )


class EmailTokenSchema(StrictSchema):
    token = fields.String(
        required=True,
        validate=validate.Length(min=1, max=1000),
        metadata={"description": "The token of the link in the mail."},
    )


class UnsubscribeArgsSchema(ma.Schema):
    token = fields.String(
        required=True,
        validate=validate.Length(min=1, max=1000),
        metadata={"description": "The token of the mail's List-Unsubscribe link."},
    )


def _stores() -> tuple[AccountStore, MailStore]:
    ext = current_app.extensions["postplay"]
    return ext["accounts"], ext["mails"]


@blp.route("/me/email")
class MyEmail(MethodView):
    @operation("setEmail", auth=("account:session",), refuses=(401, 403, 422, 503))
    @blp.arguments(EmailAddressSchema)
    @blp.response(
        202,
        EmailSchema,
        description="The address is kept, not yet verified; "
        "the workers mail it a verification link, valid 24 hours.",
    )
    @blp.alt_response(
        503, description="E-mail is off on this server (POSTPLAY_SMTP_URL is not set)."
    )
    def put(self, body: dict):
        """Set your e-mail address: a verification link is mailed to it"""
        who = account()
        if not mail.enabled():
            abort(
                503,
                message="E-mail is off on this server: it has no mail server set "
                "(POSTPLAY_SMTP_URL).",
            )
        updated = mailboxes.set_address(*_stores(), who, body["address"])
        return mailboxes.view(updated)

    @operation("removeEmail", auth=("account:session",), refuses=(401, 403, 404))
    @blp.response(204)
    def delete(self):
        """Remove your e-mail address: nothing more is mailed to it"""
        mailboxes.remove_address(*_stores(), account())


@blp.route("/email/verify")
class Verify(MethodView):
    @operation("verifyEmail", refuses=(422,))
    @blp.arguments(EmailTokenSchema)
    @blp.response(204)
    def post(self, body: dict):
        """Verify an address with the token of the link mailed to it (no sign-in needed)"""
        mailboxes.verify(*_stores(), body["token"])


@blp.route("/email/unsubscribe")
class Unsubscribe(MethodView):
    @operation("unsubscribe", refuses=(422,))
    @blp.arguments(UnsubscribeArgsSchema, location="query")
    @blp.response(204)
    def post(self, args: dict):
        """One-click unsubscribe (RFC 8058), no sign-in: that kind of mail is switched off"""
        mailboxes.unsubscribe(*_stores(), args["token"])
