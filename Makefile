# Postplay: `make run` serves everything on 127.0.0.1; `make test` runs the whole suite.
# Both create .venv from pyproject.toml, at the versions requirements.lock pins, when it is
# missing or older than either (or than the C extension's source, which the install builds).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test lint fuzz bench million loadtest ladders ladders-quick ploid-book seed-ratings \
	openapi check-openapi lock clean wrk system

$(STAMP): pyproject.toml requirements.lock setup.py api/bots/_partition_endgame.c
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -c requirements.lock -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/postplay run

# the layers' import contracts ([tool.importlinter] in pyproject.toml), ruff's lint and format
# check, mypy over api/ ([tool.ruff], [tool.mypy]), then every test
test: lint system
	$(PY) -m pytest -q --doctest-modules api tests

lint: $(STAMP)
	$(VENV)/bin/lint-imports
	$(VENV)/bin/ruff check api tests worker
	$(VENV)/bin/ruff format --check api tests worker
	$(VENV)/bin/mypy

# requirements.lock again from pyproject.toml: the newest versions its ranges allow, resolved
# with pip-tools in a venv of its own (then commit the lock; `make test` installs from it)
lock:
	test -x .lock-venv/bin/pip-compile || ($(PYTHON) -m venv .lock-venv && \
		.lock-venv/bin/pip install --quiet pip-tools)
	.lock-venv/bin/pip-compile --quiet --upgrade --extra test --extra load --strip-extras \
		--no-emit-index-url --no-emit-find-links -o requirements.lock pyproject.toml

# schemathesis against the OpenAPI document, long (make test runs a short pass): its figures at the end
FUZZ_EXAMPLES ?= 800
fuzz: $(STAMP)
	POSTPLAY_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(PY) -m pytest -q tests/api/test_fuzz.py

# what the tests need beside the Python packages, from Debian, installed when missing (as root, or
# with sudo): chromium (the browser tests), node and npm (the client tools of test_clients.py)
system:
	@missing=""; for c in chromium:chromium node:nodejs npm:npm; do \
		command -v $${c%%:*} >/dev/null 2>&1 || missing="$$missing $${c#*:}"; done; \
	[ -z "$$missing" ] || { SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); \
		export DEBIAN_FRONTEND=noninteractive; echo "installing$$missing"; \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq $$missing >/dev/null; }

# the HTTP benchmarks' load generator, Debian's wrk, installed when missing (as root, or with sudo)
wrk:
	@command -v wrk >/dev/null 2>&1 || { \
		SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); export DEBIAN_FRONTEND=noninteractive; \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq wrk >/dev/null; }

bench: $(STAMP) wrk
	$(PY) -m tests.benchmarks

# a million finished games in an embedded Redis of its own: bytes per game, GET latency (minutes)
million: $(STAMP)
	$(PY) -m tests.benchmarks bench_million

# correspondence players stepped up, past 15,000 by 2,500 a step, until p99 > 250 ms or an error:
# the real limit (locust, headless: 15 min to 15,000, then about 3 min a step; see the module)
LOAD_STAMP := $(VENV)/.installed-load
$(LOAD_STAMP): $(STAMP)
	$(PY) -m pip install --quiet -c requirements.lock -e '.[test,load]'
	touch $(LOAD_STAMP)

loadtest: $(LOAD_STAMP)
	$(PY) -m tests.benchmarks.loadtest

# every game's ladder (POSTPLAY_LADDER_GAMES, _BUDGET_S, _KINDS... see the module), written into
# the rules pages as each game finishes; hours of CPU at the defaults (200 games, 1 s a move)
ladders: $(STAMP)
	$(PY) -m tests.benchmarks.bench_ladders --write

# a quick look at every ladder (20 games a pairing, 0.1 s a move), written nowhere
ladders-quick: $(STAMP)
	POSTPLAY_LADDER_GAMES=20 POSTPLAY_LADDER_BUDGET_S=0.1 $(PY) -m tests.benchmarks.bench_ladders

# the perfect Ploid bot's opening book for n = 3, made by the solver (about a minute of CPU)
ploid-book: $(STAMP)
	$(PY) -m api.bots.ploid_book 3

# the bot levels' ratings from ladder games between them, against the Redis of `make run` (or
# REDIS_URL): SEED_GAMES rounds per game, each one game of every pair of its levels
SEED_GAMES ?= 20
seed-ratings: $(STAMP)
	REDIS_URL=$${REDIS_URL:-redis://:$$(cat var/redis/password)@127.0.0.1:6390/0} $(VENV)/bin/postplay seed-ratings --games $(SEED_GAMES)

openapi: $(STAMP)
	$(VENV)/bin/postplay openapi

check-openapi: $(STAMP)
	$(VENV)/bin/postplay openapi --check

clean:
	rm -rf $(VENV) var test-artifacts
