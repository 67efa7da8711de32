"""Issue 19: dry runs and no-ops write nothing, a kill leaves nothing that blocks the next run,
and ext's messages name the thing that failed."""

from __future__ import annotations

import contextlib
import errno
import itertools
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from installer.commands.install import Install, install
from installer.ground.errors import ExtError
from installer.settings import lock_path
from tests.helpers import (
    TOOLS_SET,
    build_tree,
    context,
    run_readerless,
    settle_manifest,
    snapshot,
    yes,
)

SEEDED = '[set]\nname = "tools"\n[settings.seed]\nquietStartup = true\n'


def stamps(root: Path) -> dict[str, int]:
    """Every folder's mtime: a mkdir+rmdir (a lock taken and let go) moves its parent's."""
    out = {".": root.stat().st_mtime_ns}
    for dirpath, dirnames, _ in os.walk(root):
        for name in dirnames:
            path = Path(dirpath, name)
            out[str(path.relative_to(root))] = path.lstat().st_mtime_ns
    return out


@pytest.fixture
def installed(tmp_path: Path) -> tuple[Path, Path]:
    set_root = build_tree(tmp_path / "set", {**TOOLS_SET, "extset.toml": SEEDED})
    agent = build_tree(tmp_path / "agent", {"settings.json": '{\n  "theme": "dark"\n}\n'})
    install(context(set_root, agent), Install(), yes)
    return set_root, agent


@pytest.mark.parametrize("dry_run", [True, False], ids=["dry run", "no-op"])
def test_a_dry_run_and_a_no_op_write_nothing_not_even_a_lock(
    installed: tuple[Path, Path], dry_run: bool
) -> None:
    set_root, agent = installed
    (agent / "extensions/notify.ts").unlink()  # so the dry run has something to plan
    if not dry_run:
        install(context(set_root, agent), Install(), yes)
    before, mtimes = snapshot(agent), stamps(agent)
    result = install(context(set_root, agent), Install(dry_run=dry_run), yes)
    assert result.changed is dry_run
    assert snapshot(agent) == before
    assert stamps(agent) == mtimes  # no settings.json.lock mkdir/rmdir, no .extset/lock made


def test_a_dry_run_does_not_wait_for_a_held_lock_nor_fail_on_a_stray_lock_file(
    installed: tuple[Path, Path],
) -> None:
    set_root, agent = installed
    (agent / "extensions/notify.ts").unlink()
    lock = lock_path(agent / "settings.json")
    lock.mkdir()  # pi holds its lock (fresh): a read needs none
    assert install(context(set_root, agent), Install(dry_run=True), yes).changed
    lock.rmdir()
    lock.write_text("")  # a stray lock *file*: pi's problem to report, not a dry run's
    assert install(context(set_root, agent), Install(dry_run=True), yes).changed


@pytest.mark.parametrize(
    "text", ['{"a": 1, "a": 2}\n', '{\n  "a": 1,\n}\n', "[]\n"], ids=["dup", "comma", "array"]
)
def test_a_settings_file_pi_starts_with_does_not_stop_a_link_install(
    tmp_path: Path, text: str
) -> None:
    set_root = build_tree(tmp_path / "set", dict(TOOLS_SET))  # no [settings]
    agent = build_tree(tmp_path / "agent", {"settings.json": text})
    result = install(context(set_root, agent), Install(), yes)
    assert result.applied
    assert (agent / "extensions/notify.ts").is_symlink()
    assert (agent / "settings.json").read_text() == text
    assert any("its packages were not checked" in w for w in result.plan.warnings)
    assert not any("nothing was changed" in w for w in result.plan.warnings)  # links were
    seeded = build_tree(tmp_path / "seeded", {**TOOLS_SET, "extset.toml": SEEDED})
    other = build_tree(tmp_path / "other", {"settings.json": text})
    with pytest.raises(ExtError, match=r"settings\.json"):  # seeds cannot go into it
        install(context(seeded, other), Install(), yes)
    assert (other / "settings.json").read_text() == text


