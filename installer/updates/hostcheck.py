"""The host's check: its npm package against the registry, inside the set's tested range; on a
pi of a package pi has moved away from (`installer.host.lines`), the package it moved to too."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from installer.host.lines import TODAY, line_named, line_of
from installer.updates.config import UpdateConfig
from installer.updates.fetch import (
    DEFAULT_LIMITS,
    NOT_ON_INDEX,
    UNREACHED,
    Limits,
    Releases,
    ask_npm,
    compare,
    releases_from_registry,
)
from installer.updates.hostmethod import detect_host_method, npm_global_prefix
from installer.updates.method import InstallMethod
from installer.updates.results import CheckResult, Status, versioned

if TYPE_CHECKING:
    from installer.updates.check import HostFacts


def check_host(
    config: UpdateConfig,
    host: HostFacts | None,
    env: Mapping[str, str],
    npm_prefix: Path | None = None,
    limits: Limits = DEFAULT_LIMITS,
) -> CheckResult:
    """The host's npm package against its registry: the newest release inside the set's
    tested range, and whether a newer one is out beyond it (of the package pi moved to, when
    this pi's package is an old one)."""
    if host is not None and not host.package:
        host = _wrapped(host)
    if host is None or not host.package:
        label = host.command if host else "host"
        version = host.version if host else None
        return CheckResult(
            "host", version, None, None, "not-applicable", _unknown(host), label=label
        )
    prefix = npm_prefix or npm_global_prefix(env, run=True)
    unasked = CheckResult(
        name="host",
        current=host.version,
        latest=None,
        hint=None,
        status="not-configured",
        detail="no registry configured, and no npm on PATH to ask",
        method=method_for(host, env, prefix, "latest").name,
        label=host.package,
        tested=host.tested,
    )
    answer, source = _ask(config, host.package, env, limits)
    if answer is None and config.registry is None:
        return unasked  # no npm to ask
    if answer is not None and answer.none_because is not None:
        why = _unanswered(answer, config.registry_source)
        return replace(unasked, status="unavailable", detail=why, unanswered=answer == UNREACHED)
    found = _in_range(unasked, answer, host, env, prefix, source)
    moved = moved_to(host)
    news = _ask(config, moved, env, limits)[0] if moved else None
    if moved is None or news is None or news.latest is None:
        return found
    return _moved(found, news, moved, host, env, prefix)


def _wrapped(host: HostFacts) -> HostFacts:
    """A host command that is no npm install of pi (`[host] command = "~/bin/mypi"`, a script
    that starts pi): each release of pi is of one package (`installer.host.lines`, as doctor's
    host.moved says), so its version names the package to ask; how that pi was installed stays
    unknown (`resolved` None: `method_for`). Unchanged when the version is no release."""
    from installer.host.versions import parse_version

    if parse_version(host.version) is None:
        return host
    return replace(host, package=line_of(host.version).package, resolved=None)


def _unknown(host: HostFacts | None) -> str:
    """Why the host is not checked; said after its name (`mypi: not checked: …`)."""
    if host is None:
        return "not checked: no host was found"
    if host.version is None and host.withheld is not None:
        from installer.host.set_command import withheld_note

        return withheld_note(host.withheld, "not checked: ")
    if host.version is None:
        return "not checked: it printed no version, so its pi package is unknown"
    return f"not checked: {host.version} is no release of pi's, so its package is unknown"


def _unanswered(answer: Releases, asked: str | None = None) -> str:
    """Why the registry gave no releases, in words: npm's, or the one `asked` names."""
    who = f"the registry of {asked}" if asked else "npm's registry"  # asked: ext asked it
    if answer == UNREACHED:  # npm has a registry (its own default at least): offline
        return "npm got no answer from its registry"
    if answer == NOT_ON_INDEX:
        return f"not on {who}"  # said after the package's name: `<package>: not on …`
    why = answer.none_because or ""
    code = why.partition(":")[2] if why.startswith(("npm:", "http:")) else None
    if code is None:
        return f"the answer of {who} was unreadable" if asked else "npm's answer was unreadable"
    login = code.removeprefix("E") in ("401", "403")
    need = " (it asks for a login: npm login, or an _authToken for it in ~/.npmrc)"
    return f"{who} answered {code}" + (need if login else "")


def moved_to(host: HostFacts) -> str | None:
    """The package pi is published as today, when this pi's is an older one; else None."""
    mine = line_of(host.version, host.package)
    return TODAY.package if mine.package != TODAY.package else None


def _ask(
    config: UpdateConfig, package: str, env: Mapping[str, str], limits: Limits
) -> tuple[Releases | None, str]:
    """What the configured registry (else npm itself) says is published of `package`."""
    if config.registry is not None:
        token = config.token_for(config.registry)
        answer = releases_from_registry(config.registry, package, limits, token)
        return answer, f"from {config.registry_source}"
    return ask_npm(package, env, timeout=limits.timeout * 3), "from npm's registry"


def _in_range(
    unasked: CheckResult,
    answer: Releases | None,
    host: HostFacts,
    env: Mapping[str, str],
    prefix: Path | None,
    source: str,
) -> CheckResult:
    """The hint names the newest release inside [host] tested, and says what is beyond it."""
    from installer.host.versions import newest_in, where

    latest = answer.latest if answer else None
    tested = host.tested
    if tested is None or latest is None or where(latest, tested) == "in":
        # Pinned inside a range: a cached hint must not reach past it once `latest` moves on
        # (helper-40: `@latest` was named for `^1.6.0`, and doctor reuses hints a day).
        pin = latest if tested is not None and latest is not None else "latest"
        return versioned(unasked, latest, method_for(host, env, prefix, pin), source)
    if compare(unasked.current, latest) is False:
        return replace(unasked, latest=latest, status="up-to-date", detail="")  # nothing is out
    best = newest_in(list(answer.versions), tested) if answer else None
    out = beyond(latest, tested)
    if best is None or not compare(unasked.current, best):
        status: Status = "up-to-date" if best is not None else "unavailable"
        return replace(unasked, latest=best, status=status, detail=out)
    method = method_for(host, env, prefix, best)
    if method.hint is None:
        out += f"; {method.detail}: it cannot pin {best}, upgrade to it by hand"
    return _offer(unasked, best, method, f"the newest tested; {out}")


def _moved(
    found: CheckResult,
    news: Releases,
    moved: str,
    host: HostFacts,
    env: Mapping[str, str],
    prefix: Path | None,
) -> CheckResult:
    """pi moved to `moved`: the switch to its newest tested release when the range has one;
    else the old package's own answer, saying what is out beyond the range and how to switch."""
    from installer.host.versions import newest_in, where

    latest, tested = str(news.latest), host.tested
    line = line_named(moved)
    node = f" (it needs Node {line.node})" if line else ""
    if tested is None or where(latest, tested) == "in":
        target, version, out = latest, "latest", ""
    else:
        best = newest_in(list(news.versions), tested)
        if best is None:  # nothing of the new package was tested: stay, and say what is out
            switch = method_for(host, env, prefix, latest, moved).hint
            note = f"pi moved to {moved}{node}; {beyond(latest, tested)}"
            note += f"; then: {switch}" if switch else ""
            return replace(found, detail=f"{found.detail}; {note}" if found.detail else note)
        target, version, out = best, best, f"; the newest tested; {beyond(latest, tested)}"
    method = method_for(host, env, prefix, version, moved)
    if method.hint is None:
        out += f"; {method.detail}: switch to it by hand"
    return _offer(found, target, method, f"pi moved here from {host.package}{node}{out}", moved)


def _offer(
    found: CheckResult, target: str, method: InstallMethod, detail: str, label: str | None = None
) -> CheckResult:
    """An update to `target`, installed the way `method` says (its hint), under `label`."""
    return replace(
        found,
        latest=target,
        hint=method.hint,
        status="update-available",
        detail=detail,
        method=method.name,
        label=label or found.label,
    )


def beyond(latest: str, tested: str) -> str:
    """What a release outside the tested range asks of the set's author."""
    return (
        f"{latest} is out, outside the tested range ({tested}): check its changelog and the "
        "flags and events this set uses (`pi --help`) before widening [host] tested"
    )


def method_for(
    host: HostFacts,
    env: Mapping[str, str],
    prefix: Path | None,
    version: str,
    to: str | None = None,
) -> InstallMethod:
    """The host's install method, its command installing `version` (a pin, or "latest") of
    its own package, or of `to`."""
    if host.resolved is None and host.package:  # a wrapper's pi (`_wrapped`)
        return InstallMethod(
            "unknown", None, f"{host.command} is no npm install of pi that ext can read"
        )
    return detect_host_method(host.resolved, host.package, env, prefix, version, to)
