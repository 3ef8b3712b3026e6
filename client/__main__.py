"""``yatzy-play``, also ``python -m client``: the command line and its exit statuses
(0 done, 1 refused or failed, 2 a usage error)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterable, Sequence
from typing import Any

from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

from client import __version__, commands, i18n
from client.api import MISSHAPEN, ApiError, ConnectionLost, NotTheApi, sentence
from client.i18n import N_, _
from client.storage import DEFAULT_SERVER, StorageError

EXAMPLES: tuple[tuple[str, str | None], ...] = (
    ("yatzy-play register ada          ", N_("asks for a password; keeps the token")),
    ("yatzy-play play                  ", N_("today's daily (resumes an unfinished round)")),
    ("yatzy-play play --solo yatzy     ", N_("a solo game with hints (? at the prompt)")),
    ("yatzy-play play --computer hard  ", N_("against the computer, on the same dice")),
    ("yatzy-play boards streaks --around-me", None),
    ("yatzy-play boards decisions 2026-12-01   ", N_("the best decisions of a revealed day")),
    ("yatzy-play verify 2026-12-01     ", N_("once the day's seed is revealed")),
    ("yatzy-play games                 ", N_("your games, the unfinished first")),
    ("yatzy-play give-up 4c5c1114      ", N_("give up an unfinished solo or computer game")),
)
"""The help's examples: each command (padded to line up the comments), what it does."""


def epilog() -> str:
    """The help's closing examples, in the language spoken now."""
    lines = [_("examples:")]
    for example, comment in EXAMPLES:
        lines.append(f"  {example}# {_(comment)}" if comment else f"  {example}")
    return "\n".join(lines) + "\n"


