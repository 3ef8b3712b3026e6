"""No untranslated text: the message ids extracted from the code (``makemessages``, into
a temporary directory) are each translated in every committed catalogue, and the
catalogues are well-formed. Adding a text without its translations fails here
(docs/i18n.md: how to add a text)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import polib
import pytest
from django.conf import settings

from config import catalogues

LANGUAGES = [code for code, _name in settings.LANGUAGES]
NEEDS_XGETTEXT = pytest.mark.skipif(
    shutil.which("xgettext") is None,
    reason="makemessages needs GNU gettext's xgettext (Debian package `gettext`; CI has it)",
)

# Words that really are the same in a language as in English: brand names, and words
# these languages share with English. Everything else must have a word of its own.
SAME_AS_ENGLISH: dict[tuple[str | None, str], set[str]] = {
    ("box", "Yatzy"): set(LANGUAGES),
    ("box", "Maxi Yatzy"): set(LANGUAGES),
    ("box", "Yahtzee"): set(LANGUAGES),
    ("ruleset", "Yatzy"): set(LANGUAGES),
    ("ruleset", "Maxi Yatzy"): set(LANGUAGES),
    ("ruleset", "Yahtzee"): set(LANGUAGES),
    ("box", "Villa"): {"da", "de", "nb", "nl"},
    ("box", "Chance"): {"da", "de", "fr", "it"},
    ("box", "Full house"): {"nl"},
    ("box", "Full straight"): {"nb"},
    ("board", "Advent"): {"da", "de", "nb", "nl", "sv"},
    ("friend view", "Blind"): {"da", "de", "nl"},
    ("level", "Expert"): {"fr", "nl", "sv"},
    ("mode", "Computer"): {"da", "de", "it", "nl"},
    ("mode", "Party"): {"de"},
    ("mode", "Solo"): {"nl", "pl"},
    (None, "%(total)s point"): {"fr"},
    (None, "actions"): {"fr"},
    (None, "block"): {"sv"},
    (None, "code"): {"fr", "nl"},
    (None, "date"): {"fr"},
    (None, "error"): {"es"},
    (None, "No"): {"es", "it"},
    (None, "options"): {"fr"},
    (None, "round"): {"it"},
    (None, "status"): {"da", "nb", "nl", "sv"},
    (None, "total"): {"es", "fr"},
    (None, "version"): {"da", "fr", "sv"},
}

_PLACEHOLDER = re.compile(r"%(?:\([a-z_]+\))?[sd]|%%")

Key = tuple[str | None, str, str | None]


def key(entry: polib.POEntry) -> Key:
    return (entry.msgctxt, entry.msgid, entry.msgid_plural or None)


@pytest.fixture(scope="module")
def extracted(tmp_path_factory: pytest.TempPathFactory) -> set[Key]:
    if shutil.which("xgettext") is None:
        pytest.skip("makemessages needs GNU gettext's xgettext (Debian package `gettext`)")
    locale = catalogues.extract(tmp_path_factory.mktemp("messages"), ["en"])
    return {key(entry) for entry in polib.pofile(str(catalogues.catalogue("en", locale)))}


def committed(language: str) -> polib.POFile:
    return polib.pofile(str(catalogues.catalogue(language)))


def forms(entry: polib.POEntry) -> list[str]:
    if entry.msgid_plural:
        return [entry.msgstr_plural[n] for n in sorted(entry.msgstr_plural)]
    return [entry.msgstr]


@NEEDS_XGETTEXT
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_of_the_code_is_in_the_catalogue(extracted, language):
    present = {key(entry) for entry in committed(language) if not entry.obsolete}
    missing = sorted(extracted - present, key=str)
    assert not missing, f"{language}: not in the catalogue (make messages): {missing[:5]}"
    stale = sorted(present - extracted, key=str)
    assert not stale, f"{language}: in the catalogue, no longer in the code: {stale[:5]}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_is_translated(language):
    po = committed(language)
    nplurals = int(re.search(r"nplurals=(\d)", po.metadata["Plural-Forms"])[1])  # type: ignore[index]
    for entry in po:
        where = f"{language}: {entry.msgctxt or ''} {entry.msgid!r}"
        assert "fuzzy" not in entry.flags, f"{where} is fuzzy (check it, then drop the flag)"
        assert all(form.strip() for form in forms(entry)), f"{where} has no translation"
        if entry.msgid_plural:
            assert len(forms(entry)) == nplurals, f"{where} needs {nplurals} plural forms"
        english = (
            [entry.msgid, entry.msgid_plural][: len(forms(entry))]
            if entry.msgid_plural
            else [entry.msgid]
        )
        if language != "en" and forms(entry) == english:
            allowed = SAME_AS_ENGLISH.get((entry.msgctxt, entry.msgid), set())
            assert language in allowed, f"{where} is still English"


def test_english_says_what_the_message_ids_say():
    # A fuzzy guess gettext made from a similar old message must never reach a reader.
    for entry in committed("en"):
        english = [entry.msgid, entry.msgid_plural] if entry.msgid_plural else [entry.msgid]
        assert forms(entry) == english, f"en: {entry.msgid!r} -> {forms(entry)!r}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_translations_keep_the_placeholders(language):
    for entry in committed(language):
        expected = sorted(_PLACEHOLDER.findall(entry.msgid))
        for form in forms(entry):
            found = sorted(_PLACEHOLDER.findall(form))
            # A language with one plural form may leave a count implicit in the singular.
            assert found == expected or (entry.msgid_plural and set(found) <= set(expected)), (
                f"{language}: {entry.msgid!r} -> {form!r}"
            )


def test_the_plural_forms_are_the_languages_own():
    for language in LANGUAGES:
        assert committed(language).metadata["Plural-Forms"] == catalogues.PLURAL_FORMS[language]
    assert catalogues.PLURAL_FORMS["pl"].startswith("nplurals=3;")


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="needs GNU gettext's msgfmt")
@pytest.mark.parametrize("language", LANGUAGES)
def test_gnu_msgfmt_accepts_the_catalogue(language):
    result = subprocess.run(
        [
            "msgfmt",
            "--check-format",
            "--check-domain",
            "-o",
            "/dev/null",
            catalogues.catalogue(language),
        ],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr


def test_compiling_writes_only_stale_catalogues(tmp_path: Path):
    target = catalogues.catalogue("nl", tmp_path)
    target.parent.mkdir(parents=True)
    shutil.copy(catalogues.catalogue("nl"), target)
    assert catalogues.compile_all(tmp_path) == [target.with_suffix(".mo")]
    assert catalogues.compile_all(tmp_path) == []
    translations = polib.mofile(str(target.with_suffix(".mo")))
    assert translations.find("Chance", msgctxt="box").msgstr == "Kans"
