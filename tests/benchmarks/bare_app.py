"""The baselines: a bare Flask JSON endpoint, and an empty RQ job."""
from flask import Flask, jsonify

app = Flask(__name__)


@app.get("/api/v1/health")
def health():
    return jsonify({"web": "ok"})


def empty_job() -> None:
    return None
