"""/metrics and the queues' dashboard: requests counted per route and status, games by status and
queue depths read from Redis, due-check lateness and job durations from a real worker, the
operators' tokens, and gunicorn's processes summed in multiprocess mode under `postplay serve`."""

from __future__ import annotations

import base64
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families
from rq import Queue

from api.followups import QUEUE, QUEUES
from api.play.background import Background
from api.store.embedded import free_port
from api.workers import PostplayWorker
from tests.api.helpers import auth, create, move


def samples(text: str) -> dict[tuple, float]:
    """(name, sorted labels) -> value, from the Prometheus text of a scrape."""
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def value(text: str, name: str, **labels) -> float:
    return samples(text).get((name, tuple(sorted(labels.items()))), 0.0)


def test_requests_are_counted_per_route_and_status(client):
    route = "/api/v1/games/<game_id>"
    before = client.get("/metrics").get_data(as_text=True)
    game = create(client)
    client.get(f"/api/v1/games/{game['id']}")
    client.get("/api/v1/games/000000000000")  # well-formed, unknown
    scrape = client.get("/metrics")
    assert scrape.status_code == 200 and scrape.mimetype == "text/plain"
    text = scrape.get_data(as_text=True)
    for status in ("200", "404"):
        assert (
            value(text, "postplay_http_requests_total", route=route, method="GET", status=status)
            == value(
                before, "postplay_http_requests_total", route=route, method="GET", status=status
            )
            + 1
        )
    assert (
        value(text, "postplay_http_request_duration_seconds_count", route=route, method="GET")
        == value(before, "postplay_http_request_duration_seconds_count", route=route, method="GET")
        + 2
    )


def test_games_by_status_and_queue_depths_come_from_redis(client):
    create(client)  # both seats people: active
    create(client, seats=[{"human": {"name": "Ada"}}, {"open": True}])  # waiting
    create(client, seats=[{"human": {"name": "Ada"}}, {"bot": "random"}], first=1)  # a job
    text = client.get("/metrics").get_data(as_text=True)
    assert value(text, "postplay_games", status="active") == 2
    assert value(text, "postplay_games", status="waiting") == 1
    assert value(text, "postplay_games", status="finished") == 0
    assert value(text, "postplay_queue_depth", queue=QUEUE) == 1
    assert {
        q for (name, labels) in samples(text) if name == "postplay_queue_depth" for _, q in labels
    } == set(QUEUES)


def test_due_check_lateness_is_observed_when_a_check_runs(client, redis_client):
    game = create(client, seats=[{"human": {"name": "Ada"}}, {"open": True}])
    labels = {"check": "abandoned"}
    before = REGISTRY.get_sample_value("postplay_due_check_lateness_seconds_count", labels) or 0
    before_in_time = (
        REGISTRY.get_sample_value(
            "postplay_due_check_lateness_seconds_bucket", {**labels, "le": "300.0"}
        )
        or 0
    )
    before_sum = REGISTRY.get_sample_value("postplay_due_check_lateness_seconds_sum", labels) or 0
    late_by = 3600.0
    created = time.time()
    ran = Background(redis_client, "test-metrics").run_due(created + 14 * 86400 + late_by)
    assert ran == 1 and client.get(f"/api/v1/games/{game['id']}").get_json()["status"] == "finished"
    assert (
        REGISTRY.get_sample_value("postplay_due_check_lateness_seconds_count", labels) == before + 1
    )
    # observed when it ran, against when it was due: an hour late, past the largest bucket
    assert (
        REGISTRY.get_sample_value(
            "postplay_due_check_lateness_seconds_bucket", {**labels, "le": "300.0"}
        )
        == before_in_time
    )
    assert (
        REGISTRY.get_sample_value("postplay_due_check_lateness_seconds_sum", labels)
        >= before_sum + late_by
    )


