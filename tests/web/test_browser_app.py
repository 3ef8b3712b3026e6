"""The site as an installable app, in a real browser (headless Chromium): the manifest
and its icons, the service worker that keeps the static files and shows the offline
page when the network is gone, and that never keeps a page of one account for
another."""

from __future__ import annotations

import struct

import pytest

from tests.web.conftest import register, screenshot

pytestmark = pytest.mark.live

CACHED = """async () => {
  const urls = [];
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) { urls.push(new URL(request.url).pathname); }
  }
  return urls;
}"""


def png_size(body: bytes) -> tuple[int, int]:
    assert body[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", body[16:24])
    return width, height


def test_the_manifest_names_the_app_and_its_icons_of_192_and_512_pixels(page):
    page.goto("/")
    href = page.locator("link[rel=manifest]").get_attribute("href")
    answer = page.request.get(href)
    assert answer.headers["content-type"] == "application/manifest+json"
    manifest = answer.json()
    assert manifest["name"] == "Maxi Yatzy Daily"
    assert (manifest["start_url"], manifest["display"]) == ("/", "standalone")
    sizes = {}
    for icon in manifest["icons"]:
        body = page.request.get(icon["src"]).body()
        if icon["type"] == "image/png":
            sizes[icon["sizes"]] = png_size(body)
        else:
            assert body.startswith(b"<svg")
    assert sizes == {"192x192": (192, 192), "512x512": (512, 512)}


def installed(page) -> None:
    """Wait until the service worker is installed, then load the page again: a page
    loaded once the worker is active is always one it looks after."""
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    assert page.evaluate("navigator.serviceWorker.controller !== null")


def test_offline_the_worker_shows_its_offline_page_and_keeps_no_players_page(open_page):
    page = open_page()
    register(page, "wanda", "Wanda W.")
    installed(page)
    page.goto("/games/")
    page.goto("/settings/")
    cached = page.evaluate(CACHED)
    assert "/offline/" in cached and "/static/web/site.css" in cached
    kept_pages = ("/offline/", "/offline/unreachable/")
    assert all(url.startswith("/static/") or url in kept_pages for url in cached), cached

    page.context.set_offline(True)
    page.goto("/games/")
    assert page.locator("[data-offline]").is_visible()
    assert page.locator("h1").inner_text() == "You are offline"
    body = page.locator("body").inner_text()
    assert "Wanda" not in body and "wanda" not in body  # nobody's page
    colour = page.evaluate("getComputedStyle(document.querySelector('.button')).backgroundColor")
    assert colour == "rgb(10, 88, 202)"  # the stylesheet, from the worker's cache
    screenshot(page, "offline")

    # "Try again" asks for the page the player was on, not the front page.
    page.context.set_offline(False)
    page.get_by_role("link", name="Try again").click()
    page.wait_for_selector("h1:has-text('Your games')")
    assert page.locator("[data-offline]").count() == 0
    assert page.evaluate("location.pathname") == "/games/"


def test_a_form_sent_offline_shows_the_offline_page_and_changes_nothing(open_page):
    """A form's post is a navigation too: with the network gone the worker answers it
    with its kept offline page, not the browser's error page, and the post is never
    stored to be sent again later."""
    page = open_page()
    register(page, "otto", "Otto O.")
    installed(page)
    page.goto("/settings/")
    page.get_by_label("Ruleset for new games").select_option("yahtzee")

    page.context.set_offline(True)
    page.get_by_role("button", name="Save").click()
    page.wait_for_selector("[data-offline]")
    assert page.locator("h1").inner_text() == "You are offline"
    assert "Otto" not in page.locator("body").inner_text()

    page.context.set_offline(False)
    page.goto("/settings/")
    assert page.get_by_label("Ruleset for new games").input_value() == "maxi"
    assert all(not url.startswith("/settings") for url in page.evaluate(CACHED))


def test_while_the_proxy_answers_for_the_app_the_worker_shows_its_kept_page(open_page):
    """deploy/Caddyfile answers with ``X-Fallback: proxy`` while the app does not answer
    (its test: tests/live/test_proxy.py); the worker shows its kept page in the player's
    language instead of the proxy's English one. An answer of the app's own, a 503
    included, is shown as it is."""
    page = open_page(expected=("status of 503",))  # the app's own 503, below
    register(page, "vera", "Vera V.")
    installed(page)
    cached = page.evaluate(CACHED)
    assert "/offline/unreachable/" in cached, cached

    def proxy(route) -> None:
        route.fulfill(
            status=503,
            headers={"X-Fallback": "proxy", "Content-Type": "text/html", "Retry-After": "5"},
            body="<h1>The proxy's own page</h1>",
        )

    page.context.route("**/games/", proxy)
    page.goto("/games/")
    assert page.locator("[data-offline=unreachable]").is_visible()
    assert page.locator("h1").inner_text() == "The server is not answering"
    assert "Vera" not in page.locator("body").inner_text()
    screenshot(page, "unreachable")

    page.context.unroute("**/games/")
    page.context.route(
        "**/games/",
        lambda route: route.fulfill(
            status=503, headers={"Content-Type": "text/html"}, body="<h1>The app's own</h1>"
        ),
    )
    page.goto("/games/")
    assert page.locator("h1").inner_text() == "The app's own"


def test_the_worker_is_registered_by_the_sites_pages_only_and_fetches_nothing_elsewhere(page):
    page.goto("/rules/maxi/")
    installed(page)
    script = page.evaluate("navigator.serviceWorker.controller.scriptURL")
    assert script.endswith("/sw.js")
    answer = page.request.get("/sw.js")
    assert answer.headers["cache-control"] == "no-cache"
    assert "://" not in answer.text()  # no address of another site in it
    assert "url.origin !== self.location.origin" in answer.text()  # this site's requests only
    page.goto("/api/docs/")  # a third-party page: no registration script in it
    assert page.locator("script[data-worker]").count() == 0
