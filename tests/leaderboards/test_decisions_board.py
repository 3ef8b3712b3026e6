"""The decisions boards at their rounding edges: a day's (lowest loss first, losses equal
to the hundredth tie) and the mean over the days (from five analysed days), built the
same by the incremental update and by the SQL rebuild.

The rounds are completed through the services (``ranked``); their losses are then
written as the analysis job writes them (``loss``, ``luck``, ``analysed_at``), with
values chosen on the rounding edges, which no real round can be steered to. The board
update each stored loss owes (``board_update_pending``) is the job the analysis sends
(``board_record_round``)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from games.models import Round
from leaderboards import services
from tests.factories import make_player
from tests.leaderboards.conftest import board, names, ranked, ranks, travel
from tests.leaderboards.state import boards_state

pytestmark = pytest.mark.django_db(transaction=True)

DAY = dt.date(2026, 11, 20)


def analysed(rnd: Round, loss: float) -> None:
    Round.objects.filter(pk=rnd.pk).update(
        loss=loss, luck=rnd.total - 394.5575 + loss, analysed_at=timezone.now()
    )
    services.board_update_pending(round_id=rnd.pk, exist_ok=True)
    services.board_record_round(round_id=str(rnd.pk))


def test_a_days_losses_rank_lowest_first_and_tie_to_the_hundredth():
    losses = {"a": 12.3449, "b": 12.345, "c": 12.3451, "d": 0.0049, "e": 0.005, "f": 0.0}
    clients = {}
    for minute, (name, loss) in enumerate(losses.items()):
        user, clients[name] = make_player(name)
        analysed(ranked(user, DAY, 200 + minute, minute), loss)
    with travel(dt.datetime(2026, 11, 21, 1, tzinfo=dt.UTC)):
        body = board(clients["a"], f"decisions/{DAY}/")
        around = board(clients["e"], f"decisions/{DAY}/", around="me")
        paged = board(clients["a"], f"decisions/{DAY}/", page=1)
    # 0.0049 rounds to 0.00 like 0.0 (f was completed later, so d comes first);
    # 12.345 and 12.3451 both round up to 12.35.
    assert names(body) == ["d", "f", "e", "a", "b", "c"]
    assert ranks(body) == [1, 1, 3, 4, 5, 5]
    assert [line["value"] for line in body["results"]] == [0.0, 0.0, 0.01, 12.34, 12.35, 12.35]
    assert body["me"] == body["results"][3] and body["analysed"] is True
    assert around["me"]["rank"] == 3 and names(around) == names(body)
    assert paged == body
    built = boards_state()
    services.boards_reconcile()
    assert boards_state() == built


def test_the_mean_board_takes_players_with_five_analysed_days():
    five, five_client = make_player("five")
    four, _ = make_player("four")
    days = [DAY + dt.timedelta(days=n) for n in range(5)]
    for n, day in enumerate(days):
        # 1.0001 + 1.0002 + … : mean 1.0003 → 1.00 for "five"
        analysed(ranked(five, day, 250), 1.0001 + n / 10_000)
        if n:
            analysed(ranked(four, day, 250, 1), 0.0)
    with travel(dt.datetime(2026, 11, 25, 1, tzinfo=dt.UTC)):
        mean = board(five_client, "decisions/")
    assert names(mean) == ["five"] and mean["results"][0]["value"] == 1.0
    assert mean["min_days"] == 5 and mean["me"]["rank"] == 1
    built = boards_state()
    services.boards_reconcile()
    assert boards_state() == built
