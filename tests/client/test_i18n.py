"""The client's own words in the player's language: the locale's at start, then the
language the server answers in (the profile's once logged in), the play screen in all 12
languages within 80x24, and no English word left on a screen in another language."""

from __future__ import annotations

import re
from types import SimpleNamespace

import httpx
import polib
import pytest
from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

from client import commands, i18n, play, render
from client.__main__ import main
from config import catalogues
from tests.client.states import mid_game
from tests.client.test_commands import SERVER, Terminal

OTHERS = [language for language in i18n.LANGUAGES if language != "en"]


@pytest.fixture
def locale(monkeypatch):
    """Sets the terminal's locale (``LANG``), nothing overriding it."""
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(variable, raising=False)

    def use(value: str) -> None:
        monkeypatch.setenv("LANG", value)

    return use


def names_in(client, language: str) -> render.Names:
    """The box names as the client gets them, in ``language`` (``GET rulesets/``)."""
    answer = client.get("/api/v1/rulesets/", HTTP_ACCEPT_LANGUAGE=language)
    assert answer.status_code == 200 and answer["Content-Language"] == language
    return render.Names.from_rulesets(answer.json())


def screen_lines(state, names, width=80, height=22, messages=()) -> list[str]:
    console = Console(width=width, color_system=None, record=True)
    console.print(render.round_frame(state, {0}, names=names, messages=messages, height=height))
    return console.export_text().splitlines()


@pytest.mark.django_db
@pytest.mark.parametrize("ruleset", ["maxi", "yatzy", "yahtzee"])
@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_the_play_screen_fits_80_by_24_in_every_language(client, language, ruleset):
    names = names_in(client, language)
    assert i18n.activate(language) == language
    state = mid_game(ruleset)
    dice = len(state["dice"])
    message = Text(render.scored_points(18, 0))
    lines = screen_lines(state, names, messages=[message] * 9)
    assert len(lines) == 22, "\n".join(lines)
    assert all(cell_len(line) <= 80 for line in lines), "\n".join(lines)
    assert sum("│" in line for line in lines) >= 8  # the card's two halves
    # Every box is on screen by its number and name in this language.
    for number, box in enumerate(state["scorecard"], start=1):
        start = f"{number} {names.box(box)[:3]}"
        assert any(start in line for line in lines), (start, "\n".join(lines))
    # A daily round's bar (no hints before the reveal) keeps the keys and its countdown
    # whole, the longest a day has left included, in the reset or the grace period.
    for closes in ("2026-12-07T00:00:00Z", "2026-12-06T00:00:00Z"):
        daily = {"closes_at": closes, "reveal_at": "2026-12-06T00:59:59Z"}
        now = JUST_AFTER_RESET
        countdowns = [
            render.reset_countdown(daily, now=now),
            render.reset_countdown(daily, now=now, short=True),
        ]
        bar = play.bottom_bar(80, dice, countdowns, hints=False)
        assert cell_len(bar) == 80 and "…" not in bar, (countdowns, bar)
        assert countdowns[1] in bar and "q " in bar, (countdowns, bar)


NOON = render.parse_time("2026-12-06T12:00:00Z")
JUST_AFTER_RESET = render.parse_time("2026-12-06T00:00:01Z")

WORD = re.compile(r"[^\W\d_]{3,}")


def words(text: str) -> set[str]:
    return {word.casefold() for word in WORD.findall(text)}


def prose(text: str) -> set[str]:
    """The words of a text, leaving out its placeholders and commands (never translated)."""
    return words(re.sub(r"`[^`]*`|\{[a-z_]+\}", " ", text))


def english_only(language: str, names: render.Names) -> set[str]:
    """The words of the client's English texts that the language's catalogue and box
    names never use: finding one on a screen in that language means an English text."""
    english = polib.pofile(str(catalogues.client_catalogue("en")))
    own = polib.pofile(str(catalogues.client_catalogue(language)))
    vocabulary = set()
    for entry in english:
        vocabulary |= prose(entry.msgid) | prose(entry.msgid_plural or "")
    theirs = set()
    for entry in own:
        for form in [entry.msgstr, *entry.msgstr_plural.values()]:
            theirs |= prose(form)
    theirs |= words(" ".join([*names.boxes.values(), *names.rulesets.values()]))
    return vocabulary - theirs


@pytest.mark.django_db
@pytest.mark.parametrize("language", OTHERS)
def test_no_english_word_is_left_on_the_play_screen(client, language):
    names = names_in(client, language)
    i18n.activate(language)
    left = english_only(language, names)
    computer = {**mid_game("yatzy"), "mode": "computer", "level": "hard"}
    for state in (mid_game("maxi"), mid_game("yahtzee"), computer):
        shown = "\n".join(screen_lines(state, names, width=120, height=40))
        if state["mode"] == "computer":
            # The level is an id the player types (`--computer hard`), named in words.
            title = shown.splitlines()[0]
            assert render.level_name("hard") in title and "hard" not in title, title
        shown += play.keys_help(len(state["dice"]))
        shown += render.reset_countdown({"closes_at": "2026-12-07T00:00:00Z"}, now=NOON) or ""
        # Box ids (shown where a name is missing) are no words of a sentence.
        shown = re.sub(r"\b[a-z]+(_[a-z]+)+\b", " ", shown)
        assert not words(shown) & left, (sorted(words(shown) & left), shown)


def test_a_language_the_client_does_not_speak_is_english(locale, capsys):
    locale("pt_BR.UTF-8")
    with pytest.raises(SystemExit):
        main(["--help"])
    assert i18n.active() == "en"
    assert "Play Maxi Yatzy Daily in the terminal" in capsys.readouterr().out


