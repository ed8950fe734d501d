"""A real local HTTP server standing as a Web Push service (the tests' and the benchmark's), and
the browser's side of a subscription.

`Browser` makes a subscription as a browser does: a P-256 key pair and a 16-byte auth secret,
`subscription` being what `PushSubscription.toJSON()` gives. `PushService` takes each POST to
`/push/<name>`, checks its VAPID JWT (RFC 8292) against the server's public key (ES256, `aud`
this service's origin, `exp` to come, `sub` a mailto: or https: URL, `k` the same key), decrypts
its body (RFC 8291, aes128gcm) with that subscription's private key and auth secret (http_ece),
records it and answers the next status of its script (201 once the script is spent). A request
it cannot verify or decrypt is recorded with its `error` and answered 400."""

from __future__ import annotations

import base64
import dataclasses
import json
import os
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

from api.store.embedded import free_port
from tests.webhook_receiver import LoopbackServer


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Browser:
    """One device's subscription keys, made as a browser makes them."""

    def __init__(self, name: str):
        self.name = name
        self.private_key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)

    def subscription(self, service: "PushService | None" = None, origin: str = "") -> dict:
        """What PushSubscription.toJSON() gives, for a push service at `service` (or `origin`)."""
        public = self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        origin = service.origin if service is not None else origin
        return {
            "endpoint": f"{origin}/push/{self.name}",
            "expirationTime": None,
            "keys": {"p256dh": b64url(public), "auth": b64url(self.auth)},
        }


@dataclasses.dataclass
class Pushed:
    device: str
    headers: dict[str, str]
    claims: dict | None
    message: dict | None
    error: str | None
    at: float


class PushService(LoopbackServer):
    def __init__(self, server_key: str, statuses: list[int] = ()):
        """`server_key`: the server's VAPID public key (GET /push/key)."""
        self.server_key = server_key
        self.statuses = list(statuses)
        self.browsers: dict[str, Browser] = {}
        self.received: list[Pushed] = []
        self.arrived = threading.Condition()
        self.stall = threading.Event()  # while set, a push waits before it is answered
        self.port = free_port()
        self.origin = f"http://127.0.0.1:{self.port}"
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                headers = {k.lower(): v for k, v in self.headers.items()}
                device = self.path.rpartition("/")[2]
                pushed = service.open(device, headers, body)
                with service.arrived:
                    service.received.append(pushed)
                    status = (
                        400
                        if pushed.error
                        else (service.statuses.pop(0) if service.statuses else 201)
                    )
                    service.arrived.notify_all()
                while service.stall.is_set():
                    time.sleep(0.02)
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def browser(self, name: str) -> Browser:
        self.browsers[name] = Browser(name)
        return self.browsers[name]

    def open(self, device: str, headers: dict, body: bytes) -> Pushed:
        """Verify a push's VAPID and decrypt its payload, as a push service and browser would."""
        at, claims = time.time(), None
        try:
            claims = self.verified(headers.get("authorization", ""))
            browser = self.browsers[device]
            if headers.get("content-encoding") != "aes128gcm":
                raise ValueError("the payload is not aes128gcm")
            plain = http_ece.decrypt(
                body, private_key=browser.private_key, auth_secret=browser.auth, version="aes128gcm"
            )
            return Pushed(device, headers, claims, json.loads(plain), None, at)
        except Exception as failed:  # what was wrong is the test's to see
            return Pushed(device, headers, claims, None, f"{type(failed).__name__}: {failed}", at)

    def verified(self, authorization: str) -> dict:
        """The claims of `vapid t=<JWT>, k=<key>`, once its signature and claims are checked."""
        scheme, _, params = authorization.partition(" ")
        fields = dict(part.strip().split("=", 1) for part in params.split(","))
        if scheme != "vapid" or fields.get("k") != self.server_key:
            raise ValueError(f"not the server's VAPID key: {authorization[:40]}")
        head, payload, signature = fields["t"].split(".")
        if json.loads(unb64url(head)) != {"typ": "JWT", "alg": "ES256"}:
            raise ValueError("not an ES256 JWT")
        raw = unb64url(signature)
        public = ec.EllipticCurvePublicKey.from_encoded_point(
            ec.SECP256R1(), unb64url(self.server_key)
        )
        try:
            public.verify(
                encode_dss_signature(
                    int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")
                ),
                f"{head}.{payload}".encode(),
                ec.ECDSA(hashes.SHA256()),
            )
        except InvalidSignature:
            raise ValueError("the VAPID signature does not verify") from None
        claims = json.loads(unb64url(payload))
        if (
            claims.get("aud") != self.origin
            or claims.get("exp", 0) <= time.time()
            or not str(claims.get("sub", "")).startswith(("mailto:", "https:"))
        ):
            raise ValueError(f"wrong claims: {claims}")
        return claims
