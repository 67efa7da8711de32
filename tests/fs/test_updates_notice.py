"""Passive notices from a cache file under tmp, with an injected clock and spawner."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from installer import __version__
from installer.updates.cache import CacheState, FirstSeen, load_cache, save_cache
from installer.updates.check import HostFacts
from installer.updates.notice import SILENCE, Notice, passive_notice, spawn_refresh
from installer.updates.policy import DAY
from installer.updates.results import CheckResult

NOW = 1_700_000_000.0
EXT_NEWER = CheckResult(
    "ext",
    __version__,
    "99.0.0",
    "pipx upgrade extset",
    "update-available",
    method="pipx",
    label="ext",
)


class Spawns:
    """Stands in for the background refresh: records the cache each one started would write."""

    def __init__(self) -> None:
        self.caches: list[Path] = []

    def __call__(self, host: object, set_dir: object, cache: Path) -> None:
        self.caches.append(cache)


def started(cache: Path) -> float | None:
    """When the cache says a refresh was last started (what keeps a second one from starting)."""
    state = load_cache(cache)
    return state.refresh_started_at if state is not None else None


@pytest.fixture
def cache(tmp_path: Path) -> Path:
    return tmp_path / "cache" / "updates.json"


@pytest.fixture
def spawns() -> Spawns:
    return Spawns()


@pytest.fixture(autouse=True)
def quiet_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("CI", "CONTINUOUS_INTEGRATION", "BUILD_NUMBER", "RUN_ID", "NO_UPDATE_NOTIFIER"):
        monkeypatch.delenv(var, raising=False)


def seed(
    cache: Path,
    *results: CheckResult,
    checked_at: float = NOW - 60,
    first_seen: tuple[FirstSeen, ...] = (),
) -> None:
    save_cache(CacheState(checked_at=checked_at, results=results, first_seen=first_seen), cache)


def notice(
    cache: Path,
    spawns: Spawns,
    at: float = NOW,
    *,
    tty: bool = True,
    env: dict[str, str] | None = None,
    host: HostFacts | None = None,
    set_dir: Path | None = None,
    config_path: Path | None = None,
) -> Notice | None:
    return passive_notice(
        now=at,
        cache_path=cache,
        spawn=spawns,
        tty=tty,
        env={} if env is None else env,
        host=host,
        set_dir=set_dir,
        config_path=config_path,
    )


def test_first_run_is_silent_and_starts_one_refresh(cache: Path, spawns: Spawns) -> None:
    assert notice(cache, spawns) is None
    assert spawns.caches == [cache]
    state = load_cache(cache)
    assert state is not None and state.refresh_started_at == NOW and state.checked_at is None
    assert notice(cache, spawns, NOW + 5) is None
    assert (spawns.caches, started(cache)) == ([cache], NOW)  # one refresh under way is enough


def test_notice_shows_once_a_day(cache: Path, spawns: Spawns) -> None:
    seed(cache, EXT_NEWER)
    shown = notice(cache, spawns)
    assert shown is not None
    assert shown.lines() == (
        f"ext 99.0.0 is available (you have {__version__}); run: pipx upgrade extset",
    )
    assert shown.text().endswith(SILENCE)
    assert notice(cache, spawns, NOW + 60) is None
    assert notice(cache, spawns, NOW + DAY - 1) is None
    assert notice(cache, spawns, NOW + DAY) is not None
    state = load_cache(cache)
    assert state is not None and state.notified_at == NOW + DAY


def test_fresh_cache_starts_no_refresh(cache: Path, spawns: Spawns) -> None:
    seed(cache, EXT_NEWER)
    notice(cache, spawns)
    assert (spawns.caches, started(cache)) == ([], None)


def test_day_old_cache_starts_a_refresh_and_still_tells(cache: Path, spawns: Spawns) -> None:
    seed(cache, EXT_NEWER, checked_at=NOW - DAY - 1)
    assert notice(cache, spawns) is not None
    assert (spawns.caches, started(cache)) == ([cache], NOW)


@pytest.mark.parametrize(
    "env",
    [
        {"EXT_NO_UPDATE_CHECK": "1"},
        {"NO_UPDATE_NOTIFIER": "1"},
        {"CI": "true"},
        {"CONTINUOUS_INTEGRATION": "1"},
        {"BUILD_NUMBER": "7"},
        {"RUN_ID": "7"},
    ],
)
def test_silenced_by_environment(cache: Path, spawns: Spawns, env: dict[str, str]) -> None:
    seed(cache, EXT_NEWER)
    before = cache.read_bytes()
    assert notice(cache, spawns, env=env) is None
    assert spawns.caches == []
    assert cache.read_bytes() == before


def test_ci_zero_is_not_ci(cache: Path, spawns: Spawns) -> None:
    seed(cache, EXT_NEWER)
    assert notice(cache, spawns, env={"CI": "0"}) is not None


def test_silenced_without_a_tty(cache: Path, spawns: Spawns) -> None:
    seed(cache, EXT_NEWER, checked_at=NOW - 2 * DAY)
    assert notice(cache, spawns, tty=False) is None
    assert (spawns.caches, started(cache)) == ([], None)


def test_silenced_by_process_environment(
    cache: Path, spawns: Spawns, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed(cache, EXT_NEWER)
    monkeypatch.setenv("EXT_NO_UPDATE_CHECK", "1")
    assert passive_notice(now=NOW, cache_path=cache, spawn=spawns, tty=True) is None


def test_silenced_by_user_config(cache: Path, spawns: Spawns, tmp_path: Path) -> None:
    seed(cache, EXT_NEWER)
    config = tmp_path / "config.toml"
    config.write_text("# mine\n[updates]\ncheck = false\n")
    assert notice(cache, spawns, config_path=config) is None
    assert (spawns.caches, started(cache)) == ([], None)


def test_user_config_default_location(cache: Path, spawns: Spawns, isolated_home: Path) -> None:
    seed(cache, EXT_NEWER)
    config = isolated_home / ".config" / "extset" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text("[updates]\ncheck = false\n")
    assert notice(cache, spawns) is None


def test_silent_after_the_user_upgraded(cache: Path, spawns: Spawns) -> None:
    old = CheckResult("ext", "0.0.1", "99.0.0", "pipx upgrade extset", "update-available")
    seed(cache, old)
    assert notice(cache, spawns) is None


def test_host_notice_uses_current_host_version(cache: Path, spawns: Spawns) -> None:
    host = CheckResult(
        "host",
        "0.70.0",
        "0.73.1",
        "npm install -g x@latest",
        "update-available",
        method="npm-global",
        label="x",
    )
    seed(cache, host)
    assert notice(cache, spawns, host=HostFacts("x", "0.73.1", None)) is None
    shown = notice(cache, spawns, host=HostFacts("x", "0.70.0", None))
    assert shown is not None
    assert shown.lines() == (
        "x 0.73.1 is available (you have 0.70.0); run: npm install -g x@latest",
    )


def test_homebrew_told_only_once_the_release_is_a_day_old(cache: Path, spawns: Spawns) -> None:
    brew = CheckResult(
        "ext", __version__, "99.0.0", "brew upgrade extset", "update-available", method="homebrew"
    )
    seen = (FirstSeen("ext", "99.0.0", NOW - 60),)
    seed(cache, brew, first_seen=seen)
    assert notice(cache, spawns) is None
    seed(cache, brew, first_seen=seen, checked_at=NOW + DAY - 60)
    assert notice(cache, spawns, NOW + DAY) is not None


def test_set_notice_until_pulled(cache: Path, spawns: Spawns, tmp_path: Path) -> None:
    the_set = tmp_path / "set"
    (the_set / ".git").mkdir(parents=True)
    (the_set / ".git" / "HEAD").write_text("a" * 40 + "\n")
    behind = CheckResult(
        "set",
        "a" * 40,
        "b" * 40,
        f"git -C {the_set} pull && ext install",
        "update-available",
        "1 commit behind",
        "git",
        "the set",
    )
    seed(cache, behind)
    shown = notice(cache, spawns, set_dir=the_set)
    assert shown is not None
    assert shown.lines() == (
        f"the set is 1 commit behind; run: git -C {the_set} pull && ext install",
    )
    (the_set / ".git" / "HEAD").write_text("b" * 40 + "\n")  # pulled
    assert notice(cache, spawns, NOW + 2 * DAY, set_dir=the_set) is None


def test_corrupt_cache_counts_as_first_run(cache: Path, spawns: Spawns) -> None:
    cache.parent.mkdir(parents=True)
    cache.write_text("{not json")
    assert notice(cache, spawns) is None
    assert (spawns.caches, started(cache)) == ([cache], NOW)  # rewritten whole


def test_a_failing_spawner_never_breaks_the_command(cache: Path) -> None:
    def boom(*args: object) -> None:
        raise RuntimeError("no fork for you")

    assert passive_notice(now=NOW, tty=True, env={}, cache_path=cache, spawn=boom) is None


def test_an_unwritable_cache_never_breaks_the_command(tmp_path: Path, spawns: Spawns) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert notice(blocker / "updates.json", spawns) is None


def test_spawned_refresh_fills_the_cache(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A closed loopback port: the refresh fails fast and never leaves the machine.
    monkeypatch.setenv("EXT_INDEX_URL", "http://127.0.0.1:9")
    start = time.monotonic()
    proc = spawn_refresh(HostFacts(None, "0.70.0", None), None, cache)
    assert time.monotonic() - start < 1.0
    assert proc is not None
    assert list(proc.args)[:5] == [sys.executable, "-P", "-m", "installer.updates", "refresh"]  # type: ignore[arg-type]
    assert proc.wait(timeout=60) == 0
    state = load_cache(cache)
    assert state is not None and state.checked_at is not None
    ext = next(r for r in state.results if r.name == "ext")
    assert (ext.status, ext.latest) == ("unavailable", None)


def test_a_refresh_started_in_a_repository_imports_nothing_of_it(
    cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """helper-69: `python -m installer.updates` started in a cloned repository imported the
    repository's own `installer/` first, on `ext list` in a terminal."""
    marker = tmp_path / "ran"
    repo = tmp_path / "repo"
    for package in ("installer", "installer/updates"):
        (repo / package).mkdir(parents=True)
        (repo / package / "__init__.py").write_text(f"open({str(marker)!r}, 'a').write('x')\n")
    (repo / "installer/updates/__main__.py").write_text("")
    monkeypatch.chdir(repo)
    monkeypatch.setenv("EXT_INDEX_URL", "http://127.0.0.1:9")

    proc = spawn_refresh(HostFacts(None, "0.70.0", None), None, cache)

    assert proc is not None and proc.wait(timeout=60) == 0
    assert not marker.exists()
