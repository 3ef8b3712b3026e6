"""What the client keeps on the player's machine.

* The API token of each server, in the user's config directory (``$XDG_CONFIG_HOME``
  honoured, through platformdirs), in a file only its owner may read (mode 0600).
* A journal of each round the client played, in the user's data directory: the
  commitment it saw while the seed was hidden, every action the server acknowledged
  (holds, box, the dice and points it answered with) and every state it showed (dice,
  holds, total). ``verify`` compares the server's action log and the revealed seed with
  it, so a server cannot change its story later.

Both are small JSON files, written whole and renamed into place, so a crash never
leaves half a file; a change (read, changed, written) holds the directory's lock, so two
clients of one player at once lose nothing of each other's. A file that cannot be read
or written is one :class:`StorageError` naming it, never a traceback: a file of another
kind (a device, a directory), one larger than any the client writes, or one that is not
a JSON object of the expected shape.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
import stat
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import platformdirs

from client.i18n import _

try:
    import fcntl
except ImportError:  # not POSIX: no lock, as before
    fcntl = None  # type: ignore[assignment]

APP_NAME = "yatzy-play"
DEFAULT_SERVER = "http://127.0.0.1:8000"
DEFAULT_PORTS = {"http": 80, "https": 443}
# The largest file the client reads: a whole round's journal is tens of kilobytes.
MAX_FILE_BYTES = 8 * 1024 * 1024


def config_dir() -> Path:
    """The user's config directory for the client, e.g. ``~/.config/yatzy-play``."""
    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))


def data_dir() -> Path:
    """The user's data directory for the client, e.g. ``~/.local/share/yatzy-play``."""
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def server_key(server: str) -> str:
    """One spelling per server, the one the client shows and keeps its token under: the
    scheme and host in lower case (a host's non-ASCII name in its ASCII form), no default
    port (80 for http, 443 for https), no trailing slash; a path is kept as it is.

    >>> server_key("http://127.0.0.1:8000/")
    'http://127.0.0.1:8000'
    >>> server_key("HTTP://LOCALHOST:8121/"), server_key("HTTPS://example.org:443")
    ('http://localhost:8121', 'https://example.org')
    """
    try:
        url = httpx.URL(server.strip())
        # httpx drops a default port only where the scheme was typed in lower case.
        if url.port == DEFAULT_PORTS.get(url.scheme):
            url = url.copy_with(port=None)
    except (httpx.InvalidURL, ValueError, TypeError):  # no address: kept as it is
        return server.rstrip("/")
    return str(url).rstrip("/")


def _private_dirs(directory: Path) -> None:
    """Make ``directory`` and any missing parent, each readable by its owner only
    (whatever the umask: a parent made with the umask's mode could be world-writable)."""
    missing = []
    for folder in (directory, *directory.parents):
        if folder.is_dir():
            break
        missing.append(folder)
    for folder in reversed(missing):
        try:
            folder.mkdir(mode=0o700)
        except FileExistsError:
            continue  # made meanwhile by another client, or a file (the next step says so)
        os.chmod(folder, 0o700)  # mkdir's mode went through the umask


