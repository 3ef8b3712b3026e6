"""The client's own words in the player's language.

The server words what it sends (box names, rules, refusals) in the player's language;
this module does the same for what the client says itself: the play screen's lines and
keys, prompts, tables, the verifier's report, the command line's help. Its catalogues are
gettext's, one per language under ``client/locale/<lang>/LC_MESSAGES/client.po``, compiled
to ``.mo`` beside them by ``make install`` (``python -m config.catalogues``) and packed
into the wheel; docs/i18n.md has the workflow.

Which language: the locale of the environment at start (as :func:`locale_tag` reads it:
``LC_ALL``, ``LC_MESSAGES``, ``LANG``, ``LANGUAGE``), then the language of the server's
answers (their ``Content-Language``, which follows the player's profile language), so the
client's words and the server's box names are always in one language. A language without
a catalogue is English.

Texts defined at import are marked with :func:`N_` and translated where they are shown.
Placeholders are ``str.format``'s, named: ``_("Turn {turn} of {turns}").format(...)``.
"""

from __future__ import annotations

import gettext as _gettext
import os
import re
from collections.abc import Mapping
from pathlib import Path

DOMAIN = "client"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
LANGUAGES = ("en", "da", "de", "fr", "es", "it", "sv", "nb", "fi", "nl", "pl", "ja")
"""The languages the client speaks: the server's 12 (``config.settings.LANGUAGES``)."""

# Norwegian Nynorsk and plain "no" read as Bokmål, as the server reads them.
_SAME_AS = {"nn": "nb", "no": "nb"}

LOCALE_TAG = re.compile(r"[A-Za-z]{1,8}(_[A-Za-z0-9]{1,8})?")
"""A locale's language (and region), as ``Accept-Language`` can name it."""

_active: _gettext.NullTranslations = _gettext.NullTranslations()
_language = "en"


def locale_tag(environ: Mapping[str, str] | None = None) -> str | None:
    """The language (and region) of the environment's locale, as gettext reads it:
    ``LANGUAGE``'s first entry, else the messages' locale; None for the C locale.

    >>> locale_tag({"LANG": "da_DK.UTF-8"}), locale_tag({"LANGUAGE": "sv:en", "LANG": "de_DE"})
    ('da_DK', 'sv')
    >>> locale_tag({"LC_ALL": "C", "LANG": "de_DE.UTF-8"}) is None
    True
    """
    env = os.environ if environ is None else environ
    # The messages' locale is the first of these that is set, as setlocale reads them:
    # LC_ALL=C is the C locale whatever LANG says. LANGUAGE, a list of languages, is
    # for any other locale (gettext ignores it for "C" itself).
    locale = next((env[name] for name in ("LC_ALL", "LC_MESSAGES", "LANG") if env.get(name)), "")
    if locale in ("C", "POSIX"):
        return None
    for value in (env.get("LANGUAGE", "").split(":")[0], locale):
        tag = value.split(".")[0].split("@")[0]
        # Only a tag a header can carry: "LANG=ü_Ü" failed every request on encoding
        # the header, said as an answer of another shape than the API's.
        if LOCALE_TAG.fullmatch(tag) and tag not in ("C", "POSIX"):
            return tag
    return None


def supported(tag: str | None) -> str:
    """The client's language for a language tag (``de-AT``, ``nb_NO``, ``NN``): one of
    :data:`LANGUAGES`, English when it speaks none of them.

    >>> supported("de-AT"), supported("nn_NO"), supported("pt-BR"), supported(None)
    ('de', 'nb', 'en', 'en')
    >>> supported("fr, en"), supported("../de"), supported("DE;q=1")
    ('fr', 'en', 'de')
    """
    # A header may list several languages (the first is the answer's); a tag is letters.
    first = (tag or "").split(",")[0].split(";")[0].strip().lower()
    language = re.split(r"[-_]", first)[0]
    language = _SAME_AS.get(language, language)
    return language if language in LANGUAGES else "en"


def activate(tag: str | None) -> str:
    """Speak the language of ``tag`` from now on (English for one the client does not
    speak, or whose catalogue is not compiled); returns the language spoken."""
    global _active, _language
    language = supported(tag)
    if language != _language:
        _active = _gettext.translation(DOMAIN, LOCALE_DIR, languages=[language], fallback=True)
        _language = language
    return _language


def active() -> str:
    """The language spoken now."""
    return _language


def gettext(message: str) -> str:
    """``message`` in the language spoken now."""
    return _active.gettext(message)


_ = gettext


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` for ``n``, in the language spoken now (Polish
    has three forms, Japanese one)."""
    return _active.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in ``context`` (a word that means two things in English)."""
    return _active.pgettext(context, message)


def sentences(*texts: str) -> str:
    """Sentences one after another, as the language spaces them (Japanese puts none
    after its full stop).

    >>> sentences("Round completed: 287 points.", "It is your score of the day.")
    'Round completed: 287 points. It is your score of the day.'
    """
    return sentence_gap().join(text for text in texts if text)


def sentence_gap() -> str:
    """What goes between two sentences in the language spoken now."""
    return "" if _language == "ja" else " "


def N_(message: str) -> str:
    """Mark ``message`` for translation where it is defined (at import, before the
    language is known); translate it with :func:`gettext` where it is shown."""
    return message
