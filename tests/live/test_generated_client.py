"""A client generated from the live server's schema by openapi-python-client, used exactly
as generated: it registers, plays a full daily round and reads the day's board."""

import importlib
import pkgutil
import subprocess
import sys

import pytest

from daily import clock
from tests.live.conftest import BIN, wait_for

pytestmark = [pytest.mark.live, pytest.mark.django_db(transaction=True)]

PACKAGE = "yatzy_generated_client"
# No post hooks: they only run ruff over the output, and the test must hold for the
# code exactly as the generator writes it.
GENERATOR_CONFIG = f"post_hooks: []\npackage_name_override: {PACKAGE}\n"


@pytest.fixture
def generated(live_stack, tmp_path):
    """The generated package, imported from tmp_path; removed from sys.modules after."""
    with live_stack.client() as http:
        schema = http.get("/api/schema/", params={"format": "json"}).raise_for_status()
    (tmp_path / "schema.json").write_bytes(schema.content)
    (tmp_path / "config.yaml").write_text(GENERATOR_CONFIG)
    result = subprocess.run(
        [
            str(BIN / "openapi-python-client"),
            "generate",
            "--path=schema.json",
            "--config=config.yaml",
            "--meta=none",
            f"--output-path={PACKAGE}",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    # The generator skips what it cannot type and says so; nothing may be skipped.
    assert "Warning" not in output, output
    sys.path.insert(0, str(tmp_path))
    try:
        package = importlib.import_module(PACKAGE)
        # Every module imports, not only those the round uses.
        for module in pkgutil.walk_packages(package.__path__, f"{PACKAGE}."):
            importlib.import_module(module.name)
        yield package
    finally:
        sys.path.remove(str(tmp_path))
        for name in [m for m in sys.modules if m.split(".")[0] == PACKAGE]:
            del sys.modules[name]


def test_a_generated_client_plays_a_daily_round_and_reads_the_board(live_stack, generated):
    # The package exists only once the fixture has generated it, hence imports in here.
    from yatzy_generated_client import AuthenticatedClient, Client
    from yatzy_generated_client.api.accounts import accounts_register_create
    from yatzy_generated_client.api.daily import daily_rounds_create
    from yatzy_generated_client.api.leaderboards import leaderboards_daily_retrieve
    from yatzy_generated_client.api.rounds import rounds_roll_create, rounds_score_create
    from yatzy_generated_client.models import (
        BoardPage,
        Registered,
        RegisterRequest,
        RollRequest,
        Round,
        RoundStatusEnum,
        ScoreRequest,
    )

    anonymous = Client(base_url=live_stack.url, raise_on_unexpected_status=True)
    registered = accounts_register_create.sync(
        client=anonymous,
        body=RegisterRequest(username="generated", password="a-long-enough-passphrase"),
    )
    assert isinstance(registered, Registered), registered
    player = AuthenticatedClient(
        base_url=live_stack.url,
        token=registered.token,
        prefix="Token",
        raise_on_unexpected_status=True,
    )

    today = clock.today()
    state = daily_rounds_create.sync(day=today, client=player)
    assert isinstance(state, Round), state
    assert state.ranked and state.status == RoundStatusEnum.IN_PROGRESS
    for turn in range(state.turns):
        assert (state.turn, state.roll) == (turn, 0)
        roll = RollRequest(hold=[], turn=state.turn, roll=state.roll)
        state = rounds_roll_create.sync(round_id=state.id, client=player, body=roll)
        assert isinstance(state, Round), state
        options = state.options.additional_properties
        score = ScoreRequest(category=max(options, key=options.__getitem__), turn=state.turn)
        state = rounds_score_create.sync(round_id=state.id, client=player, body=score)
        assert isinstance(state, Round), state
    assert state.status == RoundStatusEnum.COMPLETED
    assert None not in state.scorecard.additional_properties.values()

    # The board is updated by the worker process once the round has committed.
    def board_with_my_line():
        page = leaderboards_daily_retrieve.sync(day=today, client=player)
        assert isinstance(page, BoardPage), page
        return page if page.me else None

    page = wait_for(board_with_my_line)
    rows = [(row.rank, row.username, row.value) for row in page.results]
    assert rows == [(1, "generated", state.total)]
    assert (page.me.rank, page.me.value) == (1, state.total)
