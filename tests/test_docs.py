"""The documentation as a test: every shell command and Python snippet in the README, CONTRIBUTING.md
and docs/ runs as written, from the repository root.

How a page marks its code blocks (the info string after the opening fence; see CONTRIBUTING.md):

- ```` ```sh ```` (or ``bash``, ``shell``): every command runs and must exit 0; a line ending in
  ``# exit N`` must exit N, and ``exit=N`` in the info string sets it for the whole block.
- ```` ```python ````: the snippets of a page run in order in one namespace, like a notebook.
- ```` ```toml ````: a block with ``format = 1`` must load as a ship file (or a board file when it
  has ``cells``).
- ``no-run`` (``no-check`` for TOML) shows a block without running it; ``slow`` runs it in the
  slow tests only. Keep both rare.

Commands run in a scratch folder that mirrors the repository root (its entries are symlinked), so a
page can write ``my-ship.toml`` and check it in its next block without touching the checkout;
``/tmp/`` in a command is the scratch folder's own ``tmp/``. ``shipcheck ...`` commands without
shell syntax run in-process (fast), once per test run for a command and the scratch files it may
read (a page repeating another's, in any test process, reuses its exit, output and files); the rest run
under bash with the test's Python first on PATH.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from shipcheck.cli import main
from shipcheck.shipfile import parse_ship
from shipcheck.topology import parse_board

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted([ROOT / "README.md", ROOT / "CONTRIBUTING.md", *(ROOT / "docs").rglob("*.md")])
PAGES = [p for p in PAGES if p.is_file()]
SHELL = {"sh", "bash", "shell"}
FENCE = re.compile(r"^(?P<fence>```+)(?P<info>[^\n`]*)\n(?P<body>.*?)^(?P=fence)\s*$", re.M | re.S)
EXIT_COMMENT = re.compile(r"\s#\s*exits?\s+(\d+)\b[^\n]*$")
SHELL_SYNTAX = re.compile(r"[|<>;&$`*(){}]")


@dataclass(frozen=True)
class Block:
    page: Path
    line: int
    lang: str
    flags: frozenset[str]
    body: str

    @property
    def where(self) -> str:
        name = self.page.relative_to(ROOT) if self.page.is_relative_to(ROOT) else self.page.name
        return f"{name}:{self.line}"

    def flag_value(self, name: str) -> str | None:
        for f in self.flags:
            if f.startswith(name + "="):
                return f.split("=", 1)[1]
        return None


def blocks(page: Path) -> list[Block]:
    text = page.read_text(encoding="utf-8")
    out = []
    for m in FENCE.finditer(text):
        words = m.group("info").split()
        if not words:
            continue
        line = text.count("\n", 0, m.start()) + 1
        out.append(Block(page, line, words[0].lower(), frozenset(words[1:]), m.group("body")))
    return out


def commands(block: Block) -> list[tuple[str, int]]:
    """Logical command lines (backslash continuations joined) and the exit code each must give."""
    default = int(block.flag_value("exit") or 0)
    out: list[tuple[str, int]] = []
    pending = ""
    for raw in block.body.splitlines():
        line = pending + raw.strip()
        if line.endswith("\\"):
            pending = line[:-1].rstrip() + " "
            continue
        pending = ""
        if not line or line.startswith("#"):
            continue
        m = EXIT_COMMENT.search(line)
        out.append((line, int(m.group(1)) if m else default))
    return out


def scratch(tmp_path: Path) -> Path:
    """A folder whose entries link to the repository root's, with a tmp/ of its own."""
    for entry in ROOT.iterdir():
        if entry.name.startswith(".") or entry.name in ("build", "dist"):
            continue
        (tmp_path / entry.name).symlink_to(entry)
    (tmp_path / "tmp").mkdir()
    return tmp_path


#: in-process commands run in this process: a digest of the command and the scratch folder's own
#: files -> (exit code, output, files written); a page repeating another's command reuses its run
RAN: dict[str, tuple[int, str, dict[str, bytes]]] = {}


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Path | None:
    """A folder every test process of this run sees (pytest-xdist's workers share the parent of
    their base temporary folders), where a command's run is kept for the other processes; None
    without file locks (not POSIX): each process then runs its own."""
    try:
        import fcntl  # noqa: F401
    except ImportError:  # pragma: no cover - POSIX only
        return None
    base = tmp_path_factory.getbasetemp()
    folder = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "docs-commands"
    folder.mkdir(exist_ok=True)
    return folder


