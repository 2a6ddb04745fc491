"""The report page in a real headless Chromium: every image loads, no script error, no request
leaves the machine, and the page fits a phone's width. A full-page screenshot is kept in
``test-artifacts/`` (gitignored) for a person to look at."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from cdp import Browser

import shipcheck.report

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = Path(os.environ.get("SHIPCHECK_ARTIFACTS", ROOT / "test-artifacts"))
PHONE = {"width": 390, "height": 844, "scale": 2.0, "mobile": True}
DESKTOP = {"width": 1280, "height": 900, "scale": 1.0, "mobile": False}

CHECK = """JSON.stringify({
  images: Array.from(document.images).map(i => ({src: i.src.slice(0, 30), ok: i.complete && i.naturalWidth > 0,
                                                  shown: i.getBoundingClientRect().width})),
  scrollWidth: document.documentElement.scrollWidth,
  innerWidth: window.innerWidth,
  wide: Array.from(document.querySelectorAll('body *')).filter(e => {
          const r = e.getBoundingClientRect(); return r.right > window.innerWidth + 1 && !e.closest('.scroll');
        }).map(e => e.tagName + '.' + e.className).slice(0, 5),
  scripts: document.scripts.length,
})"""


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("reports")
    # every kind of figure: the default field (against the field), the search for changes, an illegal ship
    one = shipcheck.report(ROOT / "examples" / "blue-round1.toml", runs=40, seed=1)
    two = shipcheck.report(ROOT / "examples" / "blue-round1.toml", ROOT / "examples" / "mistakes" / "cannon-blocked.toml",
                           runs=40, seed=1, recommendations=False)
    one.write(out / "one")
    two.write(out / "two")
    return {"one": out / "one" / "index.html", "two": out / "two" / "index.html"}


@pytest.mark.parametrize("which", ["one", "two"])
@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_report_page_in_chromium(chromium: str, pages: dict[str, Path], which: str, device: str) -> None:
    import json

    with Browser(chromium) as browser:
        page = browser.page(**(PHONE if device == "phone" else DESKTOP))
        page.goto(pages[which].as_uri())
        facts = json.loads(page.evaluate(CHECK))
        shot = page.screenshot()
        errors = page.errors()
        requested = page.requested()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / f"report-{which}-{device}.png").write_bytes(shot)
    assert facts["images"], "the page shows no figure"
    assert all(i["ok"] for i in facts["images"]), [i for i in facts["images"] if not i["ok"]]
    assert all(i["shown"] > 100 for i in facts["images"])
    assert errors == []
    assert facts["scripts"] == 0
    assert all(u.startswith(("file:", "data:")) for u in requested), requested
    assert facts["scrollWidth"] <= facts["innerWidth"], facts["wide"]
    assert shot.startswith(b"\x89PNG")
