"""The rules reference as a printed page: the German reference printed to PDF by headless Chromium.

Chromium (Debian's ``chromium``) prints the HTML page with its own print stylesheet; poppler's
``pdftoppm`` turns each page into an image. On every page nothing may reach into the side margins
(a table wider than the page would), nothing drawn may be in colour (black text, links not
blue), and the page must print at its own size: Chromium shrinks a page whose content is wider
than the paper, so a black bar 50 mm wide added at its end must come out 50 mm wide. Without the two programs the test is skipped, and it fails under CI, whose script installs
them (.ci/run).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from spbc.lang.load import load_model
from spbc.reference.docs import emit_reference, notation_section

#: The print stylesheet's side margins are 12 mm; this much of each edge must stay blank (at DPI).
DPI = 50
EDGE = round(10 / 25.4 * DPI)
BAR = '<div style="width: 50mm; height: 8mm; background: #000"></div>'
BAR_PIXELS = 50 / 25.4 * DPI


def bar_width(pixels: Any) -> int:
    """The width of the widest black bar at least 6 pixel rows tall on a page (a table's rules are
    one row thin): for each row its longest run of nearly black pixels, the best of 6 rows in a row."""
    runs = []
    for row in pixels.min(axis=2) < 0.2:
        best = run = 0
        for dark in row:
            run = run + 1 if dark else 0
            best = max(best, run)
        runs.append(best)
    return max(min(runs[i:i + 6]) for i in range(len(runs) - 5))


def _tools() -> tuple[str, str]:
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    pdftoppm = shutil.which("pdftoppm")
    if browser is None or pdftoppm is None:
        missing = "chromium" if browser is None else "pdftoppm (poppler-utils)"
        if os.environ.get("CI"):
            pytest.fail(f"{missing} is missing: .ci/run installs it (apt-get install -y chromium poppler-utils)")
        pytest.skip(f"no {missing} here to print with (apt-get install -y chromium poppler-utils)")
    return browser, pdftoppm


def print_to_pages(html: str, folder: Path) -> list[Path]:
    """The page printed to PDF by headless Chromium (A4, as the stylesheet asks), one PNG per page."""
    browser, pdftoppm = _tools()
    page = folder / "reference.html"
    page.write_text(html, encoding="utf-8")
    pdf = folder / "reference.pdf"
    subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
                    f"--print-to-pdf={pdf}", page.as_uri()], check=True, capture_output=True, timeout=120)
    subprocess.run([pdftoppm, "-r", str(DPI), "-png", str(pdf), str(folder / "page")],
                   check=True, capture_output=True, timeout=120)
    return sorted(folder.glob("page-*.png"))


def test_the_german_reference_prints_on_a4_in_black_with_nothing_off_the_page(tmp_path: Path) -> None:
    from matplotlib.image import imread

    model = load_model("base")
    html = emit_reference(model, notation_section(model, "de"), "de")["reference.de.html"]
    pages = print_to_pages(html.replace("</body>", BAR + "\n</body>"), tmp_path)
    assert 5 <= len(pages) <= 12, len(pages)
    for path in pages:
        pixels = imread(path)[..., :3]
        height, width = pixels.shape[:2]
        assert abs(width / height - 210 / 297) < 0.01, path.name  # A4 upright
        ink = pixels.min(axis=2) < 0.9
        assert ink.any(), path.name
        assert not ink[:, :EDGE].any() and not ink[:, -EDGE:].any(), f"{path.name}: something runs into the margin"
        spread = pixels.max(axis=2) - pixels.min(axis=2)
        assert (spread > 0.25).sum() < 20, f"{path.name}: coloured ink ({(spread > 0.25).sum()} pixels)"
    bar = bar_width(imread(pages[-1])[..., :3])
    assert abs(bar - BAR_PIXELS) <= 3, f"printed at {bar / BAR_PIXELS:.2f} of its size: the content is wider than A4"