@pytest.mark.django_db(transaction=True)
def test_a_german_locale_plays_a_round_in_german(tmp_path, locale):
    locale("de_DE.UTF-8")
    ada = Terminal(tmp_path)
    status, out, _ = ada("register", "ada")
    assert status == 0 and i18n.active() == "de", out
    status, out, _ = ada("play", "--solo", "yatzy", keys=["r", "s 14", "q"])
    assert status == 0, out
    # The server's box name and the client's own words, in one language.
    assert re.search(r"Chance: \d+ Punkte\.", out) and "Zug 2 von 15 · Wurf 0 von 3" in out, out
    assert "Einser" in out and "Noch keine Würfel" in out and "q Ende" in out, out
    assert "Turn" not in out and "roll" not in out, out


@pytest.mark.django_db(transaction=True)
def test_the_profile_language_decides_over_the_locale(tmp_path, locale):
    locale("de_DE.UTF-8")
    ada = Terminal(tmp_path)
    assert ada("register", "ada")[0] == 0
    with httpx.Client(transport=ada.transport, base_url=SERVER) as http:
        me = http.patch(
            "/api/v1/accounts/me/",
            json={"language": "fr"},
            headers={"Authorization": f"Token {ada.store.get(SERVER).token}"},
        )
        assert me.status_code == 200, me.text
    status, out, _ = ada("play", "--solo", "yatzy", keys=["r", "q"])
    assert status == 0 and i18n.active() == "fr", out
    assert "As" in out and "Tour 1/15 · lancer 1/3" in out, out


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_a_finished_dailys_closing_lines_leave_the_shells_prompt_on_the_screen(language):
    """The last screen of a round leaves play.CLOSING_LINES under it: the closing
    lines of a ranked daily (the longest) and the shell's prompt after them."""
    i18n.activate(language)
    console = Console(width=80, color_system=None, record=True)
    state = {
        "id": "4f1c2f0e-6a8b-4a57-9b0e-0d1c9f6b2a10",
        "mode": "daily",
        "ranked": True,
        "status": "completed",
        "total": 287,
        "date": "2026-12-06",
    }
    challenge = {"reveal_at": "2026-12-07T00:30:00Z"}
    commands._after_round(SimpleNamespace(console=console), state, challenge)
    lines = console.export_text().splitlines()
    assert len(lines) <= play.CLOSING_LINES - 1, "\n".join(lines)


PARSER_COMMANDS = ["register", "login", "logout", "play", "friend", "share", "boards"]
PARSER_COMMANDS += ["games", "give-up", "advent", "rules", "verify"]


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_every_commands_help_is_shown_in_every_language(language, locale, capsys, monkeypatch):
    """argparse fills its help texts with ``%``: a translation with a bare ``%`` (French
    and German write "50 %") would stop ``--help`` with a ValueError."""
    locale(f"{language}_XX.UTF-8")
    monkeypatch.setenv("COLUMNS", "80")
    for command in [None, *PARSER_COMMANDS]:
        with pytest.raises(SystemExit) as stopped:
            main([command, "--help"] if command else ["--help"])
        assert stopped.value.code == 0
        assert i18n.active() == language
        shown = capsys.readouterr().out
        # argparse's own words too: its usage line, its titles, -h's help.
        assert shown.startswith(f"{i18n.gettext('usage: ')}yatzy-play"), shown
        assert i18n.gettext("show this help message and exit") in shown
        assert f"\n{i18n.gettext('options')}:\n" in shown
        assert language == "en" or "show this help message" not in shown
        body = shown.split("\n\n", 1)[1]
        if command:  # a command's help is wrapped (the top help's examples are as written)
            assert all(cell_len(line) <= 80 for line in body.splitlines()), shown


@pytest.mark.parametrize("columns", [80, 100])  # the client's screen needs 80 at least
@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_every_usage_fits_the_terminal_in_every_language(
    language, columns, locale, capsys, monkeypatch
):
    """argparse kept `play`'s group of choices on one usage line, 91 columns wide, and
    counts a Japanese "使い方: " as 5 columns where it takes 8."""
    locale(f"{language}_XX.UTF-8")
    monkeypatch.setenv("COLUMNS", str(columns))
    for command in [None, *PARSER_COMMANDS]:
        with pytest.raises(SystemExit):
            main([command, "--help"] if command else ["--help"])
        first, *rest = capsys.readouterr().out.split("\n\n", 1)[0].splitlines()
        # argparse's width: two columns short of the terminal's.
        assert all(cell_len(line) <= columns - 2 for line in [first, *rest]), [first, *rest]
        # Its lines under the first's options, counted in cells.
        under = cell_len(first.split(" [", 1)[0]) + 1
        indents = {len(line) - len(line.lstrip()) for line in rest}
        assert indents <= {under, under + 1}, [first, *rest]


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_argparses_refusals_are_in_the_players_language(language, locale, capsys):
    locale(f"{language}_XX.UTF-8")
    with pytest.raises(SystemExit) as stopped:
        main(["play", "--solo"])
    assert stopped.value.code == 2
    said = capsys.readouterr().err.splitlines()[-1]
    error = i18n.gettext("%(prog)s: error: %(message)s\n").split("%(message)s")[0]
    assert said.startswith(error % {"prog": "yatzy-play play"}), said
    assert i18n.gettext("expected one argument") in said, said
    assert language == "en" or "expected" not in said


def test_the_client_speaks_the_servers_languages():
    """The client cannot import the server's settings; its list of languages is its
    own, and must name the same 12 (a language missing there would read English)."""
    from django.conf import settings

    assert tuple(code for code, _name in settings.LANGUAGES) == i18n.LANGUAGES
