"""installer.ground.replay: a read-only run is replayed only while everything it read is as it
was, and a replay prints what a real run would print, byte for byte, with its exit code."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from installer.ground import replay
from tests.helpers import build_tree, imported, settle_manifest

EXT = Path(sys.executable).with_name("ext")
SET = {
    "extset.toml": '[set]\nname = "tools"\n',
    "extensions/notify.ts": "export default function notify() {}\n",
    "extensions/gamma/index.ts": "export default function gamma() {}\n",
    "skills/review/SKILL.md": "---\nname: review\ndescription: Review.\n---\n# review\n",
    "prompts/fix.md": "fix it\n",
}


def ext(*argv: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(EXT), *argv],
        check=False,
        cwd=cwd,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        env={**os.environ, **env},
        timeout=60,
    )


def said(run: subprocess.CompletedProcess[str]) -> str:
    """What the replay debug line says about this run."""
    lines = [ln for ln in run.stderr.splitlines() if ln.startswith("ext: replay: ")]
    return lines[-1].removeprefix("ext: replay: ") if lines else ""


def without_debug(run: subprocess.CompletedProcess[str]) -> tuple[str, str, int]:
    err = "".join(ln for ln in run.stderr.splitlines(True) if not ln.startswith("ext: replay"))
    return run.stdout, err, run.returncode


def unstamped(said: tuple[str, str, int]) -> tuple[str, str, int]:
    """What a run said, each backup's timestamp made one (`.bak.<stamp>`)."""
    import re

    stamp = re.compile(r"\.bak\.\d{8}-\d{6}(?:-\d+)?")
    return stamp.sub(".bak.<stamp>", said[0]), stamp.sub(".bak.<stamp>", said[1]), said[2]


@pytest.fixture
def installed(tmp_path: Path) -> tuple[Path, Path]:
    root = build_tree(tmp_path / "set", SET)
    settle_manifest(root)
    agent = tmp_path / "agent"
    done = ext(
        "--set", str(root), "--agent-dir", str(agent), "install", "--create", "--yes", cwd=root
    )
    assert done.returncode == 0, done.stderr
    return root, agent


ARGVS = (("install", "--yes"), ("list",), ("env",), ("install", "--dry-run"))


@pytest.mark.parametrize("argv", ARGVS, ids=" ".join)
def test_a_second_run_with_nothing_changed_is_replayed_with_the_same_output(
    installed: tuple[Path, Path], argv: tuple[str, ...]
) -> None:
    root, agent = installed
    flags = ("--set", str(root), "--agent-dir", str(agent), *argv)
    env = {"EXT_REPLAY_DEBUG": "1", "EXT_REPLAY_WINDOW_NS": "0"}
    first = ext(*flags, cwd=root, **env)
    second = ext(*flags, cwd=root, **env)
    real = ext(*flags, cwd=root, EXT_NO_REPLAY="1")
    assert (said(first), said(second)) == ("recorded", "replayed")
    assert without_debug(second) == without_debug(first) == without_debug(real)


def test_a_tree_changed_just_now_is_not_recorded(installed: tuple[Path, Path]) -> None:
    """The racy rule: a path changed within the window could change again unseen. A file
    added to a folder ext lists changes the folder; its time is set past the run's start and
    the window is none: a file written just before ext starts falls inside the 0.1 s window
    or not by how fast a loaded machine starts ext."""
    root, agent = installed
    folder = root / "extensions"
    (folder / "fresh.ts").write_text("export default function f() {}\n")
    later = time.time_ns() + 60 * 10**9
    os.utime(folder, ns=(later, later))
    flags = ("--set", str(root), "--agent-dir", str(agent), "list")
    env = {"EXT_REPLAY_DEBUG": "1", "EXT_REPLAY_WINDOW_NS": "0"}
    run = ext(*flags, cwd=root, **env)
    assert said(run) == f"{folder} changed too recently to tell a second change"
    assert said(ext(*flags, cwd=root, **env)) != "replayed"


