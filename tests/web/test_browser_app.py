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
    assert all(url.startswith("/static/") or url == "/offline/" for url in cached), cached

    page.context.set_offline(True)
    page.goto("/games/")
    assert page.locator("[data-offline]").is_visible()
    assert page.locator("h1").inner_text() == "You are offline"
    body = page.locator("body").inner_text()
    assert "Wanda" not in body and "wanda" not in body  # nobody's page
    colour = page.evaluate("getComputedStyle(document.querySelector('.button')).backgroundColor")
    assert colour == "rgb(10, 88, 202)"  # the stylesheet, from the worker's cache
    screenshot(page, "offline")

    page.context.set_offline(False)
    page.goto("/games/")
    assert page.locator("[data-offline]").count() == 0
    assert "Your games" in page.locator("h1").inner_text()


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
