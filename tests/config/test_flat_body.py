"""The play actions' bodies validate with shallow copies of their declared fields
(``config.fields.FlatBodySerializer``, issue #25): for any JSON body, exactly what DRF's
own deep copies give, errors included, in any language; and no instance's binding or
result leaks into another's."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from django.utils import translation
from hypothesis import given, settings
from hypothesis import strategies as st
from rest_framework import serializers

from config.fields import ClosedBodySerializer, FlatBodySerializer
from games.serializers import (
    PartyRollSerializer,
    PartyScoreSerializer,
    RollSerializer,
    ScoreSerializer,
)

FLAT = [RollSerializer, ScoreSerializer, PartyRollSerializer, PartyScoreSerializer]


def drf_own(flat: type[FlatBodySerializer]) -> type[serializers.Serializer[Any]]:
    """The same declared fields on DRF's plain serializer, which deep-copies them (with
    the same refusal of unknown fields, ``ClosedBodySerializer``)."""
    fields = {name: copy.deepcopy(field) for name, field in flat._declared_fields.items()}
    return type(f"Deep{flat.__name__}", (ClosedBodySerializer,), fields)


DEEP = {flat: drf_own(flat) for flat in FLAT}

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 120) | st.floats(-2, 9) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=12) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=15,
)
keys = st.sampled_from(["hold", "turn", "roll", "category", "seat", "extra"])
bodies = st.dictionaries(keys, json_values | st.sampled_from([[0, 1], [], 3, "chance"]))


def outcome(serializer: serializers.Serializer[Any]) -> tuple[bool, Any]:
    valid = serializer.is_valid()
    return valid, serializer.validated_data if valid else serializer.errors


@settings(max_examples=300, deadline=None)
@given(
    flat=st.sampled_from(FLAT),
    body=bodies | json_values,
    language=st.sampled_from(["en", "de", "nl"]),
)
def test_any_body_validates_as_drf_validates_it(
    flat: type[FlatBodySerializer], body: Any, language: str
) -> None:
    with translation.override(language):
        assert outcome(flat(data=body)) == outcome(DEEP[flat](data=body))


def test_each_instance_has_its_own_bound_fields() -> None:
    first, second = RollSerializer(data={}), RollSerializer(data={})
    assert first.fields["hold"] is not second.fields["hold"]
    assert first.fields["turn"].parent is first and second.fields["turn"].parent is second
    # The declared fields stay unbound, as with DRF's deep copies.
    assert RollSerializer._declared_fields["turn"].parent is None


def test_one_instances_errors_do_not_reach_the_next() -> None:
    bad = RollSerializer(data={"hold": [0, 0, "x"], "turn": "1", "roll": 99})
    assert not bad.is_valid()
    good = RollSerializer(data={"hold": [1, 0], "turn": 2, "roll": 1})
    assert good.is_valid(), good.errors
    assert good.validated_data == {"hold": [1, 0], "turn": 2, "roll": 1}
    assert set(bad.errors) == {"hold", "turn"}


@pytest.mark.parametrize("flat", FLAT)
def test_the_schema_sees_the_same_fields(flat: type[FlatBodySerializer]) -> None:
    ours, drfs = flat().fields, DEEP[flat]().fields
    assert list(ours) == list(drfs)
    for name in ours:
        assert type(ours[name]) is type(drfs[name])
        assert ours[name].required == drfs[name].required
        assert ours[name].help_text == drfs[name].help_text


def test_a_shared_fields_message_speaks_each_requests_language() -> None:
    """The fields' validators are shared by every request: the first request's language
    must not answer the next ones (DRF's ``lazy_format`` keeps its first result)."""
    body = {"hold": [], "turn": 2, "roll": 1, "seat": 10}
    with translation.override("nl"):
        dutch = PartyRollSerializer(data=body)
        assert not dutch.is_valid()
    with translation.override("en"):
        english = PartyRollSerializer(data=body)
        assert not english.is_valid()
    assert english.errors["seat"] == ["Ensure this value is less than or equal to 9."]
    assert dutch.errors["seat"] != english.errors["seat"]
