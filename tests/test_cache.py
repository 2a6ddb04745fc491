"""The on-disk cache of exact odds: a second run reads it, a damaged entry is recomputed, the key
follows everything the answer depends on, and it can be turned off."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shipcheck.cli import main
from shipcheck.flight import oddscache as cache
from shipcheck.flight.chain import parse_attack
from shipcheck.shipfile import load_ship, parse_ship

ROOT = Path(__file__).resolve().parents[1]
BLUE = str(ROOT / "examples" / "blue-round1.toml")
ARGS = ["odds", BLUE, "--attack", "large-meteor:front", "--format", "json"]


@pytest.fixture(autouse=True)
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SHIPCHECK_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("SHIPCHECK_NO_CACHE", raising=False)
    return tmp_path / "cache"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    with pytest.raises(SystemExit) as ei:
        main(list(args))
    return int(ei.value.code or 0), capsys.readouterr().out


def entries(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.json"))


def test_second_run_reads_the_cache(cache_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, first = run(capsys, *ARGS)
    files = entries(cache_dir)
    assert len(files) == 1
    # doctor the stored answer: the next run prints it, so it was read, not recomputed
    doc = json.loads(files[0].read_text(encoding="utf-8"))
    doc["result"]["p_survive"] = 0.123
    files[0].write_text(json.dumps(doc), encoding="utf-8")
    _, second = run(capsys, *ARGS)
    assert json.loads(second)["p_survive"] == 0.123
    _, fresh = run(capsys, *ARGS, "--no-cache")
    assert fresh == first
    text_code, text = run(capsys, "odds", BLUE, "--attack", "large-meteor:front")
    assert text_code == 0 and "17/36" in text  # the text view of a cached answer keeps the exact fractions


@pytest.mark.parametrize("damage", ["", "{", '{"key": "other", "result": {}}', "[1, 2]"])
def test_a_damaged_entry_is_recomputed(damage: str, cache_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, first = run(capsys, *ARGS)
    (path,) = entries(cache_dir)
    path.write_text(damage, encoding="utf-8")
    _, again = run(capsys, *ARGS)
    assert again == first
    assert json.loads(path.read_text(encoding="utf-8"))["result"]["p_survive"] == json.loads(first)["p_survive"]


@pytest.mark.parametrize("cut", ["result", "fractions", "lost_distribution", "tiles", "policy"])
def test_an_entry_cut_short_under_its_own_key_is_recomputed(cut: str, cache_dir: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    _, first = run(capsys, "odds", BLUE, "--attack", "large-meteor:front")
    (path,) = entries(cache_dir)
    doc = json.loads(path.read_text(encoding="utf-8"))
    if cut == "result":
        doc["result"] = {}
    elif cut == "lost_distribution":
        doc["result"]["fractions"]["lost_distribution"] = {"x": "1/2"}
    else:
        del doc["result"][cut]
    path.write_text(json.dumps(doc), encoding="utf-8")
    code, again = run(capsys, "odds", BLUE, "--attack", "large-meteor:front")
    assert code == 0 and again == first  # the text view: no KeyError, the same answer
    assert json.loads(path.read_text(encoding="utf-8")) != doc  # written anew


def test_the_cache_can_be_turned_off(cache_dir: Path, capsys: pytest.CaptureFixture[str],
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHIPCHECK_NO_CACHE", "1")
    run(capsys, *ARGS)
    assert entries(cache_dir) == []
    monkeypatch.delenv("SHIPCHECK_NO_CACHE")
    run(capsys, *ARGS, "--no-cache")  # computes again, and refreshes the entry
    assert len(entries(cache_dir)) == 1


def test_an_unwritable_cache_is_skipped(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("SHIPCHECK_CACHE_DIR", str(blocker))
    code, out = run(capsys, *ARGS)
    assert code == 0 and json.loads(out)["exact"] is True


def test_the_key_follows_the_question() -> None:
    ship = load_ship(BLUE)
    front, left = [parse_attack("large-meteor:front")], [parse_attack("large-meteor:left")]
    base = cache.odds_key(ship, front, "default")
    assert cache.odds_key(load_ship(BLUE), front, "default") == base  # the same question
    assert cache.odds_key(ship, left, "default") != base
    assert cache.odds_key(ship, front, "optimal") != base
    assert cache.odds_key(ship, front + front, "default") != base
    other = parse_ship(ship.to_toml().replace('name = "Blue, round 1"', 'name = "Blue"'))
    assert cache.odds_key(other, front, "default") != base  # any change to the ship file
    assert cache.code_version().startswith("0.") and "+" in cache.code_version()