KILLED_HOLDING_THE_LOCK = """
import os, signal, sys
from pathlib import Path
from installer.settings import settings_lock
with settings_lock(Path(sys.argv[1])):
    os.kill(os.getpid(), signal.SIGKILL)
"""


def test_a_kill_leaves_no_lock_or_temp_that_holds_up_the_next_run(
    installed: tuple[Path, Path],
) -> None:
    _, agent = installed
    settings = agent / "settings.json"
    run = subprocess.run(
        [sys.executable, "-c", KILLED_HOLDING_THE_LOCK, str(settings)], check=False
    )
    assert run.returncode == -9
    assert lock_path(settings).is_dir()  # fresh: pi would wait 10 s for it to go stale
    orphan = agent / ".settings.json.99999999-0123abcd.tmp"  # a killed run's staged write
    orphan.write_text("{" * 1000)
    live = agent / f".settings.json.{os.getppid()}-0123abcd.tmp"  # a live run's: kept
    live.write_text("{}")
    mine = agent / ".settings.json.notes.tmp"  # not ext's name: kept
    mine.write_text("mine")
    from installer.settings import update_settings

    update = update_settings(settings, lambda d: {**d, "theme": "light"}, wait=2.0)
    assert update.changed
    assert not lock_path(settings).exists()
    assert not orphan.exists()
    assert live.exists() and mine.read_text() == "mine"
    assert json.loads(settings.read_text())["theme"] == "light"


# --- item 4: ext's own files are never reached through a link it did not make ------------


def test_a_symlinked_journal_folder_is_refused_and_its_files_kept(
    installed: tuple[Path, Path], tmp_path: Path
) -> None:
    set_root, agent = installed
    elsewhere = build_tree(tmp_path / "logs", {f"{i:02d}.jsonl": f"{i}\n" for i in range(60)})
    before = snapshot(elsewhere)
    journal = agent / ".extset/journal"
    journal.rename(tmp_path / "old-journal")
    journal.symlink_to(elsewhere)
    (agent / "extensions/notify.ts").unlink()
    with pytest.raises(ExtError) as err:
        install(context(set_root, agent), Install(), yes)
    assert f"{journal} is a symlink" in err.value.message
    assert err.value.fix and f"rm {journal}" in err.value.fix
    assert snapshot(elsewhere) == before


@pytest.mark.parametrize("kind", ["symlink", "fifo"])
def test_a_state_record_that_is_a_link_or_fifo_is_refused(
    installed: tuple[Path, Path], tmp_path: Path, kind: str
) -> None:
    set_root, agent = installed
    state = agent / ".extset/state.json"
    theirs = build_tree(tmp_path / "theirs", {"notes.txt": "mine\n"}) / "notes.txt"
    state.unlink()
    if kind == "symlink":
        state.symlink_to(theirs)
    else:
        os.mkfifo(state)
    (agent / "extensions/notify.ts").unlink()
    for dry_run in (True, False):
        with pytest.raises(ExtError, match=r"state\.json is a (symlink|FIFO)"):
            install(context(set_root, agent), Install(dry_run=dry_run), yes)
    assert theirs.read_text() == "mine\n"
    assert not (agent / "extensions/notify.ts").exists()


def test_a_users_file_named_like_ext_temp_link_survives_a_relink(
    installed: tuple[Path, Path], tmp_path: Path
) -> None:
    set_root, agent = installed
    moved = tmp_path / "moved-set"
    set_root.rename(moved)
    mine = agent / "extensions/.notify.ts.ext-tmp"
    mine.write_bytes(b"the user's own\n")
    result = install(context(moved, agent), Install(), yes)
    assert any(a.action == "relink" for a in result.plan.actions)
    assert os.readlink(agent / "extensions/notify.ts") == str(moved / "extensions/notify.ts")
    assert mine.read_bytes() == b"the user's own\n"


