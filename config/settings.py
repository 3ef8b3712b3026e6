"""Settings for every environment, read from environment variables.

With no variable set this is the embedded default: SQLite, a filesystem Celery broker,
a local-memory cache and DEBUG on. Setting ``DEBUG=false`` means production: then
``SECRET_KEY`` and ``DAILY_SEED_SECRET`` must be set or start-up fails. ``DATABASE_URL``,
``REDIS_URL`` and ``CELERY_BROKER_URL`` switch to PostgreSQL and Redis.
"""

import re
from datetime import timedelta
from pathlib import Path
from typing import Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import environ
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured
from django.utils.dateparse import parse_duration
from kombu.transport import TRANSPORT_ALIASES

BASE_DIR = Path(__file__).resolve().parent.parent
env = environ.Env()
_VAR_DIR_RAW = str(env.str("VAR_DIR", default=str(BASE_DIR / "var"))).strip()
if not _VAR_DIR_RAW:
    # Path("") is the current folder: the broker, the beat schedule and the static files
    # landed wherever the process happened to start, and each process's could differ.
    raise ImproperlyConfigured("VAR_DIR must be a folder (var/), not empty.")
VAR_DIR = Path(_VAR_DIR_RAW)


def _var_folder(path: Path) -> Path:
    """``path`` under VAR_DIR, made if missing. A VAR_DIR that is a file, or one that
    cannot be made, stopped the start with a bare NotADirectoryError or PermissionError
    from deep inside the settings."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ImproperlyConfigured(
            f"VAR_DIR must be a folder this process can create and write: {path}: {error.strerror}."
        ) from None
    return path


_TRUE, _FALSE = {"true", "1", "yes", "on"}, {"false", "0", "no", "off"}


def _bool(name: str, default: bool) -> bool:
    """``true``/``false`` (or 1/0, yes/no, on/off, any case). django-environ reads every
    other value as false, so ``SECURE_SSL_REDIRECT=ture`` turned the redirect off and
    ``DEBUG=flase`` meant production, without a word."""
    raw = env.str(name, default=None)
    if raw is None:
        return default
    value = str(raw).strip().lower()
    if value in _TRUE | _FALSE:
        return value in _TRUE
    raise ImproperlyConfigured(f"{name} must be true or false, not {raw!r}.")


def _int(name: str, default: int, minimum: int, maximum: int | None = None) -> int:
    """A whole number of at least ``minimum`` (and at most ``maximum``). Below it the
    service started wrong: a negative NUM_PROXIES read a client-chosen or missing
    X-Forwarded-For entry (the throttles then let requests through),
    DAILY_CREATE_AHEAD_DAYS=-1 created no day at all, not even today's, SKILL_RELAYS=0
    never analysed a day; above it DAILY_CREATE_AHEAD_DAYS=1000000 created rows day by
    day until the calendar ran out (an OverflowError after year 9999)."""
    raw = str(env.str(name, default=str(default))).strip()
    try:
        value = int(raw)
    except ValueError:
        value = None
    if value is None or value < minimum or (maximum is not None and value > maximum):
        most = f" and at most {maximum}" if maximum is not None else ""
        raise ImproperlyConfigured(
            f"{name} must be a whole number of at least {minimum}{most}, not {raw!r}."
        )
    return value


def _choice(name: str, default: str, choices: tuple[str, ...], case: str = "lower") -> str:
    """One of ``choices``, in any case (gunicorn's GUNICORN_LOGLEVEL takes ``info``, and
    logging itself took only ``INFO``: ``debug`` failed with "Unable to configure root
    logger", ``JSON`` with "Unable to configure handler 'console'"). Anything else stops the start
    naming the variable instead of a traceback from deep inside logging."""
    raw = str(env.str(name, default=default)).strip()
    value = raw.upper() if case == "upper" else raw.lower()
    if value not in choices:
        raise ImproperlyConfigured(
            f"{name} must be {', '.join(choices[:-1])} or {choices[-1]}, not {raw!r}."
        )
    return value


DEBUG = _bool("DEBUG", default=True)
# Routes the benchmark-only views (config/urls.py); bench.api turns it on for its server.
BENCH_ENDPOINTS = _bool("BENCH_ENDPOINTS", default=False)


def _required_in_production(name: str, dev_default: str) -> str:
    value = str(env.str(name, default=""))
    if value and not DEBUG and value.startswith("change-me"):
        # deploy/env.example's placeholder: a DAILY_SEED_SECRET everyone can read gives
        # away every day's seed before it is played.
        raise ImproperlyConfigured(
            f"{name} is still deploy/env.example's placeholder: set a random secret."
        )
    if value:
        return value
    if not DEBUG:
        raise ImproperlyConfigured(f"{name} must be set when DEBUG is off (production).")
    return dev_default


SECRET_KEY = _required_in_production("SECRET_KEY", "dev-only-insecure-secret-key-" + "x" * 40)
if not DEBUG and len(SECRET_KEY) < 50:
    # Django's own deploy check asks for 50 characters; a short key is guessable.
    raise ImproperlyConfigured("SECRET_KEY must be at least 50 characters when DEBUG is off.")
DAILY_SEED_SECRET = _required_in_production("DAILY_SEED_SECRET", "dev-only-daily-seed-secret")
if not DEBUG and len(DAILY_SEED_SECRET) < 32:
    # Every day's commitment, sha256(HMAC-SHA256(secret, date)), is public before the day
    # is played: a short secret is found from it offline, and with it every seed to come.
    raise ImproperlyConfigured(
        "DAILY_SEED_SECRET must be at least 32 characters when DEBUG is off."
    )


def _names(name: str, default: list[str]) -> list[str]:
    """A comma-separated list, each item stripped and empty ones dropped. django-environ
    keeps the spaces: "a.example, b.example" allowed " b.example", which no Host header
    matches (b.example answered 400), and " https://b.example" passed Django's check of
    CSRF_TRUSTED_ORIGINS yet matched no Origin header (every form post from it a 403)."""
    return [item.strip() for item in env.list(name, default=default) if item.strip()]


ALLOWED_HOSTS = _names("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"])
if not ALLOWED_HOSTS and not DEBUG:
    # runserver refuses to start so; gunicorn started, and answered every request 400.
    raise ImproperlyConfigured("ALLOWED_HOSTS must name at least one host when DEBUG is off.")
CSRF_TRUSTED_ORIGINS = _names("CSRF_TRUSTED_ORIGINS", [])
# A page form posted with a stale token is the page the form is on with a message,
# nothing done, not a bare 403 (web.helpers.csrf_failure).
CSRF_FAILURE_VIEW = "web.helpers.csrf_failure"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "knox",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "health_check",  # its HTML page, for a browser or a plain curl
    "accounts",
    "daily",
    "games",
    "leaderboards",
    "web",
]

MIDDLEWARE = [
    "config.observability.RequestIdMiddleware",
    # Accept-Language for the request and Content-Language on every answer, before
    # anything that may answer (config/i18n.py).
    "config.i18n.LanguageMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "config.api_guard.ApiGuardMiddleware",
    # Inside the guard, which words its 400 as JSON under /api/.
    "config.nul_guard.NulGuardMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Sessions, authentication, the player's language and messages serve pages and the
    # admin; an API request with a token passes them by (accounts/middleware.py).
    "accounts.middleware.SessionMiddleware",
    # Django's, with a 308 for an API path missing its trailing slash (config/api_guard.py).
    "config.api_guard.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "accounts.middleware.AuthenticationMiddleware",
    # A logged-in player's profile language over the header (pages, the admin); API
    # tokens are read in the view, where accounts.auth does the same.
    "accounts.middleware.PlayerLanguageMiddleware",
    "accounts.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "web.middleware.PageHeadersMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
AUTH_USER_MODEL = "accounts.User"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "web.context.site",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------
DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
if DATABASES["default"].get("ENGINE") not in {
    "django.db.backends.sqlite3",
    "django.db.backends.postgresql",
}:
    # An empty DATABASE_URL or one without a scheme stopped the start with a bare
    # KeyError: 'ENGINE'; mysql:// asked for a driver the service does not run on. The
    # address itself is not repeated: it holds the database password.
    raise ImproperlyConfigured(
        "DATABASE_URL must be a postgres:// or sqlite:/// address "
        "(postgres://user:pass@host:5432/yatzy)."
    )
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets readers run beside the writer; IMMEDIATE transactions take the write lock
    # up front, so concurrent writers queue on busy_timeout instead of failing with
    # "database is locked" when a read lock would have to be upgraded. synchronous=FULL
    # syncs the WAL at every commit, so an answer is sent only after its write is
    # durable (NORMAL, WAL's usual pairing, lets a power cut roll back commits already
    # answered; about 3 ms a commit on this machine's disk).
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 20,
        "transaction_mode": "IMMEDIATE",
        "init_command": (
            "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA busy_timeout=20000;"
        ),
    }
    # A file, not Django's in-memory default, so threads and live-server processes in
    # tests share one database the way a real deployment does.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / "test-db.sqlite3")}
else:
    DATABASES["default"].setdefault("CONN_MAX_AGE", _int("CONN_MAX_AGE", default=60, minimum=0))
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        # A server that accepts and never answers (frozen, a stalled host) held each new
        # connection without end, until gunicorn killed the worker; libpq gives up after
        # this many seconds (the API's 503 database_unavailable). DATABASE_URL's
        # ?connect_timeout= sets another.
        DATABASES["default"].setdefault("OPTIONS", {}).setdefault("connect_timeout", 5)
        # Django's own, with a health check that asks the socket instead of the server
        # and prepared statements for the play path (config/postgresql/base.py).
        DATABASES["default"]["ENGINE"] = "config.postgresql"

# --- Cache and Redis ------------------------------------------------------------------
REDIS_URL = env.str("REDIS_URL", default="")
if REDIS_URL and not REDIS_URL.startswith(("redis://", "rediss://", "unix://")):
    # 127.0.0.1:6379 started: the cache failed on every use (the throttles let all
    # through) and the workers could not reach their broker; only /health/ said so.
    raise ImproperlyConfigured(
        f"REDIS_URL must be a redis://, rediss:// or unix:// address, not {REDIS_URL!r}."
    )
if REDIS_URL:
    CACHES = {
        "default": {
            # Django's Redis backend, with its client reused (config/cache.py).
            "BACKEND": "config.cache.Cache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# --- Celery ---------------------------------------------------------------------------
# The filesystem transport ignores the host, but kombu warns "No hostname was supplied"
# on every connection to a URL without one.
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default=REDIS_URL or "filesystem://localhost/")
if "://" not in CELERY_BROKER_URL:
    raise ImproperlyConfigured(
        f"CELERY_BROKER_URL must be a broker address (redis://host:6379/0), "
        f"not {CELERY_BROKER_URL!r}."
    )
# A scheme no kombu transport has (foo://) started the web, whose every job send then
# failed (logged), while the worker stopped on KeyError: 'No such transport'. Only the
# scheme is named: the address may carry a password.
if CELERY_BROKER_URL.split("://", 1)[0] not in TRANSPORT_ALIASES:
    raise ImproperlyConfigured(
        f"CELERY_BROKER_URL must be the address of a broker Celery can use "
        f"(redis://host:6379/0), not one of scheme "
        f"{CELERY_BROKER_URL.split('://', 1)[0]!r}."
    )
if CELERY_BROKER_URL.startswith("filesystem://"):
    # kombu's transport with an atomic publish: its own lets a worker read a message
    # file before it is written and stop on the error (config/broker.py).
    CELERY_BROKER_TRANSPORT = "config.broker:Transport"
    _queue_dir = VAR_DIR / "celery-broker"
    for _sub in ("queue", "processed", "control"):
        _var_folder(_queue_dir / _sub)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_queue_dir / "queue"),
        "data_folder_out": str(_queue_dir / "queue"),
        "processed_folder": str(_queue_dir / "processed"),
        "control_folder": str(_queue_dir / "control"),
        "store_processed": False,
        # How often an idle worker looks for a new job file (kombu's default is 1 s).
        "polling_interval": 0.2,
    }
elif CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
    # A job left unacknowledged by a dead worker is redelivered after this many seconds
    # (tests shorten it to watch a killed job come back).
    # The socket timeouts bound a Redis that accepts and never answers (stopped, swapping,
    # a half-open connection): without them a job sent after a commit waited for it
    # without end, and the request with it until gunicorn killed its worker (a 500 for a
    # score already stored). 5 s leaves the worker's BRPOP, answered within 1 s, room.
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "visibility_timeout": _int("CELERY_BROKER_VISIBILITY_TIMEOUT", default=3600, minimum=1),
        "socket_timeout": 5,
        "socket_connect_timeout": 2,
    }
CELERY_TASK_ALWAYS_EAGER = _bool("CELERY_TASK_ALWAYS_EAGER", default=False)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_IGNORE_RESULT = True
# A job is acknowledged only once it has finished, so a worker killed mid-job leaves it
# queued for the next worker; every job is idempotent, so running it twice is harmless.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
# Celery's file-backed scheduler, except that it never waits on a last run the file
# places in the future (a clock that went back): config.celery.ClockSafeScheduler.
CELERY_BEAT_SCHEDULER = "config.celery:ClockSafeScheduler"
CELERY_IMPORTS = ["config.tasks"]  # the project's own jobs (the apps' are autodiscovered)
# The beat schedule lives here in code (reviewed, versioned, identical on every deploy);
# exactly one `celery beat` process runs it.
# Strategy-table builds take minutes of CPU (Maxi): they have their own queue and worker,
# so board updates never wait behind one.
# The analysis of a revealed day's rounds (games.skill) is an hour of CPU at a million
# rounds: its own queue too, served by the tables worker and any analysis workers.
CELERY_TASK_ROUTES = {
    "games.tasks.tables_build_due": {"queue": "tables"},
    "games.tasks.skill_analyse_next": {"queue": "analysis"},
}
CELERY_BEAT_SCHEDULE = {
    "games-tables-build-due": {
        "task": "games.tasks.tables_build_due",
        "schedule": timedelta(seconds=30),
        "options": {"expires": 25},
    },
    # What the expert scored on each revealed day's dice, once the Maxi table exists.
    "games-experts-play-due": {
        "task": "games.tasks.experts_play_due",
        "schedule": timedelta(minutes=5),
        "options": {"expires": 280},
    },
    # Plan the analysis of each revealed day's ranked rounds, and restart its chunks'
    # relays if they stopped (a worker killed mid-chunk, a message the broker lost).
    "games-analyses-due": {
        "task": "games.tasks.skill_analyses_due",
        "schedule": timedelta(minutes=1),
        "options": {"expires": 55},
    },
    "daily-ensure-upcoming-challenges": {
        "task": "daily.tasks.challenges_ensure_upcoming",
        "schedule": crontab(minute="*/15"),
    },
    "daily-close-due-days": {
        "task": "games.tasks.days_close_due",
        "schedule": timedelta(minutes=1),
    },
    # Board updates still owed for rounds completed over 30 s ago: their jobs were lost
    # (the broker was down when they were sent). Cheap: reads a table of pending rows.
    "leaderboards-catch-up": {
        "task": "leaderboards.tasks.boards_catch_up",
        "schedule": timedelta(seconds=30),
    },
    # Rebuild every derived board from the Round table (the source of truth): repairs
    # anything a lost job or a Redis outage left behind. Off-peak, daily.
    "leaderboards-reconcile": {
        "task": "leaderboards.tasks.boards_reconcile",
        "schedule": crontab(hour=3, minute=17),
    },
}
if CELERY_BROKER_URL.startswith("filesystem://"):
    # The filesystem broker has no broadcast channel for /health/ to ping a worker on:
    # instead the worker runs this job and /health/ looks at when it last did
    # (config.health.WorkerHeartbeat).
    CELERY_BEAT_SCHEDULE["worker-heartbeat"] = {
        "task": "config.tasks.worker_heartbeat",
        "schedule": timedelta(seconds=10),
    }

# --- The daily challenge --------------------------------------------------------------
DAILY_TIME_ZONE = str(env.str("DAILY_TIME_ZONE", default="UTC"))
try:  # an unknown zone would fail every request that asks what day it is
    ZoneInfo(DAILY_TIME_ZONE)
except (ValueError, ZoneInfoNotFoundError) as exc:
    raise ImproperlyConfigured(
        f"DAILY_TIME_ZONE must be an IANA time zone (UTC, Europe/Copenhagen): {exc}"
    ) from exc
_grace = str(env.str("DAILY_GRACE", default="30"))
_grace_parsed = timedelta(minutes=int(_grace)) if _grace.isdigit() else parse_duration(_grace)
# The seed is revealed when the grace period ends: a negative one would reveal it while
# the day's ranked rounds are played, and one of a day or more would still let
# yesterday's rounds be played when today's day ends (daily/clock.py assumes less).
if _grace_parsed is None or not timedelta(0) <= _grace_parsed < timedelta(days=1):
    raise ImproperlyConfigured(
        "DAILY_GRACE must be minutes (30) or a duration (00:30:00), at least 0 and under a day."
    )
DAILY_GRACE: timedelta = _grace_parsed
# How many days ahead the beat job creates challenge rows.
DAILY_CREATE_AHEAD_DAYS = _int("DAILY_CREATE_AHEAD_DAYS", default=2, minimum=1, maximum=366)

# --- Strategy tables -----------------------------------------------------------------
# Tables for options other than the rulesets' defaults are built on demand, at most this
# many (a Maxi table is 268 MB and minutes of CPU).
STRATEGY_TABLES_MAX_CUSTOM = _int("STRATEGY_TABLES_MAX_CUSTOM", default=6, minimum=0)
# ... of which one player's games may need at most this many (games/tables.py).
STRATEGY_TABLES_MAX_CUSTOM_PER_PLAYER = _int(
    "STRATEGY_TABLES_MAX_CUSTOM_PER_PLAYER", default=2, minimum=0
)
# A worker that starts queues the missing default tables (Yatzy, Yahtzee, then Maxi).
STRATEGY_TABLES_BUILD_AT_START = _bool("STRATEGY_TABLES_BUILD_AT_START", default=True)

# --- Skill and luck (games.skill) -----------------------------------------------------
# Rounds per chunk of a revealed day's analysis, and how many chunk jobs circulate at a
# time (at least the number of processes serving the `analysis` queue).
SKILL_CHUNK_ROUNDS = _int("SKILL_CHUNK_ROUNDS", default=200, minimum=1)
SKILL_RELAYS = _int("SKILL_RELAYS", default=16, minimum=1)
# A chunk whose worker has stored nothing for this long lost it: another worker takes it.
SKILL_STALE_SECONDS = _int("SKILL_STALE_SECONDS", default=60, minimum=1)
# Fair play: an analysed ranked round that lost fewer expected points than this is
# flagged for review in the admin.
_fair_play_loss = str(env.str("FAIR_PLAY_LOSS", default="0.5")).strip()
try:
    FAIR_PLAY_LOSS = float(_fair_play_loss)
except ValueError:
    FAIR_PLAY_LOSS = -1.0
if not 0 <= FAIR_PLAY_LOSS < float("inf"):
    # django-environ took the number at the front ("1.5x" was 1.5) and gave a bare
    # ValueError for a word.
    raise ImproperlyConfigured(
        f"FAIR_PLAY_LOSS must be a number of points of at least 0, not {_fair_play_loss!r}."
    )

# --- Auth and API ---------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# The pages log in with Django's sessions (the API keeps its tokens; a page's script
# may call the API with the session, and DRF then checks its CSRF token).
LOGIN_URL = "web:login"
LOGIN_REDIRECT_URL = "web:home"
LOGOUT_REDIRECT_URL = "web:home"

# API tokens (django-rest-knox): only a SHA-512 digest of each is stored; one token per
# log-in, shown once, deleted by its log-out. They do not expire (the terminal client
# keeps one for months); a player holds at most accounts.services.TOKENS_PER_PLAYER,
# the oldest log-in ending when a new one would pass it.
REST_KNOX = {"TOKEN_TTL": None, "AUTH_HEADER_PREFIX": "Token", "AUTO_REFRESH": False}
# A token found in the database is kept, with its player, in the cache for this many
# seconds, so the next requests skip the query (accounts/auth.py); log-out and profile
# changes invalidate it at once. Only where the cache is shared by every web process
# (Redis): a process's local memory would not see another process's log-out. 0: off.
AUTH_TOKEN_CACHE_SECONDS = _int(
    "AUTH_TOKEN_CACHE_SECONDS", default=30 if REDIS_URL else 0, minimum=0
)
if AUTH_TOKEN_CACHE_SECONDS and not REDIS_URL:
    # Set by hand without Redis it was honoured: each process kept tokens in its own
    # memory, and a token logged out in one stayed good in the others for that long.
    raise ImproperlyConfigured(
        "AUTH_TOKEN_CACHE_SECONDS needs REDIS_URL (a cache every web process shares); "
        "without it, leave it unset or 0."
    )

# The JSON API accepts small bodies only: the largest real request is a few hundred
# bytes. Over the limit: 413 before anything reads the body (config.api_guard).
API_MAX_BODY_BYTES = _int("API_MAX_BODY_BYTES", default=4096, minimum=1)
API_MAX_JSON_DEPTH = 16


def _throttle_rate(name: str, default: str) -> str:
    """A DRF rate, ``N/second``, ``N/minute``, ``N/hour`` or ``N/day``. DRF reads only the
    period's first letter (``30/month`` was 30 a minute) and a rate it cannot parse
    raised in every request's throttle, which lets the request through: the limit was
    off without a word. ``0/hour`` was read apart by the two caches: no limit on Redis,
    every request refused on the embedded default's."""
    rate = str(env.str(name, default=default)).strip()
    if not re.fullmatch(r"0*[1-9][0-9]*/(s|sec|second|m|min|minute|h|hour|d|day)", rate):
        raise ImproperlyConfigured(
            f"{name} must be a number of requests per second, minute, hour or day, "
            f"at least 1 (30/minute), not {rate!r}."
        )
    return rate


REST_FRAMEWORK: dict[str, Any] = {
    # JSON in, JSON out: no form or multipart bodies, no browsable HTML API (the
    # interactive docs are Swagger UI at /api/docs/).
    "DEFAULT_PARSER_CLASSES": ["config.parsers.JSONParser"],
    "DEFAULT_RENDERER_CLASSES": ["config.renderers.OrjsonRenderer"],
    # DRF's negotiation, its common case answered without parsing (config/negotiation.py).
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "config.negotiation.ContentNegotiation",
    # No OPTIONS metadata (405 like any method the schema does not list): the schema at
    # /api/schema/ describes every operation.
    "DEFAULT_METADATA_CLASS": None,
    # How many proxies in front of the app set X-Forwarded-For; the client address for
    # the per-IP throttles is the one the nearest trusted proxy saw. 0 (the default):
    # no proxy is trusted and REMOTE_ADDR is the client, so a client cannot pick its
    # own address with the header. deploy/ sets it for its proxy.
    "NUM_PROXIES": _int("NUM_PROXIES", default=0, minimum=0),
    # Hashed tokens (knox, accounts/auth.py), answering in the player's profile language;
    # session users have theirs from accounts.middleware already.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.auth.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "config.openapi.ApiSchema",
    "EXCEPTION_HANDLER": "config.api_errors.exception_handler",
    "DEFAULT_THROTTLE_CLASSES": ["config.throttling.ScopedThrottle"],
    "DEFAULT_THROTTLE_RATES": {
        "register": _throttle_rate("THROTTLE_REGISTER", "20/hour"),
        "login": _throttle_rate("THROTTLE_LOGIN", "30/minute"),
        "play": _throttle_rate("THROTTLE_PLAY", "600/minute"),
        # Hints and analyses are reads: their own budget, so a player asking for hints
        # is never throttled from rolling and scoring.
        "advice": _throttle_rate("THROTTLE_ADVICE", "600/minute"),
        # Friend codes are 40 random bits; looking them up and starting them has its
        # own limit, per player, so guessing gets nowhere.
        "friend": _throttle_rate("THROTTLE_FRIEND", "30/minute"),
    },
    "DEFAULT_PAGINATION_CLASS": "config.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Maxi Yatzy Daily API",
    "DESCRIPTION": "One seeded Maxi Yatzy dice sequence per day, the same for everyone.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # Tags and operation ids from the path after /api/v1/ ("rounds", "rounds_roll_create"),
    # so a generated client groups its modules by resource instead of one "v1" group.
    "SCHEMA_PATH_PREFIX": r"/api/v[0-9]+",
    # Our path converters' types, so a generated client takes a date and an int for them.
    "PATH_CONVERTER_OVERRIDES": {
        "isodate": {"type": "string", "format": "date"},
        "year": {"type": "integer", "minimum": 1000, "maximum": 9999},
    },
    "ENUM_NAME_OVERRIDES": {
        "RoundModeEnum": ["daily", "solo", "computer", "friend", "party"],
        "NewGameModeEnum": ["solo", "computer", "party"],
        "RoundStatusEnum": ["in_progress", "completed", "expired"],
        "PartyStatusEnum": ["in_progress", "completed"],
        "RulesetEnum": ["maxi", "yatzy", "yahtzee"],
    },
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums"],
}

# --- Internationalisation -------------------------------------------------------------
# English, the language of the message ids, when neither the player's profile nor the
# request's Accept-Language names one of LANGUAGES (docs/i18n.md). Each language is
# named in itself, as a language menu shows it.
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("da", "Dansk"),
    ("de", "Deutsch"),
    ("fr", "Français"),
    ("es", "Español"),
    ("it", "Italiano"),
    ("sv", "Svenska"),
    ("nb", "Norsk bokmål"),
    ("fi", "Suomi"),
    ("nl", "Nederlands"),
    ("pl", "Polski"),
    ("ja", "日本語"),
]
# The project's catalogues; the .mo files are compiled from the committed .po files at
# install (make install, make run, the Dockerfile): python -m config.catalogues.
LOCALE_PATHS = [BASE_DIR / "locale"]
# The language cookie (the language menu, the settings page) is sent like the session's:
# same-site only, and over HTTPS only in production (below).
LANGUAGE_COOKIE_SAMESITE: Literal["Lax"] = "Lax"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# --- Static files ---------------------------------------------------------------------
STATIC_URL = "static/"
STATIC_ROOT = _var_folder(VAR_DIR / "static")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# --- Production hardening (DEBUG off) -------------------------------------------------
if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = _bool("SECURE_SSL_REDIRECT", default=True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = _int("SECURE_HSTS_SECONDS", default=31536000, minimum=0)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

# JSON lines in production (LOG_FORMAT=json), plain text in development; every record
# carries the request id. Seeds are never logged: only commitments and dates.
LOG_FORMAT = _choice("LOG_FORMAT", "plain" if DEBUG else "json", ("plain", "json"))
LOG_LEVEL = _choice(
    "LOG_LEVEL", "INFO", ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"), case="upper"
)
# Celery's worker and beat log through this configuration too where it writes JSON: left
# to themselves they replace the root logger's handlers with their own text lines, which
# a JSON log pipeline cannot read (in development Celery's own lines stay).
CELERY_WORKER_HIJACK_ROOT_LOGGER = LOG_FORMAT != "json"
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "request_id": {"()": "config.observability.RequestIdFilter"},
        "no_error_access_lines": {"()": "config.observability.NoErrorAccessLines"},
    },
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"},
        "json": {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "fmt": "%(asctime)s %(levelname)s %(name)s %(request_id)s %(message)s",
            "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"},
        },
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": LOG_FORMAT,
            "filters": ["request_id"],
        }
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    # At DEBUG this logger writes every SQL statement with its parameters, seeds among
    # them: never below INFO, whatever LOG_LEVEL says.
    "loggers": {
        "django.db.backends": {"level": "INFO", "propagate": True},
        # Django's own logging config gives this logger a console handler of its own when
        # DEBUG is on; its records also reach the root handler above, so each 4xx was
        # printed twice. Only the root handler now prints them, with the request id.
        "django": {"handlers": [], "propagate": True},
        # runserver's access lines (make run), through the same handler. Django logs each
        # 4xx and 5xx answer itself (django.request), so those access lines are left out.
        "django.server": {
            "handlers": ["console"],
            "filters": ["no_error_access_lines"],
            "propagate": False,
        },
    },
}
