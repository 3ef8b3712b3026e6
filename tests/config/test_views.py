"""The front page (until the web pages replace it): the product and where to go next."""

import re

from django.test import Client


def test_the_front_page_links_the_api_docs_the_schema_the_admin_and_health():
    response = Client().get("/")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    page = response.content.decode()
    assert "<h1>Maxi Yatzy Daily</h1>" in page
    assert re.findall(r'href="([^"]*)"', page) == [
        "/api/docs/",
        "/api/schema/",
        "/admin/",
        "/health/",
    ]


def test_the_front_page_loads_nothing_from_elsewhere():
    page = Client().get("/").content.decode()
    assert not re.search(r"<(script|link|img|iframe)\b", page)
    assert "http" not in page


def test_the_front_page_is_in_the_language_of_the_request():
    assert '<html lang="en">' in Client().get("/").content.decode()
    german = Client().get("/", HTTP_ACCEPT_LANGUAGE="de")
    assert '<html lang="de">' in german.content.decode()
    assert german["Content-Language"] == "de"
