"""host.node: the Node pi's `#!/usr/bin/env node` starts (the first on PATH) against its engines."""

from __future__ import annotations

from collections.abc import Iterator

from installer.doctor.finding import Finding, Skip, error, info, ok, warn
from installer.doctor.subject import Subject
from installer.host.node import Fit


def runs(s: Subject) -> Iterator[Finding]:
    """An error when the Node that would run pi cannot run it; ok when it can."""
    from installer.host.node import refusal

    host = s.runnable_host()  # a node the set's own pi names is the set's code too
    found = pi_node(s)
    if found is None:
        raise Skip(f"{s.host_command} was not found (see host)")
    pi = f"{host.command} {host.version}" if host.version else host.command
    problem = refusal(host, found, s.manifest.host_tested if s.manifest else None)
    if problem is not None:
        yield error(problem.message, problem.fix)
    elif found.node is None:
        yield info(
            f"{host.resolved} names no node in its first line: the Node that runs it is unknown"
        )
    elif found.version is None:
        yield info(f"{found.node.path} printed no version: whether it can run {pi} is unknown")
    elif found.needs is None:
        yield info(f"Node {found.version} at {found.node.path}; what {pi} needs is unknown")
    elif found.side == "in":
        yield ok(f"Node {found.version} at {found.node.path} runs {pi} (it needs {found.needs})")
    elif found.side == "newer":
        yield warn(
            f"Node {found.version} at {found.node.path} is newer than {pi} was made for "
            f"({found.needs}, engines.node in {found.source})",
            f"if {host.command} misbehaves, put a Node that meets {found.needs!r} first on PATH",
        )
    else:
        yield info(f"unknown: Node {found.version} against {found.needs!r} ({found.source})")


def pi_node(s: Subject) -> Fit | None:
    """The Node check's answer, worked out once per doctor run (None when pi is not found)."""
    from installer.host.node import fit
    from installer.host.pi import DOCTOR_VERSION_TIMEOUT

    host = s.host()
    if host is None or host.withheld:
        return None
    path = s.env.environ.get("PATH")
    # doctor asks now and waits longer, as it does for pi's own version
    return s.memo("node", lambda: fit(host, path, fresh=True, timeout=DOCTOR_VERSION_TIMEOUT))


def require_node(s: Subject) -> None:
    """Skip a check that would start pi (or its loader) under a Node that cannot run it, or
    with a settings.json pi would hang on (it would also leave its lock behind)."""
    found = pi_node(s)
    if found is not None and found.cannot_run:
        why = f"run on Node {found.version}" if found.node else f"start: no {found.missing}"
        raise Skip(f"{s.host_command} cannot {why} (see host.node)")
    from installer.settings.files import pi_would_hang

    hangs = pi_would_hang(s.agent_dir, s.env.cwd)
    if hangs is not None:
        raise Skip(f"pi was not started: {hangs[1]} (see settings)")
