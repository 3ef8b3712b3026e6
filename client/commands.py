"""The commands of ``yatzy-play``, one function each, as the README shows them.

Each takes the :class:`App` (server, consoles, token store, journal) and its parsed
arguments, talks to the server through :class:`client.api.ApiClient`, prints with
:mod:`client.render`, and returns the exit status.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import getpass
import io
import re
import sys
import time
import uuid
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
from rich.console import Console, RenderableType
from rich.text import Text

import yatzy
from client import i18n, render
from client.api import (
    MISSHAPEN,
    ApiClient,
    ApiError,
    ConnectionLost,
    sendable_token,
    sentence,
)
from client.i18n import N_, _, ngettext
from client.play import LineReader, PlaySession, said_yes
from client.storage import Credentials, CredentialStore, Journal, StorageError, server_key
from client.verify import NotVerifiable, points_text, verify_round

DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
FRIEND_CODE = re.compile(r"^[0-9A-TV-Z]{8}$")
"""A friend code as the server reads it: 8 of Crockford's base32, where O, I and L are
read as 0, 1 and 1 (so only U is never in one)."""
YEAR = re.compile(r"^[1-9][0-9]{3}$")
"""A year as the API's paths take it: four digits, the first not 0."""


# -- what the player types, checked before anything is sent ------------------------------


def date_arg(text: str) -> str:
    """A day as ``YYYY-MM-DD``.

    >>> date_arg("2026-12-01")
    '2026-12-01'
    >>> date_arg("2026-02-30")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: 2026-02-30 is not a day: dates are YYYY-MM-DD, e.g. 2026-12-01
    """
    try:
        if DATE.match(text):
            return dt.date.fromisoformat(text).isoformat()
    except ValueError:
        pass
    raise argparse.ArgumentTypeError(
        _("{text} is not a day: dates are YYYY-MM-DD, e.g. 2026-12-01").format(text=text)
    )


def year_arg(text: str) -> int:
    """A year as four digits, as the API's paths take it (``advent/2026/``); never 0,
    which would read as "no year given" and show this year's instead.

    >>> year_arg("2026")
    2026
    >>> year_arg("0")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: 0 is not a year: years are four digits, e.g. 2026
    """
    if YEAR.match(text.strip()):
        return int(text)
    raise argparse.ArgumentTypeError(
        _("{text} is not a year: years are four digits, e.g. 2026").format(text=text)
    )


def round_id_arg(text: str) -> str:
    """A round's id (a UUID, as `play` and `verify` print it).

    >>> round_id_arg("4C5C1114-A7BC-4F37-82CF-2C37250A39BF")
    '4c5c1114-a7bc-4f37-82cf-2c37250a39bf'
    """
    try:
        return str(uuid.UUID(text.strip()))
    except ValueError:
        raise argparse.ArgumentTypeError(
            _(
                "{text} is not a round id: it looks like 4c5c1114-a7bc-4f37-82cf-2c37250a39bf "
                "(printed when a round ends, and by `yatzy-play play` when it resumes one)"
            ).format(text=text)
        ) from None


GAME_ID = re.compile(r"^[0-9a-f][0-9a-f-]{3,35}$")
"""A game's id, or its start as the games list shows it (at least 4 characters)."""


def game_id_arg(text: str) -> str:
    """A game's id as the games list shows it (its start, e.g. ``4c5c1114``), or whole.

    >>> game_id_arg("4C5C1114")
    '4c5c1114'
    >>> game_id_arg("4c5c1114-a7bc-4f37-82cf-2c37250a39bf")
    '4c5c1114-a7bc-4f37-82cf-2c37250a39bf'
    >>> game_id_arg("x")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: x is not a game id: `yatzy-play games` shows them, e.g. 4c5c1114
    """
    with contextlib.suppress(ValueError):
        return str(uuid.UUID(text.strip()))
    if GAME_ID.match(text.strip().lower()):
        return text.strip().lower()
    raise argparse.ArgumentTypeError(
        _("{text} is not a game id: `yatzy-play games` shows them, e.g. 4c5c1114").format(text=text)
    )


