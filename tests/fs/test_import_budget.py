"""Start-up budget, without timing: the everyday paths never import what only some commands need.

Each case runs ext in a fresh interpreter under `python -X importtime` and reads
which modules were loaded. The heavy libraries are for prompts
(prompt_toolkit), the network (httpx), writing TOML back (tomlkit), version
ranges (nodesemver; installer.host.versions keeps its answers), the lock a write
takes (filelock) and consent hashes (rfc8785):
`ext --version`, `ext env`, `ext list` and a no-op `ext install` need none of them,
nor the CLI framework (click): installer.cli.entry parses them by hand.
Nor difflib (a "did you mean" for a typo), platformdirs (its XDG rule is in
installer.ground.userdirs), dataclasses (it loads inspect, ast and dis), subprocess or shutil
(zlib, bz2, lzma; PATH is searched by installer.ground.which):
only errors, other platforms and other commands need them.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import imported

REPO = Path(__file__).resolve().parents[2]
HEAVY = ("prompt_toolkit", "httpx", "tomlkit", "nodesemver", "filelock", "rfc8785")
EVERYDAY = (*HEAVY, "click", "difflib", "platformdirs", "dataclasses", "subprocess", "shutil")


def _run(code: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-X", "importtime", "-c", code],
        cwd=cwd,
        env=dict(os.environ),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _ext(*args: str) -> str:
    """Code that runs ext's entry point with these arguments (its SystemExit is the exit code)."""
    return (
        f"import sys; sys.argv = {['ext', *args]!r}; from installer.cli.entry import main; main()"
    )


def _click_ext(*args: str) -> str:
    """The same through the click app, as help, typos and the other commands go."""
    return f"import sys; sys.argv = {['ext', *args]!r}; from installer.cli.app import main; main()"


def _chain(loaded: list[tuple[int, str]], index: int) -> str:
    """Who imported the module at `index`: its parents, outermost last (children print first)."""
    depth, name = loaded[index]
    chain = [name]
    for d, parent in loaded[index + 1 :]:
        if d < depth:
            chain.append(parent)
            depth = d
    return " <- ".join(chain)


def _heavy(stderr: str, heavy: tuple[str, ...] = HEAVY) -> list[str]:
    loaded = imported(stderr)
    return [
        _chain(loaded, i)
        for i, (_, name) in enumerate(loaded)
        if name in heavy or name.split(".")[0] in heavy
    ]


def _set(tmp_path: Path) -> Path:
    """A copy of the bundled set (it has seeds, retired keys and a guard: the long path)."""
    dest = tmp_path / "set"
    dest.mkdir()
    shutil.copy2(REPO / "extset.toml", dest / "extset.toml")
    for name in ("extensions", "skills", "prompts", "themes"):
        if (REPO / name).is_dir():
            shutil.copytree(REPO / name, dest / name, symlinks=True)
    return dest


def _installed(tmp_path: Path) -> Path:
    set_dir = _set(tmp_path)
    first = _run(_ext("install", "--yes"), set_dir)
    assert first.returncode == 0, first.stderr[-2000:]
    return set_dir


