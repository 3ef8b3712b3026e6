"""The API's orjson renderer writes the bytes DRF's JSON renderer writes (issue #25):
a round's state, an error with translated text, dates and times, the characters DRF
escapes; what orjson cannot write falls back to DRF's renderer instead of failing."""

from __future__ import annotations

import datetime as dt
import uuid
from decimal import Decimal

import pytest
from django.utils.translation import gettext_lazy
from rest_framework.renderers import JSONRenderer

from config.renderers import OrjsonRenderer
from tests.factories import make_player

pytestmark = pytest.mark.django_db


def both(data, media_type="application/json", context=None):
    ours = OrjsonRenderer().render(data, media_type, context or {})
    drf = JSONRenderer().render(data, media_type, context or {})
    return ours, drf


def test_a_round_and_its_409_render_as_drf_renders_them():
    _user, client = make_player()
    started = client.post("/api/v1/games/", {"mode": "solo", "ruleset": "maxi"}, format="json")
    rolled = client.post(
        f"/api/v1/rounds/{started.json()['id']}/roll/",
        {"hold": [], "turn": 1, "roll": 0},
        format="json",
    )
    stale = client.post(
        f"/api/v1/rounds/{started.json()['id']}/roll/",
        {"hold": [], "turn": 1, "roll": 0},
        format="json",
    )
    assert stale.status_code == 409
    for answer in (started, rolled, stale):
        ours, drf = both(answer.data)
        assert ours == drf
        assert answer.content == drf  # what the API sent is DRF's bytes
        assert answer["Content-Type"] == "application/json"


def test_values_drf_encodes_render_the_same():
    data = {
        "utc": dt.datetime(2026, 12, 2, 1, 2, 3, 456789, tzinfo=dt.UTC),
        "whole_second": dt.datetime(2026, 12, 2, 1, 2, 3, tzinfo=dt.UTC),
        "offset": dt.datetime(2026, 12, 2, 1, 2, 3, tzinfo=dt.timezone(dt.timedelta(hours=1))),
        "naive": dt.datetime(2026, 12, 2, 1, 2, 3),
        "date": dt.date(2026, 12, 2),
        "id": uuid.UUID(int=7),
        "lazy": gettext_lazy("No such round."),
        "decimal": Decimal("1.5"),
        "tuple": (1, 2, 3),
        "text": "Spil på én gang ✓ 漢字 \u2028 \u2029",
        "floats": [0.5, 12.0, -3.25],
        "nested": [{"a": None, "b": True}],
    }
    ours, drf = both(data)
    assert ours == drf


def test_what_orjson_cannot_write_is_rendered_by_drf():
    huge = {"n": 2**70, "keys": {1: "one"}}
    ours, drf = both(huge)
    assert ours == drf
    ours, drf = both({"a": [1, 2]}, "application/json; indent=2")
    assert ours == drf and b"\n" in ours
    assert OrjsonRenderer().render(None) == b""
