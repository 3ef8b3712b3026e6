"""The site as an installable app: its web app manifest, its service worker and the
page that worker shows when the network is gone."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from config.api_errors import error_body
from config.api_guard import status_error
from games.rules import ruleset_title

# What the worker keeps for offline use: the site's own static files, never a page with
# a player's data (pages, the API and every form go to the network, always).
STATIC_FILES = (
    "web/site.css",
    "web/play.js",
    "web/copy.js",
    "web/share.js",
    "web/dice-check.js",
    "web/countdown.js",
    "web/settings.js",
    "web/install.js",
    "web/favicon.svg",
    "web/icon.svg",
    "web/icon-192.png",
    "web/icon-512.png",
)
THEME_COLOUR = "#0a58ca"
# The header of the proxy's own answer when the app does not answer (deploy/Caddyfile's
# handle_errors): the worker shows its kept page in the visitor's language instead.
PROXY_FALLBACK_HEADER = "X-Fallback"
# How often the proxy's own page (fallback_page) asks for the app again, in seconds.
FALLBACK_REFRESH_SECONDS = 10


@require_safe
def manifest(request: HttpRequest) -> HttpResponse:
    """The web app manifest, in the visitor's language."""
    icons = [
        {"src": static(f"web/icon-{size}.png"), "sizes": f"{size}x{size}", "type": "image/png"}
        for size in (192, 512)
    ]
    icons.append({"src": static("web/icon.svg"), "sizes": "any", "type": "image/svg+xml"})
    body = {
        "name": _("Maxi Yatzy Daily"),
        "short_name": ruleset_title("maxi"),
        "description": _("One Maxi Yatzy game a day, the same dice for everyone."),
        "lang": get_language(),
        "start_url": reverse("web:home"),
        "scope": "/",
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": THEME_COLOUR,
        "icons": icons,
    }
    return HttpResponse(
        json.dumps(body, ensure_ascii=False), content_type="application/manifest+json"
    )


def _version(urls: list[str]) -> str:
    """Changes whenever a cached file does (hashed names in production, the contents in
    development), so that the browser installs the new worker and drops the old cache."""
    digest = hashlib.sha256("\n".join(urls).encode())
    for name in STATIC_FILES:
        found = finders.find(name)
        if isinstance(found, str):
            with open(found, "rb") as source:
                digest.update(source.read())
    return digest.hexdigest()[:16]


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, served from the root so that it may look after every page."""
    urls = [static(name) for name in STATIC_FILES]
    response = render(
        request,
        "web/sw.js",
        {
            "version": _version(urls),
            "static_urls": json.dumps(urls),
            # The folder itself, not static(""): production's manifest of hashed names
            # has no entry "" (a 500).
            "static_prefix": json.dumps(settings.STATIC_URL),
            "offline_url": json.dumps(reverse("web:offline")),
            "unreachable_url": json.dumps(reverse("web:unreachable")),
            "fallback_header": json.dumps(PROXY_FALLBACK_HEADER),
        },
        content_type="text/javascript",
    )
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def favicon(request: HttpRequest) -> HttpResponse:
    """``/favicon.ico``, which browsers ask for on pages that name no icon (the admin's,
    the health page): the site's icon. Found at each request (its hashed name changes
    with each release), so the redirect is temporary."""
    return HttpResponseRedirect(static("web/favicon.svg"))


@require_safe
def offline(request: HttpRequest, *, unreachable: bool = False) -> HttpResponse:
    """What the service worker shows for a page it cannot fetch (``unreachable``: for a
    page the proxy answered in the app's place, the app not answering). The worker keeps
    both, so they hold nothing of any player (fetched without cookies)."""
    return render(request, "web/offline.html", {"unreachable": unreachable})


def fallback_page(language: str) -> str:
    """The page the deploy's proxy answers in the app's place while the app does not
    answer (deploy/Caddyfile's ``handle_errors``), in ``language``: the "server not
    answering" page of :func:`offline`, standing alone. Its stylesheet is inline (the app
    that serves the static files is the one down) and it asks for the page again every
    ``FALLBACK_REFRESH_SECONDS``."""
    found = finders.find("web/site.css")
    assert isinstance(found, str), "web/site.css is missing"
    with open(found, encoding="utf-8") as source:
        style = mark_safe(source.read())  # the site's own stylesheet, no one's input
    with translation.override(language):
        return render_to_string(
            "web/offline.html",
            {"unreachable": True, "style": style, "refresh": FALLBACK_REFRESH_SECONDS},
        )


def fallback_api_error(language: str) -> str:
    """The API's answer from the deploy's proxy while the app does not answer, in
    ``language``: the app's own 503 (``config.api_guard.status_error``)."""
    with translation.override(language):
        return json.dumps(error_body(*status_error(503)), ensure_ascii=False)


def fallback_pages_write(directory: Path) -> list[Path]:
    """Writes, for each language of ``LANGUAGES``, :func:`fallback_page` to
    ``directory/<code>.html`` and :func:`fallback_api_error` to ``<code>.json``, where
    the proxy reads them, each file replaced whole (the proxy never serves half of one).
    Returns the files."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for code, _name in settings.LANGUAGES:
        for path, text in [
            (directory / f"{code}.html", fallback_page(code)),
            (directory / f"{code}.json", fallback_api_error(code)),
        ]:
            part = path.with_name(f".{path.name}.part")
            part.write_text(text, encoding="utf-8")
            os.replace(part, path)
            written.append(path)
    return written