def server_arg(text: str) -> str:
    """A server's address: http or https, with a host (and a port that is one).

    >>> server_arg("http://127.0.0.1:8000/")
    'http://127.0.0.1:8000/'
    >>> server_arg("127.0.0.1:8000")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: 127.0.0.1:8000 is not a server's address: it looks like http://127.0.0.1:8000
    """
    try:
        url = httpx.URL(text)
    except httpx.InvalidURL:
        url = None
    if url is None or url.scheme not in ("http", "https") or not url.host:
        raise argparse.ArgumentTypeError(
            _("{text} is not a server's address: it looks like http://127.0.0.1:8000").format(
                text=text
            )
        )
    # A port past 65535 was "unreachable"; a query or fragment ended up inside every
    # path the client asked for (…/#frag/api/v1/…), and the server was called another site.
    if url.port is not None and not 1 <= url.port <= 65535:
        raise argparse.ArgumentTypeError(
            _("{text} is not a server's address: a port is 1 to 65535").format(text=text)
        )
    if url.query or url.fragment or "?" in text or "#" in text:
        raise argparse.ArgumentTypeError(
            _(
                "{text} is not a server's address: it has no ? or # part, "
                "as in http://127.0.0.1:8000"
            ).format(text=text)
        )
    return text


def round_or_date_arg(text: str) -> str:
    """A round id, or a day (for the player's round of that day)."""
    if DATE.match(text):
        return date_arg(text)
    try:
        return round_id_arg(text)
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(
            _(
                "{text} is neither a round id (like 4c5c1114-a7bc-4f37-82cf-2c37250a39bf) "
                "nor a day (YYYY-MM-DD)"
            ).format(text=text)
        ) from None


def friend_code_arg(text: str) -> str:
    """A friend code as people pass it on: any case, with hyphens or spaces, or the
    whole link (``…/f/7KQ30ABC``).

    >>> friend_code_arg("7kq3-0abc"), friend_code_arg("http://127.0.0.1:8000/f/7KQ30ABC")
    ('7KQ30ABC', '7KQ30ABC')
    """
    code = text.strip().rstrip("/").rsplit("/f/", 1)[-1]
    code = code.replace("-", "").replace(" ", "").upper()
    if not FRIEND_CODE.match(code):
        raise argparse.ArgumentTypeError(
            _(
                "{text} is not a friend code: a code is 8 letters and digits, like 7KQ30ABC "
                "(`yatzy-play share ROUND_ID` gives one), or its /f/ link"
            ).format(text=text)
        )
    return code


class NotLoggedIn(Exception):
    """The command needs a token and there is none for this server."""


class CommandError(Exception):
    """A command cannot go on; the message says why and what to do."""


def terminal_console(**options: Any) -> Console:
    """The client's console: no markup, so a server's words in an f-string ("[/]",
    "[link=…]") are shown as written, and no highlighting of numbers and names. A
    character the terminal's encoding cannot show (an ASCII terminal: ``LC_ALL=C``
    without UTF-8 mode) is written as ``?``, not an error that ends the command."""
    stream = options.get("file") or (sys.stderr if options.get("stderr") else sys.stdout)
    if isinstance(stream, io.TextIOWrapper) and stream.errors in ("strict", "surrogateescape"):
        stream.reconfigure(errors="replace")
    return Console(highlight=False, markup=False, **options)


