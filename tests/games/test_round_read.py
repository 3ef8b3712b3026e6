"""The round read of every action (issue #25): one SQL statement built from the models
instead of the ORM's query, so it must load exactly what the ORM loads, on SQLite and
PostgreSQL alike: every column of the round (its action log left to the snapshot), its
challenge and its party, with each value converted by its field."""

from __future__ import annotations

import pytest
from django.db import connection
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
        if field.attname == "actions":
            assert field.attname not in read.__dict__  # deferred, as before
            continue
        ours, theirs = getattr(read, field.attname), getattr(orm, field.attname)
        assert ours == theirs and type(ours) is type(theirs), field.attname
    for mine, theirs in ((challenge, orm.challenge), (party, orm.party)):
        assert (mine is None) == (theirs is None)
        if mine is not None:
            for field in type(mine)._meta.concrete_fields:
                ours, want = getattr(mine, field.attname), getattr(theirs, field.attname)
                assert ours == want and type(ours) is type(want), field.attname
    assert read.actions == orm.actions  # loaded on access, like a deferred field


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
