"""The round read of every action (issue #25): one SQL statement built from the models
instead of the ORM's query, so it must load exactly what the ORM loads, on SQLite and
PostgreSQL alike: every column of the round, its challenge and its party, with each value
converted by its field (the engine's JSON decoded by orjson, to the same values)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.models.signals import post_init
from django.test.utils import CaptureQueriesContext

from config.api_errors import NotFoundError
from daily import clock
from games import selectors, services
from games.models import Round
from tests.factories import make_player

pytestmark = pytest.mark.django_db


def same_as_the_orm(rnd: Round) -> None:
    orm = Round.objects.select_related("challenge", "party", "player").get(pk=rnd.pk)
    with CaptureQueriesContext(connection) as queries:
        read = selectors.round_get_for_player(round_id=rnd.pk, player=orm.player)
        challenge, party = read.challenge, read.party  # no further query
    assert len(queries) == 1
    for field in Round._meta.concrete_fields:
        ours, theirs = getattr(read, field.attname), getattr(orm, field.attname)
        assert ours == theirs and type(ours) is type(theirs), field.attname
    for mine, theirs in ((challenge, orm.challenge), (party, orm.party)):
        assert (mine is None) == (theirs is None)
        if mine is not None:
            for field in type(mine)._meta.concrete_fields:
                ours, want = getattr(mine, field.attname), getattr(theirs, field.attname)
                assert ours == want and type(ours) is type(want), field.attname
    assert read.actions == orm.actions == read.snapshot["actions"]


def test_a_daily_round_reads_as_the_orm_reads_it():
    user, _ = make_player()
    rnd, _ = services.round_start_daily(player=user, day=clock.today())
    services.round_roll(round_id=rnd.id, player=user, hold=(), turn=0, roll=0)
    same_as_the_orm(rnd)


def test_a_computer_game_and_a_party_seat_read_as_the_orm_reads_them():
    user, _ = make_player()
    bot = services.game_start(player=user, mode="computer", ruleset="yatzy", level="easy")
    assert isinstance(bot, Round)
    services.round_roll(round_id=bot.id, player=user, hold=(), turn=0, roll=0)
    same_as_the_orm(bot)
    party = services.party_create(player=user, seats=["Ann", "Bo"])
    same_as_the_orm(Round.objects.get(party=party, seat=0))


def test_another_players_round_is_not_found():
    owner, _ = make_player()
    other, _ = make_player()
    rnd, _ = services.round_start_daily(player=owner, day=clock.today())
    with pytest.raises(NotFoundError):
        selectors.round_get_for_player(round_id=rnd.id, player=other)


def test_a_read_round_behaves_as_a_loaded_one():
    user, _ = make_player()
    rnd, _ = services.round_start_daily(player=user, day=clock.today())
    read = selectors.round_get_for_player(round_id=rnd.id, player=user)
    assert (read._state.adding, read._state.db) == (False, "default")
    assert read == rnd and read.pk == rnd.pk
    read.seat_name = "kept"
    read.save(update_fields=["seat_name"])  # an UPDATE of the loaded row, not an INSERT
    assert Round.objects.get(pk=rnd.pk).seat_name == "kept"
    read.refresh_from_db()
    assert read.challenge.date == clock.today() and read.party is None


def test_with_an_init_receiver_the_read_goes_through_the_models_init():
    user, _ = make_player()
    rnd, _ = services.round_start_daily(player=user, day=clock.today())
    seen = []

    def receiver(sender, instance, **kwargs):
        seen.append(instance.pk)

    post_init.connect(receiver, sender=Round)
    try:
        same_as_the_orm(rnd)
    finally:
        post_init.disconnect(receiver, sender=Round)
    assert rnd.pk in seen  # the ORM's instance and ours alike
    assert seen.count(rnd.pk) >= 2
