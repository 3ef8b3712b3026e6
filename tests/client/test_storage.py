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


def test_the_journal_keeps_the_first_commitment_and_dice_it_was_shown(tmp_path):
    journal = Journal(tmp_path)
    journal.record({"id": "r1", "commitment": "c1", "seed": None, "turn": 0, "roll": 0, "dice": []})
    journal.record(
        {"id": "r1", "commitment": "c1", "seed": None, "turn": 0, "roll": 1, "dice": [1, 2]}
    )
    # A later answer that disagrees does not overwrite what was seen first.
    journal.record(
        {"id": "r1", "commitment": "c2", "seed": "ab", "turn": 0, "roll": 1, "dice": [6, 6]}
    )
    record = journal.get("r1")
    assert (record.commitment, record.seed_hidden_when_seen) == ("c1", True)
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
