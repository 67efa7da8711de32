"""The host: found, its version against [host] tested, this shell's PI_CODING_AGENT_DIR, a load."""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from pathlib import Path

from installer.doctor.checks.agent import existing
from installer.doctor.checks.failures import clash, conflict_finding, failure_fix
from installer.doctor.finding import Finding, Skip, error, info, ok, warn
from installer.doctor.subject import Subject
from installer.ground.context import same_path
from installer.ground.home import expand_home
from installer.host.pi import AGENT_DIR_VAR, HostInfo, LoadReport


def found(s: Subject) -> Iterator[Finding]:
    """Where the host is, which version, and which package (its import scope)."""
    host = s.host()
    command = s.host_command
    if host is None:
        from installer.host.hints import not_found

        said, fix = not_found(command, s.env.environ.get("PATH"))
        yield warn(f"{said}: nothing will load the set", fix)
        return
    package = f", {host.package}" if host.package else ""
    # A set's own path (made absolute from its folder) is where it is: said once.
    at = "" if command == str(host.path) else f" at {host.path}"
    if host.version is None:
        why = f" ({host.note})" if host.note else ""
        yield info(f"{command}{at}: version unknown{package}{why}")
        return
    yield ok(f"{command} {host.version}{at} (from {host.version_source}{package})")


def moved(s: Subject) -> Iterator[Finding]:
    """Which package the pi found is published as: the old one ended at its last release
    (helper-37: on pi 0.73 offline, doctor never said pi had moved, nor how to switch; ext
    knows it from its table of pi lines, without the network)."""
    from installer.host.lines import TODAY, line_of

    host = s.host()
    if host is None or host.version is None:
        raise Skip(f"{s.host_command} was not found, or its version is unknown (see host)")
    line = line_of(host.version, host.package)
    if line.package == TODAY.package:
        yield ok(f"{s.host_command} is published as {TODAY.package}, today's package")
        return
    from installer.host.lines import install_spec
    from installer.host.npmroot import npm_command

    remove = npm_command("uninstall", host.package or line.package, host.resolved, host.package)
    # The release ext is tested with, not the newest (helper-43: unpinned, it could install
    # one outside the set's range, which the update hint never names).
    spec = install_spec(TODAY, TODAY.tested)
    install = npm_command("install", spec, host.resolved, host.package)
    from installer.host.versions import where

    tested = s.manifest.host_tested if s.manifest is not None else None
    admits = tested is None or where(TODAY.tested, tested) == "in"
    when = "" if admits else f", once the set's [host] tested admits pi {TODAY.tested}"
    yield info(
        f"pi moved: from {TODAY.first} it is published as {TODAY.package} (it needs Node "
        f"{TODAY.node.removeprefix('>=')} or newer); this pi is of {line.package}, whose last "
        f"release is {line.tested}; ext supports both",
        f"to switch{when}: {remove} && {install}{_node_too(s)}",
    )


def _node_too(s: Subject) -> str:
    """What the Node on PATH lacks for today's pi, said after the switch (helper-60: pasted,
    the switch gave a pi that would not start on Node 20)."""
    from installer.ground.which import which
    from installer.host.lines import TODAY
    from installer.host.node import node_version
    from installer.host.versions import where

    node = which("node", s.env.environ.get("PATH"))
    version = node_version(Path(node)) if node is not None else None
    if version is None or where(version, TODAY.node) != "older":
        return ""
    need = TODAY.node.removeprefix(">=")
    return f"; and put a Node {need} or newer first on PATH (the one there is {version})"


def drift(s: Subject) -> Iterator[Finding]:
    """The host version against the versions the set was tested with."""
    if s.manifest is None:
        raise Skip("the set's manifest could not be read (see set.manifest)")
    host = s.host()
    if host is None:
        raise Skip(f"{s.host_command} was not found (see host)")
    yield drift_finding(host, s.manifest.host_tested, s.host_command)


def drift_finding(host: HostInfo, tested: str | None, command: str) -> Finding:
    """ok inside the range, warn outside it, info when either side cannot be read."""
    from installer.host.pi import drift_parts
    from installer.host.versions import where

    if tested is None:
        return info("the set names no tested versions ([host] tested in extset.toml)")
    side = where(host.version, tested)
    if side is None:
        return info(f"unknown: {command} {host.version or '(version unknown)'} against {tested!r}")
    if side == "in":
        return ok(f"{command} {host.version} is within the tested versions ({tested})")
    parts = drift_parts(host.version, tested, command, host.package, host.resolved)
    return warn(*parts) if parts else info(f"unknown: {command} {host.version} against {tested!r}")