def test_job_durations_are_observed_per_job_type_by_the_worker(client, redis_client):
    labels = {"job": "bot_move", "status": "finished"}
    before = REGISTRY.get_sample_value("postplay_job_duration_seconds_count", labels) or 0
    game = create(client, seats=[{"human": {"name": "Ada"}}, {"bot": "random"}], first=0)
    assert move(client, game, game["tokens"]["0"], {"type": "say", "number": 4}).status_code == 201
    worker = PostplayWorker(
        [Queue(name, connection=redis_client) for name in QUEUES], connection=redis_client
    )
    worker.work(burst=True)  # forks a work-horse for the job, as a real worker does
    assert client.get(f"/api/v1/games/{game['id']}").get_json()["ply"] == 2
    assert REGISTRY.get_sample_value("postplay_job_duration_seconds_count", labels) == before + 1
    assert REGISTRY.get_sample_value("postplay_job_duration_seconds_sum", labels) > 0


def _app(redis_url, **config):
    from api.web import create_app

    return create_app(
        {"TESTING": True, "REDIS_URL": redis_url, "RATELIMIT_ENABLED": False, **config}
    ).test_client()


def test_a_metrics_token_is_required_when_set(redis_url, redis_client):
    client = _app(redis_url, METRICS_TOKEN="s3cret-scrape")
    refused = client.get("/metrics")
    assert refused.status_code == 401 and "token" in refused.get_json()["message"]
    assert client.get("/metrics", headers=auth("wrong")).status_code == 401
    assert client.get("/metrics", headers=auth("s3cret-scrape")).status_code == 200


def test_the_queues_dashboard_is_off_by_default_and_behind_its_token(
    client, redis_url, redis_client
):
    assert client.get("/rq/").status_code == 404
    dash = _app(redis_url, RQ_DASHBOARD_TOKEN="dash-token")
    refused = dash.get("/rq/")
    assert refused.status_code == 401 and "Basic" in refused.headers["WWW-Authenticate"]
    wrong = base64.b64encode(b"ops:nope").decode()
    assert dash.get("/rq/", headers={"Authorization": f"Basic {wrong}"}).status_code == 401
    right = base64.b64encode(b"ops:dash-token").decode()
    page = dash.get("/rq/", headers={"Authorization": f"Basic {right}"}, follow_redirects=True)
    assert page.status_code == 200 and b"RQ" in page.data
    assert page.headers["X-Frame-Options"] == "DENY"
    assert "frame-ancestors 'none'" in page.headers["Content-Security-Policy"]


@pytest.fixture
def served(redis_url, redis_client, tmp_path):
    """`postplay serve` with two web processes; its metrics directory."""
    port = free_port()
    metrics_dir = tmp_path / "metrics"
    metrics_dir.mkdir()
    (metrics_dir / "counter_1.db").write_bytes(b"left over by an earlier run")
    env = {
        **os.environ,
        "REDIS_URL": redis_url,
        "POSTPLAY_RATELIMIT": "off",
        "PROMETHEUS_MULTIPROC_DIR": str(metrics_dir),
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "api.cli", "serve", "--port", str(port), "--web-workers", "2"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    for _ in range(600):  # a minute: a loaded machine starts gunicorn slowly
        try:
            requests.get(f"{base}/api/v1/health", timeout=5)
            break
        except requests.RequestException:
            time.sleep(0.1)
    else:
        proc.kill()
        pytest.fail("postplay serve did not start")
    yield base, metrics_dir
    proc.terminate()
    proc.wait(timeout=10)


def test_gunicorn_processes_are_summed_in_multiprocess_mode(served):
    base, metrics_dir = served
    sent = 40

    def get(_):
        with requests.Session() as session:  # a connection each: either process may take it
            return session.get(f"{base}/api/v1/kinds").status_code

    with ThreadPoolExecutor(8) as pool:
        assert set(pool.map(get, range(sent))) == {200}
    text = requests.get(f"{base}/metrics").text
    assert (
        value(
            text, "postplay_http_requests_total", route="/api/v1/kinds", method="GET", status="200"
        )
        == sent
    )  # whichever processes served them, all are counted
    files = {p.name for p in metrics_dir.iterdir()}
    assert "counter_1.db" not in files  # the earlier run's counts were cleaned at start
    assert any(f.startswith("histogram_") for f in files)
