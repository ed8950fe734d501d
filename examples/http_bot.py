#!/usr/bin/env python3
"""A bot from outside: a program that plays a Postplay account's games over the public HTTP API
with a personal token, as Lichess's Bot API lets programs do. It accepts every challenge and
plays a legal move (one of those `GET /games/{id}/legal-moves` lists, picked at random) whenever
it is its turn, in any of the five games.

It learns that something happened in one of two ways:

- **webhooks** (`--listen HOST:PORT`): it registers a webhook for its account (the token needs
  the `webhooks` scope) pointing at a small HTTP receiver it runs, checks every delivery's
  signature with the `standardwebhooks` library (a forged or replayed one gets 401), acts on
  `challenge` and `turn`, and deletes the webhook when it stops. The server must be able to reach
  `--public-url` (by default `http://HOST:PORT/`);
- **polling** (`--poll`), for a program with no public address: `GET /me/games` with
  `If-None-Match` (a 304 costs nearly nothing) and `GET /me/challenges`, every `--every` seconds.

    python examples/http_bot.py --server http://127.0.0.1:8000 --token pp.... --poll
    python examples/http_bot.py --server https://postplay.example --token pp.... \\
        --listen 0.0.0.0:8080 --public-url https://bot.example.org/hook

It needs only `requests` and `standardwebhooks` (`pip install requests standardwebhooks`).
See docs/bots.md.
"""
from __future__ import annotations

import argparse
import json
import queue
import random
import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import requests
from standardwebhooks import Webhook, WebhookVerificationError

EVENTS = ["turn", "challenge", "game-over"]


class Api:
    """The few calls the bot makes, with its token."""

    def __init__(self, server: str, token: str):
        self.base = server.rstrip("/") + "/api/v1"
        self.http = requests.Session()
        self.http.headers["Authorization"] = f"Bearer {token}"

    def call(self, method: str, path: str, **kwargs) -> requests.Response:
        for _ in range(5):
            response = self.http.request(method, self.base + path, timeout=10, **kwargs)
            if response.status_code not in (429, 503):
                return response
            time.sleep(float(response.headers.get("Retry-After", "1")))  # as the server asks
        return response

    def json(self, method: str, path: str, **kwargs):
        response = self.call(method, path, **kwargs)
        response.raise_for_status()
        return response.json() if response.content else None


class Bot:
    def __init__(self, api: Api, games: int | None, seed: int | None):
        self.api = api
        self.me = api.json("GET", "/me")["username"]
        self.rng = random.Random(seed)
        self.games_left = games
        self.active: set[str] = set()  # games seen running, by polling
        self.finished: set[str] = set()
        self.done = threading.Event()

    def log(self, line: str) -> None:
        print(f"[{self.me}] {line}", flush=True)

    def mine(self, game: dict) -> bool:
        """Whether it is this bot's turn in `game`."""
        seat = game.get("to_move")
        player = game["seats"][seat].get("player") if seat is not None else None
        return game["status"] == "active" and (player or "").lower() == self.me.lower()

    def accept_challenges(self) -> None:
        for game in self.api.json("GET", "/me/challenges")["incoming"]:
            self.accept(game["id"])

    def accept(self, game_id: str) -> None:
        response = self.api.call("POST", f"/games/{game_id}/accept")
        self.log(f"accepted the challenge {game_id}" if response.ok
                 else f"could not accept {game_id}: {response.json().get('message')}")
        if response.ok:
            self.play(response.json())

    def play(self, game: dict) -> None:
        """Move while it is this bot's turn (the server may hand the turn straight back after
        its own passes)."""
        while self.mine(game):
            listing = self.api.json("GET", f"/games/{game['id']}/legal-moves")
            if listing["ply"] != game["ply"] or not listing["moves"]:
                return  # moved on meanwhile, or nothing listed: the next event says what next
            move = self.rng.choice(listing["moves"])
            response = self.api.call("POST", f"/games/{game['id']}/moves",
                                     json={"move": move, "ply": game["ply"]})
            if not response.ok:  # a stale ply (409) or a game that ended meanwhile
                self.log(f"move refused in {game['id']}: {response.json().get('message')}")
                return
            self.log(f"played {json.dumps(move)} in {game['id']} at ply {game['ply']}")
            game = response.json()
        self.over(game)

    def over(self, game: dict) -> None:
        if game["status"] != "finished" or game["id"] in self.finished:
            return
        self.finished.add(game["id"])
        result = game["result"]
        self.log(f"game {game['id']} is over: {result['reason']}, winner {result['winner']}")
        if self.games_left is not None and len(self.finished) >= self.games_left:
            self.done.set()

    def on_event(self, event: dict) -> None:
        game = event["data"]
        if event["type"] == "challenge":
            self.accept(game["id"])
        elif event["type"] == "turn":
            # the delivery may be a retry or late: act on the game as it is now
            self.play(self.api.json("GET", f"/games/{game['id']}"))
        elif event["type"] == "game-over":
            self.over(game)

    def poll(self, every_s: float) -> None:
        """Without a public address: one cheap poll of all the account's games."""
        etag = None
        while not self.done.is_set():
            response = self.api.call("GET", "/me/games",
                                     headers={"If-None-Match": etag} if etag else {})
            if response.status_code == 200:
                etag = response.headers.get("ETag")
                for game in response.json():
                    if game["status"] == "active":
                        self.active.add(game["id"])
                        self.play(game)
                    elif game["status"] == "finished" and game["id"] in self.active:
                        self.over(game)  # it ended since the last poll
            self.accept_challenges()
            self.done.wait(every_s)


