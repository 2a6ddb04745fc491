"""The screenshots of docs/workbench.md: ``python tools/workbench_shots.py [OUT_DIR]``.

Starts ``shipcheck serve`` on a copy of the examples, drives it in Debian's chromium with Playwright
and writes PNGs (default ``docs/images/``): building with a tile in hand (the advisor's ranks), a
rule break and its repair, the exact odds as a heat map, a round against the field, and a phone.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--no-first-run", "--hide-scrollbars"]


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "images"
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for name in ("class-III-half.toml",):
            shutil.copy(ROOT / "examples" / "building" / name, folder / name)
        shutil.copy(ROOT / "examples" / "class-II-freighter.toml", folder / "freighter.toml")
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        proc = subprocess.Popen([sys.executable, "-m", "shipcheck", "serve", "--no-browser"], cwd=folder, env=env,
                                stdout=subprocess.PIPE, text=True, start_new_session=True)
        assert proc.stdout is not None
        url = proc.stdout.readline().strip()
        try:
            shoot(url, out)
        finally:
            proc.send_signal(signal.SIGINT)
            proc.wait(20)


def square(page, label: str):  # type: ignore[no-untyped-def]
    return page.get_by_role("button", name=re.compile(rf"^square {re.escape(label)}: "))


def open_file(page, name: str) -> None:  # type: ignore[no-untyped-def]
    expect(page.locator("#file-list li").first).to_be_attached()
    if not page.locator("#dlg-start[open]").count():
        page.get_by_role("button", name="Open / New").click()
    page.get_by_role("button", name=name, exact=True).click()
    expect(page.locator("#file-path")).to_have_text(name)


def shoot(url: str, out: Path) -> None:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=shutil.which("chromium") or "/usr/bin/chromium", args=FLAGS)
        page = browser.new_page(viewport={"width": 1440, "height": 900})
        page.on("dialog", lambda d: d.accept())  # "discard the changes not saved?"
        page.goto(url)
        page.wait_for_selector("body.ready", state="attached")
        # building: a tile in hand, every legal square coloured by its rank
        open_file(page, "class-III-half.toml")
        page.locator("#kind-filter").select_option("cannon")
        page.get_by_role("button", name=re.compile(r"^take cannon 2007:100[ ,]")).click()
        expect(page.locator("#ranking")).to_contain_text("Ranks by expected credits", timeout=120_000)
        time.sleep(1.7)  # the new ranks' flash over
        page.screenshot(path=str(out / "workbench-build.png"))
        page.keyboard.press("Escape")
        # a rule break, explained, and its minimal repair
        page.locator("#kind-filter").select_option("engine")
        page.get_by_role("button", name=re.compile(r"^take engine 2007:66[ ,]")).click()
        square(page, "9,8").click()  # a single connector under the cabin's double: C2
        expect(page.locator("#verdict")).to_have_text(re.compile("^illegal"))
        expect(page.get_by_role("button", name="Apply the repair")).to_be_visible(timeout=20_000)
        page.screenshot(path=str(out / "workbench-rule-break.png"))
        page.keyboard.press("Control+z")
        # exact odds as a heat map, then a round against the default field
        open_file(page, "freighter.toml")
        page.get_by_role("tab", name="Fly").click()
        page.locator("#atk-kind").select_option("large-meteor")
        page.locator("#atk-from").select_option("front")
        page.get_by_role("button", name="Add", exact=True).first.click()
        page.locator("#atk-kind").select_option("small-meteor")
        page.locator("#atk-from").select_option("left")
        page.get_by_role("button", name="Add", exact=True).first.click()
        page.get_by_role("button", name="Compute the odds").click()
        page.wait_for_selector("#odds-out .big-number")
        page.screenshot(path=str(out / "workbench-odds.png"))
        page.locator("#round-runs").fill("20000")
        page.locator("#round-seed").fill("1")
        page.get_by_role("button", name="Fly rounds").click()
        page.wait_for_selector("#round-out .round-table", timeout=120_000)
        page.set_viewport_size({"width": 1440, "height": 2300})  # the whole pane, unscrolled
        time.sleep(0.3)
        page.locator(".inspector").screenshot(path=str(out / "workbench-round.png"))
        # a phone
        phone = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                                    has_touch=True).new_page()
        phone.goto(url)
        phone.wait_for_selector("body.ready", state="attached")
        open_file(phone, "freighter.toml")
        phone.screenshot(path=str(out / "workbench-phone.png"))
        browser.close()
    for f in sorted(out.glob("workbench-*.png")):
        print(f)


if __name__ == "__main__":
    main()
