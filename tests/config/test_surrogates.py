"""A lone surrogate (``"\\ud800"``) in any string of any request body is a 400 like any
bad string, never a 500 (issue #22, 2a): the list of operations and of their string
fields comes from the OpenAPI schema, so a new field is covered without a new test."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from drf_spectacular.generators import SchemaGenerator

from games.models import Round
from tests.factories import make_player, play_round

pytestmark = pytest.mark.django_db

LONE = "\ud800"


def _resolve(schema: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    """A property's schema with its ``$ref``, ``allOf`` and ``oneOf`` followed."""
    if "$ref" in node:
        return _resolve(schema, schema["components"]["schemas"][node["$ref"].split("/")[-1]])
    for combined in ("allOf", "oneOf"):
        if combined in node:
            return {**node, **_resolve(schema, node[combined][0])}
    return node


def _example(node: dict[str, Any]) -> Any:
    if "enum" in node:
        return next(value for value in node["enum"] if value)
    return {"integer": 0, "string": "x", "array": [], "object": {}, "boolean": False}.get(
        node.get("type", "string")
    )


def _bodies(schema: dict[str, Any], body_schema: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    """For each string place of a body (a string or enum field, a list's string items, an
    object's keys and values), a body with a lone surrogate there; the other required
    fields hold plausible values."""
    body_schema = _resolve(schema, body_schema)
    properties = {
        name: _resolve(schema, node) for name, node in body_schema.get("properties", {}).items()
    }
    base = {name: _example(properties[name]) for name in body_schema.get("required", [])}
    yield "a key", {**base, LONE: 1}
    for name, node in properties.items():
        kind = node.get("type", "string")
        if kind == "string" or "enum" in node:
            yield name, {**base, name: LONE}
            yield f"{name} (end)", {**base, name: "ok" + LONE}
        elif kind == "array" and _resolve(schema, node.get("items", {})).get("type") == "string":
            yield f"{name}[]", {**base, name: ["Ann", LONE]}
        elif kind == "object":
            yield f"{name} key", {**base, name: {LONE: True}}
            yield f"{name} value", {**base, name: {"full_straight_points": LONE}}


def _cases() -> list[tuple[str, str, str, Any]]:
    schema = SchemaGenerator().get_schema(public=True)
    cases = []
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            body = operation.get("requestBody", {}).get("content", {}).get("application/json")
            if body is None:
                continue
            for where, data in _bodies(schema, body["schema"]):
                cases.append((method, path, where, data))
    return cases


CASES = _cases()


def test_every_string_place_of_every_body_is_covered():
    operations = {(method, path) for method, path, _, _ in CASES}
    assert len(operations) >= 9
    places = {where for _, _, where, _ in CASES}
    expected = ["mode", "ruleset", "options key", "time_zone", "language", "view", "seats[]"]
    assert set(expected) <= places


def _friend_code() -> str:
    _, sharer = make_player()
    solo = sharer.post("/api/v1/games/", {"mode": "solo", "ruleset": "yatzy"}, format="json")
    play_round(sharer, solo.json()["id"])
    return str(sharer.post(f"/api/v1/rounds/{solo.json()['id']}/share/").json()["code"])


def _url(path: str, client: Any) -> str:
    """The path with a real object behind each parameter, so the request reaches its
    fields (the player's own round and party, a friend's code)."""
    if "{round_id}" in path:
        rnd = client.post("/api/v1/games/", {"mode": "solo", "ruleset": "yatzy"}, format="json")
        path = path.replace("{round_id}", rnd.json()["id"])
    if "{party_id}" in path:
        party = client.post("/api/v1/games/", {"mode": "party", "seats": ["A", "B"]}, format="json")
        path = path.replace("{party_id}", party.json()["id"])
    return path.replace("{code}", _friend_code()) if "{code}" in path else path


@pytest.mark.parametrize(("method", "path", "where", "data"), CASES, ids=lambda v: str(v)[:40])
def test_a_lone_surrogate_is_a_400_json_and_changes_nothing(method, path, where, data):
    _, client = make_player()
    url = _url(path, client)
    before = list(Round.objects.values_list("id", "version").order_by("id"))
    # json.dumps escapes the surrogate as \ud800, exactly as a hostile client sends it.
    response = client.generic(
        method.upper(), url, json.dumps(data), content_type="application/json"
    )
    assert response.status_code == 400, (where, response.status_code, response.content[:200])
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert body["code"] == "parse_error", body
    assert LONE not in response.content.decode("utf-8")
    assert list(Round.objects.values_list("id", "version").order_by("id")) == before
