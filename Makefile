# Maxi Yatzy Daily — the two commands: `make run` and `make test`.
PORT ?= 8000
VENV := .venv
PY := $(VENV)/bin/python
UV_VERSION := 0.13.9

.PHONY: install run test lint bench bench-api bench-leaderboards

install: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml uv.lock
	@command -v uv >/dev/null 2>&1 || python3 -m pip install -q "uv==$(UV_VERSION)"
	uv sync --frozen
	@touch $@

run: install
	$(PY) manage.py migrate --noinput
	$(PY) manage.py challenges_ensure
	@echo
	@echo "Maxi Yatzy Daily on http://127.0.0.1:$(PORT)/"
	@echo "  API docs (Swagger UI): http://127.0.0.1:$(PORT)/api/docs/"
	@echo "  OpenAPI schema:        http://127.0.0.1:$(PORT)/api/schema/"
	@echo "  Admin:                 http://127.0.0.1:$(PORT)/admin/"
	@echo "  Create an admin:       $(PY) manage.py createsuperuser"
	@echo
	@trap 'trap - EXIT INT TERM; kill 0' EXIT INT TERM; \
	$(VENV)/bin/celery -A config worker --beat --pool=solo --loglevel=INFO & \
	$(PY) manage.py runserver --noreload 127.0.0.1:$(PORT)

test: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(VENV)/bin/pytest --cov --cov-report=term

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

# Each benchmark prints its figures beside a baseline measured in the same run;
# docs/benchmarks.md records the latest numbers and the machine.
bench: install
	$(PY) -m bench.engine
	$(PY) -m bench.strategy

# These two need PostgreSQL: DATABASE_URL / BENCH_DATABASE_URL name a scratch database.
bench-api: install
	$(PY) -m bench.api

bench-leaderboards: install
	$(PY) -m bench.leaderboards

# Load, faults (Redis, worker, PostgreSQL, web workers) and schemathesis on a private
# PostgreSQL + Redis + gunicorn + Celery stack; see docs/reliability.md.
.PHONY: reliability
reliability: install
	$(PY) -m reliability $(RELIABILITY_ARGS)
