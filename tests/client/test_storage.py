"""The token file and the journal of what the client was shown."""

import json
import os
import stat
import threading

import pytest

from client.storage import MAX_FILE_BYTES, Credentials, CredentialStore, Journal, StorageError


def test_the_token_file_is_readable_by_its_owner_only_whatever_the_umask(tmp_path, monkeypatch):
    monkeypatch.setattr("os.umask", lambda mask: 0)  # not relied on: the file sets its own mode
    store = CredentialStore(tmp_path / "config")
    store.save(Credentials("http://a.test/", "ada", "secret-token"))
    assert stat.S_IMODE(store.path.stat().st_mode) == 0o600
    assert stat.S_IMODE(store.path.parent.stat().st_mode) == 0o700
    assert store.get("http://a.test") == Credentials("http://a.test", "ada", "secret-token")


def test_tokens_are_kept_per_server_and_the_file_goes_with_the_last(tmp_path):
    store = CredentialStore(tmp_path)
    store.save(Credentials("http://a.test", "ada", "t1"))
    store.save(Credentials("http://b.test", "bob", "t2"))
    assert store.remove("http://a.test") is True
    assert store.get("http://a.test") is None and store.get("http://b.test").token == "t2"
    assert stat.S_IMODE(store.path.stat().st_mode) == 0o600
    store.remove("http://b.test")
    assert not store.path.exists()
    assert store.remove("http://b.test") is False


def test_the_journal_keeps_the_first_commitment_every_move_and_every_state_shown(tmp_path):
    journal = Journal(tmp_path)
    start = {"id": "r1", "commitment": "c1", "seed": None, "turn": 0, "roll": 0, "dice": []}
    journal.shown({**start, "total": 0}, fetched=True)
    journal.shown({**start, "total": 0})  # the same state again: noted once
    rolled = {**start, "roll": 1, "dice": [1, 2], "total": 0, "actions": [{"type": "roll"}]}
    journal.acted({"type": "roll", "hold": []}, rolled, before=start)
    journal.shown(rolled)
    journal.shown(rolled, held={1})  # the holds marked on it
    scored = {
        **rolled,
        "turn": 1,
        "roll": 0,
        "dice": [],
        "scorecard": {"twos": 2},
        "total": 2,
        "actions": [{"type": "roll"}, {"type": "score"}],
    }
    journal.acted({"type": "score", "category": "twos"}, scored, before=rolled)
    # A later answer that disagrees does not overwrite the commitment seen first.
    journal.shown({**scored, "commitment": "c2", "seed": "ab"})
    record = journal.get("r1")
    assert (record.commitment, record.seed_hidden_when_seen) == ("c1", True)
    assert [
        {key: value for key, value in event.items() if key != "at"} for event in record.events
    ] == [
        {"event": "shown", "turn": 0, "roll": 0, "dice": [], "held": [], "total": 0,
         "fetched": True},
        {"event": "action", "turn": 0, "roll": 0, "type": "roll", "hold": [], "dice": [1, 2],
         "total": 0},
        {"event": "shown", "turn": 0, "roll": 1, "dice": [1, 2], "held": [], "total": 0,
         "fetched": False},
        {"event": "shown", "turn": 0, "roll": 1, "dice": [1, 2], "held": [1], "total": 0,
         "fetched": False},
        {"event": "action", "turn": 0, "roll": 1, "type": "score", "category": "twos",
         "points": 2, "total": 2},
        {"event": "shown", "turn": 1, "roll": 0, "dice": [], "held": [], "total": 2,
         "fetched": False},
    ]  # fmt: skip
    assert record.dice_seen(0, 1) == [1, 2] and record.dice_seen(0, 2) is None
    assert stat.S_IMODE(journal._path("r1").stat().st_mode) == 0o600


