"""Schemathesis hooks of the reliability suite (loaded through ``SCHEMATHESIS_HOOKS``).

``not_a_server_error_but_a_documented_503`` replaces schemathesis's own
``not_a_server_error``: any 5xx fails, except a 503 the operation documents whose body
carries the code of a known temporary state (a strategy table being built, the database
unavailable). The API answers those by design, with ``Retry-After``, e.g. every Maxi
hint while the private stack has no Maxi table (it takes minutes to build).
"""

from __future__ import annotations

from typing import Any

import schemathesis

TEMPORARY = {"table_building", "database_unavailable"}


@schemathesis.check
def not_a_server_error_but_a_documented_503(ctx: Any, response: Any, case: Any) -> None:
    status = response.status_code
    if status < 500:
        return
    if status == 503 and "503" in case.operation.definition.raw.get("responses", {}):
        try:
            code = response.json().get("code")
        except ValueError:
            code = None
        headers = {name.lower() for name in response.headers}
        if code in TEMPORARY and "retry-after" in headers:
            return
    raise AssertionError(f"Server error {status}: {response.text[:300]}")