@dataclass
class App:
    """What every command works with."""

    server: str
    console: Console = field(default_factory=lambda: terminal_console())
    errors: Console = field(default_factory=lambda: terminal_console(stderr=True))
    store: CredentialStore = field(default_factory=CredentialStore)
    journal: Journal = field(default_factory=Journal)
    reader: LineReader | None = None
    attempts: int = 5
    transport: httpx.BaseTransport | None = None
    """Replaces the network (tests run the server in-process)."""
    sleep: Callable[[float], None] = time.sleep
    """What the client waits with between attempts (tests record the waits instead)."""
    read_password: Callable[[str], str] = getpass.getpass

    def __post_init__(self) -> None:
        # One spelling of the address, the one shown and the one its token is kept by.
        self.server = server_key(self.server)

    def notify(self, message: str) -> None:
        """Tell the player what the client is waiting for (on stderr)."""
        self.errors.print(Text(message, style="yellow"))

    def can_ask(self) -> bool:
        """Whether a question can be put to the player: a terminal on both ends (or a
        reader given to this run)."""
        return self.reader is not None or (sys.stdin.isatty() and sys.stdout.isatty())

    def confirm(self, question: str) -> bool:
        """The player's yes to ``question`` (:func:`client.play.said_yes`)."""
        return said_yes(self.reader.read if self.reader else input, question)

    def api(self, *, login: bool = True, token: str | None = None) -> ApiClient:
        """A client for the server, with ``token``, else the saved token (required when
        ``login``)."""
        if token is None:
            credentials = self.store.get(self.server)
            if login and credentials is None:
                raise NotLoggedIn
            token = credentials.token if credentials else None
            if token is not None and not sendable_token(token):
                # Edited by hand, or kept from an older client: every request would fail
                # as if the network had (an illegal header value).
                raise CommandError(
                    _(
                        "The token saved for {server} in {path} is damaged: "
                        "`yatzy-play logout` forgets it; then log in again."
                    ).format(server=self.server, path=self.store.path)
                )
        return ApiClient(
            self.server,
            token,
            notify=self.notify,
            max_attempts=self.attempts,
            sleep=self.sleep,
            transport=self.transport,
        )


# -- accounts -----------------------------------------------------------------------------


def _password(app: App, args: argparse.Namespace, *, confirm: bool) -> str:
    """The password: prompted without echo, or one line of stdin (``--password-stdin``);
    never an argument, so it is never in the process list or the shell's history."""
    if args.password_stdin:
        password = sys.stdin.readline().rstrip("\r\n")
    else:
        try:
            with warnings.catch_warnings():
                # No terminal at all: getpass reads standard input and says it may echo;
                # Python's warning would add its own source line.
                warnings.simplefilter("ignore", getpass.GetPassWarning)
                password = app.read_password(_("Password: "))
                again = app.read_password(_("Password (again): ")) if confirm else password
        except EOFError:  # Ctrl-D at the prompt, or no input left
            raise CommandError(_("No password given; nothing was sent.")) from None
        if again != password:
            raise CommandError(_("The two passwords differ; nothing was registered."))
    if not password:
        raise CommandError(_("An empty password is no password."))
    return password


def _keep(app: App, credentials: Credentials) -> None:
    """Save a token the server has just issued; where this machine cannot keep it, it is
    revoked on the server again, not left live there and lost here."""
    try:
        app.store.save(credentials)
    except StorageError:
        with contextlib.suppress(ApiError, ConnectionLost), app.api(token=credentials.token) as api:
            api.logout()
        raise


def register(app: App, args: argparse.Namespace) -> int:
    """Create an account and log in."""
    password = _password(app, args, confirm=True)
    with app.api(login=False) as api:
        account = api.register(args.name, password)
    _keep(app, Credentials(app.server, account["username"], account["token"]))
    welcome = _("Welcome, {name}! Registered on {server} and logged in.").format(
        name=account["username"], server=app.server
    )
    saved = _("Token saved in {path} (readable only by you).").format(path=app.store.path)
    app.console.print(f"{welcome}\n{saved}")
    return 0


