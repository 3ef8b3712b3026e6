import os
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.conf import settings
from hypothesis import settings as hypothesis_settings

import yatzy
from config import catalogues
from config.celery import app as celery_app
from tests import shared_tables
from yatzy.strategy import Table, load_table
from yatzy.strategy.tables import ENV_DIR


def _own_redis_database() -> None:
    """Under pytest-xdist each worker process gets a Redis database of its own (1, 2,
    ...) for the cache: throttle counters and ``cache.clear()`` (FLUSHDB) of one
    worker's tests must not reach another's. Before any test opens the cache."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if worker.startswith("gw") and settings.REDIS_URL:
        own = urlsplit(settings.REDIS_URL)._replace(path=f"/{1 + int(worker[2:])}")
        settings.CACHES["default"]["LOCATION"] = urlunsplit(own)


_own_redis_database()

# Speed is measured by the benchmarks, never by a wall-clock deadline in a test: on a busy
# machine (or under coverage) Hypothesis's default 200 ms deadline fails correct code.
hypothesis_settings.register_profile("project", deadline=None)
hypothesis_settings.load_profile("project")

# `make test` compiled the catalogues at install; a catalogue edited since (or a run of
# pytest alone) is compiled here, so tests never read stale translations.
catalogues.compile_all()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A test that starts its own embedded stack tests the same thing whichever database
    the suite runs on: CI runs it once, in the embedded suite, not again beside
    PostgreSQL and Redis."""
    if settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
        return
    skip = pytest.mark.skip(
        reason="starts its own embedded stack: runs in the embedded suite (no DATABASE_URL)"
    )
    for item in items:
        if item.get_closest_marker("embedded_stack"):
            item.add_marker(skip)


@pytest.fixture(scope="session", autouse=True)
def tables_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Point ``YATZY_TABLES_DIR`` at a fresh directory, so tests never see stale files
    (nor the developer's built tables)."""
    directory = tmp_path_factory.mktemp("tables")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(ENV_DIR, str(directory))
        yield directory


@pytest.fixture(scope="session")
def yatzy_table(tables_dir: Path) -> Table:
    return load_table(yatzy.get_ruleset("yatzy"), build=True)


@pytest.fixture(scope="session")
def yahtzee_table(tables_dir: Path) -> Table:
    return load_table(yatzy.get_ruleset("yahtzee"), build=True)


@pytest.fixture(scope="session")
def maxi_tables_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tables directory holding the Maxi table: a link to the file in the shared cache
    (``tests/shared_tables.py``: built at most once per machine and version of the rules
    and the solver)."""
    cached = shared_tables.cached_table(yatzy.get_ruleset("maxi"))
    directory = tmp_path_factory.mktemp("maxi-tables")
    (directory / cached.name).symlink_to(cached)
    return directory


@pytest.fixture
def maxi_table(maxi_tables_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Table:
    """The Maxi table (the daily's) as the service has it once its worker has built it:
    the file in ``YATZY_TABLES_DIR`` for this test (and for the processes it starts),
    and its ``StrategyTable`` row queued and then built by ``games.tables``' own job,
    which finds the file and marks the row ready. Other tests keep a directory without
    it, so they still see the Maxi table missing."""
    from games import tables

    monkeypatch.setenv(ENV_DIR, str(maxi_tables_dir))
    rs = yatzy.get_ruleset("maxi")
    row = tables.table_request(rs)
    assert row is not None
    assert tables.tables_build_due() == [row.key]
    return tables.table_get(rs)


@pytest.fixture(autouse=True)
def _eager_celery():
    """In-process tests run jobs inline; the live-stack tests start real workers instead."""
    previous = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = previous


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Throttle counters must not leak from one test into the next."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture(autouse=True)
def _daily_settings(settings):
    settings.DAILY_SEED_SECRET = "test-daily-secret"
    settings.DAILY_TIME_ZONE = "UTC"


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix):
    """A test database per pytest process, so two test runs in one checkout (or on one
    PostgreSQL server) never drop each other's database."""
    for db in settings.DATABASES.values():
        test = db.setdefault("TEST", {})
        base = test.get("NAME") or f"test_{db['NAME']}"
        test["NAME"] = f"{base}_{os.getpid()}"
