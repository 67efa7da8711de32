"""Every test gets its own HOME, XDG dirs and agent dir: the real home is never touched, and a
test that writes anywhere but its temp dirs fails."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from tests.pis import RealPi, selected
from tests.write_guard import Guard

# Hypothesis fails an example slower than 200 ms (DeadlineExceeded, or Flaky when a rerun is
# quicker): a timing assertion that a loaded CI machine fails with nothing wrong. How fast
# ext is, bench/ measures; here no test has a deadline.
settings.register_profile("ext", deadline=None)
settings.load_profile("ext")

# scripts/mutation runs the tests once per mutant on a loaded machine: the same examples each
# time (a survivor is then a real gap, not bad luck), and no failure for being slow.
settings.register_profile(
    "mutation", derandomize=True, deadline=None, suppress_health_check=list(HealthCheck)
)

# pytest removes old runs' temp trees with shutil.rmtree, one Python frame per level: a tree
# over ~990 folders deep (the depth tests make them) left by a run that stopped before its own
# cleanup would crash a later run at its end (RecursionError) after every test had passed.
sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))

REPO = Path(__file__).resolve().parents[1]
NODE_COMPILE_CACHE = REPO / ".cache" / "node-compile-cache"
_CLEARED = (
    "EXT_SET",
    "EXT_AGENT_DIR",
    "EXT_INDEX_URL",
    "EXT_NPM_REGISTRY",
    "EXT_NO_UPDATE_CHECK",
    "EXT_NO_REPLAY",
    "EXT_REPLAY_DEBUG",
    "EXT_REPLAY_WINDOW_NS",
    "PI_CODING_AGENT_DIR",
    "EXT_HOST",  # and the other hosts' own dir variables: a test names the host it checks
    "CLAUDE_CONFIG_DIR",
    "CODEX_HOME",
    "GEMINI_CLI_HOME",
    "PIP_INDEX_URL",
    "npm_config_registry",
    "NO_COLOR",
)


@pytest.fixture(scope="session", autouse=True)
def write_guard(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Guard]:
    """Fail any test that writes outside its temp dirs (dotbot's guard).

    Allowed: pytest's temp root for this run (each test's tmp_path, with the HOME and XDG dirs
    below it, and the folders of module and session fixtures), what tempfile.mkdtemp and
    mkstemp make, the repo's .cache (the real pi that scripts/setup installs) and
    .hypothesis (hypothesis's own example database and caches), and /dev. The
    write entry points of os, io and builtins are wrapped (tests/write_guard.py); a
    subprocess (the e2e tests' ext and pi) is not guarded: its writes go unseen. Nor is a
    write through a link that leads out, since paths are not resolved.
    """
    base = tmp_path_factory.getbasetemp()  # made, and old runs' cleared, before the guard
    guard = Guard([str(base), str(REPO / ".cache"), str(REPO / ".hypothesis"), "/dev"])
    with pytest.MonkeyPatch.context() as mp:
        guard.install(mp)
        yield guard


@pytest.fixture(scope="session")
def children_temp(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The temp folder of the tests' children (ext, pi, its loader, npm), in this run's temp
    root, not the system's: jiti kept each extension pi compiled in /tmp/jiti (~190 files a
    run). Shared by a worker's tests, as the system's was, so an extension of the repo's (the
    bundled set) is compiled once; jiti checks each kept file against its source."""
    return tmp_path_factory.mktemp("temp", numbered=False)


@pytest.fixture(autouse=True)
def isolated_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, write_guard: Guard, children_temp: Path
) -> Iterator[Path]:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    # This process's tempfile keeps the system's: it settled its folder when pytest's temp root
    # was made (tmp_path_factory calls gettempdir), before any test set TMPDIR.
    monkeypatch.setenv("TMPDIR", str(children_temp))
    for var, sub in (
        ("XDG_DATA_HOME", ".local/share"),
        ("XDG_CONFIG_HOME", ".config"),
        ("XDG_CACHE_HOME", ".cache"),
        ("XDG_STATE_HOME", ".local/state"),
    ):
        monkeypatch.setenv(var, str(home / sub))
    for var in _CLEARED:
        monkeypatch.delenv(var, raising=False)
    # Node's compiled code, shared by every test's Node runs (pi, its loader, the hosts): a
    # cache V8 checks against each source, so only the time to start changes.
    monkeypatch.setenv("NODE_COMPILE_CACHE", str(NODE_COMPILE_CACHE))
    # jiti's cache of each extension it compiles, on in the loader ext asks as it is in pi's own
    # start: an extension loaded again by the same path (the judge's jobs) is compiled once.
    # It goes to $TMPDIR/jiti (children_temp).
    monkeypatch.setenv("JITI_FS_CACHE", "true")
    monkeypatch.chdir(tmp_path)
    yield home
    seen, write_guard.seen, write_guard.extra = write_guard.seen, [], []
    if seen:
        pytest.fail("\n".join(seen), pytrace=False)


@pytest.fixture(scope="session", params=selected(), ids=lambda p: p.id)
def real_pi(request: pytest.FixtureRequest) -> RealPi:
    """Each real pi in turn (today's, then the oldest supported): a test that asks for it,
    or for `pi_bin` or `pi`, runs once per pi, and its id names the pi (`[pi1.6.0]`)."""
    pi: RealPi = request.param
    return pi.require()