def login(app: App, args: argparse.Namespace) -> int:
    """Exchange name and password for the token and keep it."""
    password = _password(app, args, confirm=False)
    with app.api(login=False) as api:
        token = api.login(args.name, password)
    _keep(app, Credentials(app.server, args.name, token))
    with app.api() as api:
        username = api.me()["username"]
    _keep(app, Credentials(app.server, username, token))
    app.console.print(
        _("Logged in as {name} on {server}.").format(name=username, server=app.server)
    )
    return 0


def logout(app: App, args: argparse.Namespace) -> int:
    """Remove the token here, then revoke it on the server: removed first, so a token
    this machine cannot forget (a read-only directory) is not left here revoked."""
    credentials = app.store.get(app.server)
    if credentials is None:
        app.console.print(_("Not logged in on {server}.").format(server=app.server))
        return 0
    app.store.remove(app.server)
    revoked = True
    try:
        with app.api(token=credentials.token) as api:
            api.logout()
    except ApiError as error:
        if error.status != 401:  # 401: the server had already forgotten it
            raise
    except ConnectionLost as error:
        revoked = False
        app.notify(_("Could not revoke the token on the server ({error}).").format(error=error))
    if revoked:
        done = _("Logged out of {server}: the token is revoked and removed.")
    else:
        done = _("Logged out of {server}: the token is removed.")
    app.console.print(done.format(server=app.server))
    return 0


# -- playing --------------------------------------------------------------------------------


def _names(api: ApiClient) -> render.Names:
    """The server's names of boxes and rulesets, in the player's language."""
    return render.Names.from_rulesets(api.rulesets())


def _session(
    app: App,
    api: ApiClient,
    challenge: dict[str, Any] | None,
    names: render.Names,
    *,
    target: str | None = None,
) -> PlaySession:
    return PlaySession(
        api,
        app.console,
        app.journal,
        reader=app.reader,
        challenge=challenge,
        names=names,
        target=target,
    )


def _find_unfinished(api: ApiClient, mode: str, **wanted: str | None) -> dict[str, Any] | None:
    for game in api.games(mode=mode, status="in_progress"):
        if all(value is None or game.get(key) == value for key, value in wanted.items()):
            return game
    return None


def _ranked_unfinished_before(api: ApiClient, day: str) -> dict[str, Any] | None:
    """The player's ranked daily round of a day before ``day`` that may still be
    finished: after midnight, until the grace period ends (the server lists it as
    in progress only until then)."""
    for game in api.games(mode="daily", status="in_progress"):
        if game.get("ranked") and str(game.get("date") or day) < day:
            return game
    return None


def _start_daily(app: App, api: ApiClient, args: argparse.Namespace) -> tuple[Any, Any, str | None]:
    """The day's challenge, the round to play (None: nothing to play) and a note for the
    round's first screen."""
    challenge = api.daily(args.date)
    # `yatzy-play play` resumes the ranked round left before midnight while it may still
    # be finished (SPEC §4's grace period), before the new day's begins.
    late = None
    if args.date is None and not args.practice:
        late = _ranked_unfinished_before(api, str(challenge["date"]))
    if late is not None:
        challenge = api.daily(late["date"])
    try:
        app.journal.record_day(challenge)
    except StorageError as error:  # a damaged file of this machine's does not stop play
        app.notify(
            _("{error}. The day's commitment is not kept here.").format(error=sentence(str(error)))
        )
    if late is not None:
        note = _(
            "Your ranked round of {date} may still be finished: the day's grace "
            "period has not ended. Resuming it."
        ).format(date=late["date"])
        return challenge, api.round(str(late["id"])), note
    mine, practice = challenge.get("my_round"), challenge.get("practice_round")
    if args.practice and mine and mine.get("ranked") and mine.get("status") == "in_progress":
        # One unfinished round a day: starting one would resume the ranked round, whose
        # score counts, as if it were the practice asked for.
        raise CommandError(
            _(
                "Your ranked round of {date} is unfinished, and a day has one "
                "unfinished round per player: `yatzy-play play` resumes it; once it is over, "
                "`--practice` plays the dice again, unranked."
            ).format(date=challenge["date"])
        )
    # Only today's ranked round is worth a warning: replaying any day is practice anyway.
    done = mine and mine.get("status") != "in_progress" and not practice
    if done and args.date is None and not args.practice:
        app.console.print(render.challenge_summary(challenge, names=_names(api)))
        app.console.print(
            _(
                "You have played the daily of {date}. "
                "`yatzy-play play --practice` plays its dice again, unranked; "
                "`yatzy-play boards` shows the board."
            ).format(date=challenge["date"])
        )
        return challenge, None, None
    return challenge, api.daily_start(challenge["date"]), None


