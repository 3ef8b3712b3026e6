"""The round's screen laid out for a terminal's size, without a terminal: the layout
each size gets, and the lines it takes (the pseudo-terminal tests read the real one)."""

import re

import pytest
from rich.console import Console
from rich.text import Text

from client import render
from tests.client.states import mid_game

SEED = bytes(range(32))


def state_of(ruleset):
    return mid_game(ruleset, SEED)


def screen(state, width, height, messages=()):
    console = Console(width=width, color_system=None, record=True)
    frame = render.round_frame(state, {0}, names=render.NO_NAMES, messages=messages, height=height)
    console.print(frame)
    return console.export_text().splitlines()


@pytest.mark.parametrize("ruleset", ["maxi", "yatzy", "yahtzee"])
def test_an_80_by_24_terminal_gets_two_columns_in_exactly_the_lines_above_the_prompt(ruleset):
    lines = screen(state_of(ruleset), 80, 22, [Text("a message")] * 9)
    assert len(lines) == 22 and all(len(line) <= 80 for line in lines)
    assert sum("│" in line for line in lines) >= 8  # the card's two halves
    assert lines[-1] == "…"  # the messages cut to the lines left


def test_a_bigger_terminal_gets_one_column_and_the_dice_in_a_frame():
    lines = screen(state_of("maxi"), 120, 38)
    assert len(lines) == 38 and lines[2].startswith("╭")
    assert not any("│ 11 " in line for line in lines)  # box 11 on a line of its own
    assert any(line.startswith("11 four_of_a_kind") for line in lines)


def test_a_terminal_too_narrow_for_two_columns_gets_one_and_nothing_breaks():
    lines = screen(state_of("maxi"), 44, 40)
    assert any(line.startswith("20 maxi_yatzy") for line in lines)
    assert len(lines) == 40 and all(len(line) <= 44 for line in lines)


@pytest.mark.parametrize("size", [(40, 10), (50, 13), (79, 16), (59, 17), (30, 60), (20, 3)])
def test_a_terminal_smaller_than_any_layout_says_to_make_it_bigger_and_never_scrolls(size):
    """Below every layout (60x20 for a solo Maxi game) the screen scrolled its top away
    (title, turn and dice gone) or cut the dice off at the edge: it says the window is
    too small instead, with the turn and the messages, in the lines it has."""
    width, height = size
    lines = screen(state_of("maxi"), width, height, [Text("Chance: 18 points.")])
    assert len(lines) == height and all(len(line) <= width for line in lines), lines
    assert lines[0].startswith("The window is too"), lines
    text = " ".join(line.strip() for line in lines)
    if height >= 8:
        assert render.TOO_SMALL in text and "Turn 6 of 20" in text and "Chance: 18 points." in text
    assert not any("maxi_yatzy" in line or line.startswith("face") for line in lines)


def test_a_finished_round_on_a_small_terminal_is_shown_whole():
    """No key draws a finished round again: on a terminal too small it is printed whole
    (the scrollback keeps it), not replaced by the notice."""
    state = {**state_of("maxi"), "status": "completed"}
    lines = screen(state, 60, 8)
    assert any(line.startswith(" 1 ones") for line in lines)
    assert not any("too small" in line for line in lines)


@pytest.mark.parametrize("name", ["W" * 200, "名前" * 40, "two\nlines"])
def test_box_names_of_any_length_from_the_server_leave_every_boxs_points_on_screen(name):
    state = state_of("maxi")
    names = render.Names({box: name for box in state["scorecard"]})
    console = Console(width=80, color_system=None, record=True)
    console.print(render.round_frame(state, {0}, names=names, height=22))
    lines = console.export_text().splitlines()
    assert len(lines) == 22 and all(len(line) <= 80 for line in lines)
    card = "\n".join(lines)
    for number, points in enumerate(state["scorecard"].values(), start=1):
        shown = str(points) if points is not None else f"+{state['options'][box_at(state, number)]}"
        assert re.search(rf"(^|│) *{number} [^│]* {re.escape(shown)}( |$|│)", card, re.M), number


