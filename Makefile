# Maxi Yatzy Daily — the two commands: `make run` and `make test`.
PORT ?= 8000
VENV := .venv
PY := $(VENV)/bin/python
UV_VERSION := 0.13.9
ENSURE_UV := command -v uv >/dev/null 2>&1 || python3 -m pip install -q "uv==$(UV_VERSION)"

.PHONY: install install-run run test test-figures lint bench bench-api bench-instructions bench-leaderboards bench-pages bench-skill messages catalogues

# Everything `make test` needs: the service's packages and the dev tools (pytest, ruff,
# mypy, schemathesis, playwright, ...), exactly as uv.lock has them.
install: $(VENV)/.installed catalogues

# Only the packages the service runs on: what `make run` installs. --inexact leaves the
# dev tools of an environment that already has them.
install-run: $(VENV)/.installed-run catalogues

$(VENV)/.installed: pyproject.toml uv.lock
	@$(ENSURE_UV)
	uv sync --frozen
	@touch $@ $(VENV)/.installed-run

$(VENV)/.installed-run: pyproject.toml uv.lock
	@$(ENSURE_UV)
	uv sync --frozen --no-dev --inexact
	@touch $@

# The message catalogues: locale/*/LC_MESSAGES/django.po compiled to .mo in pure Python
# (polib), only those that changed; no GNU gettext needed (docs/i18n.md).
catalogues: $(VENV)/.installed-run
	@$(PY) -m config.catalogues

# After adding or changing texts: extract the message ids (needs GNU gettext) and merge
# them into every catalogue, then translate what is new (docs/i18n.md).
messages: install
	$(PY) -m config.catalogues update

# config/devserver.py migrates, then supervises the web server and the Celery worker with
# its beat: one Ctrl-C, one SIGTERM, or the end of `make` stops all three. `exec`: no
# shell stays between make and the supervisor to swallow a signal.
run: install-run
	@exec $(PY) -m config.devserver --port $(PORT)

# The tests that start no process of their own run on TEST_WORKERS processes (xdist);
# the live ones (gunicorn, Celery workers, the browser) one at a time after them, since
# the live stacks of one checkout share its broker. Coverage adds up both runs, and the
# floor (pyproject.toml) is checked on the total.
TEST_WORKERS ?= 2
test: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(VENV)/bin/pytest --cov --cov-report= --cov-fail-under=0 -m "not live" -n $(TEST_WORKERS) \
	  --junitxml=var/test-results/not-live.xml
	$(VENV)/bin/pytest --cov --cov-append --cov-report=term -m live \
	  --junitxml=var/test-results/live.xml

# The counts, times and coverage of the last `make test`, written into docs/testing.md.
test-figures: install
	$(PY) -m tests.figures

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

# Each benchmark prints its figures beside a baseline measured in the same run;
# docs/benchmarks.md records the latest numbers and the machine.
bench: install
	$(PY) -m bench.engine
	$(PY) -m bench.strategy

# These need PostgreSQL: DATABASE_URL / BENCH_DATABASE_URL name a scratch database.
bench-api: install
	$(PY) -m bench.api

bench-leaderboards: install
	$(PY) -m bench.leaderboards

# The API's requests counted in instructions under valgrind (Debian package): the
# machine's other load cannot move these, unlike bench-api's requests per second.
bench-instructions: install
	$(PY) -m bench.instructions

# The analysis of a revealed day (skill and luck) by one Celery worker and by two, and the
# workers a million rounds need (BENCH_DATABASE_URL, default a yatzy_bench_skill
# database it recreates; the configured broker; the Maxi table, built first if missing).
bench-skill: install
	$(PY) -m bench.skill $(BENCH_SKILL_ARGS)

# The web pages' render times on the leaderboards' data beside a plain template page
# (BENCH_DATABASE_URL, default a yatzy_bench_pages database it recreates).
bench-pages: install
	$(PY) -m bench.pages $(BENCH_PAGES_ARGS)

# Load, faults (Redis, worker, PostgreSQL, web workers) and schemathesis on a private
# PostgreSQL + Redis + gunicorn + Celery stack; see docs/reliability.md.
.PHONY: reliability
reliability: install
	$(PY) -m reliability $(RELIABILITY_ARGS)