RESUMING = {
    "solo": N_("Resuming your unfinished solo game ({ruleset})."),
    "computer": N_("Resuming your unfinished computer game ({ruleset})."),
}
"""The note on the first screen of a solo or computer game resumed, by mode."""


def play(app: App, args: argparse.Namespace) -> int:
    """Play today's daily (or resume it), a past day, a solo or a computer game."""
    with app.api() as api:
        challenge, note = None, None
        if args.round:
            # The whole id, or its start as `games` shows it (an unfinished round's).
            whole = len(args.round) == 36
            state = api.round(
                args.round if whole else _unfinished_game(api, args.round, rounds_only=True)[0]
            )
        elif args.solo or args.computer:
            mode = "solo" if args.solo else "computer"
            ruleset = args.solo or args.ruleset
            level = args.computer
            found = None if args.new else _find_unfinished(api, mode, ruleset=ruleset, level=level)
            if found:
                note = _(RESUMING.get(mode, RESUMING["solo"])).format(ruleset=found["ruleset"])
                state = api.round(str(found["id"]))
            else:
                state = api.game_create(mode, ruleset=ruleset, level=level)
        else:
            challenge, state, note = _start_daily(app, api, args)
            if state is None:
                return 0
        if challenge is None and state.get("date"):
            challenge = api.daily(state["date"])
        target = None
        if state.get("mode") == "friend" and state.get("share"):
            target = render.friend_target(api.friend(str(state["share"])))
        return _play_round(app, api, state, challenge, _names(api), target=target, note=note)


def _play_round(
    app: App,
    api: ApiClient,
    state: dict[str, Any],
    challenge: dict[str, Any] | None,
    names: render.Names,
    *,
    target: str | None = None,
    note: RenderableType | None = None,
) -> int:
    try:
        final = _session(app, api, challenge, names, target=target).run(state, note)
    except ConnectionLost as error:
        lost = _("Lost the connection to the server: {error}.").format(error=error)
        kept = _("Your round is kept on the server as far as it got: {command} resumes it.")
        kept = kept.format(command=resume_command(state))
        app.errors.print(Text(f"{lost}\n{kept}", style="bold red"))
        return 1
    except KeyboardInterrupt:
        # Ctrl-C while a move waits for the server (at the prompt it is a plain leave).
        interrupted = _(
            "Interrupted: the round is kept on the server as far as it got: {command} resumes it."
        ).format(command=resume_command(state))
        app.errors.print(Text(f"\n{interrupted}", style="bold red"))
        return 130
    except (ApiError, *MISSHAPEN) as error:
        # An answer that ends the session (logged out elsewhere, one of another shape):
        # said by main, with how to come back to the round.
        error.add_note(
            _("Your round is kept on the server: {command} resumes it.").format(
                command=resume_command(state)
            )
        )
        raise
    _after_round(app, final, challenge)
    return 0


def resume_command(state: dict[str, Any]) -> str:
    """The command that resumes this round.

    >>> resume_command({"id": "r1", "mode": "solo"})
    '`yatzy-play play --round r1`'
    >>> resume_command({"id": "r1", "mode": "daily", "ranked": True})
    '`yatzy-play play` (or `yatzy-play play --round r1`)'
    """
    command = f"`yatzy-play play --round {state.get('id')}`"
    if state.get("mode") == "daily" and state.get("ranked"):
        return _("`yatzy-play play` (or {command})").format(command=command)
    return command


