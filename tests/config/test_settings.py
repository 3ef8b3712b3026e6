"""Production settings refuse to start without their secrets."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def django_check(**env_overrides):
    env = {k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "DAILY_SEED_SECRET"}}
    env.update(env_overrides)
    return subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True
    )


@pytest.mark.parametrize("missing", ["SECRET_KEY", "DAILY_SEED_SECRET"])
def test_production_without_a_secret_fails_at_start(missing):
    present = {"SECRET_KEY": "k" * 50, "DAILY_SEED_SECRET": "s" * 32}
    del present[missing]
    result = django_check(DEBUG="false", **present)
    assert result.returncode != 0
    assert f"{missing} must be set" in result.stderr


def test_production_with_secrets_starts():
    result = django_check(DEBUG="false", SECRET_KEY="k" * 50, DAILY_SEED_SECRET="s" * 32)
    assert result.returncode == 0, result.stderr


def test_bad_daily_grace_fails_at_start():
    result = django_check(DAILY_GRACE="half an hour")
    assert result.returncode != 0
    assert "DAILY_GRACE" in result.stderr


def test_production_with_a_short_secret_key_fails_at_start():
    result = django_check(DEBUG="false", SECRET_KEY="k" * 49, DAILY_SEED_SECRET="s" * 32)
    assert result.returncode != 0
    assert "SECRET_KEY must be at least 50 characters" in result.stderr


@pytest.mark.parametrize("secret", ["s" * 31, "hunter2", "dev-only-daily-seed-secret"])
def test_production_with_a_short_daily_seed_secret_fails_at_start(secret):
    """A short DAILY_SEED_SECRET started: each day's commitment is public before the
    day is played, so a short or known secret was found from it offline (every day's
    seed tried against the commitment), and with it every seed to come."""
    result = django_check(DEBUG="false", SECRET_KEY="k" * 50, DAILY_SEED_SECRET=secret)
    assert result.returncode != 0
    assert "DAILY_SEED_SECRET must be at least 32 characters" in result.stderr


@pytest.mark.parametrize("grace", ["-30", "-0:30:00", "1 00:00:00", "1440"])
def test_a_daily_grace_below_zero_or_of_a_day_fails_at_start(grace):
    """A negative grace period revealed the day's seed before the day ended (while its
    ranked rounds were still played); one of a day or more kept yesterday's rounds open
    past today's end."""
    result = django_check(DAILY_GRACE=grace)
    assert result.returncode != 0
    assert "DAILY_GRACE" in result.stderr


@pytest.mark.parametrize("zone", ["Mars/Olympus_Mons", "", "../etc/passwd"])
def test_an_unknown_daily_time_zone_fails_at_start(zone):
    """It started, and every page and daily endpoint was a 500."""
    result = django_check(DAILY_TIME_ZONE=zone)
    assert result.returncode != 0
    assert "DAILY_TIME_ZONE" in result.stderr


@pytest.mark.parametrize(("zone", "grace"), [("Europe/Copenhagen", "0"), ("UTC", "23:59:59")])
def test_a_daily_time_zone_and_grace_within_bounds_start(zone, grace):
    result = django_check(DAILY_TIME_ZONE=zone, DAILY_GRACE=grace)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(
    ("name", "rate"),
    [
        ("THROTTLE_LOGIN", "30 per minute"),
        ("THROTTLE_PLAY", "600"),
        ("THROTTLE_FRIEND", "30/month"),
        ("THROTTLE_ADVICE", "60 a minute"),
    ],
)
def test_a_throttle_rate_drf_cannot_read_fails_at_start(name, rate):
    """It started, and every request's throttle raised on the rate, which the throttle
    takes for an unreachable cache and lets the request through: the limit was off.
    ``30/month`` was read by its first letter, 30 a minute."""
    result = django_check(**{name: rate})
    assert result.returncode != 0
    assert f"{name} must be a number of requests per second, minute, hour or day" in result.stderr


def test_a_throttle_rate_of_zero_fails_at_start():
    """``0/hour`` started, and the two caches read it apart: on Redis every request was
    let through (the limit off: the log script found no request to wait for), on the
    embedded default's cache every request was refused with 429."""
    result = django_check(THROTTLE_REGISTER="0/hour")
    assert result.returncode != 0
    assert "THROTTLE_REGISTER must be a number of requests" in result.stderr
    assert "at least 1" in result.stderr


def test_a_throttle_rate_in_drfs_form_starts():
    result = django_check(THROTTLE_LOGIN="5/m", THROTTLE_REGISTER="20/hour", THROTTLE_PLAY="9/s")
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("SECURE_SSL_REDIRECT", "ture"),
        ("DEBUG", "flase"),
        ("STRATEGY_TABLES_BUILD_AT_START", "nope"),
        ("CELERY_TASK_ALWAYS_EAGER", "y es"),
    ],
)
def test_a_switch_that_is_neither_true_nor_false_fails_at_start(name, value):
    """django-environ reads any value but its true words as false: SECURE_SSL_REDIRECT=ture
    turned the HTTPS redirect off and DEBUG=flase was production, silently."""
    production = {"DEBUG": "false", "SECRET_KEY": "k" * 50, "DAILY_SEED_SECRET": "s" * 32}
    result = django_check(**{**production, name: value})
    assert result.returncode != 0
    assert f"{name} must be true or false, not '{value}'" in result.stderr


