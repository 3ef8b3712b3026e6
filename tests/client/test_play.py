"""The play loop against a fake server that plays by the engine's rules: keys become
requests, refusals are shown as the server worded them, a 409 shows the current state."""

import io
import json

import httpx
import pyte
import pytest
from django.conf import settings
from rich.console import Console
from rich.text import Text

import yatzy
from client.api import ApiClient
from client.play import (
    Invalid,
    Look,
    PlaySession,
    Roll,
    Score,
    Toggle,
    bottom_bar,
    box_completion,
    fold,
    keys_help,
    parse_command,
    resolve_box,
)
from client.render import NO_NAMES, Names
from client.storage import Journal
from client.verify import verify_round
from tests.client.states import round_state

SEED = bytes(range(32))


class FakeServer:
    """rounds/r1/ of a Yatzy round, with the API's turn/roll preconditions."""

    def __init__(self):
        self.game = yatzy.Game(yatzy.get_ruleset("yatzy"), SEED)
        self.requests = []
        self.interfere = {}

    def state(self):
        return round_state(self.game, "yatzy", SEED)

    def __call__(self, request):
        path = request.url.path.removeprefix("/api/v1/rounds/r1/")
        body = json.loads(request.content) if request.content else {}
        self.requests.append((request.method, path, body))
        if len(self.requests) in self.interfere:
            self.interfere.pop(len(self.requests))()
        if path == "hint/":
            return httpx.Response(
                403, json={"code": "hint_unavailable", "message": "No hints here."}
            )
        if request.method == "POST":
            if (
                body["turn"] != self.game.turn
                or body.get("roll", self.game.rolls_used) != self.game.rolls_used
            ):
                return httpx.Response(
                    409,
                    json={
                        "code": "stale_state",
                        "message": "Stale turn or roll.",
                        "current": self.state(),
                    },
                )
            try:
                if path == "roll/":
                    self.game.roll(body["hold"])
                else:
                    self.game.score(body["category"])
            except yatzy.YatzyError as error:
                return httpx.Response(400, json={"code": error.code, "message": str(error)})
        return httpx.Response(200, json=self.state())


class Script:
    """Typed lines, one per prompt; the prompts are kept."""

    def __init__(self, lines):
        self.lines = list(lines)
        self.prompts = []

    def read(self, prompt):
        self.prompts.append(prompt)
        if not self.lines:
            raise EOFError
        return self.lines.pop(0)


@pytest.fixture
def server():
    return FakeServer()


def session(server, lines, tmp_path):
    output = io.StringIO()
    api = ApiClient(
        "http://fake.test", "tok", transport=httpx.MockTransport(server), sleep=lambda s: None
    )
    console = Console(file=output, width=120, color_system=None)
    return PlaySession(api, console, Journal(tmp_path), reader=Script(lines)), output


def test_keys_roll_hold_by_die_number_and_score_by_box_number(server, tmp_path):
    play, output = session(server, ["r", "1 3", "r", "s 15", "y"], tmp_path)  # y: a scratch
    final = play.run(server.state())
    assert [r[1:] for r in server.requests] == [
        ("roll/", {"hold": [], "turn": 0, "roll": 0}),
        ("roll/", {"hold": [0, 2], "turn": 0, "roll": 1}),
        ("score/", {"category": "yatzy", "turn": 0, "roll": 2}),
    ]
    assert final["turn"] == 1
    text = output.getvalue()
    assert "Turn 1 of 15 · roll 2 of 3" in text and "held" in text
    # Five dice: the keys say so.
    assert "1-5 toggle hold" in text and "1-6" not in text