def own_files(cwd: Path) -> dict[str, bytes]:
    """The scratch folder's own files (not the repository's symlinked entries), by relative path."""
    out = {}
    for folder, _, names in os.walk(cwd):
        for n in names:
            p = Path(folder, n)
            if not p.is_symlink():
                out[p.relative_to(cwd).as_posix()] = p.read_bytes()
    return out


def _may_read(name: str, words: list[str], cwd: Path) -> bool:
    """Whether a command may read the scratch folder's own file ``name``: one at the top (a ship, a
    settings file found there) or under a path the command names; a file another block wrote in a
    folder of its own (``tmp/freighter-report/``) does not change this command's run."""
    if "/" not in name:
        return True
    for w in words[1:]:
        path = cwd / w.split("=")[-1]  # (an absolute path stays itself)
        try:
            rel = path.resolve().relative_to(cwd.resolve()).as_posix()
        except (ValueError, OSError):
            continue
        if rel == "." or name == rel or name.startswith(rel + "/"):
            return True
    return False


def run_in_process(words: list[str], cwd: Path, capsys: pytest.CaptureFixture[str],
                   before: dict[str, bytes]) -> tuple[int, str, dict[str, bytes]]:
    """Exit code, output (the scratch folder's path written as NUL) and the files written of
    ``shipcheck WORDS`` run in this process."""
    capsys.readouterr()
    try:
        main(words[1:])
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    else:  # pragma: no cover - main always exits
        code = 0
    out = capsys.readouterr()
    wrote = {k: v for k, v in own_files(cwd).items() if before.get(k) != v}
    return code, (out.out + out.err).replace(str(cwd), "\0"), wrote


def run_command(cmd: str, cwd: Path, capsys: pytest.CaptureFixture[str],
                shared: Path | None = None) -> tuple[int, str]:
    words = shlex.split(cmd.replace("/tmp/", f"{cwd}/tmp/"), comments=True)
    if words and words[0] == "shipcheck" and not SHELL_SYNTAX.search(cmd.split("#")[0]):
        before = own_files(cwd)
        h = hashlib.sha256(cmd.encode() + b"\0")
        for name, data in sorted(before.items()):
            if _may_read(name, words, cwd):
                h.update(f"{name}\0{len(data)}\0".encode() + data)
        key = h.hexdigest()
        if key not in RAN and shared is None:
            RAN[key] = run_in_process(words, cwd, capsys, before)
        elif key not in RAN:
            import fcntl

            with open(shared / f"{key}.lock", "w") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)  # another process running the same command: wait for it
                kept = shared / f"{key}.pickle"
                if kept.exists():
                    RAN[key] = pickle.loads(kept.read_bytes())  # noqa: S301 - written by this test run
                else:
                    RAN[key] = run_in_process(words, cwd, capsys, before)
                    kept.write_bytes(pickle.dumps(RAN[key]))
        code, output, wrote = RAN[key]
        for name, data in wrote.items():
            (cwd / name).parent.mkdir(parents=True, exist_ok=True)
            (cwd / name).write_bytes(data)
        return code, output.replace("\0", str(cwd))
    cmd = cmd.replace("/tmp/", f"{cwd}/tmp/")
    env = dict(os.environ, PATH=str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", ""),
               NO_COLOR="1", COLUMNS="100")
    proc = subprocess.run(["bash", "-c", cmd], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    return proc.returncode, proc.stdout + proc.stderr


def run_page(page: Path, *, slow: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str],
             monkeypatch: pytest.MonkeyPatch, shared: Path | None = None) -> int:
    """Run a page's blocks (the slow ones, or the others) in order; the number of blocks run."""
    cwd = scratch(tmp_path)
    monkeypatch.chdir(cwd)
    monkeypatch.setenv("NO_COLOR", "1")
    namespace: dict[str, Any] = {"__name__": "__docs__"}
    ran = 0
    for b in blocks(page):
        if "no-run" in b.flags or ("slow" in b.flags) != slow:
            continue
        if b.lang in SHELL:
            for cmd, want in commands(b):
                code, output = run_command(cmd, cwd, capsys, shared)
                assert "Traceback" not in output, f"{b.where}: `{cmd}`\n{output}"
                assert code == want, f"{b.where}: `{cmd}` exited {code}, expected {want}\n{output[-3000:]}"
            ran += 1
        elif b.lang == "python":
            try:
                exec(compile(b.body, b.where, "exec"), namespace)  # noqa: S102 - the page's own example
            except Exception as exc:  # the page and line, then the error
                raise AssertionError(f"{b.where}: the Python snippet failed: {exc!r}") from exc
            ran += 1
        elif b.lang == "toml" and "no-check" not in b.flags and re.search(r"^format\s*=\s*1\b", b.body, re.M):
            if re.search(r"^cells\s*=", b.body, re.M):
                parse_board(b.body, file=b.where)
            else:
                parse_ship(b.body, file=b.where, base_dir=cwd)
            ran += 1
    return ran


