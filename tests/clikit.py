"""Running the command line inside a test: ``code, out, err = run(capsys, "check", path)``."""

from __future__ import annotations

import pytest

from shipcheck.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """The exit code, stdout and stderr of ``shipcheck ARGS``."""
    with pytest.raises(SystemExit) as ei:
        main(list(args))
    out = capsys.readouterr()
    return int(ei.value.code or 0), out.out, out.err