def test_a_whole_round_ends_with_the_final_scorecard_and_a_journal_of_every_move(server, tmp_path):
    lines = [line for n in range(1, 16) for line in ("r", f"s {n}")]
    play, output = session(server, lines, tmp_path)
    # A box that would score 0 asks once; the script's next line would be the answer,
    # so every box here is one that scores (the server's dice are known in advance).
    play._scratch_confirmed = lambda command, state, reader: True
    final = play.run(server.state())
    assert final["status"] == "completed"
    assert f"Round completed · total {server.game.total}" in output.getvalue()
    record = Journal(tmp_path).get("r1")
    moves = [(e["type"], e["turn"], e["roll"], e.get("category")) for e in record.actions()]
    categories = list(server.game.ruleset.categories)
    assert moves == [
        move for turn, box in enumerate(categories) for move in
        (("roll", turn, 0, None), ("score", turn, 1, box))
    ]  # fmt: skip
    scores = [e for e in record.actions() if e["type"] == "score"]
    assert [e["points"] for e in scores] == [server.game.scorecard[b] for b in categories]
    assert scores[-1]["total"] == server.game.total
    assert len([e for e in record.states_shown() if e["dice"]]) == 15
    assert record.states_shown()[0]["fetched"] and not record.states_shown()[1]["fetched"]


def test_a_scratch_asks_once_and_is_scored_only_on_yes(server, tmp_path):
    server.game.roll()
    zero = next(box for box, points in server.game.options().items() if points == 0)
    number = list(server.game.ruleset.categories).index(zero) + 1
    play, output = session(server, [f"s {number}", "n", f"s {number}", "y"], tmp_path)
    final = play.run(server.state())
    assert play._reader.prompts[1] == f"{zero} scores 0 now: scratch it? [y/N] "
    assert "Not scored." in output.getvalue()
    assert [path for _, path, _ in server.requests] == ["score/"]
    assert final["scorecard"][zero] == 0


def test_one_point_is_said_in_the_singular(server, tmp_path):
    play, output = session(server, ["r", "r", "s ones"], tmp_path)  # the dice 2 1 5 5 5
    final = play.run(server.state())
    assert final["scorecard"]["ones"] == 1
    assert "ones: 1 point." in output.getvalue()


def test_a_refusal_is_shown_in_the_servers_words_and_play_goes_on(server, tmp_path):
    play, output = session(server, ["r", "s 1", "y", "r", "s ones", "?"], tmp_path)
    play.run(server.state())
    text = output.getvalue()
    assert "ones is already filled" in text
    assert "No hints here." in text


def test_a_409_shows_the_rounds_current_state_and_says_once_that_holds_are_cleared(
    server, tmp_path
):
    play, output = session(server, ["r", "12", "r", "r"], tmp_path)
    # Between the client's first and second roll, another window rolls the round.
    server.interfere[2] = lambda: server.game.roll(hold=[0])
    final = play.run(server.state())
    text = output.getvalue()
    assert "Stale turn or roll. Your holds are cleared." in text
    assert play.held == set()
    # The stale roll was not applied; the next one went on from the current state.
    assert [body for _, _, body in server.requests] == [
        {"hold": [], "turn": 0, "roll": 0},
        {"hold": [0, 1], "turn": 0, "roll": 1},
        {"hold": [], "turn": 0, "roll": 2},
    ]
    assert final["roll"] == 3
    # The journal has the rolls this client made, not the other window's, and the state
    # the 409 carried as read, not answered to this client.
    record = Journal(tmp_path).get("r1")
    assert [(e["turn"], e["roll"]) for e in record.actions()] == [(0, 0), (0, 2)]
    assert [e["fetched"] for e in record.states_shown() if e["roll"] == 2] == [True]