ROUND_ENDED = {
    "completed": N_("Round completed: {points}."),
    "expired": N_("Round expired: {points}."),
}
"""What a round that has ended says first, by its status (``{points}``: its total)."""

RESULTS = {
    "win": N_("You win: {total} against the computer's {theirs}."),
    "loss": N_("You lose: {total} against the computer's {theirs}."),
    "draw": N_("You draw: {total} against the computer's {theirs}."),
}
"""A game against the computer's result, by the server's ``result``."""


def _after_round(app: App, state: dict[str, Any], challenge: dict[str, Any] | None) -> None:
    round_id = state.get("id")
    if state.get("status") == "in_progress":
        app.console.print(
            _(
                "Left the round at turn {turn}; it is kept on the server. Resume it with {command}."
            ).format(turn=state.get("turn", 0) + 1, command=resume_command(state))
        )
        return
    status = str(state.get("status"))
    ended = _(ROUND_ENDED[status]) if status in ROUND_ENDED else _("Round {status}: {points}.")
    sentences = [ended.format(status=status, points=points_text(state.get("total")))]
    if state.get("result"):
        theirs = (state.get("opponent") or {}).get("total")
        result = str(state["result"])
        against = (
            _(RESULTS[result])
            if result in RESULTS
            else _("You {result}: {total} against the computer's {theirs}.")
        )
        sentences.append(against.format(result=result, total=state.get("total"), theirs=theirs))
    if state.get("mode") == "daily" and state.get("ranked"):
        sentences.append(
            _("It is your score of the day: `yatzy-play boards` shows where you stand.")
        )
    app.console.print(Text(i18n.sentences(*sentences), style="bold green"))
    if state.get("seed"):
        app.console.print(
            _("The seed is revealed: `yatzy-play verify {round_id}` checks every die.").format(
                round_id=round_id
            )
        )
    elif challenge:
        app.console.print(
            _(
                "The seed is revealed at {time}; then "
                "`yatzy-play verify {round_id}` recomputes every die from it."
            ).format(time=challenge.get("reveal_at"), round_id=round_id)
        )


def friend(app: App, args: argparse.Namespace) -> int:
    """Play a friend's code on the same dice, or show how you compare."""
    with app.api() as api:
        names = _names(api)
        view = api.friend(args.code)
        mine = view.get("my_round") or {}
        if mine.get("status") and mine["status"] != "in_progress":
            app.console.print(render.friend_view(view, names=names))
            return 0
        # Started first: the server refuses one's own code before anything is shown, and
        # the view read after it has the score to beat (a view read before has none).
        state = api.friend_start(args.code, view="blind" if args.blind else "target")
        view = api.friend(args.code)
        challenge = api.daily(state["date"]) if state.get("date") else None
        target = render.friend_target(view)
        # Who challenges and how, on the round's first screen (printed before it, it was
        # cleared with the terminal).
        note = render.friend_view(view, names=names)
        status = _play_round(app, api, state, challenge, names, target=target, note=note)
        if status == 0:
            app.console.print(render.friend_view(api.friend(args.code), names=names))
        return status


def share(app: App, args: argparse.Namespace) -> int:
    """The friend code of a finished round."""
    with app.api() as api:
        code = api.share(args.round)
    title = _("Friend code {code}  ({url})").format(code=code["code"], url=code["url"])
    how = _("Your friend plays your dice with: yatzy-play friend {code}").format(code=code["code"])
    app.console.print(f"{title}\n{how}")
    return 0


# -- looking ------------------------------------------------------------------------------


