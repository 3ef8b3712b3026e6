"""The app icons of the web app manifest, rendered from ``web/static/web/icon.svg``.

``python -m web.icons`` draws the SVG in Debian's Chromium (``/usr/bin/chromium``, or
``$CHROMIUM``) through Playwright at 192 and 512 pixels and writes
``web/static/web/icon-192.png`` and ``icon-512.png``. Run it after changing the SVG and
commit the PNGs with it: the service never renders them itself.
"""

from __future__ import annotations

import os
from pathlib import Path

STATIC = Path(__file__).resolve().parent / "static" / "web"
SOURCE = STATIC / "icon.svg"
SIZES = (192, 512)


def icon_path(size: int) -> Path:
    """Where the PNG icon of ``size`` pixels lives.

    >>> icon_path(192).name
    'icon-192.png'
    """
    return STATIC / f"icon-{size}.png"


def render(chromium: str = os.environ.get("CHROMIUM", "/usr/bin/chromium")) -> list[Path]:
    """Render the SVG at every size; returns the files written."""
    from playwright.sync_api import sync_playwright

    svg = SOURCE.read_text()
    written = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium, args=["--headless", "--no-sandbox", "--disable-gpu"]
        )
        for size in SIZES:
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content(
                "<!DOCTYPE html><style>html,body{margin:0}svg{display:block;width:100vw;"
                f"height:100vh}}</style>{svg}"
            )
            page.screenshot(path=str(icon_path(size)), omit_background=True)
            page.close()
            written.append(icon_path(size))
        browser.close()
    return written


if __name__ == "__main__":
    for path in render():
        print(path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path)
