"""The pages this project did not write, under the site's policy: the admin's log-in
and Swagger UI run without a console error (no blocked script or style)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.live


@pytest.mark.parametrize("path", ["/admin/login/", "/api/docs/"])
def test_third_party_pages_work_under_the_content_security_policy(page, path):
    response = page.goto(path)
    assert response is not None and response.ok
    assert "Content-Security-Policy" in {k.title(): v for k, v in response.headers.items()}
    if path == "/api/docs/":
        page.wait_for_selector(".swagger-ui .info", timeout=30_000)
    # The page fixture's watch fails the test on any console error (a CSP refusal is one).


def test_the_health_page_is_styled_under_the_content_security_policy(browser, live_server):
    """django-health-check's page styles itself in a <style> block: the site's policy
    blocked it (an unstyled table and a console error). The test server runs no worker,
    so the page may be a 503; only the policy's refusals count here."""
    context = browser.new_context(base_url=live_server.url)
    try:
        page = context.new_page()
        refusals: list[str] = []
        page.on(
            "console",
            lambda m: refusals.append(m.text) if "Content Security Policy" in m.text else None,
        )
        response = page.goto("/health/")
        assert response is not None and response.status in (200, 503)
        assert "style-src 'self' 'unsafe-inline'" in response.headers["content-security-policy"]
        assert "script-src 'self';" in response.headers["content-security-policy"]
        assert page.evaluate("getComputedStyle(document.querySelector('h1')).textAlign") == (
            "center"
        )
        assert not refusals
    finally:
        context.close()
