"""The HTTP baseline: a bare Flask JSON endpoint, served by the same gunicorn settings."""

from flask import Flask, jsonify

app = Flask(__name__)


@app.get("/api/v1/health")
def health():
    return jsonify({"web": "ok"})
