"""docs/placement.md runs as written from the repository root: its shell commands and its Python."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from shipcheck.cli import main

ROOT = Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs" / "placement.md").read_text(encoding="utf-8")
COMMANDS = [line.strip() for block in re.findall(r"```sh\n(.*?)```", DOC, re.S) for line in block.splitlines()
            if line.strip()]


@pytest.mark.slow
@pytest.mark.parametrize("command", COMMANDS)
def test_doc_command_runs(command: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(ROOT)
    argv = shlex.split(command)
    if argv[0] == "python":
        subprocess.run([sys.executable, *argv[1:]], check=True, cwd=ROOT, capture_output=True)
        return
    assert argv[0] == "shipcheck"
    with pytest.raises(SystemExit) as exc:
        main(argv[1:])
    assert exc.value.code in (0, None), capsys.readouterr().err


@pytest.mark.slow
def test_doc_python_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    for block in re.findall(r"```python\n(.*?)```", DOC, re.S):
        exec(compile(block, "docs/placement.md", "exec"), {})
