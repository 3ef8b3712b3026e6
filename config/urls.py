"""URL configuration: the web pages, the v1 API, its schema and docs, health, the
admin, the language switcher; the benchmarks' plain views only when ``BENCH_ENDPOINTS``
is on."""

from django.conf import settings
from django.contrib import admin
from django.http import HttpRequest
from django.urls import include, path, reverse
from drf_spectacular.views import SpectacularSwaggerSplitView

from config.health import HealthView
from config.schema_view import SchemaView
from web.helpers import answers_stale_form, back_when_stale, next_query, own_address
from web.pages.accounts import language_switch

# Django tries the patterns in order; the pages' include has no prefix, so each of its
# patterns would be tried before any API path: the API comes first (no page path starts
# with "api/").
urlpatterns = [
    path("api/v1/", include("games.urls")),
    path("api/v1/", include("leaderboards.urls")),
    path("api/v1/accounts/", include("accounts.urls")),
    path("api/schema/", SchemaView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="swagger-ui"),
    path("health/", HealthView.as_view(), name="health"),
    # Django's set_language, which for a logged-in player also saves the profile's language.
    path("i18n/setlang/", language_switch, name="set_language"),
    path("admin/", admin.site.urls),
    path("", include("web.urls")),
]


def _admin_login_page(request: HttpRequest) -> str:
    """The admin's log-in page, still on its way to the ``next`` it was posted with
    when that is an address of this site."""
    return reverse("admin:login") + next_query(own_address(request, request.POST.get("next", "")))


# The admin's log-in form posted with a stale token (a log-in in another tab changed the
# CSRF cookie) goes back to the log-in page, which says so in the page's language, as
# the pages' forms do (web.helpers.csrf_failure), in place of Django's bare 403.
answers_stale_form(back_when_stale(_admin_login_page))(admin.site.login)

# The site's own error pages, in the visitor's language; a page whose database does not
# answer is a 503 with Retry-After, not a 500.
handler400 = "web.helpers.bad_request"
handler403 = "web.helpers.forbidden"
handler404 = "web.helpers.not_found"
handler500 = "web.helpers.server_error"

if settings.BENCH_ENDPOINTS:
    # Off unless asked for: the framework-floor baseline is no endpoint of the product.
    urlpatterns += [path("", include("bench.urls"))]
