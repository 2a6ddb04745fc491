"""Hostile input and careful output: sizes, special files, library arguments, names from files,
several files at once, seeds a script can hold, and safe writes of `fix --write`.

Single malformed files with their expected messages live in ``tests/malformed/``.
"""

from __future__ import annotations

import json
import os
import socket
import stat
import sys
from pathlib import Path

import pytest
from clikit import run
from shipbuild import COMMENTED

from shipcheck.cards import Attack, find_card, load_cards
from shipcheck.check.fix import fix
from shipcheck.check.rules import check
from shipcheck.errors import InputError, UnknownNameError, short_repr
from shipcheck.flight.montecarlo import simulate
from shipcheck.flight.odds import odds
from shipcheck.flight.stats import stats
from shipcheck.runtime import workers as parallel
from shipcheck.shipfile import MAX_TILES, catalogue, edit_ship_text, load_ship, parse_ship, save_text
from shipcheck.topology import BOARD_BYTES, builtin_board, load_board

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
BLUE = EXAMPLES / "blue-round1.toml"
LONE = 'format = 1\nclass = "I"\n'


# -- sizes and special files -----------------------------------------------------------------------
def test_too_many_tiles_are_refused() -> None:
    text = LONE + "".join('[[tile]]\nat = [7, 7]\nkind = "cabin"\nsides = "1111"\n' for _ in range(MAX_TILES + 1))
    with pytest.raises(InputError, match=f"at most {MAX_TILES}"):
        parse_ship(text)


