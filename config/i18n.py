"""Which language an answer is in (SPEC §7, Languages).

The logged-in player's profile language when set, else the browser's
``Accept-Language`` (or the language cookie a page may set), else English. This
middleware, first of all, activates the header's choice for the whole request and puts
``Content-Language`` on every answer, whatever produced it; the player's own language
replaces it once the player is known (:func:`language_activate_for_player`: after
Django's session authentication for pages and the admin, and in DRF's authentication
for the API, which reads the token inside the view).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.cache import patch_vary_headers

LANGUAGE_CODES = frozenset(code for code, _name in settings.LANGUAGES)

# Norwegian's other tags: Nynorsk and the macrolanguage read Bokmål, the one Norwegian
# the site has. Django matches neither to ``nb`` (yatzy-play sends ``nn-NO, nn;q=0.9``
# for ``LANG=nn_NO.UTF-8``), so both read English.
NORWEGIAN = frozenset({"nn", "no"})
# A weight of 0 is "not acceptable" (RFC 9110 §12.4.2, as config.negotiation holds for
# Accept); Django ranks such a tag last but still chooses it (``de;q=0`` read German).
_WEIGHT_ZERO = re.compile(r"^\s*q\s*=\s*0(?:\.0*)?\s*$")


def accept_language_for_django(header: str) -> str:
    """``header`` as Django's matching should read it: each Nynorsk or Norwegian tag
    read as Bokmål (region and weight kept) and each tag of weight 0 left out, the order
    unchanged.

    >>> accept_language_for_django("nn-NO, nn;q=0.9, de;q=0.5, nno, fr;q=0")
    'nb-NO,nb;q=0.9,de;q=0.5,nno'
    """
    items = []
    for item in header.split(","):
        tag, semicolon, weight = item.strip().partition(";")
        if _WEIGHT_ZERO.match(weight):
            continue
        language, dash, region = tag.partition("-")
        if language.lower() in NORWEGIAN:
            tag = f"nb{dash}{region}"
        items.append(f"{tag}{semicolon}{weight}")
    return ",".join(items)


def language_from_request(request: HttpRequest) -> str:
    """Django's choice from the language cookie and ``Accept-Language``, the header read
    by :func:`accept_language_for_django`."""
    header = request.META.get("HTTP_ACCEPT_LANGUAGE", "")
    read = accept_language_for_django(header)
    if read != header.replace(" ", ""):
        request = copy.copy(request)
        request.META = {**request.META, "HTTP_ACCEPT_LANGUAGE": read}
    return translation.get_language_from_request(request)


def language_activate_for_player(request: HttpRequest, language: str) -> None:
    """Answer ``request`` in the player's profile ``language``; blank (the player
    follows their browser) or a language the site does not offer changes nothing.

    >>> from django.test import RequestFactory
    >>> request = RequestFactory().get("/")
    >>> with translation.override("de"):
    ...     language_activate_for_player(request, "nl")
    ...     translation.get_language(), request.LANGUAGE_CODE
    ('nl', 'nl')
    """
    if language in LANGUAGE_CODES:
        translation.activate(language)
        request.LANGUAGE_CODE = language


class LanguageMiddleware:
    """Django's LocaleMiddleware for a site without language prefixes in its paths,
    placed before everything that may answer (the API's edge included), so even a
    refused request is answered in the reader's language with ``Content-Language``."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        language = language_from_request(request)
        translation.activate(language)
        request.LANGUAGE_CODE = language
        try:
            response = self.get_response(request)
            # Whatever activated last (the player's profile) is what the answer is in.
            response.headers.setdefault("Content-Language", translation.get_language())
            patch_vary_headers(response, ("Accept-Language",))
        finally:
            # The next request on this thread chooses afresh; nothing leaks into code
            # that runs outside a request (jobs, tests).
            translation.deactivate()
        return response