def test_a_settings_file_of_another_user_is_not_replaced(tmp_path: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("making a file of another user takes root")
    set_root = build_tree(tmp_path / "set", {**TOOLS_SET, "extset.toml": SEEDED})
    agent = build_tree(tmp_path / "agent", {"settings.json": '{\n  "theme": "dark"\n}\n'})
    settings = agent / "settings.json"
    os.chown(settings, 65534, 65534)
    settings.chmod(0o444)
    with pytest.raises(ExtError, match="belongs to another user") as err:
        install(context(set_root, agent), Install(), yes)
    assert err.value.fix and "run ext as the user" in err.value.fix
    assert settings.stat().st_uid == 65534
    assert settings.read_text() == '{\n  "theme": "dark"\n}\n'


# --- item 6: every network wait has a total deadline; one refresh at a time --------------


@pytest.fixture
def dribbling() -> Iterator[str]:
    """A loopback server that sends its status line one byte every 0.1 s, forever."""
    listener = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    workers: list[threading.Thread] = []

    def serve() -> None:
        with contextlib.suppress(OSError):
            while not stop.is_set():
                conn, _ = listener.accept()
                worker = threading.Thread(target=dribble, args=(conn,), daemon=True)
                workers.append(worker)
                worker.start()

    def dribble(conn: socket.socket) -> None:
        with conn, contextlib.suppress(OSError):
            for byte in itertools.cycle(b"HTTP/1.1 200 OK\r\nX-Slow: "):
                if stop.wait(0.1):
                    return
                conn.sendall(bytes([byte]))

    server = threading.Thread(target=serve, daemon=True)
    server.start()
    yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    stop.set()
    with contextlib.suppress(OSError):
        listener.shutdown(socket.SHUT_RDWR)  # wakes the accept; close alone does not
    listener.close()
    for thread in (server, *workers):
        thread.join(timeout=5)
        assert not thread.is_alive(), f"{thread.name} outlived the test"


def test_a_server_that_dribbles_its_header_meets_the_total_deadline(dribbling: str) -> None:
    from installer.updates.fetch import Limits, fetch_json

    start = time.monotonic()
    assert fetch_json(dribbling + "/pypi/extset/json", Limits(timeout=1.0)) is None
    assert time.monotonic() - start < 2.0  # each read is quick: only a total deadline ends it


def test_the_detached_refresh_ends_at_its_lifetime(dribbling: str, tmp_path: Path) -> None:
    cache = tmp_path / "cache/updates.json"
    env = {**os.environ, "EXT_INDEX_URL": dribbling, "EXT_NPM_REGISTRY": dribbling}
    args = ["refresh", "--cache", str(cache), "--lifetime", "1", "--host-package", "p"]
    start = time.monotonic()
    run = subprocess.run(
        [sys.executable, "-m", "installer.updates", *args], env=env, check=False, timeout=30
    )
    assert run.returncode == -signal.SIGALRM
    assert time.monotonic() - start < 5.0


def test_only_one_refresh_runs_at_a_time(tmp_path: Path) -> None:
    import fcntl

    from installer.updates.__main__ import main

    cache = tmp_path / "cache/updates.json"
    cache.parent.mkdir()
    with open(cache.with_suffix(".refresh-lock"), "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)  # a refresh at work
        assert main(["refresh", "--cache", str(cache), "--lifetime", "0"]) == 0
    assert not cache.exists()  # it left at once, checking and writing nothing


def test_exts_caches_are_never_written_through_a_link(tmp_path: Path) -> None:
    """A link at a cache's path is replaced by ext's own file; what it led to is untouched."""
    from installer.ground import manifest_cache
    from installer.updates.cache import CacheState, load_cache, save_cache
    from installer.updates.paths import default_cache_path

    outside = build_tree(tmp_path / "outside", {"a.json": "mine\n", "b.json": "mine too\n"})
    caches = (default_cache_path(), manifest_cache.cache_path())
    for cache, target in zip(caches, ("a.json", "b.json"), strict=True):
        cache.parent.mkdir(parents=True, exist_ok=True)
        cache.symlink_to(outside / target)
    manifest = build_tree(tmp_path / "set", {"extset.toml": "[set]\nname = 'x'\n"})
    st = (manifest / "extset.toml").stat()
    before = snapshot(outside)

    save_cache(CacheState(checked_at=1.0), None)
    settled = time.time_ns() * 2
    manifest_cache.remember(manifest / "extset.toml", st, {"set": {"name": "x"}}, settled)

    assert snapshot(outside) == before
    for cache in caches:
        assert not cache.is_symlink() and cache.stat().st_mode & 0o077 == 0
    assert load_cache(None) == CacheState(checked_at=1.0)


# --- item 7: messages name the thing that failed, and a fix that is safe ------------------


def test_a_failed_symlink_blames_the_links_folder_not_the_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    set_root = build_tree(tmp_path / "set", dict(TOOLS_SET))
    agent = build_tree(tmp_path / "agent", {"settings.json": "{}\n"})

    def denied(target: str, link: str, *args: object, **kw: object) -> None:
        raise PermissionError(errno.EACCES, "Permission denied", target, None, link)

    monkeypatch.setattr(os, "symlink", denied)
    with pytest.raises(ExtError) as err:
        install(context(set_root, agent), Install(), yes)
    assert f"Permission denied: {agent}/" in err.value.message
    assert err.value.fix and f"write access to {agent}/" in err.value.fix
    assert str(set_root) not in err.value.fix


def test_a_full_disk_while_journaling_names_the_journal(
    installed: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    from installer.engine import journal

    set_root, agent = installed
    (agent / "extensions/notify.ts").unlink()

    def full(obj: object) -> str:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(journal, "_encode", full)
    with pytest.raises(ExtError) as err:
        install(context(set_root, agent), Install(), yes)
    assert f"No space left on device: {agent}/.extset/journal/" in err.value.message
    assert err.value.fix and "free some space" in err.value.fix


def test_a_full_disk_while_staging_one_of_exts_files_names_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A write or fsync that fails says nothing of where: the file being written is named."""
    set_root = build_tree(tmp_path / "set", dict(TOOLS_SET))
    agent = build_tree(tmp_path / "agent", {"settings.json": "{}\n"})

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    before = snapshot(agent)
    with pytest.raises(ExtError) as err:
        install(context(set_root, agent), Install(), yes)
    assert f"No space left on device: {agent}/.extset/" in err.value.message
    assert err.value.fix and f"free some space on the disk that holds {agent}/" in err.value.fix
    assert {k: v for k, v in snapshot(agent).items() if not k.startswith(".extset")} == before


def test_a_read_only_file_system_is_not_fixed_by_removing_the_lock(
    installed: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    set_root, agent = installed
    (agent / "extensions/notify.ts").unlink()
    real = os.open

    def read_only(path: object, flags: int, *args: object, **kw: object) -> int:
        if str(path).endswith(".extset/lock"):
            raise OSError(errno.EROFS, "Read-only file system", str(path))
        return real(path, flags, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", read_only)
    with pytest.raises(ExtError) as err:
        install(context(set_root, agent), Install(), yes)
    assert "read-only" in err.value.message
    assert err.value.fix and "rm " not in err.value.fix and "read-write" in err.value.fix


@pytest.mark.parametrize(
    ("code", "fix"),
    [(errno.EROFS, "read-write"), (errno.ENOSPC, "free some space"), (errno.EACCES, "access")],
)
def test_a_first_run_that_cannot_make_extset_gives_the_fix_for_the_cause(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: int, fix: str
) -> None:
    """The first write of a run into an empty agent dir is `.extset/`: the fix follows errno."""
    set_root = build_tree(tmp_path / "set", dict(TOOLS_SET))
    agent = build_tree(tmp_path / "agent", {"settings.json": "{}\n"})

    def fails(self: Path, *args: object, **kw: object) -> None:
        raise OSError(code, os.strerror(code), str(self))

    monkeypatch.setattr(Path, "mkdir", fails)
    with pytest.raises(ExtError) as err:
        install(context(set_root, agent), Install(), yes)
    assert os.strerror(code) in err.value.message
    assert err.value.fix and fix in err.value.fix
    assert code == errno.EACCES or "write access" not in err.value.fix


def test_a_thousand_level_dotted_table_is_a_usage_error() -> None:
    from installer.ground.errors import UsageError
    from installer.ground.manifest import parse_manifest

    deep = "[set]\nname = 'x'\n[settings.seed]\n" + ".".join(["k"] * 1000) + " = 1\n"
    with pytest.raises(UsageError, match="nested more than 64 levels"):
        parse_manifest(deep.encode(), Path("extset.toml"))


EXT = Path(sys.executable).with_name("ext")


def test_a_closed_stdout_gives_one_outcome_the_apply_finished_and_said_on_stderr(
    tmp_path: Path,
) -> None:
    set_root = build_tree(tmp_path / "set", dict(TOOLS_SET))
    outcomes = set()
    # stdout block-buffered, as a person's shell has it, and unbuffered (PYTHONUNBUFFERED, as
    # some CI runners set): a failed flush at the interpreter's exit made the first exit 120.
    plain = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    for n, env in enumerate((plain, plain, {**plain, "PYTHONUNBUFFERED": "1"})):
        agent = build_tree(tmp_path / f"agent{n}", {"settings.json": "{}\n"})
        argv = [str(EXT), "--set", str(set_root), "--agent-dir", str(agent), "install", "--yes"]
        code, err = run_readerless(argv, env)  # `| head -0`: no reader before the first line
        applied = (agent / "extensions/notify.ts").is_symlink()
        outcomes.add((code, applied, "ran to the end all the same (exit 0)" in err))
    assert outcomes == {(0, True, True)}


def test_a_reader_gone_from_stdout_and_stderr_stops_nothing_and_a_replay_meets_it_too(
    tmp_path: Path,
) -> None:
    """`2>&1 | head -c0`: stderr's first line failed the install before its apply (exit 120,
    nothing linked); a replay into a closed pipe was a traceback; `--version` exited 120."""
    set_root = build_tree(tmp_path / "set", dict(TOOLS_SET))
    settle_manifest(set_root)  # else a later run may write the cache, and is no recording
    agent = build_tree(tmp_path / "agent", {"settings.json": "{}\n"})
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    env["EXT_REPLAY_WINDOW_NS"] = "0"  # the install just now is not "too recent" to record
    flags = [str(EXT), "--set", str(set_root), "--agent-dir", str(agent)]

    def gone(*argv: str, both: bool = True, **more: str) -> tuple[int, str]:
        return run_readerless([*flags, *argv], {**env, **more}, stderr_too=both)

    assert gone("install", "--yes") == (0, "")
    assert (agent / "extensions/notify.ts").is_symlink()
    assert gone("--version") == (0, "")
    assert gone("--version", PYTHONUNBUFFERED="1") == (0, "")  # was a traceback, exit 1
    debug = {**env, "EXT_REPLAY_DEBUG": "1"}  # not part of a record's key
    recorded = subprocess.run([*flags, "list"], env=debug, capture_output=True, check=True)
    assert b"ext: replay: recorded" in recorded.stderr, recorded.stderr
    # A real run says the same: only the debug line tells that this one is the replay.
    code, err = gone("list", both=False, EXT_REPLAY_DEBUG="1")
    assert code == 0 and "Traceback" not in err, err
    assert "ext: replay: replayed\n" in err, err
    # A listing's reader that left had read enough, as with `ls | head`: nothing said (helper-62).
    assert "ran to the end" not in err, err
    real, said_by_real = gone("list", both=False, EXT_NO_REPLAY="1")
    assert (real, said_by_real) == (0, ""), said_by_real
    # helper-64: env's line, written past the Output, exited 1 when each write is flushed
    assert gone("env", both=False, EXT_NO_REPLAY="1", PYTHONUNBUFFERED="1") == (0, "")
    # a dry run writes nothing either, replayed or not (helper-64, helper-67)
    dry = [*flags, "install", "--dry-run"]
    recorded = subprocess.run(dry, env=debug, capture_output=True, check=True)
    assert b"ext: replay: recorded" in recorded.stderr, recorded.stderr
    for more in ({"EXT_REPLAY_DEBUG": "1"}, {"EXT_NO_REPLAY": "1"}):
        code, err = gone("install", "--dry-run", both=False, **more)
        assert code == 0 and "ran to the end" not in err, err
        assert ("ext: replay: replayed" in err) == ("EXT_REPLAY_DEBUG" in more), err


@pytest.mark.parametrize("argv", [["--help"], ["install", "--help"]], ids=" ".join)
def test_help_into_a_gone_reader_is_met_as_every_command_meets_it(argv: list[str]) -> None:
    """`ext --help | head -c0` exited 1 with nothing said: click's own way with a broken pipe
    (it wraps stdout and exits 1), where each read-only command of ext exits 0, quietly."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    code, err = run_readerless([str(EXT), *argv], env)
    assert (code, err) == (0, "")
    assert run_readerless([str(EXT), *argv], env, stderr_too=True) == (0, "")


def test_text_the_locale_cannot_encode_is_escaped_not_lost(tmp_path: Path) -> None:
    """Under an ASCII stdout, a dir named `agënt` made `ext env` a traceback and `ext list`
    print nothing but a note that stdout was closed."""
    set_root = build_tree(tmp_path / "set", dict(TOOLS_SET))
    agent = build_tree(tmp_path / "agënt", {"settings.json": "{}\n"})
    env = {**os.environ, "PYTHONIOENCODING": "ascii", "EXT_NO_REPLAY": "1"}
    flags = [str(EXT), "--set", str(set_root), "--agent-dir", str(agent)]
    subprocess.run([*flags, "install", "--yes"], env=env, capture_output=True, check=True)
    shown = subprocess.run([*flags, "env"], env=env, capture_output=True, check=False)
    assert shown.returncode == 0, shown.stderr
    assert b"ag\\xebnt" in shown.stdout, shown.stdout
    listed = subprocess.run([*flags, "list"], env=env, capture_output=True, check=False)
    assert listed.returncode == 0 and b"notify" in listed.stdout, listed.stderr
    assert b"stdout was closed" not in listed.stderr


def test_closed_standard_descriptors_are_a_run_whose_output_goes_nowhere(tmp_path: Path) -> None:
    """`ext install --yes >&-` (and stdin, stderr closed too): Python starts with sys.stdout
    None, which ext tripped on (a traceback, no install); it runs as into /dev/null."""
    set_root = build_tree(tmp_path / "set", dict(TOOLS_SET))
    for closed, n in (("1", 0), ("0 1 2", 1)):
        agent = build_tree(tmp_path / f"agent{n}", {"settings.json": "{}\n"})
        argv = [str(EXT), "--set", str(set_root), "--agent-dir", str(agent), "install"]
        shut = " ".join(f"{fd}>&-" if fd != "0" else "0<&-" for fd in closed.split())
        proc = subprocess.run(
            ["sh", "-c", f'"$@" --yes {shut}; echo "exit $?" >&2', "sh", *argv],
            capture_output=True,
            text=True,
            check=False,
        )
        assert proc.stderr.endswith("exit 0\n") and proc.stdout == "", proc.stderr
        assert (agent / "extensions/notify.ts").is_symlink()
        if closed == "1":
            assert "Traceback" not in proc.stderr, proc.stderr


def test_a_disk_that_fills_up_mid_run_rolls_back_and_leaves_what_undo_accepts(
    installed: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """ENOSPC from the state write on: the run is rolled back, the error is the first one,
    and once there is space again the journal left behind neither blocks nor confuses undo."""
    from installer.commands.undo import Undo, undo
    from installer.engine import journal
    from installer.ground import atomic

    set_root, agent = installed
    (agent / "extensions/notify.ts").unlink()
    state = agent / ".extset/state.json"
    state.write_text(state.read_text().replace('"ext_version": "', '"ext_version": "0-old'))
    before = snapshot(agent)
    real_encode, real_stage = journal._encode, atomic.stage
    full = OSError(errno.ENOSPC, "No space left on device")

    def stage(target: Path, text: str, mode: int | None = None) -> Path:
        if target.name == "state.json":  # the disk is full from here on
            monkeypatch.setattr(journal, "_encode", lambda obj: (_ for _ in ()).throw(full))
            raise atomic._write_failed(target, full)
        return real_stage(target, text, mode)

    monkeypatch.setattr(atomic, "stage", stage)
    with pytest.raises(ExtError) as err:
        install(context(set_root, agent), Install(), yes)
    assert f"cannot write {state}: No space left on device" in err.value.message
    monkeypatch.setattr(atomic, "stage", real_stage)
    monkeypatch.setattr(journal, "_encode", real_encode)
    assert {k: v for k, v in snapshot(agent).items() if "journal" not in k} == {
        k: v for k, v in before.items() if "journal" not in k
    }
    undo(context(set_root, agent), Undo(), yes)  # accepted: takes back the first install
    assert not (agent / "extensions/timer.js").exists()


def test_a_path_that_is_not_utf8_is_refused_before_anything_is_made(tmp_path: Path) -> None:
    """An agent dir, a set or a new set whose path has a byte that is not UTF-8: the install
    failed half-way (a UnicodeEncodeError from the journal, copies left behind) and init after
    its plan. Each is now a usage error (exit 2) that says so, with nothing made."""

    def named(raw: bytes) -> Path:
        return Path(os.fsdecode(os.fsencode(tmp_path) + b"/" + raw))

    good_set = build_tree(tmp_path / "set", dict(TOOLS_SET))
    bad_set = build_tree(named(b"s\xe9t"), dict(TOOLS_SET))
    bad_agent, new_set = named(b"agent\xff"), named(b"new\xfe")
    for set_root, agent in ((good_set, bad_agent), (bad_set, tmp_path / "agent")):
        argv = ["--set", str(set_root), "--agent-dir", str(agent), "install", "--create", "--yes"]
        done = subprocess.run([str(EXT), *argv], capture_output=True, text=True, check=False)
        assert done.returncode == 2, done.stderr
        assert "is not UTF-8" in done.stderr and "Traceback" not in done.stderr
        assert not os.path.lexists(agent)
    made = subprocess.run(
        [str(EXT), "init", str(new_set), "--yes"], capture_output=True, text=True, check=False
    )
    assert made.returncode == 2 and "is not UTF-8" in made.stderr, made.stderr
    assert not os.path.lexists(new_set)


def test_a_file_where_a_folder_is_needed_is_named_in_the_fix(tmp_path: Path) -> None:
    """HOME or XDG_DATA_HOME naming a file, or a name too long: the error was the bare OSError
    and the fix `run again with --debug`; the fix now says which file is in the way."""
    (tmp_path / "f").write_text("x\n")
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "f")}
    listed = subprocess.run(
        [str(EXT), "list"], capture_output=True, text=True, env=env, cwd="/", check=False
    )
    assert listed.returncode == 1, listed.stderr
    assert f"fix: {tmp_path}/f is a file where a folder is needed: move it" in listed.stderr
    long = str(tmp_path / ("x" * 300))
    argv = [str(EXT), "--agent-dir", long, "list"]
    too_long = subprocess.run(argv, capture_output=True, text=True, env=env, cwd="/", check=False)
    assert "fix: the path is longer than the file system takes" in too_long.stderr


@pytest.mark.parametrize(
    ("where", "other"), [("set/extensions/mine.ts", False), ("agent/extensions/x.ts", True)]
)
def test_a_read_only_mount_names_another_agent_dir_only_for_the_agent_dirs_writes(
    tmp_path: Path, where: str, other: bool
) -> None:
    """helper-75: `ext adopt` into a set on a read-only mount was told to remount it `or use
    another --agent-dir`, which writes the set all the same."""
    from installer.engine.executor import fix_for

    failed = OSError(errno.EROFS, "Read-only file system", str(tmp_path / where))
    fix = fix_for(failed, tmp_path / "agent")
    folder = (tmp_path / where).parent
    assert fix.startswith(f"{folder} is on a read-only file system: remount it read-write")
    assert ("another --agent-dir" in fix) == other
