from celery import shared_task


@shared_task
def board_record_round(round_id: str) -> None:
    """Placeholder until the leaderboards app lands (issue 4)."""
