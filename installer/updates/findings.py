"""`ext doctor`'s update checks: the detected install method and what is newer, from the cache."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from installer.doctor.finding import Finding
from installer.updates.results import CheckResult

if TYPE_CHECKING:
    from installer.updates.check import HostFacts, Report
    from installer.updates.method import InstallFacts, InstallMethod

_NAMES = {"ext": "ext", "host": "pi", "set": "the set"}


def cached_report(
    *,
    host: HostFacts | None = None,
    set_dir: Path | None = None,
    cache_path: Path | None = None,
    facts: InstallFacts | None = None,
) -> Report:
    """A Report from the cache (no network); results the user has since acted on are dropped."""
    from installer import __version__
    from installer.updates.cache import load_cache
    from installer.updates.check import Report, _safe_method
    from installer.updates.config import load_config
    from installer.updates.gitrefs import head_sha
    from installer.updates.policy import is_stale

    cache = load_cache(cache_path)
    current = {
        "ext": __version__,
        "host": host.version if host else None,
        "set": head_sha(set_dir) if set_dir else None,
    }
    from installer.updates.results import installations

    where = installations(host.resolved if host else None, set_dir, facts.prefix if facts else None)
    found = cache.results if cache else ()
    # The last check of what is installed here: several pis (or sets) may have been checked.
    tested = host.tested if host else None
    # A host not found here has no last check: a cached one is another's (helper-57: a set
    # whose pi was not found showed another set's pi's row)
    gone = "host" if host is None else None
    fresh = {r.name: r for r in found if r.name != gone and not is_stale(r, current, where, tested)}
    results = tuple(fresh.values())
    config = load_config(package=host.package if host else None)
    checked = cache.checked_at if cache and cache.checked_at is not None else 0.0
    return Report(results=results, method=_safe_method(facts), checked_at=checked, config=config)


def doctor_findings(report: Report) -> tuple[Finding, ...]:
    """The method as a check (like chezmoi's upgrade-method), then ext, host and set."""
    method = report.method
    how = f"{installed(method)} ({method.hint})" if method.hint else installed(method)
    found = [Finding("update.method", "ok" if method.hint else "info", how)]
    for name in ("ext", "host", "set"):
        result = report.get(name)
        found.append(_finding(name, result) if result else _unchecked(name))
    return tuple(found)


# How each method reads after "installed"; the rest say it in their detail.
_INSTALLED = {
    "editable": "as an editable checkout",
    "homebrew": "by Homebrew",
    "pipx": "by pipx",
    "uv-tool": "as a uv tool",
    "externally-managed": "into an externally managed Python",
}


def installed(method: InstallMethod) -> str:
    """`installed as an editable checkout`, `installed by pip --user`, … (a sentence's start)."""
    if method.name == "editable" and method.hint is None:  # no git: the checkout's place
        return f"installed as an editable checkout, {method.detail.removeprefix('editable ')}"
    if method.name in _INSTALLED:
        return f"installed {_INSTALLED[method.name]}"
    if method.name in ("pip", "uv"):
        return f"installed by {method.detail}"  # pip, pip --user, uv pip
    return method.detail or f"installed by {method.name}"  # installed from URL, not detected


def _finding(name: str, result: CheckResult) -> Finding:
    check_id = f"update.{name}"
    label = result.label or _NAMES[name]
    if result.newer:  # news, not a fault: `doctor --strict` must not fail on a release
        return Finding(check_id, "info", result.line().split("; run: ")[0], result.hint)
    if result.status == "up-to-date":
        from installer.updates.words import up_to_date

        beyond = f"; {result.detail}" if result.detail else ""  # a release past [host] tested
        return Finding(check_id, "ok", up_to_date(label, result.current) + beyond)
    if result.status == "not-configured":
        fix = elsewhere_fix(result.detail) or _configure_fix(name)
        return Finding(check_id, "info", f"{label}: {result.detail}", fix)
    return Finding(check_id, "info", f"{label}: {result.detail or result.status}", result.fix)


def _unchecked(name: str) -> Finding:
    message = f"{_NAMES[name]}: not checked yet"
    return Finding(f"update.{name}", "info", message, "ext update --check")


def elsewhere_fix(detail: str | None) -> str | None:
    """The fix when the index ext was told of answered that extset is not on it: to name
    another (helper-73: with EXT_INDEX_URL set, the fix said to set EXT_INDEX_URL); None for
    any other detail."""
    configured = (detail or "").removeprefix("not on the index of ")
    if configured == detail or not configured:
        return None
    return f"if extset is published on another index, name that index in {configured}"


def _configure_fix(name: str) -> str | None:
    if name == "ext":
        from installer.updates.paths import user_config_path

        return f"set EXT_INDEX_URL, `[updates] index` in {user_config_path()}, or pip's index-url"
    if name == "host":
        return "set EXT_NPM_REGISTRY, npm_config_registry, or registry= in ~/.npmrc"
    return None
