"""Check ext, the host and the set now, each with its own timeout: `ext update --check`."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from installer.updates.config import UpdateConfig, load_config
from installer.updates.fetch import (
    DEFAULT_LIMITS,
    NOT_ON_INDEX,
    UNREACHED,
    Limits,
    ask_pip,
    ask_uv,
)
from installer.updates.hostcheck import check_host
from installer.updates.method import (
    InstallFacts,
    InstallMethod,
    current_install_facts,
    detect_install_method,
    set_hint,
)
from installer.updates.results import CheckResult, Status, installations, versioned
from installer.updates.upstream import GIT_TIMEOUT, upstream_state


@dataclass(frozen=True)
class HostFacts:
    """What the host check needs from `installer.host.pi.HostInfo`."""

    package: str | None
    version: str | None
    resolved: Path | None
    command: str = "pi"
    tested: str | None = None  # the set's [host] tested: the hint stays inside it
    withheld: str | None = None  # the set's own command as it says it, not run: not trusted

    @classmethod
    def from_info(cls, info: object, tested: str | None = None) -> HostFacts | None:
        """Duck-typed from a HostInfo(command, path, resolved, version, package, scope)."""
        if info is None:
            return None
        resolved = getattr(info, "resolved", None) or getattr(info, "path", None)
        command = getattr(info, "command", None)
        return cls(
            package=_opt_str(getattr(info, "package", None)),
            version=_opt_str(getattr(info, "version", None)),
            resolved=Path(resolved) if isinstance(resolved, (str, Path)) else None,
            command=Path(command).name if isinstance(command, (str, Path)) else "pi",
            tested=tested,
            withheld=str(command) if getattr(info, "withheld", False) is True else None,
        )


@dataclass(frozen=True)
class Report:
    """The results of one check run, with how ext was installed."""

    results: tuple[CheckResult, ...]
    method: InstallMethod
    checked_at: float
    config: UpdateConfig = field(default_factory=UpdateConfig)
    warnings: tuple[str, ...] = ()  # the check ran, but something around it did not (the cache)

    @property
    def updates(self) -> tuple[CheckResult, ...]:
        """The results that have something newer."""
        return tuple(r for r in self.results if r.newer)

    def get(self, name: str) -> CheckResult | None:
        """The result for `ext`, `host` or `set`."""
        return next((r for r in self.results if r.name == name), None)

    def to_json(self) -> dict[str, object]:
        """`ext update --check --json`: updates_available, checked_at, install_method, checks."""
        # Unknown (null), not false, when a check got no answer and none found an update.
        unknown = not self.updates and any(r.unanswered for r in self.results)
        return {
            "updates_available": None if unknown else bool(self.updates),
            "checked_at": self.checked_at,
            "install_method": self.method.to_json(),
            "checks": [r.to_json() for r in self.results],
            **({"warnings": list(self.warnings)} if self.warnings else {}),
        }


def check_now(
    *,
    host: HostFacts | None = None,
    set_dir: Path | None = None,
    env: Mapping[str, str] | None = None,
    limits: Limits = DEFAULT_LIMITS,
    git_timeout: float = GIT_TIMEOUT,
    config: UpdateConfig | None = None,
    facts: InstallFacts | None = None,
    current: str | None = None,
    npm_prefix: Path | None = None,
    clock: Callable[[], float] = time.time,
    set_withheld: str | None = None,
) -> Report:
    """Run the three checks concurrently (so the wait is the slowest, not the sum); never raises.
    `set_withheld`: why the set's checkout is not asked (no git runs in it)."""
    from concurrent.futures import ThreadPoolExecutor

    env = dict(os.environ if env is None else env)
    config = config or load_config(env, package=host.package if host else None)
    method = _safe_method(facts)
    if current is None:
        from installer import __version__

        current = __version__
    with ThreadPoolExecutor(max_workers=3) as pool:
        jobs = [
            pool.submit(check_ext, config, method, current, limits, _python(facts), env),
            pool.submit(check_host, config, host, env, npm_prefix, limits),
            pool.submit(check_set, set_dir, git_timeout, env, set_withheld),
        ]
        names = ("ext", "host", "set")
        results = tuple(_settle(job.result, name) for job, name in zip(jobs, names, strict=True))
    where = installations(host.resolved if host else None, set_dir, facts.prefix if facts else None)
    results = tuple(replace(r, installation=where[r.name]) for r in results)
    return Report(
        results=results, method=method, checked_at=clock(), config=config, warnings=config.warnings
    )


