"""No untranslated text: the message ids extracted from the code (``makemessages`` for the
service, ``xgettext`` for the terminal client's own words, into a temporary directory)
are each translated in every committed catalogue of their set, and the catalogues are
well-formed. Adding a text without its translations fails here (docs/i18n.md: how to add
a text)."""

from __future__ import annotations

import functools
import gettext
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
    ("level", "expert"): {"fr", "nl", "sv"},
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
    # The terminal client's.
    (None, "{box}: {points}."): set(LANGUAGES) - {"fr", "ja"},  # French spaces the colon
    (None, "{error}."): set(LANGUAGES) - {"ja"},
    (None, "1-{count} hold"): {"da", "nb"},
    # Durations, written short where the play screen's bar has little room.
    (None, "{hours}h {minutes}m"): {"it", "sv", "pl"},
    (None, "{minutes}m {seconds}s"): {"da", "nb", "it", "sv", "nl", "pl"},
    (None, "{seconds}s"): {"da", "nb", "it", "sv", "fi", "nl", "pl"},
    (None, "Password: "): {"it"},
    (None, "comp."): {"da", "it", "nl"},
    (None, "computer"): {"da", "it", "nl"},
    ("game kind", "computer"): {"da", "it", "nl"},
    ("game kind", "solo"): {"nl", "pl"},
    (None, "Solo"): {"nl", "pl"},
    (None, "Party"): {"de"},
    (None, "Advent"): {"de", "nl", "sv"},
    (None, "sum"): {"da", "nb"},
    (None, "id"): {"da", "fr", "es", "it", "sv", "nb", "nl", "pl"},
    (None, "bonus"): {"da", "es", "it", "sv", "nb", "fi", "nl"},
    ("verify", "bonus"): {"da", "es", "it", "sv", "nb", "fi", "nl"},
    ("verify", "total"): {"es", "fr"},
    (None, "Total"): {"es", "fr"},
    (None, "Total {total}"): {"es", "fr"},
    (None, "{box} {points} (total {total})"): {"es", "fr"},
    (None, "points"): {"fr"},
    (None, "pts"): {"fr"},
    (None, "option"): {"fr"},
    (None, "Options (yatzy-play rules {name} -o NAME=VALUE)"): {"fr"},
    (None, "journal"): {"da", "fr", "sv", "nb"},
    (None, "Round {id}"): {"it"},
    ("door", "open"): {"nl"},
    (None, "{points} point"): {"fr"},
}
# Abbreviations a language writes out, having a short word of its own ("comp." is the
# Swedish "dator"): their full stop is not a sentence's.
ABBREVIATIONS = {"comp."}

# printf's (Django's own texts and the service's) and str.format's (a few of DRF's, and
# every one of the client's): a placeholder lost or renamed is a KeyError at run time.
_PLACEHOLDER = re.compile(r"%(?:\([a-z_]+\))?[sd]|%%|\{[a-z_]+\}")
# The client's texts name commands and keys in backticks; a player types them as shown.
_COMMAND = re.compile(r"`[^`]+`")
SETS = ["service", "client"]

Key = tuple[str | None, str, str | None]


def key(entry: polib.POEntry) -> Key:
    return (entry.msgctxt, entry.msgid, entry.msgid_plural or None)


@pytest.fixture(scope="module")
def extracted(tmp_path_factory: pytest.TempPathFactory) -> dict[str, set[Key]]:
    if shutil.which("xgettext") is None:
        pytest.skip("makemessages needs GNU gettext's xgettext (Debian package `gettext`)")
    locale = catalogues.extract(tmp_path_factory.mktemp("messages"), ["en"])
    client = catalogues.extract_client(tmp_path_factory.mktemp("client"))
    return {
        "service": {key(entry) for entry in polib.pofile(str(catalogues.catalogue("en", locale)))},
        "client": {key(entry) for entry in client},
    }


def committed(language: str, which: str = "service") -> polib.POFile:
    path = catalogues.catalogue if which == "service" else catalogues.client_catalogue
    return polib.pofile(str(path(language)))


def forms(entry: polib.POEntry) -> list[str]:
    if entry.msgid_plural:
        return [entry.msgstr_plural[n] for n in sorted(entry.msgstr_plural)]
    return [entry.msgstr]