ARGPARSE_TEXTS = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("unrecognized arguments: %s"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("unexpected option string: %s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
)
"""argparse's own words a player meets (its usage line, group titles, the help of
``-h``, its refusals), as Python 3.11's argparse words them: in the
client's catalogue, where argparse finds them through its module's ``_`` (Python's
argparse howto, "How to translate the argparse output")."""


def speak_argparse() -> None:
    """argparse's words from the client's catalogue, in the language spoken now."""
    vars(argparse)["_"] = i18n.gettext
    vars(argparse)["ngettext"] = i18n.ngettext


class _CellWrap(argparse.HelpFormatter):
    """Help wrapped by the cells a text takes on the terminal: a Japanese character
    takes two, and argparse counts one. Text of one cell a character is wrapped by
    argparse itself, as before."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        flat = " ".join(text.split())
        if cell_len(flat) == len(flat):
            return super()._split_lines(text, width)
        console = Console(width=max(width, 1))
        return [line.plain.rstrip() for line in Text(flat).wrap(console, max(width, 1))]

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        flat = " ".join(text.split())
        if cell_len(flat) == len(flat):
            return super()._fill_text(text, width, indent)
        return "\n".join(indent + line for line in self._split_lines(text, width - len(indent)))

    def _format_usage(
        self,
        usage: str | None,
        actions: Iterable[argparse.Action],
        groups: Iterable[Any],
        prefix: str | None,
    ) -> str:
        """argparse keeps a group of choices (``[--solo RULESET | --computer LEVEL |
        ...]``) on one usage line however long: a line wider than the help is broken
        after a ``|``, its rest under the group's first option. argparse counts the
        "usage: " it translates in characters, which in Japanese take more cells: it
        wraps that much narrower, and the lines after the first move by the difference."""
        prefix = _("usage: ") if prefix is None else prefix  # argparse's own default
        shift = cell_len(prefix) - len(prefix)
        self._width -= shift
        try:
            first, *rest = super()._format_usage(usage, actions, groups, prefix).split("\n")
        finally:
            self._width += shift
        lines = [first, *(" " * shift + line if line else line for line in rest)]
        return "\n".join(part for line in lines for part in _break_choices(line, self._width))


def _break_choices(line: str, width: int) -> list[str]:
    """``line`` of a usage, broken after its `` | `` where it is wider than ``width``."""
    if cell_len(line) <= width or " | " not in line:
        return [line]
    indent = " " * (len(line) - len(line.lstrip(" ")) + 1)
    head, *choices = line.split(" | ")
    lines = [head]
    for number, choice in enumerate(choices, 1):
        joined = f"{lines[-1]} | {choice}"
        # A line that another choice follows ends in " |": room for it too.
        if cell_len(joined) + (2 if number < len(choices) else 0) <= width:
            lines[-1] = joined
        else:
            lines[-1] += " |"
            lines.append(indent + choice)
    return lines


class HelpFormatter(_CellWrap, argparse.HelpFormatter):
    """A command's help."""


class TopHelpFormatter(argparse.RawDescriptionHelpFormatter, _CellWrap):
    """The top help: its examples as written, their lines kept."""


def build_parser() -> argparse.ArgumentParser:
    """The command line: global options, then one subcommand."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--server",
        type=commands.server_arg,
        default=argparse.SUPPRESS,
        help=_("the server's URL (default: $YATZY_SERVER or {server})").format(
            server=DEFAULT_SERVER
        ),
    )
    common.add_argument(
        "--retries",
        type=int,
        default=argparse.SUPPRESS,
        metavar="N",
        help=_("attempts per request while the server is unreachable or unavailable (default 5)"),
    )
    parser = argparse.ArgumentParser(
        prog="yatzy-play",
        description=_("Play Maxi Yatzy Daily in the terminal, against any server's public API."),
        epilog=epilog(),
        formatter_class=TopHelpFormatter,
        parents=[common],
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"yatzy-play {__version__}",
        help=_("show program's version number and exit"),
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, help_text: str) -> argparse.ArgumentParser:
        return sub.add_parser(
            name,
            help=help_text,
            description=help_text,
            parents=[common],
            formatter_class=HelpFormatter,
        )

    for name, help_text, handler in (
        (
            "register",
            _("create an account (the password is asked, never echoed)"),
            commands.register,
        ),
        ("login", _("log in (the password is asked, never echoed)"), commands.login),
    ):
        p = command(name, help_text)
        p.add_argument("name", help=_("your username"))
        p.add_argument(
            "--password-stdin",
            action="store_true",
            help=_("read the password from the first line of standard input (for scripts)"),
        )
        p.set_defaults(handler=handler)

    p = command("logout", _("revoke the token and remove it from this machine"))
    p.set_defaults(handler=commands.logout)

    p = command("play", _("play today's daily (resuming an unfinished round), or another game"))
    group = p.add_mutually_exclusive_group()
    group.add_argument("--solo", metavar="RULESET", help=_("a solo game: maxi, yatzy or yahtzee"))
    group.add_argument(
        "--computer", metavar="LEVEL", help=_("against the computer: easy, medium, hard or expert")
    )
    group.add_argument(
        "--date",
        metavar="YYYY-MM-DD",
        type=commands.date_arg,
        help=_("a past day's dice (unranked)"),
    )
    group.add_argument(
        "--round",
        metavar="ID",
        type=commands.game_id_arg,
        help=_("resume this round (its id, or its start as `games` shows it)"),
    )
    p.add_argument("--ruleset", help=_("the ruleset of a computer game (default: your settings)"))
    p.add_argument("--practice", action="store_true", help=_("play the day again, unranked"))
    p.add_argument("--new", action="store_true", help=_("start a new game, not the unfinished one"))
    p.set_defaults(handler=commands.play)

    p = command("friend", _("play a friend's code on their dice"))
    p.add_argument(
        "code", type=commands.friend_code_arg, help=_("the friend code, e.g. 7KQ30ABC, or its link")
    )
    p.add_argument("--blind", action="store_true", help=_("see their score only once you finish"))
    p.set_defaults(handler=commands.friend)

    p = command("share", _("the friend code of one of your finished rounds"))
    p.add_argument("round", metavar="ROUND_ID", type=commands.round_id_arg)
    p.set_defaults(handler=commands.share)

    p = command("boards", _("the leaderboards"))
    p.add_argument(
        "board",
        nargs="?",
        default="daily",
        choices=["daily", "decisions", "best-day", "streaks", "advent"],
    )
    p.add_argument(
        "day",
        nargs="?",
        metavar="DATE",
        type=commands.date_arg,
        help=_("the day of the daily or decisions board (decisions without one: the mean loss)"),
    )
    p.add_argument(
        "--date", metavar="YYYY-MM-DD", type=commands.date_arg, help=_("the day, as DATE does")
    )
    p.add_argument("--year", type=commands.year_arg, help=_("the year of the advent board"))
    p.add_argument("--page", type=int, help=_("page number"))
    p.add_argument("--around-me", action="store_true", help=_("the entries around you"))
    p.add_argument("--season", metavar="SLUG", help=_("a season's board"))
    p.set_defaults(handler=commands.boards)

    p = command("games", _("your games: every unfinished one first, then the others, newest first"))
    p.add_argument("--page", type=int, help=_("page number of the list"))
    p.set_defaults(handler=commands.games)

    p = command("give-up", _("give up an unfinished solo, computer or party game (it is deleted)"))
    p.add_argument(
        "game",
        metavar="GAME_ID",
        type=commands.game_id_arg,
        help=_("the game's id as `yatzy-play games` shows it (its start will do)"),
    )
    p.add_argument(
        "--yes", action="store_true", help=_("do not ask first (needed with no terminal)")
    )
    p.set_defaults(handler=commands.give_up)

    p = command("advent", _("the advent calendar's 24 doors"))
    p.add_argument(
        "year",
        nargs="?",
        type=commands.year_arg,
        help=_("default: the latest that has begun (last December's until December)"),
    )
    p.set_defaults(handler=commands.advent)

    p = command("rules", _("the rules of a ruleset, as the server words them"))
    p.add_argument("ruleset", metavar="RULESET", help=_("maxi, yatzy or yahtzee"))
    p.add_argument(
        "--option",
        "-o",
        action="append",
        metavar="NAME=VALUE",
        help=_("an option in force, e.g. -o full_straight_points=30 (repeatable)"),
    )
    p.set_defaults(handler=commands.rules_command)

    p = command("verify", _("check a revealed round: commitment, every die, the total"))
    p.add_argument(
        "target",
        metavar="ROUND_ID|DATE",
        type=commands.round_or_date_arg,
        help=_("a round id, or a day for your round"),
    )
    p.set_defaults(handler=commands.verify)
    return parser


def play_options_error(args: argparse.Namespace) -> str | None:
    """What is wrong with ``play``'s options together (each is for one kind of game, and
    given to another it would be ignored without a word), or None."""
    if args.ruleset is not None and not args.computer:
        return _(
            "--ruleset is for a game against the computer: play --computer LEVEL --ruleset NAME"
        )
    if args.new and not (args.solo or args.computer):
        return _("--new is for a solo or computer game (a day's unfinished round is resumed)")
    if args.practice and (args.solo or args.computer or args.round):
        return _("--practice is for a day's dice: play --practice, or play --date YYYY-MM-DD")
    return None


def boards_options_error(args: argparse.Namespace) -> str | None:
    """What is wrong with ``boards``' options together (a day for a board of no day, a
    year for one of no year: ignored, the board shown would not be the one asked), or
    None."""
    if args.day and args.date:
        return _("the day is given twice (DATE and --date): give it once")
    if (args.day or args.date) and args.board not in ("daily", "decisions"):
        return _(
            "a day is for the daily or decisions board (boards daily DATE), not {board}"
        ).format(board=args.board)
    if args.year and args.board != "advent":
        return _("--year is for the advent board (boards advent --year YEAR), not {board}").format(
            board=args.board
        )
    return None


def _print_notes(app: commands.App, error: BaseException) -> None:
    """What a command added to an error on its way out (how to resume a round left)."""
    for note in getattr(error, "__notes__", []):
        app.errors.print(Text(str(note), style="bold red"))


def main(argv: Sequence[str] | None = None, app: commands.App | None = None) -> int:
    """Run one command; its exit status."""
    # The environment's language until the server answers in the player's own.
    i18n.activate(i18n.locale_tag())
    speak_argparse()
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "play" and (problem := play_options_error(args)):
        parser.error(problem)
    if args.command == "boards" and (problem := boards_options_error(args)):
        parser.error(problem)
    server = getattr(args, "server", None) or os.environ.get("YATZY_SERVER") or DEFAULT_SERVER
    try:
        commands.server_arg(server)
    except argparse.ArgumentTypeError as error:  # $YATZY_SERVER's
        parser.error(f"$YATZY_SERVER: {error}")
    if app is None:
        app = commands.App(server=server, attempts=max(1, getattr(args, "retries", 5)))
    if args.command == "give-up" and not args.yes and not app.can_ask():
        parser.error(_("give-up asks first; with no terminal to ask on, add --yes"))
    try:
        status: int = args.handler(app, args)
    except commands.NotLoggedIn:
        app.errors.print(
            _(
                "Not logged in on {server}: `yatzy-play login NAME` "
                "(or `yatzy-play register NAME`) first."
            ).format(server=app.server)
        )
        return 1
    except NotTheApi as error:
        app.errors.print(Text(error.message, style="bold red"))
        return 1
    except ApiError as error:
        # The server's own words, in the player's language; the code for the curious.
        app.errors.print(
            Text(error.message, style="bold red"), Text(f"({error.code})", style="dim")
        )
        if error.status == 401:
            app.errors.print(_("Log in again: `yatzy-play login NAME`."))
        if error.code == "too_many_unfinished_games":
            app.errors.print(
                _(
                    "`yatzy-play games` lists your unfinished games; "
                    "`yatzy-play give-up ID` gives one up."
                )
            )
        _print_notes(app, error)
        return 1
    except ConnectionLost as error:
        app.errors.print(Text(_("{error}.").format(error=sentence(str(error))), style="bold red"))
        return 1
    except (commands.CommandError, StorageError) as error:
        app.errors.print(Text(str(error), style="bold red"))
        return 1
    except MISSHAPEN as error:
        # An answer (or a stored round) of another shape than the API's: said in a line,
        # not a traceback; YATZY_PLAY_DEBUG=1 shows where.
        if os.environ.get("YATZY_PLAY_DEBUG"):
            raise
        app.errors.print(
            Text(
                _(
                    "An answer from {server}, or a round stored on this machine, is not "
                    "in the form this client reads ({error}: {detail})."
                ).format(server=app.server, error=type(error).__name__, detail=str(error)[:80]),
                style="bold red",
            )
        )
        _print_notes(app, error)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`yatzy-play boards | head`): nothing left to say to it.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return status


if __name__ == "__main__":
    sys.exit(main())
