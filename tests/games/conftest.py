"""Helpers for games of every mode, played through the HTTP API."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.live.conftest import (  # noqa: F401  (the live-stack fixtures, for test_live_skill)
    live_stack_factory,
    settings_override_for_live,
)


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def new_game(client: APIClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/v1/games/", body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def act(client: APIClient, state: dict[str, Any], action: str, **body: Any) -> dict[str, Any]:
    response = client.post(f"/api/v1/rounds/{state['id']}/{action}/", body, format="json")
    assert response.status_code == 200, response.json()
    return response.json()


def roll(client: APIClient, state: dict[str, Any], hold: list[int] | None = None) -> dict[str, Any]:
    return act(client, state, "roll", hold=hold or [], turn=state["turn"], roll=state["roll"])


def score(client: APIClient, state: dict[str, Any], category: str) -> dict[str, Any]:
    return act(client, state, "score", category=category, turn=state["turn"])


def hint(client: APIClient, state: dict[str, Any]) -> dict[str, Any]:
    response = client.get(f"/api/v1/rounds/{state['id']}/hint/")
    assert response.status_code == 200, response.json()
    return response.json()


def play_by_hints(client: APIClient, state: dict[str, Any]) -> dict[str, Any]:
    """Play to the end, always making the hint's best move."""
    while state["status"] == "in_progress":
        best = hint(client, state)["best"]
        if best["kind"] == "score":
            state = score(client, state, best["category"])
        else:
            state = roll(client, state, best["hold"])
    return state


def play_worst_boxes(client: APIClient, state: dict[str, Any]) -> dict[str, Any]:
    """Play to the end badly: one roll a turn, then the open box with the fewest points."""
    while state["status"] == "in_progress":
        state = roll(client, state)
        state = score(client, state, min(state["options"], key=state["options"].get))
    return state
