"""The production configuration passes Django's deploy checks and the compose file is
valid."""

import os
import secrets
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_check_deploy_prints_no_warning_with_production_settings():
    env = {
        **os.environ,
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "DAILY_SEED_SECRET": secrets.token_urlsafe(32),
        "ALLOWED_HOSTS": "yatzy.example.com",
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_the_language_cookie_is_secure_and_same_site_in_production():
    # Django leaves the language cookie without Secure and SameSite unless told; the
    # session's and CSRF's are set in the same production block.
    script = (
        "import django; django.setup()\n"
        "from django.test import Client\n"
        "answer = Client().post('/i18n/setlang/', {'language': 'de', 'next': '/'}, secure=True)\n"
        "cookie = answer.cookies['django_language']\n"
        "print(cookie.value, bool(cookie['secure']), cookie['samesite'])\n"
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "DAILY_SEED_SECRET": secrets.token_urlsafe(32),
        "ALLOWED_HOSTS": "testserver",
    }
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["de", "True", "Lax"]


def test_compose_file_validates(tmp_path):
    deploy = ROOT / "deploy"
    if shutil.which("docker-compose"):
        command = ["docker-compose"]
    elif (
        shutil.which("docker")
        and subprocess.run(["docker", "compose", "version"], capture_output=True).returncode == 0
    ):
        command = ["docker", "compose"]
    else:
        pytest.skip("neither `docker compose` nor `docker-compose` is installed")
    env_file = deploy / ".env"
    created = not env_file.exists()
    if created:
        env_file.write_text((deploy / "env.example").read_text())
    try:
        result = subprocess.run(
            [*command, "-f", str(deploy / "docker-compose.yml"), "config", "-q"],
            capture_output=True,
            text=True,
        )
    finally:
        if created:
            env_file.unlink()
    assert result.returncode == 0, result.stderr


def test_the_images_build_time_settings_load():
    # The Dockerfile runs collectstatic with stand-in secrets; they must satisfy the
    # production settings (a SECRET_KEY of at least 50 characters, a DAILY_SEED_SECRET of
    # at least 32), or the build fails.
    import re

    dockerfile = (ROOT / "deploy" / "Dockerfile").read_text()
    step = re.search(r"RUN (SECRET_KEY=.*?) python manage.py collectstatic", dockerfile, re.S)
    assert step is not None
    assigned = dict(re.findall(r"(\w+)=(\S+)", step.group(1)))
    assert {"SECRET_KEY", "DAILY_SEED_SECRET", "DEBUG"} <= set(assigned)
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env={**os.environ, **assigned},
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr


def test_only_the_proxy_is_published_and_num_proxies_counts_it():
    import yaml

    compose = yaml.safe_load((ROOT / "deploy" / "docker-compose.yml").read_text())
    services = compose["services"]
    published = {name for name, service in services.items() if service.get("ports")}
    assert published == {"proxy"}, published  # gunicorn is reached through Caddy only
    proxy = services["proxy"]
    assert proxy["image"].startswith("caddy:")
    assert "./Caddyfile:/etc/caddy/Caddyfile:ro" in proxy["volumes"]
    assert proxy["environment"]["UPSTREAM"] == "web:8000"
    assert {"80:80", "443:443"} <= set(proxy["ports"])
    example = dict(
        line.split("=", 1)
        for line in (ROOT / "deploy" / "env.example").read_text().splitlines()
        if line and not line.startswith("#")
    )
    # One proxy sets X-Forwarded-For: the per-IP throttles trust exactly one.
    assert example["NUM_PROXIES"] == "1"
    assert example["SITE_ADDRESS"]


def test_the_web_healthcheck_reaches_health_behind_productions_redirect_and_hosts():
    """The compose file's web healthcheck asks gunicorn itself (``127.0.0.1:8000``, plain
    HTTP): with the deploy's settings, ``SECURE_SSL_REDIRECT`` answered it 301 (to
    https on a port that speaks HTTP) and a Host outside ``ALLOWED_HOSTS`` 400, so the
    container was never healthy. Its request, sent through Django's test client with
    those settings, must reach ``/health/``."""
    import yaml

    compose = yaml.safe_load((ROOT / "deploy" / "docker-compose.yml").read_text())
    command = compose["services"]["web"]["healthcheck"]["test"]
    assert command[:3] == ["CMD", "python", "-c"]
    script = (
        "import django, urllib.parse, urllib.request\n"
        "django.setup()\n"
        "from django.test import Client\n"
        "def urlopen(request, timeout=None):\n"
        "    if isinstance(request, str):\n"
        "        request = urllib.request.Request(request)\n"
        "    url = urllib.parse.urlsplit(request.full_url)\n"
        "    meta = {'HTTP_' + k.upper().replace('-', '_'): v for k, v in request.header_items()}\n"
        "    meta.setdefault('HTTP_HOST', url.netloc)\n"
        "    answer = Client(raise_request_exception=False).get(\n"
        "        url.path, dict(urllib.parse.parse_qsl(url.query)), **meta\n"
        "    )\n"
        "    print(answer.status_code, answer['Content-Type'])\n"
        "    return type('Answer', (), {'status': answer.status_code})\n"
        "urllib.request.urlopen = urlopen\n"
        f"try:\n    exec({command[3]!r})\nexcept SystemExit:\n    pass\n"
    )
    example = dict(
        line.split("=", 1)
        for line in (ROOT / "deploy" / "env.example").read_text().splitlines()
        if line and not line.startswith("#")
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "DAILY_SEED_SECRET": secrets.token_urlsafe(32),
        "ALLOWED_HOSTS": example["ALLOWED_HOSTS"],
        "SECURE_SSL_REDIRECT": example["SECURE_SSL_REDIRECT"],
    }
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True
    )
    # The health view's own answer (200, or 503 where this checkout runs no worker).
    status, content_type = result.stdout.split()[:2]
    assert status in {"200", "503"}, result.stdout + result.stderr
    assert content_type == "application/json"


