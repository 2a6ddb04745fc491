"""An on-disk cache of exact odds, so the second run of the same question is instant.

An entry is keyed by a hash of everything the answer depends on: the ship (its file text as
shipcheck writes it, and its board), the attacks in order, the policy, and the code that computes
odds (shipcheck's version and a digest of the engine's source files, so any change to the engine
starts a new cache). Each entry is a small JSON file holding its own key; a file that cannot be
read, is cut short or holds another key is treated as missing and replaced, so a damaged cache
costs a recomputation, never a wrong answer. Writes go to a temporary file renamed into place.

Where: ``$SHIPCHECK_CACHE_DIR`` if set, else the user cache folder (``~/.cache/shipcheck`` on
Linux, ``~/Library/Caches/shipcheck`` on macOS, ``%LOCALAPPDATA%\\shipcheck\\Cache`` on Windows).
``SHIPCHECK_NO_CACHE=1`` (or ``shipcheck odds --no-cache``) turns it off.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

from shipcheck.model import Ship

#: the modules that compute odds besides the engine's sources (:func:`shipcheck.runtime.sources`)
_ODDS = ("cards.py", "flight/chain.py", "flight/kernel.py", "model.py", "flight/odds.py", "check/rules.py",
         "shipfile.py")
FORMAT = 1


def cache_dir() -> Path | None:
    """The cache folder, or None when caching is off."""
    if os.environ.get("SHIPCHECK_NO_CACHE", "").strip() not in ("", "0"):
        return None
    env = os.environ.get("SHIPCHECK_CACHE_DIR")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_cache_dir("shipcheck", appauthor=False))


@cache
def code_version() -> str:
    """shipcheck's version and a digest of the source files that compute odds."""
    from shipcheck._version import __version__

    h = hashlib.sha256(__version__.encode())
    from shipcheck.runtime import sources

    package = Path(__file__).resolve().parent.parent
    for path in [package / name for name in _ODDS] + sources():
        try:
            h.update(path.read_bytes())
        except OSError:
            h.update(path.name.encode())
    return f"{__version__}+{h.hexdigest()[:16]}"


def odds_key(ship: Ship, attacks: list[Any], policy: str) -> str:
    """The cache key of an exact-odds question."""
    from shipcheck.shipfile import dump_ship

    board = ship.board.to_dict()
    material = json.dumps({"format": FORMAT, "code": code_version(), "ship": dump_ship(ship), "board": board,
                           "attacks": [str(a) for a in attacks], "policy": policy}, sort_keys=True, default=str)
    return hashlib.sha256(material.encode()).hexdigest()


def _path(folder: Path, key: str) -> Path:
    return folder / "odds" / key[:2] / f"{key}.json"


def load(key: str) -> dict[str, Any] | None:
    """The cached result for ``key``, or None (a miss, caching off, or a damaged entry)."""
    folder = cache_dir()
    if folder is None:
        return None
    p = _path(folder, key)
    try:
        doc = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        _discard(p)
        return None
    if not isinstance(doc, dict) or doc.get("key") != key or not _whole(doc.get("result")):
        _discard(p)
        return None
    return doc["result"]


def _whole(result: Any) -> bool:
    """Whether a result holds everything ``shipcheck odds`` reads of it (an entry edited by hand, or
    written by a version that wrote less, is a miss, never a crash)."""
    from fractions import Fraction

    try:
        f = result["fractions"]
        for v in (f["p_survive"], f["expected_lost"], *f["lost_distribution"].values()):
            Fraction(v)
        for k in f["lost_distribution"]:
            int(k)
        for t in result["tiles"]:
            if not (isinstance(t["at"], (list, dict)) and isinstance(t["p_lost"], (int, float))):
                return False
        if result["policy"] == "optimal":
            base = result["default_policy"]
            float(base["p_survive"]) + float(base["expected_lost"])
            for d in result["differences"]:
                int(d["attack"]) + float(d["probability"])
                str(d["attack_kind"]) + str(d["roll"]) + str(d["default"]) + str(d["optimal"])
        return result["policy"] in ("default", "optimal")
    except (KeyError, TypeError, ValueError, AttributeError, ZeroDivisionError):
        return False


def store(key: str, result: dict[str, Any]) -> None:
    """Save a result (best effort: a cache that cannot be written is skipped silently)."""
    folder = cache_dir()
    if folder is None:
        return
    p = _path(folder, key)
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=p.parent, delete=False, suffix=".tmp") as f:
            json.dump({"key": key, "result": result}, f)
            tmp = f.name
        os.replace(tmp, p)
    except OSError:
        return


def _discard(p: Path) -> None:
    try:
        p.unlink()
    except OSError:
        pass
