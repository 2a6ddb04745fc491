"""The README as a test: its example ship says what the text claims, and its commands run."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from shipcheck.cli import main
from shipcheck.rules import check
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


COMMANDS = [line.strip() for block in re.findall(r"```sh\n(.*?)```", README, re.S)
            for line in block.splitlines() if line.strip().startswith("shipcheck ")]


def test_the_readme_shows_every_command() -> None:
    shown = {shlex.split(c)[1] for c in COMMANDS}
    assert {"show", "check", "rules", "fix", "stats", "odds", "simulate", "tiles", "cards"} <= shown


@pytest.mark.slow
@pytest.mark.parametrize("command", COMMANDS)
def test_readme_command_runs(command: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                             capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(ROOT)
    args = [a.replace("/tmp/", f"{tmp_path}/") for a in shlex.split(command)[1:]]
    with pytest.raises(SystemExit) as ei:
        main(args)
    out = capsys.readouterr()
    # 0, or 1 where `check` finds the mistakes it is shown on; never a usage error
    assert ei.value.code in (0, 1, None), out.err
    assert "Traceback" not in out.out + out.err


def test_library_snippet_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    block = re.search(r"```python\n(.*?)```", README, re.S)
    assert block
    ns: dict[str, object] = {}
    exec(block.group(1), ns)  # noqa: S102 - the README's own example
    exact, mc = ns["exact"], ns["mc"]
    assert 0 <= exact.p_survive <= 1  # type: ignore[attr-defined]
    lo, hi = mc.p_survive_ci  # type: ignore[attr-defined]
    assert lo <= mc.p_survive <= hi  # type: ignore[attr-defined]
