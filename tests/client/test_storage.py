"""The token file and the journal of what the client was shown."""

import stat

from client.storage import Credentials, CredentialStore, Journal


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
