"""What the deploy's proxy answers while the app does not (deploy/Caddyfile's
``handle_errors``): ``manage.py fallback_pages`` renders the app's "server not
answering" page, standing alone, and the API's 503 in each of the 12 languages. Caddy
choosing one of them by the request's language is tested live
(tests/live/test_proxy.py)."""

from __future__ import annotations

import json
import re
from html import unescape

from django.conf import settings
from django.core.management import call_command

# The page's texts a visitor reads, each in its element.
TEXTS = {
    "title": r"<title>(.*?)</title>",
    "heading": r"<h1>(.*?)</h1>",
    "explanation": r"<h1>.*?</h1>\s*<p>(.*?)</p>",
    "button": r'<a class="button" href="">(.*?)</a>',
}


def _texts(page: str) -> dict[str, str]:
    found = {name: re.search(pattern, page, re.S) for name, pattern in TEXTS.items()}
    assert all(found.values()), {name: bool(match) for name, match in found.items()}
    return {name: unescape(match.group(1)).strip() for name, match in found.items() if match}


def test_the_command_writes_the_page_in_each_of_the_12_languages(tmp_path):
    call_command("fallback_pages", str(tmp_path / "fallback"))

    codes = [code for code, _name in settings.LANGUAGES]
    written = sorted(path.name for path in (tmp_path / "fallback").iterdir())
    assert written == sorted(f"{code}.{kind}" for code in codes for kind in ("html", "json"))
    pages = {code: (tmp_path / "fallback" / f"{code}.html").read_text() for code in codes}
    english = _texts(pages["en"])
    assert english["heading"] == "The server is not answering"
    for code, page in pages.items():
        assert f'<html lang="{code}">' in page
        # It stands alone: the app that would serve its stylesheet is the one down.
        assert "<style>" in page and ".site-header" in page
        assert 'rel="stylesheet"' not in page and "/static/" not in page
        assert '<meta http-equiv="refresh" content="10">' in page
        assert "data-offline=" in page
        if code != "en":
            texts = _texts(page)
            untranslated = [name for name in TEXTS if texts[name] == english[name]]
            assert not untranslated, (code, untranslated)


def test_the_api_error_is_the_apis_503_in_each_of_the_12_languages(tmp_path):
    call_command("fallback_pages", str(tmp_path))

    errors = {
        code: json.loads((tmp_path / f"{code}.json").read_text(encoding="utf-8"))
        for code, _name in settings.LANGUAGES
    }
    assert errors["en"] == {
        "code": "service_unavailable",
        "message": "The service is not answering; retry shortly.",
    }
    assert errors["de"]["message"].startswith("Der Dienst")
    for code, error in errors.items():
        assert error["code"] == "service_unavailable", code
        assert code == "en" or error["message"] != errors["en"]["message"], code


def test_writing_again_replaces_the_pages_whole(tmp_path):
    """A release writes over the last release's pages; nothing else is left there."""
    (tmp_path / "de.html").write_text("the last release's page")
    call_command("fallback_pages", str(tmp_path))
    call_command("fallback_pages", str(tmp_path))
    assert "Der Server antwortet nicht" in (tmp_path / "de.html").read_text()
    assert len(list(tmp_path.iterdir())) == 2 * len(settings.LANGUAGES)
