"""The HTTP load generator of the benchmarks: Debian's `wrk` (C, an event loop per thread), so
the server, not the client, is what is measured. Requests come from a Lua script: the same one
again and again, or, for writes that can each be made once (moves), a list per wrk thread."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

THREADS = 2
CONNECTIONS = 16  # at once: 8 for each of the server's 2 processes

# one request, made again and again; `wrk.headers` is set from the arguments
SAME = """
wrk.method = "{method}"
{headers}
"""
# the lines of <prefix><thread>.txt, in order, each sent once: "method\tpath\tjson headers\tbody"
LISTED = """
local counter = 0
function setup(thread)
  thread:set("id", counter)
  counter = counter + 1
end
function init(args)
  requests = {}
  for line in io.lines(args[1] .. id .. ".txt") do
    local method, path, token, body = line:match("([^\\t]+)\\t([^\\t]+)\\t([^\\t]*)\\t(.*)")
    local headers = {["Content-Type"] = "application/json"}
    if token ~= "" then headers["Authorization"] = "Bearer " .. token end
    requests[#requests + 1] = wrk.format(method, path, headers, body)
  end
  i = 0
end
function request()
  i = i + 1
  if i > #requests then i = 1 end  -- used up: repeats, answered 409 and reported
  return requests[i]
end
"""


@dataclasses.dataclass(frozen=True)
class Result:
    rate: float  # requests per second
    errors: int  # answers other than 2xx and 3xx, and socket errors
    p99_ms: float


def require() -> str:
    path = shutil.which("wrk")
    if path is None:
        sys.exit("the HTTP benchmarks need wrk: apt-get install wrk")
    return path


def run(
    url: str,
    seconds: float,
    method: str = "GET",
    headers: dict | None = None,
    listed: list[list[str]] | None = None,
) -> Result:
    """Load `url` for `seconds`: the same request, or each thread its list of `listed` lines
    (method, path, token, body)."""
    with tempfile.TemporaryDirectory(prefix="postplay-wrk-") as tmp:
        script = Path(tmp) / "script.lua"
        args = []
        if listed is None:
            # JSON's string escapes are Lua's too (an ETag is quoted)
            lines = "\n".join(
                f"wrk.headers[{json.dumps(k)}] = {json.dumps(v)}"
                for k, v in (headers or {}).items()
            )
            script.write_text(SAME.format(method=method, headers=lines))
        else:
            script.write_text(textwrap.dedent(LISTED))
            for thread, lines in enumerate(listed):
                # wrk asks the first thread for one request before the run, to check it
                # (script_verify_request), and never sends it: that one takes a copy
                lines = [lines[0], *lines] if thread == 0 and lines else lines
                (Path(tmp) / f"requests-{thread}.txt").write_text(
                    "\n".join("\t".join(line) for line in lines) + "\n"
                )
            args = ["--", str(Path(tmp) / "requests-")]
        done = subprocess.run(
            [
                require(),
                "-t",
                str(THREADS),
                "-c",
                str(CONNECTIONS),
                "-d",
                f"{seconds:g}s",
                "--latency",
                "-s",
                str(script),
                url,
                *args,
            ],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "LC_ALL": "C"},
        )
        if str(script) in done.stderr:  # a Lua error: wrk then sends `GET url`, and says nothing
            raise RuntimeError(f"wrk's script failed: {done.stderr.strip()}")
    return parse(done.stdout)


def parse(out: str) -> Result:
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    non_2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    sockets = re.search(
        r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out
    )
    p99 = re.search(r"99%\s+([\d.]+)(us|ms|s)\b", out)
    scale = {"us": 0.001, "ms": 1.0, "s": 1000.0}
    errors = (int(non_2xx.group(1)) if non_2xx else 0) + (
        sum(int(g) for g in sockets.groups()) if sockets else 0
    )
    return Result(rate, errors, float(p99.group(1)) * scale[p99.group(2)] if p99 else float("nan"))