def page_id(p: Path) -> str:
    return p.relative_to(ROOT).as_posix()


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_page_runs(page: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                   monkeypatch: pytest.MonkeyPatch, shared: Path | None) -> None:
    run_page(page, slow=False, tmp_path=tmp_path, capsys=capsys, monkeypatch=monkeypatch, shared=shared)


SLOW_PAGES = [p for p in PAGES if any("slow" in b.flags and "no-run" not in b.flags for b in blocks(p))]


@pytest.mark.slow
@pytest.mark.parametrize("page", SLOW_PAGES, ids=page_id)
def test_page_slow_blocks_run(page: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                              monkeypatch: pytest.MonkeyPatch, shared: Path | None) -> None:
    assert run_page(page, slow=True, tmp_path=tmp_path, capsys=capsys, monkeypatch=monkeypatch, shared=shared) > 0


# -- the harness itself ---------------------------------------------------------------------------
def test_block_parsing(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("text\n\n```sh slow exit=1\nshipcheck check a.toml \\\n  --no-draw\n# a comment\n"
                    "shipcheck check b.toml  # exits 0 here\n```\n\n```python\nx = 1\n```\n", encoding="utf-8")
    bs = blocks(page)
    assert [(b.lang, b.line) for b in bs] == [("sh", 3), ("python", 10)]
    assert bs[0].flags == {"slow", "exit=1"}
    assert commands(bs[0]) == [("shipcheck check a.toml --no-draw", 1), ("shipcheck check b.toml  # exits 0 here", 0)]


def test_a_failing_command_fails_the_page(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    page = tmp_path / "bad.md"
    page.write_text("```sh\nshipcheck check examples/mistakes/loose-piece.toml\n```\n", encoding="utf-8")
    (tmp_path / "w").mkdir()
    with pytest.raises(AssertionError, match="bad.md:1: .* exited 1, expected 0"):
        run_page(page, slow=False, tmp_path=tmp_path / "w", capsys=capsys, monkeypatch=monkeypatch)


def test_every_page_is_linked_from_the_index() -> None:
    index = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    for page in sorted((ROOT / "docs").rglob("*.md")):
        if page.name != "index.md":
            assert f"({page.relative_to(ROOT / 'docs').as_posix()})" in index, f"docs/index.md does not link {page.name}"


def test_rules_page_is_generated_from_the_registry() -> None:
    from shipcheck.check.ruledoc import rules_markdown

    assert (ROOT / "docs" / "rules.md").read_text(encoding="utf-8") == rules_markdown(), (
        "run `python -m shipcheck.check.ruledoc > docs/rules.md`")


def test_every_tile_kind_and_ship_key_is_documented() -> None:
    from shipcheck.model import KINDS
    from shipcheck.shipfile import _SHIP_KEYS, _TILE_KEYS

    page = (ROOT / "docs" / "ship-format.md").read_text(encoding="utf-8")
    for name in [*KINDS, *_SHIP_KEYS - {"tile", "aside", "meta"}, *_TILE_KEYS]:
        assert f"`{name}`" in page, name
    for table in ("[[tile]]", "[[aside]]", "[meta]"):
        assert f"`{table}`" in page, table


def test_user_docs_never_send_users_to_shared() -> None:
    for page in PAGES:
        if page.name != "CONTRIBUTING.md":
            assert "../shared" not in page.read_text(encoding="utf-8"), page
