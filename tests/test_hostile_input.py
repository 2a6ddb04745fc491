"""Issue 18's hostile input on the newer commands: each gives exit 2 and one clear line per mistake
naming the file (or option), the key and the bad value, never a traceback, a hang or a warning."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
from clikit import run
from hypothesis import given, settings
from hypothesis import strategies as st

from shipcheck.errors import InputError
from shipcheck.round.rulebook import round_rules

ROOT = Path(__file__).resolve().parents[1]
SCOUT = str(ROOT / "examples" / "class-I-scout.toml")
START = str(ROOT / "examples" / "building" / "class-I-start.toml")


def refused(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """stderr of a command that must refuse its input: exit 2, every line a `shipcheck: error:`."""
    code, out, err = run(capsys, *args)
    assert code == 2, (out, err)
    assert "Traceback" not in out + err
    lines = err.strip().splitlines()
    assert lines and all(line.startswith("shipcheck: error: ") for line in lines), err
    return err


# -- rules files -------------------------------------------------------------------------------------
@pytest.mark.parametrize("body, words", [
    ("round = 5", (":2:", "`round` must be a table", "value 5")),
    ("caps = 5", (":2:", "`caps` must be a table", "value 5")),
    ("[caps]\nprovisional = 5", (":3:", "key `caps.provisional`", "value 5", "a table of notes")),
    ("[round.1]\nprovisional = 5", (":3:", "key `round.1.provisional`", "value 5")),
    ('[round.1]\nprovisional = "x"', (":3:", "key `round.1.provisional`", "value 'x'")),
    ("[round.1]\nstart_gaps = [9223372036854775000]", (":3:", "key `round.1.start_gaps`", "integers from 1 to 1000")),
    ("[round.1]\ntrack = 9223372036854775807", (":3:", "key `round.1.track`", "an integer from 2 to 1000")),
    ("[round.1]\ntrack = 10\nstart_gaps = [11]", (":4:", "key `round.1.start_gaps`", "at most the track's 10")),
    ("[round.1]\ntrak = 3", (":3:", "unknown key", "did you mean `track`?")),
    ("[round.3A]\ntrack = 30", (":2:", "unknown round", "key `round.3A`", "did you mean `3a`?")),
    ("[round.1]\narrival = [4.5]", (":3:", "key `round.1.arrival`", "value [4.5]")),
    ("[round.1.provisional]\ntrak = \"x\"", ("a note on an unknown key", "did you mean `track`?")),
    ("[goods]\nred = true\npurple = 3", (":3:", "key `goods.red`", ":4:", "unknown goods colour")),
    ("[caps]\nIII = -1", (":3:", "bad cap", "key `caps.III`", "value -1")),
    ("cards = 5", (":2:", "`cards` must be a table", "value 5")),
    ('[cards]\nepidemic = "adjecent"', (":3:", "bad epidemic rule", "key `cards.epidemic`", "did you mean `adjacent`?")),
    ("[cards]\nmeteors = 1", (":3:", "unknown key in [cards]", "key `cards.meteors`")),
    ("format = 2", (":1:", "unsupported format", "value 2")),
    ("colour = 2", (":2:", "unknown top-level key", "key `colour`")),
    # a level its deck (merged with the packaged one) holds no card of: the file's key, not --deck
    ("[round.1]\nlevel = 3", (":3:", "key `round.1.level`", "value 3", "cards of the round's level 3")),
])
def test_a_bad_rules_file_is_refused_with_file_line_key_and_value(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], body: str, words: tuple[str, ...]) -> None:
    f = tmp_path / "rules.toml"
    f.write_text(("" if body.startswith("format") else "format = 1\n") + body + "\n", encoding="utf-8")
    err = refused(capsys, "simulate", SCOUT, "--round", "1", "--runs", "10", "--seed", "1", "--rules", str(f))
    assert "rules.toml" in err
    for w in words:
        assert w in err, (w, err)


def test_every_mistake_of_a_rules_file_is_reported(tmp_path: Path) -> None:
    f = tmp_path / "rules.toml"
    f.write_text("format = 1\n[goods]\nred = 1.5\n[round.1]\ntrack = 0\nluxury = -2\n", encoding="utf-8")
    with pytest.raises(InputError) as exc:
        round_rules("1", f)
    assert [(e.line, e.key) for e in exc.value.errors] == [(3, "goods.red"), (5, "round.1.track"),
                                                          (6, "round.1.luxury")]


def test_a_good_rules_file_still_overrides_at_the_bounds(tmp_path: Path) -> None:
    f = tmp_path / "rules.toml"
    f.write_text("format = 1\n[round.1]\ntrack = 1000\nstart_gaps = [1000]\narrival = [1000, 0]\n"
                 "[round.1.provisional]\nluxury = \"my note\"\n[goods]\nred = 0\n[caps]\nI = 1000\n", encoding="utf-8")
    rr = round_rules("1", f)
    assert (rr.track, rr.start_gaps, rr.arrival, rr.goods["red"], rr.caps["I"]) == (1000, (1000,), (1000, 0), 0, 1000)
    assert rr.provisional == {"luxury": "my note"}  # track was overridden: no longer provisional


# -- the tile in hand, weights, card ids ----------------------------------------------------------------
@pytest.mark.parametrize("tile", ["battery:1113:cells=²", "battery:1113:cells=" + "9" * 5000,
                                  "battery:1113:cells=٣"])
def test_tile_attributes_take_ascii_digits_only(capsys: pytest.CaptureFixture[str], tile: str) -> None:
    err = refused(capsys, "place", START, tile, "--no-credits", "--no-exact")
    assert "bad `cells` for a battery" in err and "key `TILE`" in err and "expected one of 2, 3" in err


# non-ASCII digits and underscores are numbers to Python's float(), not to a user: refused, as in card ids
@pytest.mark.parametrize("weigh", ["loss=nan", "loss=inf", "exposed=-inf", "loss=1e400", "loss=٣", "loss=1_0",
                                   "loss=３"])
def test_weights_are_finite(capsys: pytest.CaptureFixture[str], weigh: str) -> None:
    err = refused(capsys, "place", START, "cannon:0111", "--no-credits", "--no-exact", "--weigh", weigh)
    assert "bad weight" in err and "--weigh" in err and weigh in err and "finite number" in err


def test_weights_take_plain_numbers() -> None:
    from shipcheck.validate import weights

    assert weights("loss=-1.5e1, exposed=.5,crew=3.", {"loss": 1, "exposed": 1, "crew": 1}) == \
        {"loss": -15.0, "exposed": 0.5, "crew": 3.0}


@pytest.mark.parametrize("cid", ["I-٣", "I-0٣", "２００７:I-03", "I-³"])
def test_card_ids_take_ascii_digits_only(tmp_path: Path, capsys: pytest.CaptureFixture[str], cid: str) -> None:
    err = refused(capsys, "odds", SCOUT, "--card", cid)
    assert "bad card id" in err and "--card" in err
    deck = tmp_path / "deck.toml"
    deck.write_text(f'format = 1\nedition = "2007"\ncards = ["I-03", "{cid}"]\n', encoding="utf-8")
    err = refused(capsys, "simulate", SCOUT, "--round", "1", "--runs", "10", "--seed", "1", "--deck", str(deck))
    assert "deck.toml:3: bad card id; key `cards`" in err and cid in err


# -- output folders ----------------------------------------------------------------------------------
def test_report_out_under_a_file_or_too_long(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    afile = tmp_path / "afile"
    afile.write_text("mine\n", encoding="utf-8")
    base = (SCOUT, "--no-advice", "--runs", "10", "--seed", "1", "--out")
    err = refused(capsys, "report", *base, str(afile / "sub"))
    assert "afile is a file, not a folder" in err
    err = refused(capsys, "report", *base, str(afile))
    assert "the report folder is a file" in err
    err = refused(capsys, "report", *base, str(tmp_path / ("a" * 300)))
    assert "too long (300 bytes)" in err and "at most 255 bytes" in err
    assert afile.read_text(encoding="utf-8") == "mine\n" and sorted(p.name for p in tmp_path.iterdir()) == ["afile"]


# -- patterns --------------------------------------------------------------------------------------------
def test_exclude_patterns_gitignore_cannot_read(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    ships = tmp_path / "ships"
    ships.mkdir()
    (ships / "blue.toml").write_text((ROOT / "examples" / "blue-round1.toml").read_text(encoding="utf-8"),
                                     encoding="utf-8")
    err = refused(capsys, "check", "--exclude", "!", str(ships))
    assert "key `--exclude`; value '!'" in err
    # a file named on the command line is read whatever the patterns say: a bad one is still refused
    err = refused(capsys, "check", "--exclude", "!", str(ships / "blue.toml"))
    assert "key `--exclude`; value '!'" in err
    (ships / ".gitignore").write_text("*.old\n\\\n", encoding="utf-8")
    err = refused(capsys, "check", str(ships))
    assert ".gitignore:2:" in err and "value '\\\\'" in err
    (ships / ".gitignore").unlink()
    (tmp_path / "pyproject.toml").write_text('[tool.shipcheck]\nexclude = ["drafts/", "!"]\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    err = refused(capsys, "check", "ships")
    assert "pyproject.toml:2:" in err and "key `exclude`; value '!'" in err


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet=st.characters(codec="utf-8", exclude_characters="!\\", exclude_categories=("Cs",)),
                        max_size=12), max_size=4))
def test_patterns_without_bang_or_backslash_need_no_pathspec(patterns: list[str]) -> None:
    # bad_pattern answers these without importing pathspec: pathspec reads every one of them
    import pathspec

    from shipcheck.check.walk import bad_pattern

    assert bad_pattern(patterns) is None
    pathspec.GitIgnoreSpec.from_lines(patterns)


# -- boards ----------------------------------------------------------------------------------------------
def test_fix_write_with_a_5000_digit_redirect_roll(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "board.toml").write_text(
        'format = 1\nname = "r"\ncolumns = [1, 2, 3]\nrows = [1, 2]\ncells = ["#S#", "###"]\n'
        f'redirect = {{ front = {{ "{"1" * 5000}" = "left" }} }}\n', encoding="utf-8")
    ship = tmp_path / "ship.toml"
    ship.write_text('format = 1\nboard = "board.toml"\n', encoding="utf-8")
    err = refused(capsys, "fix", str(ship), "--write", str(tmp_path / "out.toml"))
    assert "board.toml:6: bad redirect roll" in err and "a roll 1-12" in err
    assert not (tmp_path / "out.toml").exists()


# -- runs that would run for days, or would not fit ----------------------------------------------------
@pytest.mark.parametrize("args,most", [
    (("simulate", SCOUT, "--round", "1", "--runs", "1000000000000"), "100,000,000"),
    (("report", SCOUT, "--runs", str(10**20), "--no-advice"), "1,000,000"),
    (("place", START, "cannon:0111", "--runs", str(10**17)), "1,000,000"),
    (("simulate", SCOUT, "--card", "I-09", "--runs", "1000000000000"), "10,000,000,000"),
    (("simulate", SCOUT, "--attack", "small-meteor:front", "--runs", "1000000000000"), "10,000,000,000"),
])
def test_huge_runs_are_refused_up_front(tmp_path: Path, capsys: pytest.CaptureFixture[str], args: tuple[str, ...],
                                        most: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # a report would be written here
    err = refused(capsys, *args, "--seed", "1")
    assert "too many runs for one call" in err and "--runs" in err and f"at most {most} runs a call" in err
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("args", [
    # flights through attacks or cards keep counts, not runs: what must fit is one chunk (--batch)
    ("simulate", SCOUT, "--card", "I-09", "--runs", str(10**10), "--batch", str(10**10)),
    ("simulate", SCOUT, "--attack", "small-meteor:front", "--runs", str(10**10), "--batch", str(10**10)),
])
def test_chunks_that_would_not_fit_are_refused_up_front(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                        args: tuple[str, ...]) -> None:
    err = refused(capsys, *args, "--seed", "1")
    assert "would need about" in err and "of memory" in err and "is available" in err and "--batch" in err
    assert "expected at most about" in err


# -- names drawn ----------------------------------------------------------------------------------------
def test_control_characters_and_dollars_in_names_draw_without_warnings(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = Path(SCOUT).read_text(encoding="utf-8")
    ship = tmp_path / "esc.toml"
    ship.write_text("\n".join('name = "Esc\\u001b[31mred $\\\\frac{$ x\\u0007"' if ln.startswith("name =") else ln
                              for ln in text.splitlines()) + "\n", encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # matplotlib's missing-glyph and mathtext warnings fail the test
        code, out, err = run(capsys, "report", str(ship), "--opponent", str(ship), "--no-advice", "--runs", "10",
                             "--seed", "1", "--out", str(tmp_path / "rep"))
    assert code == 0 and err == "", err
    assert "\x1b" not in out and "\x07" not in out and "Esc[31mred $\\frac{$ x" in out
    page = (tmp_path / "rep" / "index.html").read_text(encoding="utf-8")
    assert "\x1b" not in page and "\x07" not in page


# -- what the message says -------------------------------------------------------------------------
@pytest.mark.parametrize("args, says, not_says", [
    (["odds", SCOUT], "give --attack KIND:FROM or --card ID (each repeatable); key", "not both"),
    (["design", "--class", "I", "--time", "nan", "--budget", "2"], "key `--time`; value nan", "key `time`"),
    (["place", START, "cannon:0111", "--weigh", "loss", "--no-credits"], "value 'loss' (expected NAME=X", "None"),
    (["simulate", SCOUT, "--attack", "small-meteor:front", "--deck", "d.toml"], "--deck only goes with --round",
     "only go with"),
])
def test_a_message_names_the_option_and_the_value_as_given(capsys: pytest.CaptureFixture[str], args: list[str],
                                                           says: str, not_says: str) -> None:
    err = refused(capsys, *args)
    assert says in err and not_says not in err, err


def test_a_byte_order_mark_is_named_and_a_long_key_shortened(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    bom = tmp_path / "bom.toml"
    bom.write_bytes(b'\xef\xbb\xbfformat = 1\nclass = "I"\n')
    assert "byte-order mark (U+FEFF)" in refused(capsys, "check", str(bom))
    long = tmp_path / "long.toml"
    long.write_text('format = 1\nclass = "I"\n' + "k" * 100_000 + " = 1\n", encoding="utf-8")
    err = refused(capsys, "check", str(long))
    assert "unknown top-level key" in err and len(err) < 1000