@pytest.mark.parametrize(("box", "fair"), [("ones", True), ("chance", False)])
def test_a_409_refusing_a_move_is_journaled_so_verify_catches_a_move_put_in_its_place(
    server, tmp_path, box, fair
):
    """A server answering a score with 409 and a state it had moved on itself (Chance
    scored where the player chose Ones) passed verify with a note (turn 1 "played
    elsewhere"). The refused move is journaled: the log's move there must be it (its
    first sending applied, its answer lost), else verify fails naming both."""
    play, _ = session(server, ["r", "s 1", "y"], tmp_path)
    server.interfere[2] = lambda: server.game.score(box)
    play.run(server.state())
    for category in [c for c in server.game.ruleset.categories if c not in ("ones", box)]:
        server.game.roll()  # the rest played elsewhere (in the browser)
        server.game.score(category)
    if box != "ones":
        server.game.roll()
        server.game.score("ones")
    report = verify_round(server.state(), record=Journal(tmp_path).get("r1"))
    assert report.ok is fair, [check.text for check in report.failures]
    if fair:
        assert report.turns[0].journal == "here"
    else:
        assert report.failures[0].text == (
            "turn 1 (chance): this client's ones after roll 1 was refused as stale (409: "
            "the round had moved on), and the server's log has chance "
            f"({server.game.scorecard['chance']} points) after roll 1 there, which this "
            "client did not make (unless it was made in another window at that moment)"
        )


def test_a_second_client_redrawing_its_older_screen_does_not_fail_verify(server, tmp_path):
    """Two clients of one player on one round (README: they share the journal): the
    first, still showing roll 0 after the second had rolled, drew its screen again on a
    typo, which the journal took as the server showing roll 0 again, and verify failed
    ("the server showed roll 0 after it had shown a later state")."""
    other, _ = session(server, ["r"], tmp_path)

    class ThenTypo(Script):
        def read(self, prompt):
            if len(self.prompts) == 0:
                other.run(server.state())  # the other window rolls meanwhile
            return super().read(prompt)

    play, _ = session(server, [], tmp_path)
    play._reader = ThenTypo(["zz", "3"])  # a typo, a hold: the old screen drawn twice
    play.run(server.state())
    while not server.game.is_over:  # the rest elsewhere
        if server.game.rolls_used == 0:
            server.game.roll()
        server.game.score(next(b for b, p in server.game.scorecard.items() if p is None))
    report = verify_round(server.state(), record=Journal(tmp_path).get("r1"))
    assert report.ok, [check.text for check in report.failures]


def test_the_countdown_to_the_daily_reset_is_in_the_frame(server, tmp_path):
    play, output = session(server, [], tmp_path)
    play.challenge = {"closes_at": "2999-01-01T00:00:00Z", "reveal_at": "2999-01-01T00:30:00Z"}
    play.run(server.state())
    assert "Daily resets in" in output.getvalue()


@pytest.mark.parametrize(
    ("changes", "hints"),
    [
        ({}, True),  # solo
        ({"mode": "computer"}, True),
        ({"mode": "daily", "date": "2026-12-01"}, False),  # an open challenge (SPEC §4)
        ({"mode": "daily", "date": "2026-11-30", "seed": "ab" * 32}, True),  # revealed
        ({"mode": "friend", "date": None}, False),  # until it is over
        ({"rules": {**yatzy.get_ruleset("yatzy").options, "saved_rolls": True}}, False),
    ],
)
def test_the_keys_offer_a_hint_only_where_the_server_gives_one(server, tmp_path, changes, hints):
    """The keys (bar, help, the line after a typo) offered ``? hint`` on a daily round
    whose day is open, where the server refuses every hint (403 hint_unavailable)."""
    play, output = session(server, ["zz", "help"], tmp_path)
    play.run({**server.state(), **changes})
    text = output.getvalue()
    assert text.count("? hint") == (3 if hints else 0), text  # keys, typo, help
    assert text.count("l look again") == 3
    assert ("? hint" in play._toolbar(81)) is hints
    assert "? hint" not in bottom_bar(80, 6, ["resets in 5h"], hints=False)