def test_the_journal_keeps_a_days_commitment_only_while_it_is_unrevealed(tmp_path):
    journal = Journal(tmp_path)
    journal.record_day({"date": "2026-12-01", "commitment": "c1", "seed": "s"})
    assert journal.day_commitment("2026-12-01") is None
    journal.record_day({"date": "2026-12-01", "commitment": "c1", "seed": None})
    assert journal.day_commitment("2026-12-01")[0] == "c1"


def test_a_round_id_cannot_name_a_path_outside_the_journal(tmp_path):
    assert Journal(tmp_path)._path("../../etc/passwd").parent == tmp_path / "rounds"


# -- damaged, strange and shared files ----------------------------------------------------


def _store_with(tmp_path, make):
    store = CredentialStore(tmp_path / "config")
    store.path.parent.mkdir(parents=True)
    make(store.path)
    return store


@pytest.mark.parametrize(
    ("make", "why"),
    [
        (lambda path: path.symlink_to("/dev/zero"), "not a regular file"),  # it read for ever
        (lambda path: os.mkfifo(path), "not a regular file"),
        (lambda path: path.mkdir(), "not a regular file"),
        (lambda path: path.write_bytes(b" " * (MAX_FILE_BYTES + 1)), "larger than 8 MiB"),
        (lambda path: path.write_text("[" * 100_000 + "]" * 100_000), "maximum recursion"),
        (lambda path: path.write_text('{"servers": ["x"]}'), '"servers" is not a JSON object'),
        (lambda path: path.write_bytes(b'{"servers": {"\xff": 1}}'), "utf-8"),
        (lambda path: path.write_text("{"), "Expecting"),
    ],
)
def test_a_token_file_that_is_not_one_is_one_error_naming_it_and_what_to_do(tmp_path, make, why):
    store = _store_with(tmp_path, make)
    for use in (
        lambda: store.get("http://a.test"),
        lambda: store.save(Credentials("http://a.test", "ada", "t")),
    ):
        with pytest.raises(StorageError) as caught:
            use()
        assert str(store.path) in str(caught.value) and why in str(caught.value)
        assert "Move it aside (or delete it) and try again" in str(caught.value)


def test_a_journal_of_another_shape_is_an_error_not_an_empty_journal(tmp_path):
    """A journal whose events were an object or a list of numbers read as no events:
    ``verify`` then passed the round with every turn "elsewhere"."""
    journal = Journal(tmp_path)
    journal.directory.mkdir(parents=True)
    for damaged in (
        '{"events": {"a": 1}}',
        '{"events": [1, 2]}',
        '{"commitment": 5, "events": []}',
    ):
        (journal.directory / "r1.json").write_text(damaged)
        with pytest.raises(StorageError, match=r"r1\.json"):
            journal.get("r1")


def test_a_file_that_cannot_be_written_is_one_error_naming_it(tmp_path):
    (tmp_path / "taken").write_text("a file where the directory should be")
    store = CredentialStore(tmp_path / "taken" / "config")
    mode = stat.S_IMODE((tmp_path / "taken").stat().st_mode)
    with pytest.raises(StorageError, match=r"cannot write \S*/taken/config"):
        store.save(Credentials("http://a.test", "ada", "t"))
    assert stat.S_IMODE((tmp_path / "taken").stat().st_mode) == mode  # not made private


def test_the_temporary_file_is_made_new_never_written_through_a_link(tmp_path):
    store = CredentialStore(tmp_path / "config")
    store.save(Credentials("http://a.test", "ada", "t1"))
    victim = tmp_path / "victim.txt"
    victim.write_text("untouched")
    (store.path.parent / f".credentials.json.{os.getpid()}.tmp").symlink_to(victim)
    store.save(Credentials("http://a.test", "ada", "t2"))
    assert victim.read_text() == "untouched"
    assert store.path.is_file() and not store.path.is_symlink()
    assert store.get("http://a.test").token == "t2"