def write_private(path: Path, data: object) -> None:
    """Write ``data`` as JSON to ``path``, readable and writable by its owner only.

    The file is created with mode 0600 (whatever the umask) under a temporary name, new
    (a link or file already there under that name is removed, never followed), and
    renamed over ``path``, so no reader ever sees a partial file or wider permissions.
    """
    try:
        _private_dirs(path.parent)
        temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        with contextlib.suppress(FileNotFoundError):
            temporary.unlink()
        fd = os.open(
            temporary,
            os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0),
            0o600,
        )
    except OSError as error:
        raise StorageError(_cannot_write(path, error)) from error
    try:
        os.fchmod(fd, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            fd = -1
            json.dump(data, file, indent=2, sort_keys=True)
            file.write("\n")
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except OSError as error:
        raise StorageError(_cannot_write(path, error)) from error
    finally:
        if fd != -1:
            os.close(fd)
        with contextlib.suppress(OSError):
            temporary.unlink()


def _cannot_write(path: Path, error: object) -> str:
    return _("cannot write {path}: {error}").format(path=path, error=error)


def _unreadable(path: Path, why: object) -> StorageError:
    return StorageError(
        _("cannot read {path}: {why}. Move it aside (or delete it) and try again").format(
            path=path, why=why
        )
    )


def _read_json(path: Path) -> dict[str, Any]:
    """The JSON object in ``path`` ({} when there is none), or :class:`StorageError`."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        return {}
    except OSError as error:
        raise _unreadable(path, error) from error
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # a device, a pipe, a directory
            raise _unreadable(path, _("not a regular file"))
        with open(fd, "rb", closefd=False) as file:
            raw = file.read(MAX_FILE_BYTES + 1)
        if len(raw) > MAX_FILE_BYTES:
            larger = _("larger than {size} MiB").format(size=MAX_FILE_BYTES // 2**20)
            raise _unreadable(path, larger)
        data = json.loads(raw.decode("utf-8"))
    except StorageError:
        raise
    except (OSError, ValueError, RecursionError) as error:
        raise _unreadable(path, error) from error
    finally:
        os.close(fd)
    if not isinstance(data, dict):
        raise _unreadable(path, _("not a JSON object"))
    return data


# How long a client waits for another's change of a file (milliseconds, in practice).
LOCK_WAIT_SECONDS = 10.0


@contextlib.contextmanager
def _locked(directory: Path) -> Iterator[None]:
    """Hold ``directory``'s lock (a ``.lock`` file in it) while a file of it is read,
    changed and written: another client of the same player waits, then reads what this
    one wrote. A lock held longer than ``LOCK_WAIT_SECONDS`` (a client stopped with
    Ctrl-Z in the middle of a change) is one error naming it, not a wait without end."""
    if fcntl is None:
        yield
        return
    lock = directory / ".lock"
    try:
        _private_dirs(directory)
        fd = os.open(lock, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600)
    except OSError as error:
        raise StorageError(_cannot_write(lock, error)) from error
    try:
        deadline = time.monotonic() + LOCK_WAIT_SECONDS
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise StorageError(
                        _(
                            "another yatzy-play has held {lock} for {seconds} s; "
                            "let it finish (or end it) and try again"
                        ).format(lock=lock, seconds=f"{LOCK_WAIT_SECONDS:g}")
                    ) from None
                time.sleep(0.05)
            except OSError as error:
                raise StorageError(_cannot_write(lock, error)) from error
        yield
    finally:
        os.close(fd)


class StorageError(Exception):
    """A file of the client's cannot be read or written (its message names it)."""


@dataclass(frozen=True)
class Credentials:
    """A player's token on one server."""

    server: str
    username: str
    token: str


class CredentialStore:
    """The tokens, one per server, in ``credentials.json`` of the config directory."""

    def __init__(self, directory: Path | None = None) -> None:
        self.path = (directory or config_dir()) / "credentials.json"

    def _servers(self, data: dict[str, Any]) -> dict[str, Any]:
        servers = data.setdefault("servers", {})
        if not isinstance(servers, dict):
            raise _unreadable(self.path, _('"servers" is not a JSON object'))
        return servers

    @staticmethod
    def _spellings(servers: dict[str, Any], server: str) -> list[str]:
        """The keys ``server`` is saved under: its :func:`server_key` first, then any
        other spelling of it (earlier clients kept the address as typed, less its
        trailing slash: ``HTTP://LOCALHOST:8121``, ``https://host:443``)."""
        key = server_key(server)
        others = [spelled for spelled in servers if spelled != key and server_key(spelled) == key]
        return [key, *others] if key in servers else others

    def get(self, server: str) -> Credentials | None:
        """The saved token for ``server`` (however its address was spelled), or None."""
        servers = self._servers(_read_json(self.path))
        spellings = self._spellings(servers, server)
        entry = servers[spellings[0]] if spellings else None
        if not isinstance(entry, dict):
            return None
        username, token = entry.get("username"), entry.get("token")
        if not isinstance(username, str) or not isinstance(token, str):
            return None
        return Credentials(server_key(server), username, token)

    def save(self, credentials: Credentials) -> None:
        """Keep ``credentials`` (replacing any earlier token for that server, under any
        spelling of its address)."""
        with _locked(self.path.parent):
            data = _read_json(self.path)
            servers = self._servers(data)
            for spelled in self._spellings(servers, credentials.server):
                del servers[spelled]
            servers[server_key(credentials.server)] = {
                "username": credentials.username,
                "token": credentials.token,
            }
            write_private(self.path, data)

    def remove(self, server: str) -> bool:
        """Forget the token for ``server``; the file goes once it holds none. Returns
        whether there was one."""
        with _locked(self.path.parent):
            data = _read_json(self.path)
            servers = self._servers(data)
            spellings = self._spellings(servers, server)
            for spelled in spellings:
                del servers[spelled]
            found = bool(spellings)
            if servers:
                write_private(self.path, data)
            else:
                try:
                    self.path.unlink(missing_ok=True)
                except OSError as error:
                    raise StorageError(_cannot_write(self.path, error)) from error
        return found


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


Slot = tuple[int, int]
"""Where a round stands: ``(turn, rolls used in it)``, 0-based turn. An action is at the
slot it was made in (a roll at ``(t, r)`` leads to ``(t, r + 1)``, a score to
``(t + 1, 0)``); slots compare in the order of play."""


def action_slots(actions: Sequence[Mapping[str, Any]]) -> list[Slot]:
    """The slot of each action of an action log.

    >>> action_slots([{"type": "roll"}, {"type": "roll"}, {"type": "score"}, {"type": "roll"}])
    [(0, 0), (0, 1), (0, 2), (1, 0)]
    """
    slots: list[Slot] = []
    turn = roll = 0
    for action in actions:
        slots.append((turn, roll))
        if action.get("type") == "score":
            turn, roll = turn + 1, 0
        else:
            roll += 1
    return slots


@dataclass
class RoundRecord:
    """What this client did and was shown of one round while it was played: the first
    commitment it saw, then ``events`` in the order they happened:

    * ``{"event": "shown", "turn", "roll", "dice", "held", "total", "fetched"}``: a
      state on the screen; ``fetched`` when it came from reading the round (starting,
      resuming, ``l``, a 409), not as the answer to this client's own action;
    * ``{"event": "action", "turn", "roll", "type": "roll", "hold", "dice", "total"}``
      or ``{..., "type": "score", "category", "points", "total"}``: an action the server
      acknowledged, at the slot its answer's action log puts it, with what it answered;
    * ``{"event": "refused", "turn", "roll", "type", "hold" | "category"}``: an action
      sent from that slot and refused as stale (409) with a state that had moved on:
      the action the server's log has there is this one (applied, its answer lost) or
      one made elsewhere at the same moment, never one the server made up.
    """

    round_id: str
    commitment: str | None = None
    commitment_seen_at: str | None = None
    seed_hidden_when_seen: bool = False
    events: list[dict[str, Any]] = field(default_factory=list)

    def states_shown(self) -> list[dict[str, Any]]:
        """The states shown, oldest first."""
        return [event for event in self.events if event.get("event") == "shown"]

    def actions(self) -> list[dict[str, Any]]:
        """The acknowledged actions, oldest first."""
        return [event for event in self.events if event.get("event") == "action"]

    def refusals(self) -> list[dict[str, Any]]:
        """The actions refused as stale (409), oldest first."""
        return [event for event in self.events if event.get("event") == "refused"]

    def dice_seen(self, turn: int, rolls_used: int) -> list[int] | None:
        """The dice first shown after roll ``rolls_used`` (1-based) of ``turn``, if any."""
        for event in self.states_shown():
            if (event.get("turn"), event.get("roll")) == (turn, rolls_used) and event.get("dice"):
                return list(event["dice"])
        return None


def _legacy_events(rolls: object) -> list[dict[str, Any]]:
    """A journal of the first version kept only the dice of each roll (``"turn/roll"``):
    as states shown, in the order of play, with no actions."""
    if not isinstance(rolls, dict):
        return []
    events = []
    for key, dice in rolls.items():
        turn, _, roll = str(key).partition("/")
        if turn.isdigit() and roll.isdigit() and isinstance(dice, list):
            events.append(
                {
                    "event": "shown",
                    "turn": int(turn),
                    "roll": int(roll),
                    "dice": dice,
                    "fetched": True,
                }
            )
    return sorted(events, key=lambda event: (event["turn"], event["roll"]))


def _state_event(state: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "turn": state.get("turn"),
        "roll": state.get("roll"),
        "dice": list(state.get("dice") or []),
        "total": state.get("total"),
    }


class Journal:
    """Round records, one JSON file per round under ``rounds/`` of the data directory."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = (directory or data_dir()) / "rounds"

    def _path(self, round_id: str) -> Path:
        # Round ids are UUIDs; anything else must not name a path outside the directory.
        safe = "".join(c for c in round_id if c.isalnum() or c == "-")
        return self.directory / f"{safe}.json"

    def get(self, round_id: str) -> RoundRecord | None:
        """The record of ``round_id``, or None when this client never played it."""
        path = self._path(round_id)
        data = _read_json(path)
        if not data:
            return None
        events = data.get("events") if "events" in data else _legacy_events(data.get("rolls"))
        if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
            raise _unreadable(path, _('"events" is not a list of JSON objects'))
        commitment = data.get("commitment")
        if commitment is not None and not isinstance(commitment, str):
            raise _unreadable(path, _('"commitment" is not a string'))
        return RoundRecord(
            round_id=round_id,
            commitment=commitment,
            commitment_seen_at=data.get("commitment_seen_at"),
            seed_hidden_when_seen=bool(data.get("seed_hidden_when_seen")),
            events=events,
        )

    def _save(self, record: RoundRecord) -> None:
        write_private(
            self._path(record.round_id),
            {
                "version": 2,
                "commitment": record.commitment,
                "commitment_seen_at": record.commitment_seen_at,
                "seed_hidden_when_seen": record.seed_hidden_when_seen,
                "events": record.events,
            },
        )

    def _open(self, state: Mapping[str, Any]) -> tuple[RoundRecord | None, bool]:
        """The record of the round of ``state``, with the commitment noted the first
        time one is seen (never overwritten, so a later answer that disagrees is caught
        by ``verify`` rather than papered over); and whether that changed it."""
        round_id = str(state.get("id", ""))
        if not round_id:
            return None, False
        record = self.get(round_id) or RoundRecord(round_id=round_id)
        if record.commitment is None and isinstance(state.get("commitment"), str):
            record.commitment = state["commitment"]
            record.commitment_seen_at = _now()
            record.seed_hidden_when_seen = state.get("seed") is None
            return record, True
        return record, False

    def shown(
        self, state: Mapping[str, Any], *, held: Iterable[int] = (), fetched: bool = False
    ) -> None:
        """Note a state shown on the screen (with the holds marked on it); the same
        state shown again is noted once."""
        with _locked(self.directory):
            self._shown(state, held=held, fetched=fetched)

    def _shown(self, state: Mapping[str, Any], *, held: Iterable[int], fetched: bool) -> None:
        record, changed = self._open(state)
        if record is None:
            return
        event = {"event": "shown", **_state_event(state), "held": sorted(held), "fetched": fetched}
        last = next((e for e in reversed(record.events) if e.get("event") == "shown"), None)
        same = last is not None and all(last.get(k) == event[k] for k in event if k != "fetched")
        if not same:
            event["at"] = _now()
            record.events.append(event)
        if changed or not same:
            self._save(record)

    def acted(
        self, action: Mapping[str, Any], answer: Mapping[str, Any], *, before: Mapping[str, Any]
    ) -> None:
        """Note an action the server acknowledged (``{"type": "roll", "hold"}`` or
        ``{"type": "score", "category"}``) with its answer: the slot the answer's action
        log puts it at (else the slot of ``before``, the state it was sent from), the
        dice it rolled or the points it scored, and the total."""
        with _locked(self.directory):
            self._acted(action, answer, before=before)

    def _acted(
        self, action: Mapping[str, Any], answer: Mapping[str, Any], *, before: Mapping[str, Any]
    ) -> None:
        record, _ = self._open(answer)
        if record is None:
            return
        slots = action_slots(answer.get("actions") or [])
        turn, roll = slots[-1] if slots else (before.get("turn", 0), before.get("roll", 0))
        event: dict[str, Any] = {"event": "action", "at": _now(), "turn": turn, "roll": roll}
        if action.get("type") == "score":
            category = str(action.get("category"))
            points = (answer.get("scorecard") or {}).get(category)
            event |= {"type": "score", "category": category, "points": points}
        else:
            event |= {"type": "roll", "hold": sorted(action.get("hold") or [])}
            event["dice"] = list(answer.get("dice") or [])
        event["total"] = answer.get("total")
        record.events.append(event)
        self._save(record)

    def refused(self, action: Mapping[str, Any], *, before: Mapping[str, Any]) -> None:
        """Note an action sent from ``before`` that the server refused as stale (409),
        the round having moved on."""
        with _locked(self.directory):
            record, _ = self._open(before)
            if record is None:
                return
            move: dict[str, Any] = {"category": str(action.get("category"))}
            if action.get("type") != "score":
                move = {"hold": sorted(action.get("hold") or [])}
            record.events.append(
                {
                    "event": "refused",
                    "at": _now(),
                    "turn": before.get("turn", 0),
                    "roll": before.get("roll", 0),
                    "type": "score" if action.get("type") == "score" else "roll",
                    **move,
                }
            )
            self._save(record)

    def _day_path(self, day: str) -> Path:
        safe = "".join(c for c in day if c.isdigit() or c == "-")
        return self.directory.parent / "days" / f"{safe}.json"

    def record_day(self, challenge: dict[str, Any]) -> None:
        """Note a daily challenge's commitment the first time it is seen unrevealed."""
        day, commitment = challenge.get("date"), challenge.get("commitment")
        if not isinstance(day, str) or not isinstance(commitment, str):
            return
        path = self._day_path(day)
        with _locked(path.parent):
            if _read_json(path) or challenge.get("seed") is not None:
                return
            write_private(path, {"commitment": commitment, "commitment_seen_at": _now()})

    def day_commitment(self, day: str) -> tuple[str, str] | None:
        """The commitment of ``day`` as first seen before its reveal, and when."""
        data = _read_json(self._day_path(day))
        commitment, seen = data.get("commitment"), data.get("commitment_seen_at")
        if isinstance(commitment, str) and isinstance(seen, str):
            return commitment, seen
        return None
