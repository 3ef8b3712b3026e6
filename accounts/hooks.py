"""What higher apps must do when a player goes, inside the deleting transaction.

``leaderboards`` registers the handler (``leaderboards.jobs``); ``accounts`` imports
no higher app.
"""

from config.hooks import Hook

player_deleting = Hook("accounts.player_deleting")
"""``(player_id)``: the player is about to be deleted with everything they played."""
