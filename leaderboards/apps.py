from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeaderboardsConfig(AppConfig):
    name = "leaderboards"
    verbose_name = _("Leaderboards")

    def ready(self) -> None:
        from leaderboards import jobs

        jobs.register()
