"""``GET accounts/me/`` builds its answer by hand (``MeSerializer.to_representation``,
for speed); it must be what DRF renders from the serializer's declared fields, for a
fresh profile and for one with every field set, and name every field the schema
does."""

import pytest
from rest_framework import serializers

from accounts.serializers import MeSerializer
from tests.factories import make_player

pytestmark = pytest.mark.django_db


def drf_rendering(user) -> dict:
    return dict(serializers.Serializer.to_representation(MeSerializer(user), user))


def test_a_fresh_profile_is_what_drf_renders_from_the_fields():
    user, client = make_player("fresh")
    answer = client.get("/api/v1/accounts/me/").json()
    user.refresh_from_db()
    assert answer == drf_rendering(user)
    assert set(answer) == set(MeSerializer().fields)


def test_a_profile_with_every_field_set_is_what_drf_renders_from_the_fields():
    user, client = make_player("settled")
    changed = client.patch(
        "/api/v1/accounts/me/",
        {
            "display_name": "Ünïcode Åse",
            "language": "nb",
            "time_zone": "Europe/Oslo",
            "ruleset": "yatzy",
            "options": {"upper_bonus": [62, 50]},
        },
        format="json",
    )
    assert changed.status_code == 200, changed.json()
    user.refresh_from_db()
    assert changed.json() == drf_rendering(user)
    assert client.get("/api/v1/accounts/me/").json() == drf_rendering(user)
    assert changed.json()["options"] == {"upper_bonus": [62, 50]}
