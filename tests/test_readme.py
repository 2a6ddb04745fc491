"""The README's claims: its example ship is what the text says, and it shows every command.

Running its commands and snippets is the documentation test's job (tests/test_docs.py).
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from shipcheck.check.rules import check
from shipcheck.shipfile import parse_ship

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_example_ship_is_what_the_readme_says() -> None:
    block = re.search(r"```toml\n(.*?)```", README, re.S)
    assert block
    claim = re.search(r"legal, with (\d+) exposed connectors", README)
    assert claim
    report = check(parse_ship(block.group(1)))
    assert report.legal and not report.violations
    assert report.exposed_connectors == int(claim.group(1))


COMMANDS = [line.strip() for block in re.findall(r"```sh[^\n]*\n(.*?)```", README, re.S)
            for line in block.splitlines() if line.strip().startswith("shipcheck ")]


def test_the_readme_shows_every_command() -> None:
    shown = {shlex.split(c, comments=True)[1] for c in COMMANDS}
    assert {"show", "check", "rules", "fix", "stats", "odds", "simulate", "tiles", "cards"} <= shown
