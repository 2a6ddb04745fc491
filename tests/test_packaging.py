"""Packaging: one version, the licence, type information, schemas and game data in the wheel."""

from __future__ import annotations

import subprocess
import sys
import tomllib
import zipfile
from importlib.metadata import version
from pathlib import Path

import pytest

import shipcheck

ROOT = Path(__file__).resolve().parents[1]


def test_the_version_is_defined_once() -> None:
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in meta["project"] and "version" in meta["project"]["dynamic"]
    assert meta["tool"]["hatch"]["version"]["path"] == "shipcheck/_version.py"
    assert version("shipcheck") == shipcheck.__version__


def test_metadata_for_an_index() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    assert "MIT License" in (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert project["keywords"] and any(c.startswith("Topic ::") for c in project["classifiers"])
    assert "Typing :: Typed" in project["classifiers"]
    assert (ROOT / "CHANGELOG.md").read_text(encoding="utf-8").startswith("# Changelog")


@pytest.mark.slow
def test_the_wheel_holds_licence_types_schemas_and_data(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    (wheel,) = tmp_path.glob("shipcheck-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    assert {"shipcheck/py.typed", "shipcheck/schemas/ship.schema.json", "shipcheck/schemas/board.schema.json",
            "shipcheck/tiles/boards/I.toml", "shipcheck/tiles/catalogue/2007.toml"} <= names
    assert wheel.name.startswith(f"shipcheck-{shipcheck.__version__}-")
    # the workbench works from the plain install: its page is in the wheel, its server a dependency
    static = ROOT / "shipcheck" / "serve" / "static"
    assert {f"shipcheck/serve/static/{f.name}" for f in static.iterdir() if f.is_file()} <= names
    meta = next(n for n in names if n.endswith(".dist-info/METADATA"))
    requires = [ln.split(":", 1)[1].strip() for ln in zipfile.ZipFile(wheel).read(meta).decode().splitlines()
                if ln.startswith("Requires-Dist:")]
    plain = [r for r in requires if "extra ==" not in r]
    assert any(r.startswith("starlette") for r in plain) and any(r.startswith("uvicorn") for r in plain)
