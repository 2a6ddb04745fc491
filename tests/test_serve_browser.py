"""The workbench end to end: ``shipcheck serve`` in a process of its own, driven in Debian's chromium
by Playwright (never a downloaded browser). A class I ship is built from an empty board with the
mouse and with the keyboard alone; a rule break appears and goes away; exact odds and a round are
flown; the ship is saved and opened again; a phone-sized window is used. No page may log an error.
Screenshots are kept in ``test-artifacts/workbench/`` (or ``$SHIPCHECK_ARTIFACTS/workbench``)."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = Path(os.environ.get("SHIPCHECK_ARTIFACTS", ROOT / "test-artifacts")) / "workbench"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--no-first-run", "--disable-sync"]

playwright_api = pytest.importorskip("playwright.sync_api", reason="playwright is a test extra: pip install '.[test]'")
expect = playwright_api.expect
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("workbench")
    shutil.copy(ROOT / "examples" / "blue-round1.toml", d / "blue.toml")
    shutil.copy(ROOT / "examples" / "class-III-hauler.toml", d / "hauler.toml")
    shutil.copy(ROOT / "examples" / "building" / "class-I-start.toml", d / "start.toml")
    (d / "fleet").mkdir()
    shutil.copy(ROOT / "examples" / "class-I-scout.toml", d / "fleet" / "scout.toml")
    return d


@pytest.fixture(scope="module")
def server(folder: Path) -> Iterator[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen([sys.executable, "-m", "shipcheck", "serve", "--no-browser", "--port", "0"], cwd=folder,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, start_new_session=True)
    assert proc.stdout is not None
    url = proc.stdout.readline().strip()
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/\?token=[A-Za-z0-9_-]{20,}", url), (url, proc.stderr.read() if
                                                                                      proc.poll() is not None else "")
    try:
        yield url
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            _, err = proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            raise
        assert proc.returncode == 0, err
        assert "Traceback" not in err, err


@pytest.fixture(scope="module")
def browser(chromium: str) -> Iterator[Any]:
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium, args=FLAGS)
        yield b
        b.close()


def _jobs(url: str) -> list[Any]:
    """The jobs the server runs now (GET /api/jobs)."""
    import json

    base, _, token = url.partition("/?token=")
    req = urllib.request.Request(f"{base}/api/jobs", headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(req, timeout=5) as res:
        return list(json.load(res)["jobs"])


def _no_jobs_left(url: str) -> None:
    deadline = time.monotonic() + 10
    while _jobs(url) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _jobs(url) == []


class Page:
    """A page of the workbench, collecting what its console says."""

    def __init__(self, browser: Any, url: str, *, phone: bool = False, size: tuple[int, int] = (1400, 950)) -> None:
        if phone:
            self.context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                                               is_mobile=True, has_touch=True)
        else:
            self.context = browser.new_context(viewport={"width": size[0], "height": size[1]})
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))
        self.page.goto(url)
        self.page.wait_for_selector("body.ready", state="attached", timeout=30_000)

    def square(self, label: str) -> Any:
        return self.page.get_by_role("button", name=re.compile(rf"^square {re.escape(label)}: "))

    def name_of(self, label: str) -> str:
        return str(self.square(label).get_attribute("aria-label"))

    def verdict(self) -> str:
        return str(self.page.locator("#verdict").inner_text())

    def wait_verdict(self, word: str) -> None:
        expect(self.page.locator("#verdict")).to_have_text(re.compile(f"^{word}"), timeout=15_000)

    def tab(self, name: str) -> None:
        self.page.get_by_role("tab", name=name).click()

    def start(self) -> None:
        """The start dialog (open at first when no ship was named)."""
        expect(self.page.locator("#file-list li").first).to_be_attached()
        if not self.page.locator("#dlg-start[open]").count():
            self.page.get_by_role("button", name="Open / New").click()

    def open(self, name: str) -> None:
        self.start()
        self.page.get_by_role("button", name=name, exact=True).click()
        expect(self.page.locator("#file-path")).to_have_text(name)

    def new_ship(self, cls: str = "I") -> None:
        self.start()
        self.page.locator("#new-class").select_option(cls)
        self.page.get_by_role("button", name="Start on an empty board").click()
        expect(self.page.locator("#dlg-start[open]")).to_have_count(0)

    def take(self, tile_id: str) -> None:
        self.page.get_by_role("button", name=re.compile(rf"^take .* {re.escape(tile_id)}[ ,]")).first.click()
        self.page.wait_for_selector("#hand .hand-tile")

    def shot(self, name: str, *, full_page: bool = True) -> Path:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / f"{name}.png"
        self.page.screenshot(path=str(path), full_page=full_page)
        print(f"screenshot: {path}")
        return path

    def close(self) -> None:
        assert self.errors == [], self.errors
        self.context.close()

    def smallest_text(self, selector: str) -> float:
        """The smallest on-screen font size (CSS px) of the SVG text elements ``selector`` finds."""
        return float(self.page.evaluate("""(sel) => {
            let least = Infinity;
            for (const t of document.querySelectorAll(sel)) {
              if (!t.getBoundingClientRect().width) continue;
              least = Math.min(least, parseFloat(getComputedStyle(t).fontSize) * t.ownerSVGElement.getScreenCTM().a);
            }
            return least; }""", selector))

    def board_focus(self) -> None:
        self.page.locator("#board .sq[tabindex='0']").focus()

    def focused(self) -> str:
        return str(self.page.evaluate("document.activeElement.getAttribute('aria-label')"))


def test_build_a_class_I_ship_with_the_mouse(browser: Any, server: str) -> None:
    w = Page(browser, server)
    w.new_ship("I")
    assert "empty start square" not in w.name_of("7,7")  # the pilot cabin stands there already
    assert w.name_of("7,8") == "square 7,8: empty"
    w.take("2007:68")  # an engine: double connector at the front, exhaust at the rear
    expect(w.square("7,8")).to_have_attribute("aria-label", re.compile("legal for the tile in hand, rank 1 of"))
    w.square("7,8").click()
    expect(w.page.locator('[aria-label^="square 7,8: engine"]')).to_have_count(1)
    w.take("2007:90")  # a cannon: barrel at the front, double connector at the rear
    w.square("7,6").click()
    expect(w.page.locator('[aria-label^="square 7,6: cannon"]')).to_have_count(1)
    w.take("2007:45")  # a cabin, universal connector on its left
    w.square("8,7").click()
    expect(w.page.locator('[aria-label^="square 8,7: cabin"]')).to_have_count(1)
    w.wait_verdict("legal")
    assert w.page.locator("#status").inner_text().count("exposed") == 1

    # a rule break appears: an engine turned so that its exhaust points left
    w.take("2007:69")
    w.page.get_by_role("button", name="⟳ Turn (R)").click()
    w.square("6,7").click()
    w.wait_verdict("illegal")
    expect(w.square("6,7")).to_have_attribute("aria-label", re.compile("breaks .*E1"))
    w.tab("Check")
    assert "E1" in w.page.locator("#pane-check").inner_text()
    w.page.get_by_role("button", name="Explain E1").click()
    expect(w.page.locator("#dlg-rule-title")).to_have_text(re.compile("^E1 engine-not-rear"))
    assert w.page.locator("#dlg-rule .mini-board").count() == 2
    w.shot("rule-explained")
    w.page.locator("#dlg-rule").get_by_role("button", name="Close").click()
    w.shot("desktop-rule-break")
    # ... and goes away with the minimal repair, applied with one click
    w.page.get_by_role("button", name="Apply the repair").click()
    w.wait_verdict("legal")
    assert w.name_of("6,7") == "square 6,7: empty"
    # undo brings it back, redo repairs again
    w.page.keyboard.press("Control+z")
    w.wait_verdict("illegal")
    w.page.keyboard.press("Control+y")
    w.wait_verdict("legal")

    # move a tile by dragging it, then set one aside by dragging it to the tray
    w.square("8,7").drag_to(w.square("8,8"))
    expect(w.page.locator('[aria-label^="square 8,8: cabin"]')).to_have_count(1)
    assert w.name_of("8,7") == "square 8,7: empty"
    w.square("8,8").drag_to(w.page.locator("#aside"))
    expect(w.page.locator("#aside-count")).to_have_text("(1)")
    w.page.get_by_role("button", name=re.compile("^take back cabin 2007:45")).click()
    w.square("8,7").click()
    expect(w.page.locator('[aria-label^="square 8,7: cabin"]')).to_have_count(1)
    w.wait_verdict("legal")
    # crew: a purple alien in the cabin needs a purple life support (A1), humans do not
    w.square("8,7").click()
    w.tab("Tile")
    w.page.locator("#pane-tile select[data-field=crew]").select_option("purple")
    w.wait_verdict("illegal")
    expect(w.square("8,7")).to_have_attribute("aria-label", re.compile("crew purple.*breaks A1"))
    w.page.locator("#pane-tile select[data-field=crew]").select_option("humans")
    w.wait_verdict("legal")
    w.shot("desktop-built")
    # download the ship file
    w.page.locator("#ship-name").fill("Mouse-built")
    w.page.locator("#ship-name").press("Enter")
    expect(w.page.locator("#ship-name")).to_have_value("Mouse-built")
    with w.page.expect_download() as dl:
        w.page.get_by_role("button", name="Download").click()
    assert dl.value.suggested_filename == "Mouse-built.toml"
    text = Path(dl.value.path()).read_text(encoding="utf-8")
    assert 'name = "Mouse-built"' in text and text.count("[[tile]]") == 3
    w.close()


def test_build_a_class_I_ship_with_the_keyboard_alone(browser: Any, server: str) -> None:
    w = Page(browser, server)
    w.new_ship("I")
    kb = w.page.keyboard
    # find a tile by its sides, as the catalogue search does: 1000 turned any way
    w.page.locator("#sides-filter").focus()
    kb.type("0100")
    engine = w.page.get_by_role("button", name=re.compile(r"^take engine 2007:66 turned 90°"))
    engine.focus()
    kb.press("Enter")  # in hand, turned 90° as found
    assert w.page.locator("#hand").inner_text().count("turned 90°") == 1
    kb.press("Shift+R")  # back to 0°: exhaust to the rear
    assert "turned" not in w.page.locator("#hand").inner_text()
    focused = w.page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert focused.startswith("square 7,7: ")  # the board has the focus, on the pilot cabin
    kb.press("ArrowDown")
    assert w.page.evaluate("document.activeElement.getAttribute('aria-label')").startswith("square 7,8: empty")
    kb.press("Enter")
    expect(w.page.locator('[aria-label^="square 7,8: engine"]')).to_have_count(1)
    w.wait_verdict("legal")
    # select it with Enter, turn it with R: the exhaust no longer points to the rear
    w.square("7,8").focus()
    kb.press("Enter")
    kb.press("r")
    w.wait_verdict("illegal")
    expect(w.square("7,8")).to_have_attribute("aria-label", re.compile("breaks .*E1"))
    kb.press("Shift+R")
    w.wait_verdict("legal")
    # move it with M and the arrows, then remove it with Delete
    kb.press("m")
    kb.press("ArrowLeft")
    kb.press("Enter")
    expect(w.page.locator('[aria-label^="square 6,8: engine"]')).to_have_count(1)
    assert w.name_of("7,8") == "square 7,8: empty"
    w.square("6,8").focus()
    kb.press("Enter")
    kb.press("Delete")
    expect(w.page.locator('[aria-label="square 6,8: empty"]')).to_have_count(1)
    kb.press("Control+z")
    expect(w.page.locator('[aria-label^="square 6,8: engine"]')).to_have_count(1)
    w.shot("keyboard-built")
    w.close()


def test_exact_odds_as_a_heat_map_and_a_round_with_progress(browser: Any, server: str) -> None:
    w = Page(browser, server)
    w.open("blue.toml")
    w.tab("Fly")
    w.page.locator("#atk-kind").select_option("large-meteor")
    w.page.locator("#atk-from").select_option("front")
    w.page.get_by_role("button", name="Add", exact=True).first.click()
    w.page.get_by_role("button", name="Compute the odds").click()
    w.page.wait_for_selector("#odds-out .big-number")
    assert "survive" in w.page.locator("#odds-out").inner_text()
    assert w.page.locator(".sq.heat").count() > 0
    assert re.search(r"lost \d+%|lost <1%", w.name_of("7,5"))
    w.shot("odds-heat-map")
    # a round against the default field, with a progress bar
    w.page.locator("#round-runs").fill("3000")
    w.page.locator("#round-seed").fill("7")
    w.page.get_by_role("button", name="Fly rounds").click()
    w.page.wait_for_selector("#round-out .round-table", timeout=120_000)
    out = w.page.locator("#round-out").inner_text()
    assert "credits a round" in out and "3,000 rounds, seed 7" in out
    assert "--seed 7 --batch 1024" in out
    assert w.page.locator("#round-out svg.chart").count() >= 2  # the ship's credits beside the field's
    assert w.smallest_text("#round-out svg.chart text") >= 10.95  # histogram labels a player can read
    assert "the field (mean)" in out and "penalty" in out  # where the credits come from, beside the field's
    assert w.page.locator("#round-stage").inner_text().startswith("done")
    w.shot("round")
    # a long run is cancelled from the page
    w.page.locator("#round-runs").fill("200000")
    w.page.get_by_role("button", name="Fly rounds").click()
    expect(w.page.locator("#round-stage")).to_contain_text("rounds", timeout=60_000)
    w.page.get_by_role("button", name="Cancel").click()
    expect(w.page.locator("#round-stage")).to_have_text("cancelled")
    _no_jobs_left(server)
    # ... and so is a run whose page is closed
    w.page.get_by_role("button", name="Fly rounds").click()
    expect(w.page.locator("#round-stage")).to_contain_text("rounds", timeout=60_000)
    assert [j["kind"] for j in _jobs(server)] == ["round"]
    w.close()
    _no_jobs_left(server)


def test_design_completes_a_ship_undoably_and_cancel_keeps_the_best_so_far(browser: Any, server: str) -> None:
    w = Page(browser, server)
    w.open("start.toml")  # the pilot cabin and 6 tiles: its starting ships build in a fraction of a new one's time
    w.wait_verdict("legal")
    w.page.get_by_role("button", name="Design", exact=True).click()
    dlg = w.page.locator("#dlg-design")
    expect(dlg).to_be_visible()
    dlg.get_by_label("complete this ship").check()
    dlg.get_by_label("Budget").fill("30")
    dlg.get_by_label("Seed").fill("3")
    dlg.get_by_role("button", name="Design", exact=True).click()
    expect(w.page.locator("#design-stage")).to_contain_text("candidates", timeout=60_000)
    banner = w.page.locator("#banner")
    expect(banner).to_contain_text("Designed class I", timeout=120_000)
    assert "credits a round" in banner.inner_text() and "--seed 3 --budget 30" in banner.inner_text()
    expect(dlg).to_be_hidden()
    w.wait_verdict("legal")
    assert w.page.locator("#board .sq.filled").count() > 10
    w.shot("design")
    w.page.get_by_role("button", name="Undo").click()  # the ship before: its 7 squares
    expect(w.page.locator("#board .sq.filled")).to_have_count(7)
    # a long design, cancelled once it has a best ship: that ship loads (class IA: another class than
    # the page's, whose starting ships build in half class II's time)
    w.page.get_by_role("button", name="Design", exact=True).click()
    dlg.get_by_label("a new one").check()
    dlg.get_by_label("Class").select_option("IA")
    dlg.get_by_label("Budget").fill("5000")
    dlg.get_by_role("button", name="Design", exact=True).click()
    expect(w.page.locator("#design-stage")).to_contain_text("so far", timeout=120_000)
    w.shot("design-progress", full_page=False)
    dlg.get_by_role("button", name="Cancel").click()
    expect(banner).to_contain_text("cancelled after", timeout=30_000)
    assert "class IA" in w.page.locator("#status").inner_text()
    w.wait_verdict("legal")
    assert w.page.locator("#file-path").inner_text() == "not saved yet"
    _no_jobs_left(server)
    w.close()


def test_save_keeps_the_comments_and_the_file_opens_again(browser: Any, server: str, folder: Path) -> None:
    before = (folder / "blue.toml").read_text(encoding="utf-8")
    w = Page(browser, server)
    w.open("blue.toml")
    w.square("8,6").click()  # the shield: remove it
    w.tab("Tile")
    w.page.get_by_role("button", name="Remove").click()
    expect(w.page.locator('[aria-label="square 8,6: empty"]')).to_have_count(1)
    w.page.get_by_role("button", name="Save", exact=True).click()
    expect(w.page.locator("#dirty")).to_be_hidden()
    after = (folder / "blue.toml").read_text(encoding="utf-8")
    assert after != before and "2007:144" not in after
    assert after.splitlines()[:4] == before.splitlines()[:4]  # the comments at the top are kept
    # save as a new file, then a second time over it: that file was written here, so no question
    w.page.get_by_role("button", name="Save as…").click()
    w.page.locator("#save-path").fill("fleet/blue-copy.toml")
    w.page.locator("#save-go").click()
    expect(w.page.locator("#file-path")).to_have_text("fleet/blue-copy.toml")
    assert (folder / "fleet" / "blue-copy.toml").read_text(encoding="utf-8") == after
    # over a file it did not open, it asks first
    w.page.get_by_role("button", name="Save as…").click()
    w.page.locator("#save-path").fill("fleet/scout.toml")
    w.page.locator("#save-go").click()
    expect(w.page.locator("#dlg-confirm[open]")).to_have_count(1)
    assert "did not open" in w.page.locator("#confirm-msg").inner_text()
    w.page.get_by_role("button", name="Keep it").click()
    assert "Scout" in (folder / "fleet" / "scout.toml").read_text(encoding="utf-8")
    w.close()
    # a fresh page opens the saved file as saved
    w2 = Page(browser, server)
    w2.open("blue.toml")
    assert w2.name_of("8,6") == "square 8,6: empty"
    assert w2.name_of("7,5").startswith("square 7,5: cannon")
    w2.close()


def test_a_phone_sized_window_is_usable(browser: Any, server: str) -> None:
    w = Page(browser, server, phone=True)
    w.new_ship("I")
    width = w.page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], width
    w.take("2007:68")
    w.square("7,8").tap()
    expect(w.page.locator('[aria-label^="square 7,8: engine"]')).to_have_count(1)
    w.wait_verdict("legal")
    box = w.square("7,8").bounding_box()
    assert box is not None and box["width"] >= 30  # big enough to tap
    assert w.smallest_text("#board svg.tile text") >= 10.95  # tile labels a player can read
    assert w.smallest_text("#palette svg.tile text") >= 10.95
    for name in ("Check", "Stats", "Fly"):
        w.tab(name)
    w.shot("phone")
    w.close()


def test_an_ordinary_hold_offers_no_red_goods(browser: Any, server: str) -> None:
    # red goods go in special slots only: an ordinary hold's goods menus leave red out (the server
    # would refuse it), a special hold's offer it
    w = Page(browser, server)
    w.new_ship("I")
    for tile_id, square, red in (("2007:18", "7,8", False), ("2007:58", "7,6", True)):
        w.page.locator("#kind-filter").select_option("special_cargo" if red else "cargo")
        w.take(tile_id)
        w.page.locator('[aria-label*="legal for the tile in hand"]').first.wait_for()
        legal = w.page.locator('[aria-label*="legal for the tile in hand"]')
        labels = [str(legal.nth(k).get_attribute("aria-label")) for k in range(legal.count())]
        target = next((x for x in labels if x.startswith(f"square {square}:")), labels[0])
        spot = target.split(":")[0].removeprefix("square ")
        w.square(spot).click()
        w.square(spot).click()
        w.tab("Tile")
        # the pane is drawn once the server's answer to the clicks is in (later on a busy machine)
        w.page.locator("#pane-tile select[data-good] option").first.wait_for(state="attached")
        options = w.page.locator("#pane-tile select[data-good] option").all_inner_texts()
        assert options and ("red" in options) == red, (tile_id, options)
    w.close()


def test_what_a_player_trips_over_at_1366_by_800(browser: Any, server: str) -> None:
    w = Page(browser, server, size=(1366, 800))
    w.open("hauler.toml")
    # after the start dialog the keyboard is on the board, not the page's body
    assert w.focused().startswith("square ")
    # the Kind filter offers the kinds of the 2007 catalogue only
    kinds = w.page.locator("#kind-filter option").all_inner_texts()
    assert len(kinds) == 13 and kinds[0] == "all 12 kinds" and "plating" not in kinds, kinds
    # text a player reads: at least 11 px on screen
    assert w.smallest_text("#board svg.tile text") >= 10.95
    assert w.smallest_text("#palette svg.tile text") >= 10.95
    # a tile in hand on a new class III ship (the tallest board): highlighted in the tiles, its
    # hand panel above the fold
    w.new_ship("III")
    w.take("2007:50")  # a structural tile, connectors on every side: legal all round the pilot
    taken = w.page.locator("#palette .pal.taken")
    expect(taken).to_have_count(1)
    assert taken.get_attribute("data-id") == "2007:50" and taken.get_attribute("aria-pressed") == "true"
    box = w.page.locator("#hand").bounding_box()
    assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= 800, box
    # which ranking is shown, said; the ranking by credits shown once the pointer is off the board
    expect(w.page.locator("#ranking")).to_contain_text("Ranks by score", timeout=30_000)
    w.page.mouse.move(5, 400)
    expect(w.page.locator("#ranking")).to_contain_text("Ranks by expected credits", timeout=180_000)
    w.shot("hand-1366x800", full_page=False)
    # N takes the keyboard to the best square at this turn, then the next best
    w.board_focus()
    w.page.keyboard.press("n")
    assert re.search(r"rank \d+ of \d+ by credits", w.focused()), w.focused()
    seen = [w.focused()]
    w.page.keyboard.press("n")
    seen.append(w.focused())
    ranks = [int(re.search(r"rank (\d+) of", x)[1]) for x in seen]
    assert seen[0] != seen[1] and ranks[0] <= ranks[1], seen
    best = min(int(re.search(r"rank (\d+) of", str(x.get_attribute("aria-label")))[1])
               for x in w.page.locator('[aria-label*="legal for the tile in hand, rank"]').all())
    assert ranks[0] == best  # the best square at this turn comes first
    # the focus ring is not a rank border's yellow or orange
    ring = w.page.evaluate("[getComputedStyle(document.activeElement).outlineStyle, "
                           "getComputedStyle(document.activeElement).outlineColor]")
    assert ring == ["double", "rgb(31, 36, 48)"], ring
    w.page.keyboard.press("Escape")
    # the odds heat map says which tile is which
    w.open("hauler.toml")
    w.tab("Fly")
    w.page.locator("#atk-kind").select_option("heavy-shot")
    w.page.get_by_role("button", name="Add", exact=True).first.click()
    w.page.locator("#atk-from").select_option("left")
    w.page.get_by_role("button", name="Add", exact=True).first.click()
    w.page.get_by_role("button", name="Compute the odds").click()
    w.page.wait_for_selector("#odds-out .big-number", timeout=60_000)
    rows = w.page.locator(".heat-list li")
    assert rows.count() > 0
    assert re.match(r"^\d+,\d+ \S+.*: (\d+%|<1%|>99%)$", rows.first.inner_text()), rows.first.inner_text()
    w.shot("odds-which-tile", full_page=False)
    w.close()


def test_a_repair_clears_the_selection_of_the_tile_it_removes(browser: Any, server: str) -> None:
    w = Page(browser, server)
    w.new_ship("I")
    w.take("2007:69")
    w.page.get_by_role("button", name="⟳ Turn (R)").click()
    w.square("6,7").click()
    w.wait_verdict("illegal")
    w.square("6,7").click()
    expect(w.page.locator(".sq.selected")).to_have_count(1)
    w.tab("Check")
    w.page.get_by_role("button", name="Apply the repair").click()
    w.wait_verdict("legal")
    expect(w.page.locator(".sq.selected")).to_have_count(0)
    w.close()