def check_ext(
    config: UpdateConfig,
    method: InstallMethod,
    current: str,
    limits: Limits = DEFAULT_LIMITS,
    python: str | None = None,
    env: Mapping[str, str] | None = None,
) -> CheckResult:
    """ext against the index configured (its JSON API, else its Simple API), else against
    what pip would install."""
    unasked = CheckResult(
        "ext", current, None, None, "not-configured", "no index configured", method.name, "ext"
    )
    if config.index is not None:
        return _from_index(unasked, config, method, limits)
    if python is None:
        return unasked
    env = os.environ if env is None else env
    # The installer that owns ext: uv for a uv install (its venvs have no pip), else pip.
    asks = [(ask_uv, "uv's index")] if method.name in ("uv-tool", "uv") else []
    unreached = None
    for ask, source in [*asks, (ask_pip, "pip's index")]:
        answer = ask(python, env, timeout=limits.timeout * 3)
        if answer == NOT_ON_INDEX:  # an index is configured; extset is simply not on it
            return replace(unasked, detail=f"not on {source}")
        if answer == UNREACHED:  # an index is configured: not a matter of configuration
            unreached = unreached or source
        elif answer is not None:
            return versioned(unasked, answer.latest, method, f"from {source}")
    if unreached is not None:
        detail = f"{unreached} could not be reached"
        return replace(unasked, status="unavailable", detail=detail, unanswered=True)
    return unasked


def _from_index(
    unasked: CheckResult, config: UpdateConfig, method: InstallMethod, limits: Limits
) -> CheckResult:
    """ext against the index configured (installer.updates.pyindex)."""
    from installer.updates.pyindex import latest_on_index

    listed = latest_on_index(str(config.index), limits, config.index_url)
    source = config.index_source
    if listed.missing:  # as pip's "No matching distribution": configured, not on it
        return replace(unasked, detail=f"not on the index of {source}")
    if listed.answered and listed.latest is None:  # an answer, not the network's fault
        detail = f"the index of {source} lists no release of extset ext can read"
        return replace(unasked, status="unavailable", detail=detail)
    # pip reads its own index settings, uv none of them (helper-49): ext's own index for pip,
    # any index found for uv
    if source in ("EXT_INDEX_URL", "config.toml [updates] index") or method.name.startswith("uv"):
        from installer.updates.method import with_index

        method = with_index(method, str(config.index_url or config.index), source or "")
    return versioned(unasked, listed.latest, method, f"from {source}")


def check_set(
    set_dir: Path | None,
    timeout: float = GIT_TIMEOUT,
    env: Mapping[str, str] | None = None,
    withheld: str | None = None,
) -> CheckResult:
    """The set checkout against its upstream branch; `withheld`: why git is not run in it."""
    if set_dir is None or withheld is not None:
        said = withheld or "no set"
        return CheckResult("set", None, None, None, "not-applicable", said, label="the set")
    up = upstream_state(set_dir, timeout=timeout, env=env)
    status: Status = "not-applicable"
    if up.state == "behind":
        status = "update-available"
    elif up.state in ("up-to-date", "unavailable"):
        status = "up-to-date" if up.state == "up-to-date" else "unavailable"
    hint = set_hint(set_dir) if up.state == "behind" else None
    return CheckResult(
        "set", up.local, up.remote, hint, status, up.detail, "git", "the set",
        unanswered=up.state == "unavailable",  # git ls-remote got nothing from the remote
    )  # fmt: skip


def _python(facts: InstallFacts | None) -> str | None:
    """The interpreter whose pip to ask about ext; None when tests give facts of another."""
    import sys

    return facts.python if facts is not None else sys.executable


def _safe_method(facts: InstallFacts | None) -> InstallMethod:
    try:
        return detect_install_method(facts or current_install_facts())
    except Exception:  # detection reads foreign files; a surprise there is "unknown", not a crash
        return InstallMethod("unknown", None, "install method not detected")


def _settle(result: Callable[[], CheckResult], name: str) -> CheckResult:
    try:
        return result()
    except Exception:  # one failing check must not hide the others or trace the command
        from installer.updates.words import CHECK_FAILED

        return CheckResult(name, None, None, None, "unavailable", CHECK_FAILED, label=name)


def _opt_str(value: object) -> str | None:
    return value if isinstance(value, str) and value else None