def test_importing_the_hand_parser_loads_nothing_heavy(tmp_path: Path) -> None:
    proc = _run("import installer.cli.fast, installer.cli.calls", tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert _heavy(proc.stderr) == []


@pytest.mark.parametrize("args", [("--version",), ("env",), ("list",), ("--json", "list")])
def test_everyday_commands_load_nothing_heavy(tmp_path: Path, args: tuple[str, ...]) -> None:
    """The first run on a new `[host] tested` range loads nodesemver to check it; the answer
    is kept (installer.host.versions), so the runs after it load nothing heavy at all."""
    set_dir = _installed(tmp_path) if "list" in args else _set(tmp_path)
    first = _run(_ext(*args), set_dir)
    assert first.returncode == 0, first.stderr[-2000:]
    assert _heavy(first.stderr, tuple(m for m in EVERYDAY if m != "nodesemver")) == []
    proc = _run(_ext(*args), set_dir)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert _heavy(proc.stderr, EVERYDAY) == []


def test_a_noop_install_loads_nothing_heavy(tmp_path: Path) -> None:
    set_dir = _installed(tmp_path)
    proc = _run(_ext("install", "--yes"), set_dir)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "nothing to do" in proc.stdout + proc.stderr
    assert _heavy(proc.stderr, EVERYDAY) == []
    # Nothing to write: the lock, the journal's transaction and the executor stay unloaded; ext's
    # own agent files (/ext, the session recorder) are seen to be current without a hash.
    loaded = {name for _, name in imported(proc.stderr)}
    assert loaded.isdisjoint(
        {"installer.engine.lock", "installer.engine.transaction", "installer.engine.executor"}
    )
    assert "hashlib" not in loaded


def test_a_fresh_install_loads_only_what_writing_links_needs(tmp_path: Path) -> None:
    """Writing links needs the lock, the journal and the transaction, not shutil (with bz2 and
    lzma: a fresh install removes nothing) nor base64 (binascii is its codec): ~3 ms of a
    fresh install of 1,000 links; nor hashlib (OpenSSL's start, ~3 ms more) for the digest
    of the `/ext` copy (installer.ground.sha; docs/performance.md)."""
    set_dir = _set(tmp_path)
    proc = _run(_ext("install", "--yes"), set_dir)
    assert proc.returncode == 0, proc.stderr[-2000:]
    loaded = {name for _, name in imported(proc.stderr)}
    assert "installer.engine.transaction" in loaded  # it wrote: this is the path it names
    unwanted = ("shutil", "base64", "bz2", "lzma", "hashlib", "_hashlib")
    assert loaded.isdisjoint(unwanted), _heavy(proc.stderr, unwanted)


def _plain_set(tmp_path: Path) -> Path:
    """A set as the bench's: extensions alone, no seeds, no skills."""
    dest = tmp_path / "plain"
    (dest / "extensions").mkdir(parents=True)
    (dest / "extset.toml").write_text('[set]\nname = "plain"\n')
    for name in ("a", "b"):
        (dest / "extensions" / f"{name}.ts").write_text("export default function () {}\n")
    return dest


def test_a_fresh_install_of_extensions_reads_no_settings_code(tmp_path: Path) -> None:
    """Into an agent dir without settings.json, a set that seeds nothing has nothing to read or
    write there, and without a skill nothing to judge as pi's YAML: the settings store, its
    packages and keys, and the skill rules stay unloaded (~1.5 ms of a fresh install)."""
    proc = _run(_ext("install", "--yes"), _plain_set(tmp_path))
    assert proc.returncode == 0, proc.stderr[-2000:]
    unwanted = (
        "installer.settings.store",
        "installer.settings.packages",
        "installer.settings.keys",
        "installer.settings.dotted",
        "installer.sets.piskill",
        "installer.updates",  # the journal's keep setting is read from ground.userdirs' path
    )
    assert _heavy(proc.stderr, unwanted) == []


@pytest.mark.parametrize("bundled", [False, True], ids=["extensions", "bundled set"])
def test_the_everyday_commands_load_no_typing_nor_datetime(tmp_path: Path, bundled: bool) -> None:
    """typing is ~2.5 ms of every start (docs/performance.md): ext's modules import it for the
    type checker alone (`TYPE_CHECKING = False`, which mypy reads as True). A manifest is read
    from the cache here (tomllib, which the cache spares, loads typing). datetime is ~1.5 ms,
    for two strings installer.ground.clock says with `time`."""
    set_dir = _set(tmp_path) if bundled else _plain_set(tmp_path)
    settled = "import installer.ground.manifest_cache as c; c.SETTLED_NS = 0; "
    runs = [("--version",), ("env",), ("install", "--yes"), ("list",), ("install", "--yes")]
    for args in runs:
        proc = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", settled + _ext(*args)],
            cwd=set_dir,
            env={**os.environ, "EXT_NO_REPLAY": "1"},  # the no-op's whole path, not its replay
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert proc.returncode == 0, proc.stderr[-2000:]
        if args != ("env",):  # the first run that reads the manifest parses it
            assert _heavy(proc.stderr, ("typing", "datetime")) == [], args


@pytest.mark.parametrize("args", [("install", "--help"), ("doctor", "--list-checks")])
def test_other_command_lines_go_through_click(tmp_path: Path, args: tuple[str, ...]) -> None:
    proc = _run(_ext(*args), _set(tmp_path))
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "click" in [name for _, name in imported(proc.stderr)]


@pytest.mark.parametrize("args", [("env",), ("list",), ("--set", ".", "env"), ("install", "--yes")])
def test_the_click_app_loads_nothing_heavy_either(tmp_path: Path, args: tuple[str, ...]) -> None:
    """Parsing is click's alone: no validation library, no rich text, nothing for prompts."""
    set_dir = _installed(tmp_path) if args == ("list",) else _set(tmp_path)
    proc = _run(_click_ext(*args), set_dir)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert (
        _heavy(proc.stderr, ("pydantic", "pydantic_core", "rich", "prompt_toolkit", "httpx")) == []
    )


@pytest.mark.parametrize("args", [("env",), ("install", "--yes")])
def test_a_manifest_read_before_is_not_parsed_again(tmp_path: Path, args: tuple[str, ...]) -> None:
    """tomllib (~7 ms) loads only for a manifest the cache does not hold
    (installer.ground.manifest_cache); here every file counts as settled, however new."""
    set_dir = _set(tmp_path)
    code = "import installer.ground.manifest_cache as c; c.SETTLED_NS = 0; " + _ext(*args)
    first = _run(code, set_dir)
    assert first.returncode == 0, first.stderr[-2000:]
    assert "tomllib" in [name for _, name in imported(first.stderr)]
    again = _run(code, set_dir)
    assert again.returncode == 0, again.stderr[-2000:]
    assert "tomllib" not in [name for _, name in imported(again.stderr)]
