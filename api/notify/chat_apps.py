"""Webhook bodies for chat apps: an endpoint whose `format` is "discord" or "slack" is posted
that service's incoming-webhook JSON (a line of text and a link to the game) instead of the
Standard Webhooks body, and unsigned (neither service checks a signature).

>>> body = {"type": "turn", "data": {"id": "g1", "kind": "ploid", "seats": [
...     {"player": "ada"}, {"player": "bob"}]}}
>>> chat_body("slack", "ada", body)
'{"text":"Your move in Ploid against bob: <http://localhost:8000/#/game/g1|open the game>"}'
"""

from __future__ import annotations

import json

from api.notify.mail import game_link, opponent, title

FORMATS = ("standard", "discord", "slack")
LINES = {
    "turn": "Your move in {title} against {opponent}",
    "game-over": "Your game of {title} against {opponent} is over",
    "challenge": "{opponent} challenges you to {title}",
    "draw-offer": "{opponent} offers a draw in {title}",
    "takeback": "{opponent} asks for a takeback in {title}",
    "chat": "{opponent} wrote in your game of {title}",
    "reminder": "Your time in {title} against {opponent} runs out soon",
}


def line(event_type: str, username: str, game: dict) -> str:
    """What the event says, in a line, to the account named `username`."""
    return LINES.get(event_type, "News in your game of {title} against {opponent}").format(
        title=title(game), opponent=opponent(game, username)
    )


def chat_body(fmt: str, username: str, body: dict) -> str:
    """The JSON posted to a chat app's incoming webhook for a Standard Webhooks `body`."""
    game = body["data"]
    text, link = line(body["type"], username, game), game_link(game["id"])
    if fmt == "discord":
        out = {"content": f"{text}: {link}"}
    else:
        out = {"text": f"{text}: <{link}|open the game>"}
    return json.dumps(out, separators=(",", ":"))