@NEEDS_XGETTEXT
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("which", SETS)
def test_every_message_of_the_code_is_in_the_catalogue(extracted, language, which):
    present = {key(entry) for entry in committed(language, which) if not entry.obsolete}
    missing = sorted(extracted[which] - present, key=str)
    assert not missing, f"{language}: not in the catalogue (make messages): {missing[:5]}"
    stale = sorted(present - extracted[which], key=str)
    assert not stale, f"{language}: in the catalogue, no longer in the code: {stale[:5]}"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("which", SETS)
def test_every_message_is_translated(language, which):
    po = committed(language, which)
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


@pytest.mark.parametrize("which", SETS)
def test_english_says_what_the_message_ids_say(which):
    # A fuzzy guess gettext made from a similar old message must never reach a reader.
    for entry in committed("en", which):
        english = [entry.msgid, entry.msgid_plural] if entry.msgid_plural else [entry.msgid]
        assert forms(entry) == english, f"en: {entry.msgid!r} -> {forms(entry)!r}"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("which", SETS)
def test_translations_keep_the_placeholders(language, which):
    for entry in committed(language, which):
        expected = sorted(_PLACEHOLDER.findall(entry.msgid))
        for form in forms(entry):
            found = sorted(_PLACEHOLDER.findall(form))
            # A language with one plural form may leave a count implicit in the singular.
            assert found == expected or (entry.msgid_plural and set(found) <= set(expected)), (
                f"{language}: {entry.msgid!r} -> {form!r}"
            )


