"""The report page in a real headless Chromium: every image loads, no script error, no request
leaves the machine, and the page fits a phone's width. On a 390-pixel phone every figure's text is
at least 11 CSS pixels high, measured in the browser, and every table wider than the screen says
that it scrolls. A full-page screenshot is kept in ``test-artifacts/`` (gitignored) for a person to
look at."""

from __future__ import annotations

import os
from collections.abc import Iterator
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


# Each figure the page shows (the <picture>'s choice: currentSrc), drawn inline at the size it is shown,
# and for every text of it the font size on screen: matplotlib writes a text as glyph outlines in a
# group scaled by (font size / 100), so 100 x the group's scale on screen (getScreenCTM: the figure's
# own scale to the shown width included) is the text's size in CSS pixels.
TEXT_SIZES = """JSON.stringify(Array.from(document.images).map(img => {
  const r = img.getBoundingClientRect();
  const src = img.currentSrc || img.src;
  const bytes = Uint8Array.from(atob(src.slice(src.indexOf(',') + 1)), c => c.charCodeAt(0));
  const svg = document.importNode(new DOMParser().parseFromString(new TextDecoder().decode(bytes),
                                                                  'image/svg+xml').documentElement, true);
  svg.setAttribute('width', r.width); svg.setAttribute('height', r.height);
  const host = document.createElement('div');
  host.style.cssText = 'position:absolute;left:0;top:0;';
  host.appendChild(svg); document.body.appendChild(host);
  const texts = Array.from(svg.querySelectorAll('g[id^="text_"]')).map(t => {
    const glyphs = t.querySelector('g[transform*="scale"]');
    if (!glyphs) return null;
    const m = glyphs.getScreenCTM();
    const note = Array.from(t.childNodes).find(n => n.nodeType === 8);
    return {px: 100 * Math.hypot(m.a, m.b), text: note ? note.nodeValue.trim() : ''};
  }).filter(t => t && t.text);
  host.remove();
  return {figure: img.dataset.figure, phone: src !== img.src, shown: r.width, texts};
}))"""

# tables wider than their box, and whether each says so: the swipe line above it, and the shadow
SCROLLING = """JSON.stringify(Array.from(document.querySelectorAll('.scroll')).map(e => ({
  overflows: e.scrollWidth > e.clientWidth + 1,
  hint: !!e.previousElementSibling && e.previousElementSibling.classList.contains('swipe')
        && getComputedStyle(e.previousElementSibling).display !== 'none',
  shadow: getComputedStyle(e).backgroundImage.includes('radial-gradient'),
})))"""


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("reports")
    # every kind of figure: the default field (against the field), the search for changes, an illegal ship
    one = shipcheck.report(ROOT / "examples" / "blue-round1.toml", runs=40, seed=1)
    two = shipcheck.report(ROOT / "examples" / "blue-round1.toml", ROOT / "examples" / "mistakes" / "cannon-blocked.toml",
                           runs=40, seed=1, recommendations=False)
    # a half-built class III ship: additions from the pile, the widest board of the examples
    half = shipcheck.report(ROOT / "examples" / "building" / "class-III-half.toml", runs=40, seed=1)
    pages = {}
    for k, rep in (("one", one), ("two", two), ("half", half)):  # the page alone: its figures are inline
        (out / k).mkdir()
        pages[k] = out / k / "index.html"
        pages[k].write_text(rep.html(), encoding="utf-8")
    return pages


@pytest.fixture(scope="module")
def browser(chromium: str) -> Iterator[Browser]:
    """One Chromium for the module; each test opens its own tab (a page's errors and requests are
    its tab's own)."""
    with Browser(chromium) as b:
        yield b


@pytest.mark.parametrize("which", ["one", "two", "half"])
@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_report_page_in_chromium(browser: Browser, pages: dict[str, Path], which: str, device: str) -> None:
    import json

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


@pytest.mark.parametrize("which", ["one", "two", "half"])
def test_figure_text_and_wide_tables_on_a_phone(browser: Browser, pages: dict[str, Path], which: str) -> None:
    import json

    page = browser.page(**PHONE)
    page.goto(pages[which].as_uri())
    tables = json.loads(page.evaluate(SCROLLING))
    figures = json.loads(page.evaluate(TEXT_SIZES))
    assert figures and all(f["phone"] for f in figures), "a phone gets the phone's figures"
    keys = {f["figure"].removeprefix("a-").removeprefix("b-") for f in figures}
    assert {"ship", "credits", "cards", "heat-all"} <= keys
    smallest = {f["figure"]: min(f["texts"], key=lambda t: t["px"]) for f in figures}
    (ARTIFACTS / f"report-{which}-phone-text.json").write_text(json.dumps(smallest, indent=1))
    small = {k: t for k, t in smallest.items() if t["px"] < 11}
    assert not small, small
    # the ship drawing's tile labels and the changes' words are among the texts measured
    ship_texts = {t["text"] for f in figures if f["figure"].endswith("ship") for t in f["texts"]}
    assert {"PIL", "CAB"} <= ship_texts
    if which != "two":
        changes = next(f for f in figures if f["figure"] == "changes")
        assert any(t["text"].startswith(("swap", "add", "move", "rotate", "turn", "remove", "fly"))
                   for t in changes["texts"])
    # a wide table (the meteor swarms') says that it scrolls
    wide = [t for t in tables if t["overflows"]]
    assert wide and all(t["hint"] and t["shadow"] for t in wide), tables
    assert not [t for t in tables if t["hint"] and not t["overflows"]], tables  # and no false alarm
