"""Browser tests: Debian's Chromium (``/usr/bin/chromium``, never a downloaded browser)
driven by Playwright against pytest-django's live server. One browser for the session,
a fresh context (cookies, viewport) per test. Every page a test opens is watched: a
console error, an uncaught script error, a dialog (an injected ``alert``) or a request
to anywhere but the live server fails the test.

``WEB_SCREENSHOTS=docs/screenshots`` saves the screenshots the tests take there (how the
README's pictures are made)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
PASSWORD = "a-long-enough-passphrase"


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    """The pages' tests register and log in many players; a fast hasher keeps that
    cheap (the password rules and the real hasher are the accounts tests' business)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(scope="package")
def browser() -> Iterator:
    """One browser for these tests. Playwright's sync API keeps an event loop on the
    test's thread, so Django would take the tests' own ORM calls for async ones: async
    safety is off while the browser lives, and only then (never in a subprocess started
    by another package's tests, which ``manage.py check --deploy`` would flag)."""
    if not CHROMIUM.exists():
        pytest.skip(f"browser tests need Debian's chromium at {CHROMIUM}: apt-get install chromium")
    from playwright.sync_api import sync_playwright

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
            yield browser
            browser.close()


@dataclass
class Watch:
    base: str
    expected: tuple[str, ...] = ()  # console errors a test brings about itself
    errors: list[str] = field(default_factory=list)
    foreign: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)

    def attach(self, page) -> None:
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        page.on("request", self._request)
        page.on("dialog", self._dialog)

    def _request(self, request) -> None:
        if not request.url.startswith(self.base):
            self.foreign.append(request.url)

    def _dialog(self, dialog) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def check(self) -> None:
        errors = [e for e in self.errors if not any(part in e for part in self.expected)]
        assert not errors, f"console errors: {errors}"
        assert not self.foreign, f"requests that left the site: {self.foreign}"
        assert not self.dialogs, f"dialogs opened: {self.dialogs}"


@pytest.fixture
def open_page(browser, live_server) -> Iterator:
    """``open_page(viewport=..., javascript=True, expected=())``: a new browser context
    and page on the live server, watched until the test ends (a console error containing
    one of ``expected`` is one the test brings about itself)."""
    contexts, watches = [], []

    def start(
        viewport: dict | None = None, *, javascript: bool = True, expected: tuple[str, ...] = ()
    ):
        context = browser.new_context(
            viewport=viewport or DESKTOP, base_url=live_server.url, java_script_enabled=javascript
        )
        # Anything not for the live server is refused outright (and recorded above).
        context.route(lambda url: not url.startswith(live_server.url), lambda route: route.abort())
        page = context.new_page()
        watch = Watch(base=live_server.url, expected=expected)
        watch.attach(page)
        contexts.append(context)
        watches.append(watch)
        return page

    yield start
    for context in contexts:
        context.close()
    for watch in watches:
        watch.check()


@pytest.fixture
def page(open_page):
    return open_page()


def screenshot(page, name: str, *, full_page: bool = True) -> None:
    """Save a screenshot (of the whole page, else of the screen as the player sees it)
    when ``WEB_SCREENSHOTS`` names a folder."""
    folder = os.environ.get("WEB_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        if full_page:  # from the top: a sticky bar is drawn where the screen last was
            page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=full_page)


def register(page, username: str, display_name: str = "") -> None:
    page.goto("/accounts/register/")
    page.get_by_label("Username").fill(username)
    if display_name:
        page.get_by_label("Display name").fill(display_name)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Create my account").click()
    page.wait_for_url("**/")


def after_swap(page, action) -> None:
    """Run ``action`` (a click or key press) and wait until the play page's round part
    has been replaced by the answer."""
    old = page.query_selector("[data-play]")
    action()
    page.wait_for_function("el => !el.isConnected", arg=old)
    page.wait_for_selector("[data-play]")


def score(page, box: str) -> None:
    """Score the open box ``box`` by clicking it; a scratch (0 points) asks once before
    it is stored, so it is clicked a second time."""
    after_swap(page, lambda: page.click(f"[data-box='{box}']"))
    if page.locator("[data-armed]").count():
        after_swap(page, lambda: page.click(f"[data-box='{box}']"))
