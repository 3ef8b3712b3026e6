"""The one request parser of the API: JSON, bounded before it is parsed.

A body is read only up to ``API_MAX_BODY_BYTES`` (413 beyond it) and its nesting depth
is measured before :func:`json.loads` sees it (400 ``parse_error`` beyond
``API_MAX_JSON_DEPTH``), so no body can make the parser recurse or allocate without
bound. ``NaN`` and ``Infinity`` are not JSON and are refused, and so is a string
holding a lone surrogate (``"\\ud800"``: an escape JSON's grammar allows but that is no
Unicode text, RFC 7493 §2.1), so no field, message or answer ever meets a string it
cannot encode. An object naming a member twice (``{"turn": 7, "turn": 0}``) is refused
too (RFC 7493 §2.3): which of the two a server takes is a guess a client should never
have to make, least of all for a precondition.
"""

from __future__ import annotations

import json
import re
from typing import Any

from django.conf import settings
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions, parsers, status
from rest_framework.parsers import get_encoding  # type: ignore[attr-defined]  # not in the stubs

# The methods whose body the API reads, and so checks at its edge (its length, its size)
# and parses (JSON only). A body sent with any other method is never read.
BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})

# Everything a JSON string can hold, so brackets inside strings are not counted.
_STRINGS = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(rb"[\[\]{}]")


class RequestTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "request_too_large"
    default_detail = _("The request body is too large.")


def too_large(limit: int) -> RequestTooLarge:
    return RequestTooLarge(
        gettext("The request body is larger than the %(limit)d bytes this API accepts.")
        % {"limit": limit}
    )


def json_depth(body: bytes) -> int:
    """How deeply arrays and objects nest in ``body`` (strings do not count).

    >>> json_depth(b'{"hold": [1, 2], "note": "[[[["}')
    2
    """
    depth = deepest = 0
    for bracket in _BRACKETS.findall(_STRINGS.sub(b'""', body)):
        depth += 1 if bracket in b"[{" else -1
        deepest = max(deepest, depth)
    return deepest


class _NotJSON(ValueError):
    """A refusal from inside the decoder, already worded for the player."""


def _refuse_constant(name: str) -> Any:
    raise _NotJSON(
        gettext("The body is not valid JSON: %(name)s is no JSON number.") % {"name": name}
    )


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object without a name twice (``json.loads``'s ``object_pairs_hook``).

    >>> try:
    ...     _object([("turn", 7), ("turn", 0)])
    ... except ValueError as refused:
    ...     print(refused)
    The body is not valid JSON: the name "turn" appears twice in one object.
    """
    members = dict(pairs)
    if len(members) < len(pairs):
        seen: set[str] = set()
        for name, _ in pairs:
            if name in seen:
                raise _NotJSON(
                    gettext(
                        "The body is not valid JSON: the name %(name)s appears twice in one object."
                    )
                    % {"name": json.dumps(name[:40])}
                )
            seen.add(name)
    return members


def _decoding_error(exc: ValueError | RecursionError, encoding: str) -> str:
    """The decoder's refusal in the request's language (its own words are English)."""
    if isinstance(exc, _NotJSON):
        return str(exc)
    if isinstance(exc, json.JSONDecodeError):
        return gettext(
            "The body is not valid JSON: it goes wrong at line %(line)d, column %(column)d."
        ) % {"line": exc.lineno, "column": exc.colno}
    if isinstance(exc, UnicodeDecodeError):
        return gettext(
            "The body is not valid %(encoding)s text: byte %(position)d cannot be read."
        ) % {"encoding": encoding, "position": exc.start + 1}
    if isinstance(exc, RecursionError):
        return _too_deep()
    # Anything else the decoder refuses (a number of more than 4,300 digits).
    return gettext("The body is not valid JSON.")


def _too_deep() -> str:
    return gettext("The body is not valid JSON: it nests deeper than %(depth)d levels.") % {
        "depth": settings.API_MAX_JSON_DEPTH
    }


def _is_text(value: str) -> bool:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def has_lone_surrogate(value: Any) -> bool:
    """Whether any string in a parsed JSON value (an object's keys included) holds a
    surrogate that is not half of a pair; the parser joins a pair into one character,
    so any surrogate left is a lone one.

    >>> has_lone_surrogate({"mode": "solo", "seats": ["Ann", "\\U0001f3b2"]})
    False
    >>> has_lone_surrogate({"options": {"\\ud800": True}})
    True
    """
    if isinstance(value, str):
        return not _is_text(value)
    if isinstance(value, list):
        return any(has_lone_surrogate(item) for item in value)
    if isinstance(value, dict):
        return any(not _is_text(key) or has_lone_surrogate(item) for key, item in value.items())
    return False


class JSONParser(parsers.JSONParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        limit = settings.API_MAX_BODY_BYTES
        body = stream.read(limit + 1) if stream is not None else b""
        if len(body) > limit:
            raise too_large(limit)
        # DRF's check of the charset: text encodings only (no decompressing codecs).
        try:
            encoding = get_encoding(parser_context or {})
        except exceptions.ParseError:
            # DRF words its refusal in English only.
            charset = str((parser_context or {}).get("encoding", ""))[:40]
            raise exceptions.ParseError(
                gettext(
                    'The charset "%(charset)s" of the request\'s Content-Type is not a text '
                    "encoding; send the body in UTF-8."
                )
                % {"charset": charset}
            ) from None
        if json_depth(body) > settings.API_MAX_JSON_DEPTH:
            raise exceptions.ParseError(_too_deep())
        try:
            data = json.loads(
                body.decode(encoding), parse_constant=_refuse_constant, object_pairs_hook=_object
            )
        except (ValueError, RecursionError) as exc:
            raise exceptions.ParseError(_decoding_error(exc, encoding)) from None
        if has_lone_surrogate(data):
            raise exceptions.ParseError(
                gettext(
                    "The body is not valid JSON text: a string holds a lone surrogate "
                    "(an escape from U+D800 to U+DFFF without the other half of its pair)."
                )
            )
        return data


def body_checked(request: Any) -> None:
    """For an operation that takes no body: a body sent anyway is held to the API's rules
    like any other (415 when it is not JSON, 400 when it is not valid JSON), though none
    of its members is read, as no unknown member of any body is. Without this, DRF parses
    a body only when a view reads it, and such a view never does."""
    request.data  # noqa: B018  # reading it is the parse and its checks
