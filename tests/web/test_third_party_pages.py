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