def box_at(state, number):
    return list(state["scorecard"])[number - 1]


def test_a_terminal_too_small_for_the_message_lines_still_shows_the_message():
    """At 60x20 the screen that fits takes all 18 lines above the prompt: a refusal
    ("foo" is not a move), the points just scored, a hint were cut to nothing, as if
    the move had been ignored. The title gives up its line to them (the status line
    under it keeps the turn), and a message too long for it is cut with an ellipsis."""
    message = Text('"foo" is not a move. ' + "r roll · 1-6 toggle hold (e.g. 1 3 or 13) · " * 2)
    lines = screen(state_of("maxi"), 60, 18, [message])
    assert len(lines) == 18 and all(len(line) <= 60 for line in lines)
    assert lines[0].startswith("Turn 6 of 20 · roll 1 of 3")
    assert lines[-1].startswith('"foo" is not a move. r roll') and lines[-1].endswith("…")
    assert any(line.startswith("face") for line in lines)
    for number in range(1, 21):
        assert any(re.search(rf"(^|│) ?{number} \w", line) for line in lines), number
    # With no message to show, the title keeps its line.
    assert screen(state_of("maxi"), 60, 18)[0].startswith("Solo · maxi")


@pytest.mark.parametrize("sharer", ["w" * 150, "名前" * 30])
def test_a_friends_long_name_leaves_the_score_to_beat_in_the_title(sharer):
    """The title cut "ada's score to beat: 263" at its end: a 150-letter username
    left none of the score on an 80-column screen."""
    target = render.friend_target({"sharer": sharer, "target": 263})
    console = Console(width=80, color_system=None, record=True)
    console.print(render.round_frame(state_of("maxi"), {0}, names=render.NO_NAMES, target=target))
    title = console.export_text().splitlines()[0]
    assert title.endswith("'s score to beat: 263") and "…" in title, title


def test_a_board_with_lines_but_none_around_the_player_does_not_say_it_is_empty():
    """boards best-day --around-me for a player not on the board said "No one on this
    board yet." above "3 on the board"."""
    console = Console(width=80, color_system=None, record=True)
    console.print(render.board_table("best-day", {"count": 3, "results": [], "me": None}))
    text = " ".join(console.export_text().split())
    assert "You are not on this board yet" in text and "3 on the board" in text
    assert "No one on this board yet" not in text


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\t"])
def test_a_players_name_with_a_line_or_paragraph_separator_is_on_one_line(separator):
    """A display name may hold U+2028 (the server keeps a Unicode separator): the board
    broke its row after it ("Ada" on one line, "Lovelace" under it) and a terminal
    draws the separator as nothing ("AdaLovelace"); so did a friend's challenge."""
    name = f"Ada{separator}Lovelace"
    console = Console(width=80, color_system=None, record=True)
    page = {"count": 1, "results": [{"rank": 1, "username": "ada", "display_name": name}]}
    console.print(render.board_table("best-day", page))
    rows = [line for line in console.export_text().splitlines() if "Lovelace" in line]
    assert len(rows) == 1 and "Ada Lovelace" in rows[0], console.export_text()
    view = {"sharer": name, "ruleset": "yatzy", "target": 263, "sharer_round": {"total": 263}}
    console.print(render.friend_view(view, names=render.NO_NAMES))
    text = console.export_text()
    assert "Ada Lovelace challenges you" in text
    assert re.search(r"you +Ada Lovelace", text) and separator not in text, text