def listen(bot: Bot, api: Api, host: str, port: int, public_url: str) -> None:
    """Register a webhook to a receiver on host:port and act on what it delivers, until done.
    The receiver's socket is bound before the webhook is registered, so nothing sent to the
    registered address finds it closed (it waits in the socket's backlog until served)."""
    events: queue.Queue = queue.Queue()

    class Receiver(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            try:
                event = verifier.verify(body, dict(self.headers))
            except (WebhookVerificationError, ValueError):
                self.send_response(401)
            else:
                events.put(event)
                self.send_response(204)  # answered at once: the work is the main thread's
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer((host, port), Receiver)
    try:
        hook = api.json("POST", "/me/webhooks", json={"url": public_url, "events": EVENTS})
    except BaseException:
        server.server_close()
        raise
    verifier = Webhook(hook["secret"])
    threading.Thread(target=server.serve_forever, daemon=True).start()
    bot.log(f"listening on {host}:{port} for webhook {hook['id']} ({public_url})")
    try:
        bot.accept_challenges()  # those made before the webhook was there
        for game in api.json("GET", "/me/games?status=active"):
            bot.play(game)
        while not bot.done.is_set():
            try:
                bot.on_event(events.get(timeout=0.5))
            except queue.Empty:
                continue
    finally:
        server.shutdown()
        api.call("DELETE", f"/me/webhooks/{hook['id']}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", required=True, help="the Postplay server's base URL")
    parser.add_argument("--token", required=True,
                        help="a personal token with the read, play and challenge scopes "
                             "(and webhooks, to listen)")
    way = parser.add_mutually_exclusive_group(required=True)
    way.add_argument("--listen", metavar="HOST:PORT", help="receive webhooks here")
    way.add_argument("--poll", action="store_true", help="poll /me/games instead")
    parser.add_argument("--public-url", help="where the server reaches the receiver "
                                             "(default http://HOST:PORT/)")
    parser.add_argument("--every", type=float, default=2.0, help="seconds between polls")
    parser.add_argument("--games", type=int, help="stop after this many games are over")
    parser.add_argument("--seed", type=int, help="seed the choice of moves")
    args = parser.parse_args(argv)

    api = Api(args.server, args.token)
    bot = Bot(api, args.games, args.seed)
    signal.signal(signal.SIGTERM, lambda *_: bot.done.set())
    try:
        if args.poll:
            bot.poll(args.every)
        else:
            host, _, port = args.listen.rpartition(":")
            listen(bot, api, host, int(port), args.public_url or f"http://{args.listen}/")
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
