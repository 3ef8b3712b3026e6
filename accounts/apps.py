from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = _("Accounts")

    def ready(self) -> None:
        # The token cache's invalidation (signal receivers) must run in every process
        # that deletes tokens or saves players, not only in those that answered a token.
        from accounts import auth  # noqa: F401
