"""Where the packaged game data lives."""

from __future__ import annotations

import functools
from pathlib import Path

_HERE = Path(__file__).resolve().parent


@functools.cache
def data_root() -> Path:
    """The game-data folder: ``shipcheck/tiles`` in a wheel, ``tiles/`` in a checkout (looked up
    once a process)."""
    for cand in (_HERE / "tiles", _HERE.parent / "tiles"):
        if (cand / "boards").is_dir():
            return cand
    raise FileNotFoundError("shipcheck game data (tiles/) not found")


def data_path(*parts: str) -> Path:
    """A file under the game-data folder."""
    return data_root().joinpath(*parts)