@pytest.mark.parametrize("value", ["False", "0", "no", "OFF"])
def test_a_switch_reads_its_usual_spellings(value):
    result = django_check(
        DEBUG=value, SECRET_KEY="k" * 50, DAILY_SEED_SECRET="s" * 32, SECURE_SSL_REDIRECT="TRUE"
    )
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(("level", "fmt"), [("debug", "plain"), ("Warning", "JSON")])
def test_log_level_and_format_read_in_any_case(level, fmt):
    """`LOG_LEVEL=debug` (gunicorn's own variable takes `info`) stopped start-up with
    logging's "Unable to configure root logger", and `LOG_FORMAT=JSON` with "Unable to
    configure handler 'console'", neither naming the variable."""
    result = django_check(LOG_LEVEL=level, LOG_FORMAT=fmt)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(("name", "value"), [("LOG_LEVEL", "verbose"), ("LOG_FORMAT", "xml")])
def test_an_unknown_log_level_or_format_fails_at_start_naming_it(name, value):
    result = django_check(**{name: value})
    assert result.returncode != 0
    assert f"{name} must be" in result.stderr


@pytest.mark.parametrize(
    ("name", "value"), [("REDIS_URL", "127.0.0.1:6379/0"), ("CELERY_BROKER_URL", "redis:6379")]
)
def test_a_redis_or_broker_address_without_its_scheme_fails_at_start(name, value):
    """REDIS_URL=127.0.0.1:6379/0 started: every cache use failed (the throttles let every
    request through) and the workers had no broker; only /health/ said so."""
    result = django_check(**{name: value})
    assert result.returncode != 0
    assert f"{name} must be" in result.stderr


def test_a_broker_of_no_transport_fails_at_start_without_repeating_its_address():
    """CELERY_BROKER_URL=foo://... started: every job send failed (logged) and the
    worker stopped on KeyError: 'No such transport: foo'."""
    result = django_check(CELERY_BROKER_URL="foo://user:secret@broker:1/0")
    assert result.returncode != 0
    assert "CELERY_BROKER_URL must be the address of a broker" in result.stderr
    assert "'foo'" in result.stderr and "secret" not in result.stderr


@pytest.mark.parametrize("hosts", ["", " ", ","])
def test_production_without_an_allowed_host_fails_at_start(hosts):
    """ALLOWED_HOSTS= started under gunicorn, and every request, /health/ included, was a
    400 (only runserver refused to start)."""
    result = django_check(
        DEBUG="false", SECRET_KEY="k" * 50, DAILY_SEED_SECRET="s" * 32, ALLOWED_HOSTS=hosts
    )
    assert result.returncode != 0
    assert "ALLOWED_HOSTS must name at least one host when DEBUG is off" in result.stderr


def test_allowed_hosts_separated_by_a_comma_and_a_space_are_each_allowed():
    """ALLOWED_HOSTS="yatzy.example.com, www.yatzy.example.com" allowed the first only:
    the second was " www.yatzy.example.com", which no Host header matches (a 400)."""
    result = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "shell",
            "-c",
            "from django.conf import settings; print(settings.ALLOWED_HOSTS)",
        ],
        cwd=ROOT,
        env={**os.environ, "ALLOWED_HOSTS": " yatzy.example.com, www.yatzy.example.com ,"},
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    assert (
        result.stdout.strip().splitlines()[-1] == "['yatzy.example.com', 'www.yatzy.example.com']"
    )


def test_csrf_trusted_origins_separated_by_a_comma_and_a_space_are_each_trusted():
    """ " https://www.yatzy.example.com" passed Django's check (it has "://") and matched
    no Origin header: every form post from that origin was a 403."""
    result = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "shell",
            "-c",
            "from django.conf import settings; print(settings.CSRF_TRUSTED_ORIGINS)",
        ],
        cwd=ROOT,
        env={
            **os.environ,
            "CSRF_TRUSTED_ORIGINS": "https://yatzy.example.com, https://www.yatzy.example.com",
        },
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == (
        "['https://yatzy.example.com', 'https://www.yatzy.example.com']"
    )


def test_an_empty_var_dir_fails_at_start_naming_it():
    """VAR_DIR= put the broker, the beat schedule and the static files in whatever
    folder the process started in."""
    result = django_check(VAR_DIR="")
    assert result.returncode != 0
    assert "VAR_DIR must be a folder" in result.stderr


def test_a_var_dir_that_is_a_file_fails_at_start_naming_it(tmp_path):
    """It stopped the start with a bare NotADirectoryError from the settings' mkdir."""
    a_file = tmp_path / "var"
    a_file.write_text("")
    result = django_check(VAR_DIR=str(a_file), CELERY_BROKER_URL="filesystem://localhost/")
    assert result.returncode != 0
    assert f"VAR_DIR must be a folder this process can create and write: {a_file}" in (
        result.stderr
    )
    assert "NotADirectoryError" not in result.stderr


