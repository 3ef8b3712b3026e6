"""The moments of a round's life that the boards (a higher app) must hear about.

Each is called inside the transaction that makes it true, so the boards' part commits
or rolls back with it. ``leaderboards`` registers the handlers (``leaderboards.jobs``);
``games`` never imports the boards.
"""

from config.hooks import Hook

ranked_round_completed = Hook("games.ranked_round_completed")
"""``(round_id)``: a ranked daily round has just been completed."""

ranked_round_removed = Hook("games.ranked_round_removed")
"""``(player_id, day)``: a ranked round of ``day`` has just been deleted."""

day_closing = Hook("games.day_closing")
"""``(day)``: a day is being closed; every round of it is final from now on."""

ranked_round_analysed = Hook("games.ranked_round_analysed")
"""``(round_id)``: a ranked round's ``loss`` and ``luck`` have just been stored."""

ranked_round_recounted = Hook("games.ranked_round_recounted")
"""``(player_id, day)``: a ranked round of ``day`` has just been excluded from the boards,
or reinstated."""