def test_missing_parent_directories_are_private_too_whatever_the_umask(tmp_path):
    previous = os.umask(0)
    try:
        CredentialStore(tmp_path / "home" / ".config" / "yatzy-play").save(
            Credentials("http://a.test", "ada", "t")
        )
    finally:
        os.umask(previous)
    for folder in ("home", "home/.config", "home/.config/yatzy-play"):
        assert stat.S_IMODE((tmp_path / folder).stat().st_mode) == 0o700, folder


def test_two_clients_saving_at_once_lose_nothing_of_each_other(tmp_path):
    """Each save reads the file, changes its entry and writes it whole: without the
    directory's lock, one client's write replaced what the other had just written."""
    saves = 40

    def client(number):
        store = CredentialStore(tmp_path)  # each its own store, as two processes have
        for attempt in range(saves):
            store.save(Credentials(f"http://s{number}.test", "ada", f"tok{attempt}"))

    threads = [threading.Thread(target=client, args=(number,)) for number in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    store = CredentialStore(tmp_path)
    assert [store.get(f"http://s{n}.test").token for n in range(6)] == [f"tok{saves - 1}"] * 6


def test_a_lock_held_too_long_is_one_error_naming_it_not_a_wait_without_end(tmp_path, monkeypatch):
    import fcntl

    from client import storage

    monkeypatch.setattr(storage, "LOCK_WAIT_SECONDS", 0.2)
    store = CredentialStore(tmp_path)
    store.save(Credentials("http://a.test", "ada", "t1"))
    with open(tmp_path / ".lock", "w") as held:  # another client stopped mid-change
        fcntl.flock(held, fcntl.LOCK_EX)
        with pytest.raises(StorageError, match=r"another yatzy-play has held \S*\.lock"):
            store.save(Credentials("http://a.test", "ada", "t2"))
    store.save(Credentials("http://a.test", "ada", "t3"))
    assert store.get("http://a.test").token == "t3"


def test_a_token_is_kept_per_server_however_its_address_is_spelled(tmp_path):
    """``--server HTTP://LOCALHOST:8121``, ``http://localhost:8121/`` and
    ``http://localhost:8121`` were three servers, as were ``https://a.test:443`` and
    ``https://a.test``: logged in with one spelling, "Not logged in" with another."""
    store = CredentialStore(tmp_path)
    store.save(Credentials("HTTP://LOCALHOST:8121/", "ada", "t1"))
    for spelled in ("http://localhost:8121", "http://localhost:8121/", "http://LocalHost:8121"):
        assert store.get(spelled) == Credentials("http://localhost:8121", "ada", "t1")
    store.save(Credentials("https://a.test:443", "bob", "t2"))
    assert store.get("https://A.test/").token == "t2"
    assert store.get("HTTPS://a.test:443").token == "t2"
    assert store.get("http://a.test") is None  # another scheme, another server
    assert store.get("https://a.test:8443") is None  # another port
    assert json.loads(store.path.read_text())["servers"].keys() == {
        "http://localhost:8121",
        "https://a.test",
    }


def test_a_token_saved_under_an_earlier_spelling_is_read_then_kept_under_one(tmp_path):
    """Earlier clients kept the address as typed (less a trailing slash): those logins
    are still found, a new login replaces them, and logout forgets every spelling."""
    store = CredentialStore(tmp_path)
    store.path.write_text(
        json.dumps(
            {
                "servers": {
                    "HTTP://LOCALHOST:8121": {"username": "ada", "token": "old"},
                    "https://b.test:443": {"username": "bob", "token": "t2"},
                }
            }
        )
    )
    assert store.get("http://localhost:8121") == Credentials("http://localhost:8121", "ada", "old")
    store.save(Credentials("http://localhost:8121", "ada", "new"))
    assert json.loads(store.path.read_text())["servers"] == {
        "http://localhost:8121": {"username": "ada", "token": "new"},
        "https://b.test:443": {"username": "bob", "token": "t2"},
    }
    assert store.remove("https://b.test") is True
    assert store.get("https://b.test:443") is None
    assert store.remove("HTTP://localhost:8121/") is True
    assert not store.path.exists()
