"""Test factories: players with authenticated API clients, played-through rounds."""

from __future__ import annotations

import itertools
from typing import Any

from django.contrib.auth.models import Permission
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import User
from accounts.services import user_token_create

_counter = itertools.count(1)


def make_player(username: str | None = None, **fields: Any) -> tuple[User, APIClient]:
    """A saved player and an API client authenticated with their token."""
    user = User.objects.create_user(
        username=username or f"player{next(_counter)}", password="correct-horse-battery-9", **fields
    )
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {user_token_create(user=user)}")
    return user, client


def staff_client(*perms: str, username: str = "staffer") -> tuple[User, Client]:
    """A staff member who is no superuser, with only ``perms`` ("app.codename"), logged
    in to the admin."""
    user = User.objects.create_user(
        username=username, password="correct-horse-battery-9", is_staff=True
    )
    for perm in perms:
        app_label, codename = perm.split(".")
        user.user_permissions.add(
            Permission.objects.get(content_type__app_label=app_label, codename=codename)
        )
    client = Client()
    client.force_login(user)
    return user, client


def play_turn(client: APIClient, round_id: str, state: dict[str, Any]) -> dict[str, Any]:
    """Finish the current turn through the API: roll if needed, reroll once keeping the
    most common face, then score the best box."""
    turn = state["turn"]
    url = f"/api/v1/rounds/{round_id}"
    if state["roll"] == 0:
        state = client.post(
            f"{url}/roll/", {"hold": [], "turn": turn, "roll": 0}, format="json"
        ).json()
    if state["rolls_left"] > 0:
        dice = state["dice"]
        best_face = max(set(dice), key=lambda face: (dice.count(face), face))
        hold = [i for i, face in enumerate(dice) if face == best_face]
        state = client.post(
            f"{url}/roll/", {"hold": hold, "turn": turn, "roll": state["roll"]}, format="json"
        ).json()
    category = max(state["options"], key=state["options"].get)
    return client.post(f"{url}/score/", {"category": category, "turn": turn}, format="json").json()


def play_round(client: APIClient, round_id: str) -> dict[str, Any]:
    """Play a started round to the end through the API; returns the final state."""
    state = client.get(f"/api/v1/rounds/{round_id}/").json()
    while state["status"] == "in_progress":
        state = play_turn(client, round_id, state)
    return state
