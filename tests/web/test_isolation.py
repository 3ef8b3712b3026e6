"""Under concurrent load every page answer is its own player's: no cache or shared
state hands one player's page to another."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from django.conf import settings
from django.test import Client

from tests.factories import make_player

pytestmark = pytest.mark.live


def test_concurrent_players_each_see_only_their_own_pages(live_server):
    players = {}
    for name in ("alba", "bruno", "chen", "dara"):
        user, _ = make_player(name, display_name=f"Player {name.title()}", time_zone="UTC")
        client = Client()
        client.force_login(user)
        players[name] = client.cookies[settings.SESSION_COOKIE_NAME].value

    def fetch(job: tuple[str, str]) -> tuple[str, str, str]:
        name, path = job
        cookies = {settings.SESSION_COOKIE_NAME: players[name]}
        with httpx.Client(base_url=live_server.url, cookies=cookies, timeout=30) as http:
            response = http.get(path)
        assert response.status_code == 200, (path, response.status_code)
        assert "private" in response.headers["Cache-Control"]
        return name, path, response.text

    jobs = [(name, path) for _ in range(10) for name in players for path in ("/", "/settings/")]
    with ThreadPoolExecutor(max_workers=8) as pool:
        answers = list(pool.map(fetch, jobs))
    assert len(answers) == 80
    for name, path, page in answers:
        assert f"Logged in as <bdi>Player {name.title()}</bdi>" in page, path
        for other in players.keys() - {name}:
            assert f"Player {other.title()}" not in page, (name, path, other)
