from typing import Any

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Rounds")

    def ready(self) -> None:
        from celery.signals import worker_ready

        from config import hooks, messages
        from games import rules, tables

        # Error messages name boxes and rulesets as players know them.
        for param in ("category", "boxes"):
            messages.label_register(param, rules.box_name)
        messages.label_register("ruleset", rules.ruleset_title)

        worker_ready.connect(_queue_tables_at_worker_start, weak=False)
        # A web server process warms the strategy tables before its first hint.
        hooks.web_process_started.register(tables.tables_watch)


def _queue_tables_at_worker_start(sender: Any = None, **kwargs: Any) -> None:
    """A worker that starts makes sure the default strategy tables get built (the job
    goes through the broker, so only a worker serving the `tables` queue builds). A
    worker serving the `tables` queue also sends itself the build job at once: a build
    whose process is gone (this worker before a restart) resumes now, not at the beat's
    next send or after ``STALE_BUILD``."""
    from django.conf import settings

    from games import tasks

    if settings.STRATEGY_TABLES_BUILD_AT_START:
        tasks.tables_queue_defaults.delay()
    queues = getattr(getattr(sender, "task_consumer", None), "queues", [])
    if any(queue.name == "tables" for queue in queues):
        tasks.tables_build_due.delay()