def test_a_board_file_past_the_size_limit_is_not_read(tmp_path: Path) -> None:
    board = tmp_path / "big.toml"
    board.write_text('format = 1\nname = "b"\n' + "# padding\n" * (BOARD_BYTES // 10 + 1), encoding="utf-8")
    ship = tmp_path / "ship.toml"
    ship.write_text('format = 1\nboard = "big.toml"\n', encoding="utf-8")
    with pytest.raises(InputError, match="too large") as ei:
        load_ship(ship)
    assert ei.value.key == "board"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_is_refused_without_blocking(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fifo = tmp_path / "board.toml"
    os.mkfifo(fifo)
    ship = tmp_path / "ship.toml"
    ship.write_text('format = 1\nboard = "board.toml"\n', encoding="utf-8")
    with pytest.raises(InputError, match="not a regular file"):
        load_ship(ship)
    code, _, err = run(capsys, "check", str(fifo))  # a FIFO named as the ship itself
    assert code == 2 and "not a regular file" in err


def test_nul_bytes_in_paths() -> None:
    with pytest.raises(InputError, match="NUL byte"):
        load_ship("examples/blue\x00.toml")
    with pytest.raises(InputError, match="NUL byte"):
        load_board("tiles/boards/I.toml\x00")


def test_long_values_are_cut_in_every_message() -> None:
    for value in ("x" * 10_000, list(range(10_000)), {str(i): i for i in range(1000)}, 10**4000, [[[[[[1]]]]]]):
        text = InputError("bad", file="f.toml", key="k", value=value, expected="e").text
        assert len(text) < 200, text
    assert short_repr(int("9" * 4300)) == "<an integer of about 4300 digits>"


def test_messages_strip_control_characters() -> None:
    err = InputError("bad", file="f.toml", key="name", value="\x1b]0;pwned\x07\u202eevil")
    assert "\x1b" not in err.text and "\x07" not in err.text and "\u202e" not in err.text


# -- the library's arguments -----------------------------------------------------------------------
@pytest.fixture(scope="module")
def ship() -> object:
    return load_ship(BLUE)


def test_check_rejects_unknown_rule_codes(ship: object) -> None:
    with pytest.raises(InputError) as ei:
        check(ship, select={"ZZ"})  # type: ignore[arg-type]
    assert ei.value.key == "select" and "--" not in str(ei.value)
    with pytest.raises(InputError, match="did you mean `C1`"):
        check(ship, ignore={"C11"})  # type: ignore[arg-type]
    assert check(ship, select={"c1"}).legal  # type: ignore[arg-type]  # codes in any case


@pytest.mark.parametrize("call", [
    lambda s: check("not a ship"),
    lambda s: fix(None),  # type: ignore[arg-type]
    lambda s: stats(42),  # type: ignore[arg-type]
    lambda s: odds("ship", ["small-meteor:front"]),  # type: ignore[arg-type]
    lambda s: odds(s, 5),
    lambda s: odds(s, ["tiny-meteor:front"]),
    lambda s: odds(s, ["small-meteor:front"], policy="optimall"),
    lambda s: odds(s, ["small-meteor:front"], policy=3),
    lambda s: simulate(s, [None], runs=10, seed=1),
    lambda s: simulate(s, ["small-meteor:front"], runs="many", seed=1),
    lambda s: simulate(s, ["small-meteor:front"], runs=10, seed=-1),
    lambda s: simulate(s, ["small-meteor:front"], runs=10, seed=1, scheduler="bogus"),
    lambda s: simulate(s, ["small-meteor:front"], runs=10, seed=1, policy=object()),
    lambda s: simulate(s, ["small-meteor:front"], runs=10, seed=1, progress=3),
    lambda s: parse_ship(b"format = 1"),  # type: ignore[arg-type]
    lambda s: load_ship(123),  # type: ignore[arg-type]
    lambda s: Attack("tiny", "front"),
    lambda s: Attack.parse(7),  # type: ignore[arg-type]
], ids=lambda c: "call")
def test_bad_arguments_raise_input_error_naming_the_argument(ship: object, call: object) -> None:
    with pytest.raises(InputError) as ei:
        call(ship)  # type: ignore[operator]
    assert "--" not in str(ei.value)  # names the argument, not a command-line option
    assert ei.value.file is None


def test_look_ups_raise_unknown_name_errors_that_are_key_errors() -> None:
    for call, hint in [(lambda: builtin_board("IIII"), "III"), (lambda: builtin_board(["I"]), None),
                       (lambda: catalogue("2008"), "2007"), (lambda: load_cards("2020"), None),
                       (lambda: find_card("Z-99"), None), (lambda: find_card("I-99"), None),
                       (lambda: find_card(9), None)]:
        with pytest.raises(UnknownNameError) as ei:
            call()
        assert isinstance(ei.value, KeyError) and isinstance(ei.value, InputError)
        if hint:
            assert ei.value.hint == hint


def test_policy_hint(ship: object) -> None:
    with pytest.raises(InputError, match="did you mean `optimal`"):
        odds(ship, ["small-meteor:front"], policy="optimall")  # type: ignore[arg-type]


# -- the command line ------------------------------------------------------------------------------
def test_names_from_files_are_cleaned_in_text_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "evil.toml"
    p.write_text(LONE + 'name = "\\u001b]0;pwned\\u0007\\u001b[2Jnice \\u202eeman"\n', encoding="utf-8")
    for cmd in ("check", "show", "stats"):
        code, out, _ = run(capsys, cmd, str(p))
        assert code == 0
        assert "\x1b" not in out and "\x07" not in out and "\u202e" not in out
        assert "nice" in out
    code, out, _ = run(capsys, "check", str(p), "--format", "json")
    assert json.loads(out)["ship"] == str(p)  # JSON keeps data as it is (escaped)


def test_one_bad_file_never_hides_the_good_ones(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deep = tmp_path / "deep.toml"
    deep.write_text(LONE + "[meta]\nx = " + "[" * 3000 + "]" * 3000 + "\n", encoding="utf-8")
    kind = tmp_path / "kind.toml"
    kind.write_text(LONE + '[[aside]]\nkind = ["cabin"]\nsides = "1111"\n', encoding="utf-8")
    code, out, err = run(capsys, "check", str(BLUE), str(deep), str(kind), str(EXAMPLES / "class-I-scout.toml"),
                         "--format", "json")
    assert code == 2
    assert [r["ship"] for r in json.loads(out)] == [str(BLUE), str(EXAMPLES / "class-I-scout.toml")]
    assert "deep.toml" in err and "kind.toml" in err and "Traceback" not in err


def test_all_errors_of_a_file_in_one_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "many.toml"
    p.write_text(LONE + '\n[[tile]]\nat = [8, 7]\nkind = "cabn"\nsides = "1111"\n'
                 '\n[[tile]]\nat = [6, 7]\nkind = "cargo"\nsides = "1111"\nslot = 2\n'
                 '\n[[tile]]\nat = [99, 7]\nkind = "engine"\nsides = "1000"\ncrew = "humans"\n', encoding="utf-8")
    with pytest.raises(InputError) as ei:
        load_ship(p)
    errs = ei.value.errors
    assert [(e.line, e.key) for e in errs] == [(6, "kind"), (9, "slots"), (13, "slot"), (16, "at"), (19, "crew")]
    assert errs[0].hint == "cabin" and errs[2].hint == "slots"
    assert "and 4 more errors" in str(ei.value)
    code, _, err = run(capsys, "check", str(p))
    assert code == 2 and len(err.strip().splitlines()) == 5


@pytest.mark.parametrize("args,needle", [
    (["--seed", "-1"], "--seed"),
    (["--scheduler", "bogus"], "--scheduler"),
    (["--scheduler", "http://localhost:8786"], "--scheduler"),
    (["--runs", str(10**10), "--batch", str(10**10)], "--batch"),  # a chunk that cannot fit (counts stream)
])
def test_simulate_options_are_checked(capsys: pytest.CaptureFixture[str], args: list[str], needle: str) -> None:
    code, out, err = run(capsys, "simulate", str(BLUE), "--attack", "small-meteor:front", *args)
    assert code == 2 and out == ""
    assert needle in err and "Traceback" not in err


def test_unreachable_scheduler_fails_fast(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("distributed")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setattr(parallel, "CONNECT_TIMEOUT", 1.0)
    code, _, err = run(capsys, "simulate", str(BLUE), "--attack", "small-meteor:front", "--runs", "100",
                       "--scheduler", f"tcp://127.0.0.1:{port}")
    assert code == 2 and "cannot reach the Dask scheduler" in err and "--scheduler" in err


def test_default_seed_fits_a_json_number(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", str(BLUE), "--attack", "small-meteor:front", "--runs", "100",
                       "--format", "json")
    assert code == 0
    seed = json.loads(out)["seed"]
    assert isinstance(seed, int) and 0 <= seed < 2**53
    code, again, _ = run(capsys, "simulate", str(BLUE), "--attack", "small-meteor:front", "--runs", "100",
                         "--format", "json", "--seed", str(seed))
    assert json.loads(again)["p_survive"] == json.loads(out)["p_survive"]


# -- fix --write -----------------------------------------------------------------------------------


def test_fix_write_keeps_comments_and_key_order(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "ship.toml"
    src.write_text(COMMENTED, encoding="utf-8")
    out = tmp_path / "fixed.toml"
    code, text, err = run(capsys, "fix", str(src), "--write", str(out))
    assert code == 0, err
    removed_block = '[[tile]]\nat = [8, 7]\nkind = "cargo"\nsides = "0000"         # smooth all round: it falls off\n' \
                    'slots = 2\n\n'
    assert out.read_text(encoding="utf-8") == COMMENTED.replace(removed_block, "")
    assert check(load_ship(out)).legal
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary file left


def test_edit_falls_back_to_a_full_rewrite_when_the_layout_defeats_it(tmp_path: Path) -> None:
    # tiles as an array of inline tables: still edited in place
    text = LONE + 'tile = [{ at = [7, 7], kind = "start_cabin", sides = "3333" },  # the pilot\n' \
                  '        { at = [9, 9], kind = "structural", sides = "1111" }]\n'
    s = parse_ship(text)
    gone = {t.at for t in s.tiles if t.kind == "structural"}
    edited = edit_ship_text(text, s, gone, base_dir=tmp_path)
    assert "# the pilot" in edited and "structural" not in edited
    assert parse_ship(edited) == s.without(gone)


def test_fix_write_refuses_a_symlink_and_replaces_it_only_with_force(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    precious = tmp_path / "precious.txt"
    precious.write_text("do not touch\n", encoding="utf-8")
    link = tmp_path / "out.toml"
    link.symlink_to(precious)
    code, _, err = run(capsys, "fix", str(BLUE), "--write", str(link))
    assert code == 2 and "exists" in err
    dangling = tmp_path / "dangling.toml"
    dangling.symlink_to(tmp_path / "nowhere.toml")
    code, _, err = run(capsys, "fix", str(BLUE), "--write", str(dangling))
    assert code == 2 and "exists" in err and not (tmp_path / "nowhere.toml").exists()
    code, _, _ = run(capsys, "fix", str(BLUE), "--write", str(link), "--force")
    assert code == 0
    assert precious.read_text(encoding="utf-8") == "do not touch\n"  # never written through the link
    assert not link.is_symlink() and load_ship(link).tiles == load_ship(BLUE).tiles


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes")
def test_force_never_replaces_a_device_or_a_pipe(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    code, _, err = run(capsys, "fix", str(BLUE), "--write", str(fifo), "--force")
    assert code == 2 and "not a regular file" in err, err
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)  # still the pipe (as /dev/null stays a device, even as root)
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_save_never_replaces_a_file_that_appears_meanwhile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "out.toml"
    target.write_text("theirs\n", encoding="utf-8")
    # the early check has passed (the file was not there yet); the write itself must still refuse
    monkeypatch.setattr("shipcheck.shipfile.os.path.lexists", lambda p: False)
    with pytest.raises(InputError, match="appeared while"):
        save_text(target, "mine\n")
    assert target.read_text(encoding="utf-8") == "theirs\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.toml"]


def test_save_is_atomic(tmp_path: Path) -> None:
    target = tmp_path / "out.toml"
    target.write_text("old and whole\n", encoding="utf-8")
    with pytest.raises(InputError, match="cannot write"):
        save_text(target, "half written \ud800 never", overwrite=True)  # fails in the middle of writing
    assert target.read_text(encoding="utf-8") == "old and whole\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.toml"]
    save_text(target, "new\n", overwrite=True)
    assert target.read_text(encoding="utf-8") == "new\n"
    with pytest.raises(InputError, match="cannot write there"):
        save_text(tmp_path / "no-such-folder" / "x.toml", "x")
    with pytest.raises(InputError, match="a folder"):
        save_text(tmp_path, "x", overwrite=True)


def test_fix_write_of_a_deeply_nested_meta_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "deep.toml"
    src.write_text(LONE + "[" + ".".join(["meta"] + ["a"] * 1200) + "]\nx = 1\n", encoding="utf-8")
    out = tmp_path / "fixed.toml"
    code, text, err = run(capsys, "fix", str(src), "--write", str(out))
    assert code == 2 and text == "" and "nested more than" in err
    assert not out.exists()


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")
def test_saved_files_get_ordinary_permissions(tmp_path: Path) -> None:
    target = tmp_path / "new.toml"
    save_text(target, "x\n")
    mask = os.umask(0)
    os.umask(mask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~mask


# -- the round engine's files --------------------------------------------------------------------
@pytest.mark.parametrize("option", ["--deck", "--rules"])
def test_round_files_are_read_safely(tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str) -> None:
    latin1 = tmp_path / "latin1.toml"
    latin1.write_bytes(b'format = 1\nnote = "caf\xe9"\n')
    huge = tmp_path / "huge.toml"
    huge.write_text("format = 1\nx = " + "9" * 5000 + "\n", encoding="utf-8")
    for bad, needle in [(latin1, "not UTF-8"), (huge, "number too long"), (tmp_path, "a folder")]:
        code, out, err = run(capsys, "simulate", str(EXAMPLES / "class-I-scout.toml"), "--round", "1", "--runs", "10",
                             option, str(bad))
        assert code == 2 and out == "" and needle in err and "Traceback" not in err


def test_round_arguments_raise_input_errors() -> None:
    from shipcheck.round import simulate_round

    for kw in ({"deck": 5}, {"progress": 3}):
        with pytest.raises(InputError):
            simulate_round(load_ship(EXAMPLES / "class-I-scout.toml"), round=1, runs=10, seed=1, **kw)
    with pytest.raises(InputError):
        simulate_round(3.5, round=1, runs=10, seed=1)  # type: ignore[arg-type]
