"""The OpenAPI schema is valid, warning-free and matches what the API really returns."""

import datetime as dt

import pytest
import time_machine
import yaml
from django.core.management import call_command
from rest_framework.test import APIClient

from games.serializers import ChallengeSerializer, RoundSerializer
from tests.factories import make_player


def test_schema_generates_valid_without_warnings(tmp_path):
    target = tmp_path / "schema.yaml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(target))
    schema = yaml.safe_load(target.read_text())
    operations = [
        (path, method, operation)
        for path, item in schema["paths"].items()
        for method, operation in item.items()
    ]
    assert len(operations) >= 9
    for path, method, operation in operations:
        documented = set(operation["responses"])
        assert {"400", "401"} <= documented or path.endswith(("/register/", "/token/")), (
            f"{method.upper()} {path} does not document its error responses"
        )


@pytest.mark.django_db
def test_schema_and_swagger_ui_are_served():
    client = APIClient()
    assert client.get("/api/schema/").status_code == 200
    docs = client.get("/api/docs/")
    assert docs.status_code == 200
    assert b"swagger-ui" in docs.content


@pytest.mark.django_db
def test_documented_fields_are_exactly_the_returned_fields():
    with time_machine.travel(dt.datetime(2026, 11, 20, 12, tzinfo=dt.UTC), tick=False):
        _, client = make_player()
        challenge = client.get("/api/v1/daily/").json()
        state = client.post("/api/v1/daily/2026-11-20/rounds/").json()
    assert set(challenge) == set(ChallengeSerializer().fields)
    assert set(state) == set(RoundSerializer().fields)


def _schema(tmp_path):
    target = tmp_path / "schema.yaml"
    call_command("spectacular", "--file", str(target))
    return yaml.safe_load(target.read_text())


def test_every_status_the_edge_can_answer_is_documented(tmp_path):
    schema = _schema(tmp_path)
    throttled = {"/api/v1/accounts/register/", "/api/v1/accounts/token/"}
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            responses = operation["responses"]
            assert {"406", "414", "503"} <= set(responses), (method, path)
            if method in ("post", "put", "patch", "delete"):
                # A body sent to any of them is checked, even where none is asked for.
                assert {"411", "413", "415"} <= set(responses), (method, path)
            else:
                assert not {"411", "413", "415"} & set(responses), (method, path)
            if "requestBody" in operation:
                assert set(operation["requestBody"]["content"]) == {"application/json"}
            if path in throttled or path.endswith(("/roll/", "/score/")):
                assert "429" in responses, (method, path)
                assert "Retry-After" in responses["429"]["headers"]


def test_a_blank_display_name_is_documented_as_allowed(tmp_path):
    schema = _schema(tmp_path)
    field = schema["components"]["schemas"]["RegisterRequest"]["properties"]["display_name"]
    assert field.get("default") == ""
    assert "minLength" not in field


def test_path_dates_and_years_are_typed_for_generated_clients(tmp_path):
    schema = _schema(tmp_path)
    expected = {
        "day": {"type": "string", "format": "date"},
        "year": {"type": "integer", "minimum": 1000, "maximum": 9999},
    }
    seen = set()
    for item in schema["paths"].values():
        for operation in item.values():
            for parameter in operation.get("parameters", []):
                if parameter["in"] == "path" and parameter["name"] in expected:
                    seen.add(parameter["name"])
                    assert parameter["schema"] == expected[parameter["name"]], parameter
    assert seen == set(expected)


def test_operations_are_tagged_by_resource_not_by_api_version(tmp_path):
    schema = _schema(tmp_path)
    operation = schema["paths"]["/api/v1/rounds/{round_id}/roll/"]["post"]
    assert (operation["operationId"], operation["tags"]) == ("rounds_roll_create", ["rounds"])


def test_a_party_actions_refusals_name_invalid_seat_and_the_409_of_another_seats_turn(tmp_path):
    schema = _schema(tmp_path)
    for action in ("roll", "score"):
        responses = schema["paths"][f"/api/v1/parties/{{party_id}}/{action}/"]["post"]["responses"]
        assert "`invalid_seat`" in responses["400"]["description"]
        assert "another seat's turn" in responses["409"]["description"]


def test_every_body_and_answer_is_described_for_its_readers_not_inherited(tmp_path):
    """drf-spectacular describes a component by its serializer's docstring, a base
    class's when it has none: the play actions' bodies once carried the notes of the
    class that makes them fast, and other components the description of their base."""
    schemas = _schema(tmp_path)["components"]["schemas"]
    for name in ("RollRequest", "ScoreRequest", "PartyRollRequest", "PartyScoreRequest"):
        assert "409" in schemas[name]["description"], name
    described = {
        name: schema["description"]
        for name, schema in schemas.items()
        if "description" in schema and not name.endswith("Enum")
    }
    for name, text in described.items():
        assert "DRF" not in text and "serializer" not in text.lower(), (name, text)
    texts = list(described.values())
    shared = {text for text in texts if texts.count(text) > 1}
    assert not shared, [name for name, text in described.items() if text in shared]


def test_the_command_bodies_are_documented_as_closed(tmp_path):
    """A command body refuses a field it does not name (config.fields.ClosedBodySerializer),
    and so do sign-up, log-in and the profile's PATCH: the schema says so, so a generated
    client cannot send one."""
    components = _schema(tmp_path)["components"]["schemas"]
    closed = {
        name for name, body in components.items() if body.get("additionalProperties") is False
    }
    assert closed == {
        "RollRequest",
        "ScoreRequest",
        "PartyRollRequest",
        "PartyScoreRequest",
        "GameCreateRequest",
        "FriendStartRequest",
        "RegisterRequest",
        "LoginRequest",
        "PatchedMeRequest",
    }