def boards(app: App, args: argparse.Namespace) -> int:
    """A page of one of the boards, or the entries around you."""
    with app.api() as api:
        subtitle = ""
        day, year = args.day or args.date, args.year
        if args.board == "decisions" and day:
            subtitle = str(day)
        elif args.board == "decisions":  # no day: each player's mean loss over the days
            subtitle = _("mean over the days analysed")
        elif args.board == "daily":
            day = day or api.daily()["date"]
            subtitle = str(day)
        elif args.board == "advent":
            year = year or _advent_year(api)
            subtitle = str(year)
        if args.season:
            subtitle += " · " + _("season {season}").format(season=args.season)
        page = api.board(
            args.board,
            day=day,
            year=year,
            page=args.page,
            around_me=args.around_me,
            season=args.season,
        )
    app.console.print(render.board_table(args.board, page, subtitle=subtitle.strip(" ·")))
    return 0


def games(app: App, args: argparse.Namespace) -> int:
    """The player's games: every unfinished one, then a page of the others."""
    with app.api() as api:
        unfinished = list(api.games_each(status="in_progress"))
        page = api.games_page(page=1 if args.page is None else args.page)
        names = _names(api)
    app.console.print(render.games_table(unfinished, page, names=names))
    return 0


def _unfinished_game(
    api: ApiClient, game_id: str, *, rounds_only: bool = False
) -> tuple[str, dict[str, Any] | None]:
    """The whole id of the game ``game_id`` names (whole, or its start among the
    player's unfinished games; with ``rounds_only``, a party left out: its id is no
    round's), and that game as the list shows it (None: not among them; the server says
    what it is)."""
    whole = len(game_id) == 36
    found = [
        game
        for game in api.games_each(status="in_progress")
        if (str(game.get("id")) == game_id if whole else str(game.get("id")).startswith(game_id))
        and not (rounds_only and game.get("mode") == "party")
    ]
    if whole:
        return game_id, found[0] if found else None
    if not found:
        raise CommandError(
            _(
                "None of your unfinished games has an id starting with {id}: "
                "`yatzy-play games` lists them."
            ).format(id=game_id)
        )
    if len(found) > 1:
        ids = ", ".join(str(game.get("id")) for game in found)
        raise CommandError(
            _("{id} starts more than one game's id ({ids}): give more of it.").format(
                id=game_id, ids=ids
            )
        )
    return str(found[0]["id"]), found[0]


def _given_up(mode: str, n: int) -> str:
    """How the question and the answer of ``give-up`` name a game of ``mode`` (solo,
    computer, party) whose player has ``n`` points: ``{turns}`` is turns played/turns of
    the game."""
    if mode == "computer":
        return ngettext(
            "computer game {id} ({ruleset}, {turns} turns, {points} point)",
            "computer game {id} ({ruleset}, {turns} turns, {points} points)",
            n,
        )
    if mode == "party":
        return ngettext(
            "party game {id} ({ruleset}, {turns} turns, {points} point)",
            "party game {id} ({ruleset}, {turns} turns, {points} points)",
            n,
        )
    return ngettext(
        "solo game {id} ({ruleset}, {turns} turns, {points} point)",
        "solo game {id} ({ruleset}, {turns} turns, {points} points)",
        n,
    )


def give_up(app: App, args: argparse.Namespace) -> int:
    """Give up an unfinished solo, computer or party game: the server deletes it (its
    seed is never shown), and it no longer counts among the unfinished ones."""
    with app.api() as api:
        game_id, game = _unfinished_game(api, args.game)
        if game is not None and game.get("can_give_up") is False:
            # The games list says the server would refuse it (abandon_not_allowed): said
            # before the question, in the words of the server's refusal.
            if game.get("mode") == "party":
                raise CommandError(
                    _(
                        "A seat's round of this party is shared as a friend challenge, so "
                        "the party cannot be given up; play it to the end."
                    )
                )
            raise CommandError(
                _("Daily and friend rounds cannot be given up; play them to the end.")
            )
        what = _("game {id}").format(id=game_id)
        if game is not None:
            total = game.get("total")
            named = _given_up(str(game.get("mode")), total if isinstance(total, int) else 2)
            what = named.format(
                id=render.short_id(game_id),
                ruleset=_names(api).ruleset(game.get("ruleset")),
                turns=render.game_turns(game),
                points=total,
            )
        question = _("Give up your {what}? [y/N] ").format(what=what)
        if not args.yes and not app.confirm(question):
            app.console.print(_("Nothing was given up."))
            return 1
        api.game_abandon(game_id)
    app.console.print(
        _(
            "Gave up your {what}: it is deleted, and no longer counts among your unfinished games."
        ).format(what=what)
    )
    return 0


