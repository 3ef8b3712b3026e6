"""``/api/schema/`` is generated once per process for each language and format, then
served from memory: what it serves equals a schema generated afresh, and a second fetch
generates nothing."""

from __future__ import annotations

import json

import pytest
import yaml
from django.utils import translation
from drf_spectacular.renderers import OpenApiJsonRenderer
from rest_framework.test import APIClient

from config.schema_view import SchemaView

pytestmark = pytest.mark.django_db


@pytest.fixture
def generations(monkeypatch) -> list[str | None]:
    """Every schema generation of this test, by the language it was made in."""
    SchemaView._built.clear()
    generator = SchemaView.generator_class
    original = generator.get_schema
    made: list[str | None] = []

    def counted(self, *args, **kwargs):
        made.append(translation.get_language())
        return original(self, *args, **kwargs)

    monkeypatch.setattr(generator, "get_schema", counted)
    yield made
    SchemaView._built.clear()


def _fresh(language: str) -> dict:
    with translation.override(language):
        schema = SchemaView.generator_class().get_schema(request=None, public=True)
        return json.loads(OpenApiJsonRenderer().render(schema))


def _fetch(language: str, fmt: str, **query: str):
    response = APIClient().get(
        "/api/schema/", {"format": fmt, **query}, HTTP_ACCEPT_LANGUAGE=language
    )
    assert response.status_code == 200
    return response


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_schema_served_equals_one_generated_afresh(generations, language):
    as_json = _fetch(language, "json")
    as_yaml = _fetch(language, "yaml")
    fresh = _fresh(language)
    assert json.loads(as_json.content) == fresh
    assert yaml.safe_load(as_yaml.content) == fresh
    assert as_json["Content-Type"].startswith("application/vnd.oai.openapi+json")
    assert as_yaml["Content-Type"].startswith("application/vnd.oai.openapi")
    assert as_json["Content-Language"] == language
    assert 'filename="Maxi Yatzy Daily API.json"' in as_json["Content-Disposition"]


def test_a_second_fetch_generates_nothing(generations):
    first = _fetch("en", "json")
    assert generations == ["en"]
    again = _fetch("en", "json")
    assert again.content == first.content and generations == ["en"]
    # Each language and format once; the texts differ by language.
    german = _fetch("de", "json")
    assert german.content != first.content
    _fetch("de", "yaml")
    _fetch("de", "json")
    _fetch("de", "yaml")
    assert generations == ["en", "de", "de"]


def test_queries_cannot_make_the_process_keep_more_schemas(generations):
    _fetch("en", "json")
    # A language the site does not offer, a version and a JSON indent: the same schema.
    for query in ({"lang": "xx"}, {"version": "v7"}, {"lang": "en", "version": "2"}):
        assert _fetch("en", "json", **query).content == _fetch("en", "json").content
    assert _fetch("en", "json", lang="fi").content == _fetch("fi", "json").content
    assert generations == ["en", "fi"]
    assert len(SchemaView._built) == 2


@pytest.mark.parametrize("accept", ["text/html", "image/png"])
def test_an_accept_the_schema_cannot_meet_is_not_acceptable_like_every_api_answer(accept):
    """README: 406 ``not_acceptable`` for an ``Accept`` that admits no JSON; the schema
    answered 406 ``error``, "The request failed (HTTP status 406)."."""
    response = APIClient().get("/api/schema/", HTTP_ACCEPT=accept, HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 406
    assert response["Content-Type"] == "application/json"
    assert response.json() == {
        "code": "not_acceptable",
        "message": "Kann die Accept Kopfzeile der Anfrage nicht erfüllen.",
    }
    daily = APIClient().get("/api/v1/rulesets/", HTTP_ACCEPT=accept, HTTP_ACCEPT_LANGUAGE="de")
    assert daily.status_code == 406 and daily.json() == response.json()