def test_an_interrupted_run_is_never_recorded(installed: tuple[Path, Path]) -> None:
    """Ctrl-C before an install had read the agent dir was recorded as a no-op that said
    `interrupted` (exit 3), and every later install replayed it: nothing ever installed."""
    root, agent = installed
    flags = ("--set", str(root), "--agent-dir", str(agent), "install", "--yes")
    ctrl_c = (
        "import sys; from installer.cli import calls, entry\n"
        "def interrupted(*args): raise KeyboardInterrupt\n"
        "calls._AROUND['install'] = interrupted; sys.argv[0] = 'ext'; entry.main()"
    )
    env = {**os.environ, "EXT_REPLAY_DEBUG": "1", "EXT_REPLAY_WINDOW_NS": "0"}
    argv = [sys.executable, "-c", ctrl_c, *flags]
    run = subprocess.run(argv, check=False, capture_output=True, text=True, env=env, cwd=root)
    assert run.returncode == 3 and "interrupted; nothing was written" in run.stderr, run.stderr
    assert said(run) == "interrupted", run.stderr  # why it was not recorded
    assert said(ext(*flags, cwd=root, EXT_REPLAY_DEBUG="1")) != "replayed"


def ext_into(target: str, *argv: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """ext with stdout into target (/dev/null, /dev/full), buffered as in a person's shell,
    stdin as ext() has it: one key for every run of the same argv (a record's key holds the
    environment and whether stdin is a terminal)."""
    environ = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    with open(target, "w") as out:
        return subprocess.run(
            [str(EXT), *argv], check=False, cwd=cwd, stdout=out, stderr=subprocess.PIPE,
            text=True, stdin=subprocess.DEVNULL, env={**environ, **env}, timeout=60,
        )  # fmt: skip


def test_a_run_whose_stdout_failed_is_never_recorded(installed: tuple[Path, Path]) -> None:
    """A review: `ext list > /dev/full` was recorded with its `No space left on device` (exit
    1), and a plain `ext list` then replayed that error; with stdout buffered it was a
    traceback (the failure came at the last flush)."""
    root, agent = installed
    flags = ("--set", str(root), "--agent-dir", str(agent), "list")
    env = {"EXT_REPLAY_DEBUG": "1", "EXT_REPLAY_WINDOW_NS": "0"}
    failed = ext_into("/dev/full", *flags, cwd=root, **env)
    assert failed.returncode == 1 and said(failed) != "recorded", failed.stderr
    assert "could not write stdout: No space left on device" in failed.stderr  # no traceback
    after = ext_into("/dev/null", *flags, cwd=root, **env)
    assert after.returncode == 0 and said(after) == "recorded" and "No space" not in after.stderr


def test_a_replay_whose_stdout_fails_runs_and_says_what_a_real_run_says(
    installed: tuple[Path, Path],
) -> None:
    """A recorded `ext list` then run `> /dev/full` said "stdout was closed before ext
    finished" and exited 0, where a real run says the disk is full and exits 1."""
    root, agent = installed
    flags = ("--set", str(root), "--agent-dir", str(agent), "list")
    env = {"EXT_REPLAY_DEBUG": "1", "EXT_REPLAY_WINDOW_NS": "0"}
    assert said(ext_into("/dev/null", *flags, cwd=root, **env)) == "recorded"
    assert said(ext_into("/dev/null", *flags, cwd=root, **env)) == "replayed"  # the same key

    full = ext_into("/dev/full", *flags, cwd=root, **env)
    real = ext_into("/dev/full", *flags, cwd=root, **env, EXT_NO_REPLAY="1")
    assert said(full) == "a fault", full.stderr  # it ran, and was not recorded
    assert real.returncode == 1 and "could not write stdout: No space left on device" in real.stderr
    assert without_debug(full) == without_debug(real)
    assert said(ext_into("/dev/null", *flags, cwd=root, **env)) == "replayed"  # the record stands


def test_a_run_that_writes_is_never_recorded(tmp_path: Path) -> None:
    root = build_tree(tmp_path / "set", SET)
    agent = tmp_path / "agent"
    agent.mkdir()
    flags = ("--set", str(root), "--agent-dir", str(agent), "install", "--yes")
    run = ext(*flags, cwd=root, EXT_REPLAY_DEBUG="1", EXT_REPLAY_WINDOW_NS="0")
    assert run.returncode == 0, run.stderr
    assert said(run) == "a first install into an agent dir"  # known before a tree is read
    assert not list((Path(os.environ["XDG_CACHE_HOME"]) / "extset" / "replay").glob("*"))
    (root / "extensions" / "more.ts").write_text("export default function more() {}\n")
    again = ext(*flags, cwd=root, EXT_REPLAY_DEBUG="1", EXT_REPLAY_WINDOW_NS="0")
    assert "+ link" in again.stdout
    assert said(again).startswith("os.")  # its first write: the rest runs on the real calls
    assert not list((Path(os.environ["XDG_CACHE_HOME"]) / "extset" / "replay").glob("*"))


def test_an_install_that_mends_the_record_writes_and_the_next_is_replayed(
    installed: tuple[Path, Path],
) -> None:
    root, agent = installed
    flags = ("--set", str(root), "--agent-dir", str(agent), "install", "--yes")
    env = {"EXT_REPLAY_DEBUG": "1", "EXT_REPLAY_WINDOW_NS": "0"}
    (agent / ".extset" / "state.json").write_bytes(b"")  # what a power cut can leave
    mend = ext(*flags, cwd=root, **env)
    assert "nothing to do" in mend.stdout
    assert said(mend).startswith("os.")  # its write of the record: never recorded
    assert '"name": "tools"' in (agent / ".extset" / "state.json").read_text()
    first, second = ext(*flags, cwd=root, **env), ext(*flags, cwd=root, **env)
    assert (said(first), said(second)) == ("recorded", "replayed")


# What a replay may load beyond a bare interpreter's start: ext's packages on its way to the
# replay, zlib (the record's name) and gc (built in: entry switches it off). Not typing, re,
# contextlib or collections: ~7 ms of a replay of ~15 (docs/performance.md).
REPLAY_LOADS = {
    "__future__", "installer", "installer.cli", "installer.cli.entry", "installer.ground",
    "installer.ground.replay", "zlib", "gc",
}  # fmt: skip


def _python(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    run = subprocess.run(
        [sys.executable, *args], cwd=cwd, capture_output=True, text=True, timeout=60,
        env={**os.environ, "EXT_REPLAY_WINDOW_NS": "0", "EXT_REPLAY_DEBUG": "1"}, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-2000:]
    return run


def _loaded(run: subprocess.CompletedProcess[str]) -> set[str]:
    return {name for _, name in imported(run.stderr)}


def test_a_replay_loads_nothing_but_its_own_modules(installed: tuple[Path, Path]) -> None:
    """Replayed without site (-S): a dev venv's editable-install finder loads re, typing and
    pathlib at every start, which would hide them here; ext is found on sys.path instead.
    Recorded by the same interpreter (its path is part of the key)."""
    root, agent = installed
    repo = str(Path(__file__).resolve().parents[2])
    flags = ["--set", str(root), "--agent-dir", str(agent), "list"]
    code = f"import sys; sys.argv = {['ext', *flags]!r}; sys.path[:0] = [{repo!r}]; "
    code += "from installer.cli.entry import main; main()"
    assert said(_python("-c", code, cwd=root)) == "recorded"
    replayed = _python("-S", "-X", "importtime", "-c", code, cwd=root)
    assert said(replayed) == "replayed"
    bare = _loaded(_python("-S", "-X", "importtime", "-c", "import os", cwd=root))  # site: os
    assert _loaded(replayed) - bare <= REPLAY_LOADS


def test_a_record_another_user_could_have_written_is_not_read(
    installed: tuple[Path, Path],
) -> None:
    root, agent = installed
    flags = ("--set", str(root), "--agent-dir", str(agent), "list")
    env = {"EXT_REPLAY_DEBUG": "1", "EXT_REPLAY_WINDOW_NS": "0"}
    assert said(ext(*flags, cwd=root, **env)) == "recorded"
    (record,) = (Path(os.environ["XDG_CACHE_HOME"]) / "extset" / "replay").iterdir()
    record.chmod(0o666)
    assert said(ext(*flags, cwd=root, **env)) == "recorded"
    record.write_bytes(b"\x00not marshal")
    assert said(ext(*flags, cwd=root, **env)) == "recorded"
    assert said(ext(*flags, cwd=root, **env)) == "replayed"


# Each change a user or another tool could make between two runs; after any of them the
# next run is not a replay, and prints what a real run prints.
def _add_extension(root: Path, agent: Path) -> None:
    (root / "extensions" / "added.ts").write_text("export default function a() {}\n")


def _remove_extension(root: Path, agent: Path) -> None:
    (root / "extensions" / "notify.ts").unlink()


def _rename_prompt(root: Path, agent: Path) -> None:
    (root / "prompts" / "fix.md").rename(root / "prompts" / "mend.md")


def _edit_manifest(root: Path, agent: Path) -> None:
    with (root / "extset.toml").open("a") as manifest:
        manifest.write('[install]\nskip = ["notify"]\n')


def _break_skill(root: Path, agent: Path) -> None:
    (root / "skills" / "review" / "SKILL.md").write_text("no frontmatter at all, longer now\n")


def _relink_elsewhere(root: Path, agent: Path) -> None:
    link = agent / "extensions" / "notify.ts"
    link.unlink()
    link.symlink_to(root / "extensions" / "gamma" / "index.ts")


def _switch_off(root: Path, agent: Path) -> None:
    link = agent / "extensions" / "notify.ts"
    link.rename(link.with_name("notify.ts.off"))


def _user_file_in_the_way(root: Path, agent: Path) -> None:
    (agent / "prompts" / "fix.md").unlink()
    (agent / "prompts" / "fix.md").write_text("mine\n")


def _settings_written(root: Path, agent: Path) -> None:
    settings_file = agent / "settings.json"
    old = settings_file.read_text() if settings_file.exists() else "{}"
    settings_file.write_text(old.rstrip()[:-1].rstrip().rstrip("{") + '{"theme": "dark"}\n')


def _agent_dir_gone(root: Path, agent: Path) -> None:
    agent.rename(agent.with_name("agent-moved"))


def _chmod_folder(root: Path, agent: Path) -> None:
    (root / "extensions" / "gamma").chmod(0o500)


CHANGES = (
    _add_extension,
    _remove_extension,
    _rename_prompt,
    _edit_manifest,
    _break_skill,
    _relink_elsewhere,
    _switch_off,
    _user_file_in_the_way,
    _settings_written,
    _agent_dir_gone,
    _chmod_folder,
)


@settings(
    max_examples=12,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(change=st.sampled_from(CHANGES), argv=st.sampled_from(ARGVS))
def test_after_any_change_a_run_prints_what_a_real_run_prints(
    tmp_path_factory: pytest.TempPathFactory, change, argv: tuple[str, ...]
) -> None:
    base = tmp_path_factory.mktemp("replay")
    root = build_tree(base / "set", SET)
    settle_manifest(root)
    agent = base / "agent"
    flags = ("--set", str(root), "--agent-dir", str(agent))
    assert ext(*flags, "install", "--create", "--yes", cwd=root).returncode == 0
    env = {"EXT_REPLAY_DEBUG": "1", "EXT_REPLAY_WINDOW_NS": "0"}
    assert said(ext(*flags, *argv, cwd=root, **env)) == "recorded"
    change(root, agent)
    would = ext(*flags, "install", "--dry-run", cwd=root, EXT_NO_REPLAY="1")
    run = ext(*flags, *argv, cwd=root, **env)
    if argv == ("install", "--yes") and not would.stdout.startswith("nothing to do"):
        assert said(run) != "replayed"  # it had work to do: it did it
    else:  # the same output as a real run, replayed or not (env looks at no prompt)
        real = ext(*flags, *argv, cwd=root, EXT_NO_REPLAY="1")
        # A backup's name holds the second it is planned in: two real runs may be a tick apart.
        assert unstamped(without_debug(run)) == unstamped(without_debug(real))


def test_the_argv_the_folder_and_the_environment_are_the_key(
    installed: tuple[Path, Path],
) -> None:
    root, agent = installed
    flags = ("--set", str(root), "--agent-dir", str(agent), "env")
    env = {"EXT_REPLAY_DEBUG": "1", "EXT_REPLAY_WINDOW_NS": "0"}
    assert said(ext(*flags, cwd=root, **env)) == "recorded"
    assert said(ext(*flags, cwd=root, **env)) == "replayed"
    assert said(ext(*flags, "--shell", "fish", cwd=root, **env)) == "recorded"
    assert said(ext(*flags, cwd=agent, **env)) == "recorded"
    assert said(ext(*flags, cwd=root, NO_COLOR="1", **env)) == "recorded"


# In-process: what spoils a recording. A recorder stops at the first thing that spoils it
# (pytest reads the clock between a fixture and its test): each test starts its own when its
# tree is made, and the fixture unwraps it after.
@pytest.fixture
def start(tmp_path: Path):
    folder = tmp_path / "cache" / "extset" / "replay"
    made: list[replay.Recorder] = []

    def start() -> replay.Recorder:
        made.append(replay.Recorder("key", str(folder / "x"), str(folder)))
        return made[-1]

    try:
        yield start
    finally:
        for recorder in made:
            recorder._unwrap()


def test_looking_reads_the_real_calls_and_gives_their_answers(start, tmp_path: Path) -> None:
    (tmp_path / "f").write_text("x")
    os.symlink("f", tmp_path / "l")
    recorder = start()
    assert os.readlink(tmp_path / "l") == "f"
    assert os.stat(tmp_path / "f").st_size == 1
    assert not os.path.exists(tmp_path / "missing")
    assert sorted(e.name for e in os.scandir(tmp_path) if e.is_file()) == ["f", "l"]
    recorder._unwrap()
    assert os.stat is replay._STAT and os.readlink is replay._READLINK
    kinds = {(kind, Path(path).name) for kind, path in recorder.checks}
    assert {(replay.READLINK, "l"), (replay.STAT, "f"), (replay.STAT, "missing")} <= kinds
    assert (replay.STAT, "l") in kinds  # is_file() of a link follows it: its target is read
    assert recorder.spoiled is None


@pytest.mark.parametrize(
    ("act", "why"),
    [
        (lambda p: subprocess.run(["true"], check=True), "subprocess.Popen"),
        (lambda p: (p / "w").write_text("x"), "to write"),
        (lambda p: os.stat("/proc/self/stat"), "/proc"),
        (lambda p: time.time(), "read the clock"),
        (lambda p: sys.stdin.read(), "stdin"),
        (lambda p: os.mkdir(p / "d"), "os.mkdir"),
    ],
    ids=["process", "write", "proc", "clock", "stdin", "mkdir"],
)
def test_a_run_that_does_what_a_replay_would_not_redo_is_spoiled(
    start, tmp_path: Path, act, why: str
) -> None:
    recorder = start()
    with contextlib.suppress(OSError, ValueError):
        act(tmp_path)
    assert recorder.spoiled is not None and why in recorder.spoiled
    # Spoiled, it stops: the rest of the run pays nothing for a record it will not keep.
    assert os.stat is replay._STAT and sys.stdout is not None
    assert not isinstance(sys.stdout, replay._Tee)


def test_a_command_that_knows_it_writes_stops_the_recording(start) -> None:
    recorder = start()
    replay.stop("a first install into an agent dir")
    assert recorder.spoiled == "a first install into an agent dir"
    assert os.lstat is replay._LSTAT and replay._RECORDING == []


def test_a_stream_kept_past_a_spoil_writes_through_and_keeps_nothing(start) -> None:
    """An Output holds the stream it was given: after a spoil it still writes through the
    recorder's tee, which no longer keeps the text for a record there will not be."""
    recorder = start()
    tee = sys.stdout
    assert isinstance(tee, replay._Tee)
    tee.write("before\n")
    replay.stop("a first install into an agent dir")
    tee.write("after\n")
    assert recorder.out == ["before\n"]


def test_the_clock_readers_allowed_exist_and_read_it_only_for_caches() -> None:
    """_CLOCK_OK names modules; a renamed module would make every run they run in spoil."""
    import importlib

    for name in replay._CLOCK_OK:
        assert importlib.import_module(name)


def test_no_module_reads_the_clock_past_the_recorder() -> None:
    """datetime.now() and date.today() cannot be wrapped: ext reads the clock by time.*."""
    root = Path(replay.__file__).parents[1]
    found = [
        f"{path.relative_to(root)}: {needle}"
        for path in root.rglob("*.py")
        for needle in ("datetime.now(", "date.today(", "datetime.utcnow(", "datetime.today(")
        if needle in path.read_text()
    ]
    assert not found


def test_the_cache_folder_is_the_one_userdirs_names() -> None:
    from installer.ground.userdirs import user_dir

    assert replay.cache_dir() == str(user_dir("cache") / "replay")


def in_a_terminal(argv: list[str], cwd: Path, env: dict[str, str]) -> str:
    """What ext printed with stdin, stdout and stderr on a terminal (a pty)."""
    import pty

    quiet = ("CI", "CONTINUOUS_INTEGRATION", "BUILD_NUMBER", "RUN_ID", "NO_UPDATE_NOTIFIER")
    env = {**{k: v for k, v in os.environ.items() if k not in quiet}, **env}  # notices on
    main, side = pty.openpty()
    try:
        subprocess.run(
            [str(EXT), *argv], stdin=side, stdout=side, stderr=side, cwd=cwd,
            env=env, timeout=60, check=False,
        )  # fmt: skip
    finally:
        os.close(side)
    got = b""
    with contextlib.suppress(OSError):  # EIO once the terminal's other side is closed
        while chunk := os.read(main, 65536):
            got += chunk
    os.close(main)
    return got.decode()


def test_in_a_terminal_the_update_notice_bounds_the_replay(
    installed: tuple[Path, Path],
) -> None:
    """A terminal: the notice reads the clock, says until when its answer holds, and the
    replay holds until then and no later."""
    import marshal

    from installer.updates.cache import CacheState, save_cache
    from installer.updates.paths import default_cache_path

    root, agent = installed
    save_cache(CacheState(checked_at=time.time() - 3600), default_cache_path())
    flags = ["--set", str(root), "--agent-dir", str(agent), "list"]
    env = {"EXT_REPLAY_DEBUG": "1", "EXT_REPLAY_WINDOW_NS": "0"}
    assert "ext: replay: recorded" in in_a_terminal(flags, root, env)
    assert "ext: replay: replayed" in in_a_terminal(flags, root, env)
    (record,) = (Path(os.environ["XDG_CACHE_HOME"]) / "extset" / "replay").iterdir()
    entry = marshal.loads(record.read_bytes())  # noqa: S302 (the test's own file)
    since, until = entry[5]
    assert until == pytest.approx((time.time() - 3600 + 24 * 3600) * 1e9, rel=1e-6)
    record.write_bytes(marshal.dumps((*entry[:5], (since, time.time_ns() - 1))))
    assert "ext: replay: replayed" not in in_a_terminal(flags, root, env)


def test_quiet_until_is_the_first_moment_an_answer_of_the_policy_flips() -> None:
    from installer.updates.cache import CacheState
    from installer.updates.policy import DAY, REFRESH_RETRY, due_notices, quiet_until, refresh_due

    now = 1_000_000.0
    for cache in (
        CacheState(checked_at=now - 10),
        CacheState(checked_at=now - 10, notified_at=now - 100),
        CacheState(checked_at=now - 2 * DAY, refresh_started_at=now - 5),
        CacheState(checked_at=now + 50),  # a clock set back
    ):
        until = quiet_until(cache, now)
        assert until is not None and until > now
        first = (refresh_due(cache, now), due_notices(cache, now, {}))
        for t in ((now + until) / 2, until - 1e-3):
            assert (refresh_due(cache, t), due_notices(cache, t, {})) == first
        assert until in {
            t + d
            for t in (cache.checked_at, cache.notified_at, cache.refresh_started_at)
            if t is not None
            for d in (0, DAY, REFRESH_RETRY)
        }
    assert quiet_until(None, now) is None


def test_a_descriptor_that_cannot_take_more_now_is_waited_for_not_written_twice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A review: a non-blocking stdout (shared with a node parent) took part of a replay, then
    raised BlockingIOError, and the real run that followed wrote all of it again."""
    import io
    import select

    taken: list[bytes] = []
    answers: list[int | BaseException] = [3, BlockingIOError(11, "full"), 100]
    waited: list[list[int]] = []

    def write(fd: int, data: memoryview) -> int:
        answer = answers.pop(0)
        if isinstance(answer, BaseException):
            raise answer
        taken.append(bytes(data[:answer]))
        return min(answer, len(data))

    monkeypatch.setattr(os, "write", write)
    monkeypatch.setattr(select, "select", lambda r, w, x: waited.append(w) or ([], w, []))
    stream = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="strict")
    replay._put(1, stream, "agënt list\n")
    assert b"".join(taken) == "agënt list\n".encode() and waited == [[1]]