@pytest.mark.parametrize(
    ("line", "command"),
    [
        ("r", Roll()),
        ("", Look()),
        ("2", Toggle((2,))),
        ("hold 1 5", Toggle((1, 5))),
        ("s chance", Score("chance")),
        ("score small", Score("small_straight")),
        ("s 99", Invalid("There is no box 99: the boxes are numbered 1 to 15.")),
        # Digits int() refuses: not ASCII, or past its 4,300.
        ("s " + "1" * 5000, Invalid("There is no box 111111…: the boxes are numbered 1 to 15.")),
        ("²", Invalid('"²" is not a move. ' + keys_help(5))),
        ("h 1²", Invalid('"h 1²" is not a move. ' + keys_help(5))),
        # A roll cannot be taken back: words after r (holds meant with it?) were ignored
        # and every die not held before was rolled.
        ("roll", Roll()),
        ("r 1 2", Invalid('"r 1 2": r takes nothing after it. Hold dice first (1 2), then r.')),
        ("r 12", Invalid('"r 12": r takes nothing after it. Hold dice first (12), then r.')),
        ("roll all", Invalid('"roll all": roll takes nothing after it. ' + keys_help(5))),
    ],
)
def test_typed_lines_become_commands(line, command):
    boxes = list(yatzy.get_ruleset("yatzy").categories)
    assert parse_command(line, boxes=boxes, dice_count=5) == command


def test_a_box_name_typed_in_the_players_language_is_answered_in_it():
    """A prefix that several boxes' names share, or none, typed in Finnish or Japanese,
    was answered with the English ids ("could be three_pairs, three_of_a_kind"), and a
    name matching none with all of them (four lines of ids at 80 columns)."""
    names = Names(
        {
            "ones": "Ykköset",
            "three_pairs": "Kolme paria",
            "three_of_a_kind": "Kolme samaa",
            "chance": "チャンス",
        }
    )
    boxes = ["ones", "three_pairs", "three_of_a_kind", "chance"]
    assert parse_command("s kolme", boxes=boxes, dice_count=6, names=names) == Invalid(
        '"kolme" could be Kolme paria, Kolme samaa: type more of it.'
    )
    assert parse_command("s チャ", boxes=boxes, dice_count=6, names=names) == Score("chance")
    assert parse_command("s villa", boxes=boxes, dice_count=6, names=names) == Invalid(
        'No box is called "villa": type its number (1 to 4) or the start of its name.'
    )


def test_a_box_name_is_found_as_players_type_it_without_case_accents_or_sharp_s():
    """``s grosse`` found no box in German ("Große Straße" lowered is "große straße"),
    nor ``s escalera pequena`` "Escalera pequeña" or ``s kak`` the Swedish "Kåk"; the
    completion
    appended the name's rest at the typed length, which ß makes wrong."""
    german = Names({"small_straight": "Kleine Straße", "large_straight": "Große Straße"})
    boxes = ["ones", "small_straight", "large_straight", "full_house", "chance"]

    def parse(line, names):
        return parse_command(line, boxes=boxes, dice_count=6, names=names)

    assert parse("s grosse", german) == Score("large_straight")
    assert parse("s GROSSE STR", german) == Score("large_straight")
    assert parse("s große", german) == Score("large_straight")
    assert parse("s kleine strasse", german) == Score("small_straight")
    spanish = Names({"small_straight": "Escalera pequeña", "large_straight": "Escalera grande"})
    assert parse("s escalera pequena", spanish) == Score("small_straight")
    assert parse("s ESCALERA PEQUEÑA", spanish) == Score("small_straight")
    assert parse("s kak", Names({"full_house": "Kåk"})) == Score("full_house")
    assert parse("s maly", Names({"small_straight": "Mały strit"})) == Score("small_straight")
    # Ambiguity and no match are said as before, in the words typed.
    assert parse("s asse", german) == Invalid(
        'No box is called "asse": type its number (1 to 5) or the start of its name.'
    )
    assert parse("s escálera", spanish) == Invalid(
        '"escálera" could be Escalera pequeña, Escalera grande: type more of it.'
    )

    assert box_completion("s gro", boxes, german) == "ße Straße"
    assert box_completion("s grosse s", boxes, german) == "traße"
    assert box_completion("s GROSSE", boxes, german) == " Straße"
    assert box_completion("s gros", boxes, german) == ""  # no start of "Große" folds to it
    assert box_completion("s pequ", boxes, Names({"small_straight": "Pequeña"})) == "eña"
    assert box_completion("s kå", boxes, Names({"full_house": "Kåk"})) == "k"


