"""The benchmark's plain Django view is routed only when BENCH_ENDPOINTS is on."""

import importlib

import pytest
from django.test import Client
from django.urls import clear_url_caches

import config.urls

PLAIN = "/api/bench/plain/"


def _reload_urls():
    importlib.reload(config.urls)
    clear_url_caches()


@pytest.fixture
def bench_endpoints_on(settings):
    """The URLconf as built with the setting on; rebuilt with it off afterwards."""
    settings.BENCH_ENDPOINTS = True
    _reload_urls()
    yield
    settings.BENCH_ENDPOINTS = False
    _reload_urls()


def test_the_plain_view_is_not_routed_by_default():
    response = Client().get(PLAIN)
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


@pytest.mark.usefixtures("bench_endpoints_on")
def test_the_plain_view_answers_json_when_bench_endpoints_is_on():
    response = Client().get(PLAIN)
    assert response.status_code == 200
    assert response.json() == {"ok": True}