def _advent_year(api: ApiClient) -> int:
    """The advent calendar shown without a year: the latest that has begun on the
    server's day, as the pages show it (last December's from January to November)."""
    return yatzy.advent_latest_year(dt.date.fromisoformat(str(api.daily()["date"])))


def advent(app: App, args: argparse.Namespace) -> int:
    """The 24 doors of the advent calendar."""
    with app.api() as api:
        year = args.year or _advent_year(api)
        calendar = api.advent(year)
    app.console.print(render.advent_calendar(calendar))
    return 0


def rules_command(app: App, args: argparse.Namespace) -> int:
    """A ruleset's rules as the server words them, with the options given (the server
    checks them and says what is wrong with one)."""
    options: dict[str, str] = {}
    for pair in args.option or []:
        name, sep, value = pair.partition("=")
        if not sep:
            raise CommandError(_("An option is NAME=VALUE, not {pair}.").format(pair=repr(pair)))
        options[name] = value
    with app.api(login=False) as api:
        description = api.ruleset(args.ruleset, options)
    app.console.print(render.rules_view(description))
    return 0


def _newest_round_of(api: ApiClient, day: str) -> str:
    """The id of the player's newest round of ``day``, read page after page back to the
    rounds started before the day (none of them can be of it)."""
    before = dt.date.fromisoformat(day) - dt.timedelta(days=1)  # whatever the time zone
    for game in api.games_each(mode="daily"):
        if game.get("date") == day:
            return str(game["id"])
        started = render.parse_time(game.get("started_at"))
        if started is not None and started.date() < before:
            break
    raise CommandError(_("You have no round on {day}.").format(day=day))


def verify(app: App, args: argparse.Namespace) -> int:
    """Check a revealed round against its commitment, recomputing every die, and its
    action log against this machine's journal."""
    with app.api() as api:
        names = _names(api)
        challenge = None
        if DATE.match(args.target):
            challenge = api.daily(args.target)
            mine = challenge.get("my_round")
            # No ranked round that day: the newest practice round of it.
            round_id = str(mine["id"]) if mine else _newest_round_of(api, args.target)
        else:
            round_id = args.target
        state = api.round(round_id)
        if challenge is None and state.get("date"):
            challenge = api.daily(state["date"])
    record = app.journal.get(round_id)
    # The day asked for, whatever the answer says (or leaves out): the commitment this
    # machine saw of it before the reveal is the one a server cannot change.
    day = args.target if DATE.match(args.target) else state.get("date")
    day_record = app.journal.day_commitment(str(day)) if day else None
    try:
        report = verify_round(
            state, challenge=challenge, record=record, day_record=day_record, box_name=names.box
        )
    except NotVerifiable as error:
        app.console.print(str(error))
        if challenge and challenge.get("reveal_at"):
            app.console.print(
                _("This day's seed is revealed at {time}.").format(time=challenge["reveal_at"])
            )
        if record and record.commitment:
            app.console.print(
                _(
                    "This client recorded the commitment {commitment} at "
                    "{time}; verify compares the seed with it then."
                ).format(commitment=record.commitment, time=record.commitment_seen_at)
            )
        return 1
    app.console.print(render.verify_report(report, names=names))
    return 0 if report.ok else 1