def test_the_computers_joker_turn_says_its_extra_bonus_beside_the_boxs_points():
    """A computer turn's joker (Yahtzee: a further yahtzee in sixes) added 130 to its
    total; the line said "Sixes 30"."""
    line = {"turn": 1, "rolls": [[6] * 5], "holds": [], "category": "sixes", "points": 30}
    names = render.Names({"sixes": "Sixes"})
    joker = render.opponent_turn({**line, "extra_bonus": 100}, "easy", 180, names=names)
    assert joker.plain.endswith("→ Sixes 30 +100 (total 180)")
    # A server that sends no extra_bonus (older than the field) is read as none.
    assert render.opponent_turn(line, "easy", 80, names=names).plain.endswith(
        "→ Sixes 30 (total 80)"
    )


def games_lines(unfinished, page, width=80):
    console = Console(width=width, color_system=None, record=True)
    names = render.Names(rulesets={"maxi": "Maxi Yatzy", "yatzy": "Yatzy", "yahtzee": "Yahtzee"})
    console.print(render.games_table(unfinished, page, names=names))
    return console.export_text().splitlines()


def game(n, mode, ruleset, **fields):
    return {
        "id": f"{n:08x}-a7bc-4f37-82cf-2c37250a39bf",
        "mode": mode,
        "ruleset": ruleset,
        "date": None,
        "ranked": False,
        "status": "in_progress",
        "turn": 3,
        "total": 41,
        "level": None,
        "opponent_total": None,
        "result": None,
        "seats": None,
        **fields,
    }


def test_the_games_list_fits_80_columns_unfinished_first_each_by_the_id_give_up_takes():
    """`yatzy-play games`: every unfinished game first (also one further down the API's
    newest-first list), then the page's others, each on one row of 80 columns with the
    start of its id, its mode, ruleset, turns played of the game's, points and opponent
    or seats (a seat's name on one line, whatever it holds)."""
    party = game(
        3,
        "party",
        "maxi",
        seats=[
            {"seat": 0, "name": "Ann\u2028Marie", "total": 40},
            {"seat": 1, "name": "Bo" * 30, "total": 12},
        ],
    )
    computer = game(2, "computer", "yahtzee", level="expert", opponent_total=38)
    unfinished = [game(1, "solo", "yatzy"), computer, party]
    page = {
        "count": 120,
        "next": "http://testserver/api/v1/games/?page=2",
        "results": [
            game(1, "solo", "yatzy"),  # unfinished: shown once, above the rest
            game(4, "daily", "maxi", date="2026-12-01", ranked=True, status="completed",
                 turn=20, total=263),
            game(5, "computer", "yatzy", level="hard", status="completed", turn=15,
                 total=210, opponent_total=190, result="win"),
        ],
    }  # fmt: skip
    lines = games_lines(unfinished, page)
    assert all(len(line) <= 80 for line in lines), "\n".join(lines)
    rows = [line.strip() for line in lines if re.match(r"^ *[0-9a-f]{8} ", line)]
    assert [row.split()[0] for row in rows] == [
        "00000001", "00000002", "00000003", "00000004", "00000005",
    ], "\n".join(lines)  # fmt: skip
    assert re.fullmatch(r"00000001 +solo +Yatzy +3/15 +41 +playing", rows[0]), rows[0]
    assert re.search(r"computer +Yahtzee +3/13 +41 +playing +expert 38$", rows[1]), rows[1]
    assert re.search(r"party +Maxi Yatzy +3/20 +41 +playing +Ann Marie 40, BoB.*…$", rows[2])
    assert re.search(r"daily +Maxi Yatzy +20/20 +263 +done +2026-12-01$", rows[3]), rows[3]
    assert re.search(r"computer +Yatzy +15/15 +210 +won +hard 190$", rows[4]), rows[4]
    text = " ".join(" ".join(lines).split())
    assert "3 unfinished · 120 in all · more: --page N" in text
    assert "`yatzy-play give-up ID` gives up an unfinished solo, computer or party game" in text


def test_no_games_says_so_and_how_to_start_one():
    text = " ".join(" ".join(games_lines([], {"count": 0, "next": None, "results": []})).split())
    assert "No games here yet: `yatzy-play play` starts the day's." in text
    assert "0 unfinished · 0 in all" in text and "give-up" not in text