def test_a_box_is_found_from_the_start_of_any_word_of_its_name():
    """``s pequena`` found no box in Spanish, nor ``s straight`` in English: only the
    start of a whole name counted. A later word counts too, after every whole name and
    start of one (French ``brelan`` is Brelan, not Double brelan; ``deux``, which also
    starts Deux paires, is Deux); a word several names have is ambiguous, as a start is."""
    boxes = list(yatzy.get_ruleset("maxi").categories)

    def parse(line, names=NO_NAMES):
        return parse_command(line, boxes=boxes, dice_count=6, names=names)

    spanish = Names(
        {
            "small_straight": "Escalera pequeña",
            "large_straight": "Escalera grande",
            "full_straight": "Escalera completa",
            "three_of_a_kind": "Trío",
            "villa": "Doble trío",
        }
    )
    assert parse("s pequena", spanish) == Score("small_straight")
    assert parse("s PEQ", spanish) == Score("small_straight")
    assert parse("s grande", spanish) == Score("large_straight")
    assert parse("s trio", spanish) == Score("three_of_a_kind")
    assert parse("s doble", spanish) == Score("villa")
    assert parse("s escalera", spanish) == Invalid(
        '"escalera" could be Escalera pequeña, Escalera grande, Escalera completa: type more of it.'
    )
    assert parse("s straight") == Invalid(
        '"straight" could be small_straight, large_straight, full_straight: type more of it.'
    )
    assert parse("s house") == Score("full_house")
    french = Names(
        {
            "twos": "Deux",
            "two_pairs": "Deux paires",
            "three_of_a_kind": "Brelan",
            "villa": "Double brelan",
        }
    )
    assert parse("s brelan", french) == Score("three_of_a_kind")
    assert parse("s deux", french) == Score("twos")
    assert parse("s deux p", french) == Score("two_pairs")
    # The suggestion follows: the rest of the word typed, from where it was begun.
    assert box_completion("s peq", boxes, spanish) == "ueña"
    assert box_completion("s esc", boxes, spanish) == ""
    assert box_completion("s stra", boxes, spanish) == ""
    assert box_completion("s bre", boxes, french) == "lan"
    assert box_completion("s hou", boxes) == "se"


def _old_start_matches(prefix, boxes, names):
    """The boxes a typed start named before later words counted: a start of an id or
    of a name."""
    return [
        box for box in boxes if box.startswith(prefix) or fold(names.box(box)).startswith(prefix)
    ]


@pytest.mark.django_db
@pytest.mark.parametrize("language", [code for code, _ in settings.LANGUAGES])
def test_every_whole_name_and_every_start_that_named_one_box_still_names_it(client, language):
    """Words were added to what a typed name matches: no box of any ruleset, in any of
    the server's languages, may lose its whole name or a start of its name or id that
    found it alone before (the names as the client gets them: ``GET rulesets/``)."""
    answer = client.get("/api/v1/rulesets/", HTTP_ACCEPT_LANGUAGE=language)
    assert answer.status_code == 200
    names = Names.from_rulesets(answer.json())
    for ruleset in answer.json():
        boxes = [box["id"] for box in ruleset["boxes"]]
        for box in boxes:
            assert resolve_box(names.box(box), boxes, names) == box, (language, box)
            for spelt in (box, fold(names.box(box))):
                for end in range(1, len(spelt) + 1):
                    start = spelt[:end]
                    if _old_start_matches(start, boxes, names) == [box]:
                        assert resolve_box(start, boxes, names) == box, (language, start)


