"""``/api/schema/``: the first fetch in a process (the schema is generated) against the
fetches after it (served from memory), for each format and two languages.

    python -m bench.schema              # 20 repeated fetches per language and format

Through Django's test client with the whole middleware stack and ``DEBUG`` off, on a
throwaway SQLite database (the schema reads none). Wall-clock times; ``docs/benchmarks.md``
records the figures.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time

CASES = [("en", "json"), ("en", "yaml"), ("de", "json"), ("de", "yaml")]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.schema", description=__doc__)
    parser.add_argument("--repeat", type=int, default=20, help="fetches after the first")
    args = parser.parse_args(argv)
    var_dir = tempfile.mkdtemp(prefix="bench-schema-")
    os.environ.update(
        DEBUG="false",
        SECRET_KEY="bench-only-secret-key-" + "x" * 40,
        DAILY_SEED_SECRET="bench-schema-only-daily-seed-secret-" + "x" * 10,
        SECURE_SSL_REDIRECT="false",
        VAR_DIR=var_dir,
        DATABASE_URL=f"sqlite:///{var_dir}/db.sqlite3",
        LOG_LEVEL="WARNING",
    )
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.test import Client

    from bench.machine import describe

    client = Client()
    print(describe())
    print(
        f"{'language':<9}{'format':<7}{'size':>9}{'first ms':>10}{'then p50 ms':>13}{'max ms':>8}"
    )
    for language, fmt in CASES:

        def fetch(language: str = language, fmt: str = fmt) -> tuple[float, int]:
            started = time.perf_counter()
            response = client.get("/api/schema/", {"format": fmt}, HTTP_ACCEPT_LANGUAGE=language)
            elapsed = (time.perf_counter() - started) * 1000
            assert response.status_code == 200, response.status_code
            return elapsed, len(response.content)

        first, size = fetch()
        after = [fetch()[0] for _ in range(args.repeat)]
        print(
            f"{language:<9}{fmt:<7}{size:>9,}{first:>10.1f}"
            f"{statistics.median(after):>13.2f}{max(after):>8.2f}"
        )


if __name__ == "__main__":
    main()