def env_var(s: Subject) -> Iterator[Finding]:
    """This shell's pi reads PI_CODING_AGENT_DIR, else ~/.pi/agent: is that the agent dir?"""
    if s.agent_dir is None:
        from installer.doctor.checks.agent import existing

        existing(s)  # a Skip with the dir's own reason: missing, or unknown
        return
    yield env_finding(s.env.environ, s.agent_dir, _ext_command(s))


def env_finding(environ: Mapping[str, str], agent_dir: Path, ext: str = "ext") -> Finding:
    """Whether a pi started with `environ` reads `agent_dir`; `ext` is how to name it to ext."""
    fix = f'eval "$({ext} env)"'
    value = environ.get(AGENT_DIR_VAR)
    if value and not value.startswith(("/", "~")):  # ok here, and wrong after the next `cd`
        return warn(
            f"{AGENT_DIR_VAR} is {value}, a relative path: pi reads it from the folder it starts "
            "in, another dir in each folder",
            fix,
        )
    if value:
        if same_path(expand_home(value, environ.get("HOME")), agent_dir):
            return ok(f"{AGENT_DIR_VAR} names the agent dir: pi in this shell sees the install")
        return warn(
            f"{AGENT_DIR_VAR} is {value}: pi in this shell reads that dir, not {agent_dir}, "
            "and would not see this install",
            fix,
        )
    default = Path(environ.get("HOME") or Path.home()) / ".pi" / "agent"
    if same_path(default, agent_dir):
        return ok(f"pi reads {default} by default: pi in this shell sees the install")
    return info(
        f"{AGENT_DIR_VAR} is not set: pi in this shell reads {default}, not {agent_dir}",
        f"{fix}, or start pi with `{ext} launch`",
    )


def _ext_command(s: Subject) -> str:
    """`ext` with the options that made this choice of agent dir, for `ext env` to make it too."""
    import shlex

    args = ["ext"]
    if s.agent_source == "--agent-dir" and s.agent_dir is not None:
        args += ["--agent-dir", str(s.agent_dir)]
    elif s.set_source == "--set" and s.set_root is not None:
        args += ["--set", str(s.set_root)]
    return shlex.join(args)


def load(s: Subject) -> Iterator[Finding]:
    """--deep: start the host offline on the agent dir; an extension it cannot load is an error."""
    from installer.doctor.checks.node import require_node
    from installer.host.pi import offline_load_check

    agent_dir = existing(s)
    host = s.loading_host()  # never the set's own binary, nor a dir it chose, before install
    require_node(s)  # else every extension would seem to fail, in pi's SyntaxError
    report = offline_load_check(host, agent_dir, s.env.environ)
    root = os.path.realpath(s.set_root) if s.set_root is not None else os.sep
    for f in report.failures:
        found = clash(os.path.realpath(f.path), f.reason)
        if found is None:
            s.load_failures.add(os.path.realpath(f.path))
        else:
            s.clashes.add((found.real, found.what, found.name))
    yield from load_findings(report, _labels(s), host.command, root)


def load_findings(
    report: LoadReport, labels: Mapping[str, str], command: str, set_root: str = os.sep
) -> Iterator[Finding]:
    """One error per extension the host could not load; a conflict is a warning, and so is a
    timeout. `labels` maps real paths to item names; a missing npm module's fix names the
    install to run, in `set_root`."""
    failed = 0
    for failure in report.failures:
        real = os.path.realpath(failure.path)
        found = clash(real, failure.reason)
        if found is not None:
            yield conflict_finding(found, dict(labels))
            continue
        failed += 1
        label = labels.get(real) or labels.get(str(failure.path))
        name = f"{label}: " if label else ""
        said = f"{failure.reason}\n{failure.detail}"  # the detail holds pi's require stack
        fix = failure_fix(Path(real), said, label, str(failure.path), set_root)
        reason = failure.reason.removeprefix("Failed to load extension: ")  # said just before
        yield error(f"{name}{command} could not load {failure.path}: {reason}", fix)
    if report.timed_out:
        yield warn(
            f"{command} did not finish loading extensions offline in time; it was stopped",
            "start it by hand to see where it hangs: ext launch -- -p x --offline",
        )
    elif not failed and report.finished:
        yield ok(f"{command} loaded every extension (offline; no model was asked)")
    elif not failed:
        from installer.host.node import why_node_stopped

        why = why_node_stopped(report.output)
        yield warn(
            f"{command} stopped before it finished loading extensions"
            + (f": {why}" if why else f" (exit {report.returncode})"),
            "start it by hand to see why: ext launch -- -p x --offline",
        )


def _labels(s: Subject) -> dict[str, str]:
    """Real paths of the set's extension entry files -> their item names (`ext list`'s)."""
    from installer.doctor.checks.loaded import package_extensions

    if s.set_root is None:
        return {}
    return {os.path.realpath(e.entry): e.label for e in package_extensions(s.set_root, s.pi_line())}
