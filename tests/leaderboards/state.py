"""What the boards hold, for tests that compare incremental updates with rebuilds."""

from __future__ import annotations

from leaderboards.models import BoardEntry, BoardHistogram, BoardHistogramBlock


def boards_state() -> tuple[list, list, list]:
    """Every board's entries, histogram and histogram blocks (the rows with a count),
    sorted: what an incremental update and a rebuild from the rounds must agree on."""
    entries = sorted(
        BoardEntry.objects.values_list(
            "board", "player_id", "value", "achieved_at", "streak_last_date", "streak_last_run"
        )
    )
    histogram = sorted(
        BoardHistogram.objects.filter(count__gt=0).values_list("board", "value", "count")
    )
    blocks = sorted(
        BoardHistogramBlock.objects.filter(count__gt=0).values_list("board", "block", "count")
    )
    return entries, histogram, blocks