@pytest.mark.parametrize(
    "path",
    [
        "deploy/.env",
        ".git/config",
        ".venv/bin/python",
        "var/tables/maxi.bin",
        "var/celery-broker/queue/x.msg",
        "db.sqlite3",
        "db.sqlite3-wal",
        "games/__pycache__/models.cpython-311.pyc",
    ],
)
def test_the_image_leaves_out_the_secrets_and_the_checkouts_state(path):
    """The Dockerfile copies the whole build context (`COPY . .`, context the repository):
    without a .dockerignore the image held deploy/.env, SECRET_KEY, DAILY_SEED_SECRET and
    POSTGRES_PASSWORD with it, for anyone who pulls the image, and the checkout's
    .venv, databases and strategy tables. Docker's rules: a pattern matches a path or a
    folder above it, `**` any number of folders."""
    import fnmatch

    patterns = [
        line.strip()
        for line in (ROOT / ".dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    parts = path.split("/")
    prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]

    def matches(pattern: str, candidate: str) -> bool:
        if pattern.startswith("**/"):
            return any(
                fnmatch.fnmatchcase("/".join(candidate.split("/")[i:]), pattern[3:])
                for i in range(len(candidate.split("/")))
            )
        return fnmatch.fnmatchcase(candidate, pattern)

    assert any(matches(p, c) for p in patterns for c in prefixes), path


def test_every_celery_worker_of_the_compose_file_is_checked_by_its_own_name():
    """The tables and analysis workers had no healthcheck: one that stopped answering
    (a hung build, a lost broker connection) was never restarted nor shown unhealthy."""
    import re

    import yaml

    services = yaml.safe_load((ROOT / "deploy" / "docker-compose.yml").read_text())["services"]
    workers = {
        name: service
        for name, service in services.items()
        if service.get("command", [])[:4] == ["celery", "-A", "config", "worker"]
    }
    assert set(workers) == {"worker", "tables", "analysis"}
    for name, service in workers.items():
        command = service["command"]
        node = command[command.index("-n") + 1].split("@")[0] if "-n" in command else "celery"
        check = service["healthcheck"]["test"]
        assert check[0] == "CMD-SHELL", name
        assert re.fullmatch(
            rf"celery -A config inspect ping -d {node}@\$\$HOSTNAME --timeout \d+", check[1]
        ), name