class Tty(io.TextIOBase):
    """A terminal of ``columns`` x ``lines`` (pyte) that the client's consoles write to;
    what scrolls off its top is kept."""

    def __init__(self, columns, lines):
        self.screen = pyte.HistoryScreen(columns, lines, history=100)
        self.stream = pyte.Stream(self.screen)

    def write(self, text):
        self.stream.feed(text.replace("\n", "\r\n"))
        return len(text)

    def isatty(self):
        return True

    def lines(self):
        return [line.rstrip() for line in self.screen.display]

    @property
    def scrolled(self):
        return ["".join(c.data for c in line.values()) for line in self.screen.history.top]


def test_retry_notices_are_drawn_on_the_rounds_screen_each_in_place_of_the_last(server, tmp_path):
    """While a roll was retried (the server unreachable, then unavailable), each notice
    was printed under the round's screen, two lines apiece at 80 columns: the round was
    pushed up off an 80x24 terminal, its title and dice first."""
    tty = Tty(80, 24)
    terminal = {"file": tty, "force_terminal": True, "width": 80, "height": 24}
    errors = Console(stderr=True, **terminal)
    seen = []  # the screen as each attempt of the roll is sent
    outage = [
        httpx.ConnectError("[Errno 111] Connection refused"),
        httpx.ConnectError("[Errno 111] Connection refused"),
        httpx.Response(503, json={"code": "database_unavailable", "message": "Try later."}),
    ]

    def cable(request):
        if request.url.path.endswith("/roll/"):
            seen.append(tty.lines())
            if outage:
                answer = outage.pop(0)
                if isinstance(answer, Exception):
                    raise answer
                return answer
        return server(request)

    api = ApiClient(
        "http://fake.test",
        "tok",
        transport=httpx.MockTransport(cable),
        sleep=lambda s: None,
        notify=lambda message: errors.print(Text(message, style="yellow")),
    )
    play = PlaySession(api, Console(**terminal), Journal(tmp_path), reader=Script(["r", "q"]))
    final = play.run(server.state())
    assert final["roll"] == 1 and len(seen) == 4
    assert not tty.scrolled, tty.scrolled
    notices = ["(attempt 2 of 5)", "(attempt 3 of 5)", "(attempt 4 of 5)"]
    for screen, notice in zip(seen[1:], notices, strict=True):
        text = " ".join(" ".join(screen).split())
        assert screen[0] == "Solo · yatzy" and screen[1].startswith("Turn 1 of 15 · roll 0"), screen
        assert notice in text and text.count("(attempt") == 1, screen
    assert "Cannot reach http://fake.test ([Errno 111] Connection refused)" in " ".join(seen[1])
    assert "The server is unavailable (503: Try later.)" in " ".join(" ".join(seen[3]).split())
    lines = tty.lines()
    assert lines[1].startswith("Turn 1 of 15 · roll 1 of 3") and "attempt" not in " ".join(lines)


def test_a_joker_score_says_the_extra_bonus_it_earned(tmp_path, monkeypatch):
    """Yahtzee's joker: a second yahtzee scored in sixes adds 30 and 100 extra; the line
    said "Sixes: 30 points." while the total went up by 130."""
    import yatzy.game

    monkeypatch.setattr(yatzy.game, "draw", lambda seed, turn, roll, count: (6,) * count)
    server = FakeServer()
    server.game = yatzy.Game(yatzy.get_ruleset("yahtzee"), SEED)
    server.state = lambda: round_state(server.game, "yahtzee", SEED)
    play, output = session(server, ["r", "s yahtzee", "r", "s sixes"], tmp_path)
    play.run(server.state())
    text = output.getvalue()
    assert "yahtzee: 50 points." in text
    assert "sixes: 30 points +100 extra bonus." in text