@pytest.mark.parametrize("url", ["", "yatzy", "mysql://u:hunter2@db/yatzy", "foo://db/yatzy"])
def test_a_database_url_of_no_supported_database_fails_at_start_naming_it(url):
    """An empty DATABASE_URL or one without a scheme stopped the start with a bare
    ``KeyError: 'ENGINE'``; mysql:// with "Did you install mysqlclient?". The message
    names the variable and never echoes the address (its password)."""
    result = django_check(DATABASE_URL=url)
    assert result.returncode != 0
    assert "DATABASE_URL must be a postgres:// or sqlite:/// address" in result.stderr
    assert "KeyError" not in result.stderr
    assert "hunter2" not in result.stderr


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("NUM_PROXIES", "-1"),
        ("NUM_PROXIES", "one"),
        ("DAILY_CREATE_AHEAD_DAYS", "-1"),
        # SPEC §4: a challenge row exists before its day starts; with 0, tomorrow's was
        # made only once tomorrow had begun.
        ("DAILY_CREATE_AHEAD_DAYS", "0"),
        ("SKILL_RELAYS", "0"),
        ("SKILL_CHUNK_ROUNDS", "0"),
        ("API_MAX_BODY_BYTES", "0"),
    ],
)
def test_a_number_below_its_least_fails_at_start_naming_it(name, value):
    """They started wrong: NUM_PROXIES=-1 took the client address from a client-chosen
    (or missing) X-Forwarded-For entry, DAILY_CREATE_AHEAD_DAYS=-1 created no day, not
    even today's, SKILL_RELAYS=0 never analysed a day; a word was a bare ValueError."""
    result = django_check(**{name: value})
    assert result.returncode != 0
    assert f"{name} must be a whole number of at least" in result.stderr


def test_days_created_ahead_past_a_year_fail_at_start_naming_the_limit():
    """DAILY_CREATE_AHEAD_DAYS=1000000 made ``make run`` and the beat job create a row a
    day until the calendar ran out, then stop on an OverflowError after year 9999."""
    result = django_check(DAILY_CREATE_AHEAD_DAYS="1000000")
    assert result.returncode != 0
    assert "DAILY_CREATE_AHEAD_DAYS must be a whole number of at least 1 and at most 366" in (
        result.stderr
    )
    assert django_check(DAILY_CREATE_AHEAD_DAYS="366").returncode == 0


@pytest.mark.parametrize("value", ["1.5x", "half", "-0.5", "nan", "inf"])
def test_a_fair_play_loss_that_is_no_number_of_points_fails_at_start(value):
    """ "1.5x" was read as 1.5 and a word was a bare ValueError."""
    result = django_check(FAIR_PLAY_LOSS=value)
    assert result.returncode != 0
    assert "FAIR_PLAY_LOSS must be a number of points of at least 0" in result.stderr
    assert django_check(FAIR_PLAY_LOSS="0.25").returncode == 0


def test_the_env_examples_placeholder_seed_secret_fails_at_start():
    """deploy/env.example's DAILY_SEED_SECRET, left as it is, started: every day's seed
    was derivable by anyone who read the repository, before the day was played."""
    example = dict(
        line.split("=", 1)
        for line in (ROOT / "deploy" / "env.example").read_text().splitlines()
        if line and not line.startswith("#")
    )
    result = django_check(
        DEBUG="false", SECRET_KEY="k" * 50, DAILY_SEED_SECRET=example["DAILY_SEED_SECRET"]
    )
    assert result.returncode != 0
    assert "DAILY_SEED_SECRET is still deploy/env.example's placeholder" in result.stderr


def test_a_token_cache_without_redis_fails_at_start():
    """AUTH_TOKEN_CACHE_SECONDS=30 without REDIS_URL was honoured: each process kept
    tokens in its own memory, so a token logged out in one web process stayed good in
    the others for 30 s (docs/architecture.md: off without Redis)."""
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "CELERY_BROKER_URL"}}
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env={**env, "AUTH_TOKEN_CACHE_SECONDS": "30"},
        capture_output=True,
        text=True,
    )
    assert result.returncode != 0
    assert "AUTH_TOKEN_CACHE_SECONDS needs REDIS_URL" in result.stderr
    assert (
        django_check(AUTH_TOKEN_CACHE_SECONDS="30", REDIS_URL="redis://127.0.0.1:9/0").returncode
        == 0
    )


def test_the_embedded_databases_commit_is_durable_before_the_answer(tmp_path):
    """SQLite in WAL mode with ``synchronous=NORMAL`` does not sync a commit: one the
    client was told of could roll back at a power cut or an OS crash. ``FULL`` (2) syncs
    the WAL at every commit, as PostgreSQL's ``synchronous_commit`` does."""
    code = (
        "import django; django.setup()\n"
        "from django.db import connection\n"
        "with connection.cursor() as cursor:\n"
        "    print(cursor.execute('PRAGMA journal_mode').fetchone()[0],"
        " cursor.execute('PRAGMA synchronous').fetchone()[0])\n"
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
    }
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["wal", "2"]