@pytest.mark.parametrize("which", SETS)
def test_the_plural_forms_are_the_languages_own(which):
    for language in LANGUAGES:
        assert (
            committed(language, which).metadata["Plural-Forms"] == catalogues.PLURAL_FORMS[language]
        )
    assert catalogues.PLURAL_FORMS["pl"].startswith("nplurals=3;")


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="needs GNU gettext's msgfmt")
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("which", SETS)
def test_gnu_msgfmt_accepts_the_catalogue(language, which):
    result = subprocess.run(
        [
            "msgfmt",
            "--check-format",
            "--check-domain",
            "-o",
            "/dev/null",
            committed(language, which).fpath,
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


# What a translation keeps of its message id beyond the placeholders: the HTML tags and
# entities (a template's markup), the line breaks and the outer whitespace (texts joined
# by the code), and the closing punctuation (a sentence stays a sentence, a question a
# question; a label that is no sentence gets no full stop of its own).
_MARKUP = re.compile(r"</?[a-zA-Z][^>]*>|&(?:[a-zA-Z]+|#\d+|#x[0-9a-fA-F]+);")
_CLOSING = ".?!:…"
# Japanese closes with its full-width marks: the ideographic full stop, and the
# full-width question mark, exclamation mark and colon.
_FULL_WIDTH = {"\u3002": ".", "\uff1f": "?", "\uff01": "!", "\uff1a": ":"}


def _pairs(entry: polib.POEntry) -> list[tuple[str, str]]:
    """(English, translation) for each form: the plural forms against msgid_plural."""
    if not entry.msgid_plural:
        return [(entry.msgid, entry.msgstr)]
    found = forms(entry)
    return [
        (entry.msgid if n == 0 and len(found) > 1 else entry.msgid_plural, form)
        for n, form in enumerate(found)
    ]


@functools.cache
def _only_one(language: str) -> bool:
    """Whether the first plural form serves n == 1 alone (it may then leave the count out)."""
    plural = gettext.c2py(catalogues.PLURAL_FORMS[language].split("plural=", 1)[1].rstrip(";"))
    return [n for n in range(1000) if plural(n) == 0] == [1]


def test_the_first_plural_form_is_read_for_one_alone_where_the_language_says_so():
    assert _only_one("en") and _only_one("pl") and _only_one("de")
    assert not _only_one("fr")  # 0 and 1
    assert not _only_one("ja")  # one form for every number


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("which", SETS)
def test_every_plural_form_keeps_the_placeholders_of_the_plural(language, which):
    for entry in committed(language, which):
        if not entry.msgid_plural:
            continue
        expected = sorted(_PLACEHOLDER.findall(entry.msgid_plural))
        for n, form in enumerate(forms(entry)):
            found = sorted(_PLACEHOLDER.findall(form))
            may_leave_out = n == 0 and _only_one(language) and set(found) <= set(expected)
            assert found == expected or may_leave_out, (
                f"{language}: form {n} of {entry.msgid_plural!r} -> {form!r}"
            )


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("which", SETS)
def test_translations_keep_the_markup_and_the_line_breaks(language, which):
    for entry in committed(language, which):
        for english, form in _pairs(entry):
            where = f"{language}: {english!r} -> {form!r}"
            assert sorted(_MARKUP.findall(form)) == sorted(_MARKUP.findall(english)), where
            assert sorted(_COMMAND.findall(form)) == sorted(_COMMAND.findall(english)), where
            assert form.count("\n") == english.count("\n"), where
            assert form[:1].isspace() == english[:1].isspace(), where
            assert form[-1:].isspace() == english[-1:].isspace(), where


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("which", SETS)
def test_translations_close_as_the_english_does(language, which):
    for entry in committed(language, which):
        for english, form in _pairs(entry):
            mark = english.rstrip()[-1:]
            last = form.rstrip()[-1:]
            last = _FULL_WIDTH.get(last, last)
            if mark in _CLOSING and english not in ABBREVIATIONS:
                assert last == mark, f"{language}: {english!r} -> {form!r} (ends {mark!r})"
            else:
                # A full stop may close an abbreviation or a date ("Pkt.", "24.12."); a
                # question, an exclamation or a colon is a sentence the English is not.
                assert last not in "?!:", f"{language}: {english!r} -> {form!r}"


# A box keeps its name wherever a text names it: the name of msgctxt "box" is in every
# translation whose English names the box (in Finnish and Polish a word may be inflected:
# its stem is enough). Brand names (Yatzy, Yahtzee) are left to each text. The texts
# below describe the dice rather than name the box, and say it in words of their own.
_BRANDS = {"Yatzy", "Maxi Yatzy", "Yahtzee"}
_INFLECTED = {"fi", "pl"}
_DESCRIBED = {
    "Five of a kind as a full house",  # an option: five equal dice scored as a full house
    "Two pairs of different faces: the sum of those four dice.",
    "Three pairs of different faces: the sum of those six dice.",
}


def _names_the_box(name: str, translation: str, language: str) -> bool:
    translation = translation.casefold()
    if language not in _INFLECTED:
        return name.casefold() in translation
    return all(word[: max(3, len(word) - 3)] in translation for word in name.casefold().split())


@pytest.mark.parametrize("language", [code for code in LANGUAGES if code != "en"])
def test_a_box_is_called_by_its_name_in_every_text(language):
    po = committed(language)
    names = {
        entry.msgid: entry.msgstr
        for entry in po
        if entry.msgctxt == "box" and entry.msgid not in _BRANDS
    }
    for entry in po:
        if entry.msgctxt == "box" or entry.msgid in _DESCRIBED:
            continue
        english = f"{entry.msgid} {entry.msgid_plural or ''}"
        translated = " ".join(forms(entry))
        for box, name in names.items():
            # "ones", "chance", "tower" are words too: a one-word box is named capitalised.
            flags = re.IGNORECASE if " " in box else 0
            if re.search(rf"(?<![\w-]){re.escape(box)}(?![\w-])", english, flags):
                assert _names_the_box(name, translated, language), (
                    f"{language}: {entry.msgid!r} -> {translated!r} does not say {name!r}"
                )


def test_merging_keeps_a_translation_only_for_the_same_text_of_the_same_shape():
    """A text turned from plain into a plural (or back) arrives empty in the client's
    catalogue, where polib's merge kept the old forms beside it (a broken entry: the
    text came out blank); one unchanged keeps its translation, with Polish's three
    forms."""
    old = polib.POFile()
    old.append(polib.POEntry(msgid="{count} on the board", msgstr="{count} na tablicy"))
    old.append(
        polib.POEntry(
            msgid="{n} game",
            msgid_plural="{n} games",
            msgstr_plural={0: "{n} gra", 1: "{n} gry", 2: "{n} gier"},
        )
    )
    old.append(polib.POEntry(msgid="Gone", msgstr="Nie ma"))
    ids = polib.POFile()
    ids.append(polib.POEntry(msgid="{count} on the board", msgid_plural="{count} on the boards"))
    ids.append(polib.POEntry(msgid="{n} game", msgid_plural="{n} games"))
    ids.append(polib.POEntry(msgid="New"))
    merged = {entry.msgid: entry for entry in catalogues.merge(old, ids, "pl")}
    assert set(merged) == {"{count} on the board", "{n} game", "New"}
    assert merged["{count} on the board"].msgstr_plural == {0: "", 1: "", 2: ""}
    assert merged["{count} on the board"].msgstr == ""
    assert merged["{n} game"].msgstr_plural == {0: "{n} gra", 1: "{n} gry", 2: "{n} gier"}
    assert merged["New"].msgstr == ""
