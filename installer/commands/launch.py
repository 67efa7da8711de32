"""`ext launch`: the host, pointed at the agent dir, after a drift warning when there is one."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from installer.ground.context import Context
from installer.ground.errors import ExtError
from installer.ground.records import NamedTuple
from installer.host.drift import drift_warning

if TYPE_CHECKING:  # a set without a tested range never needs the host module
    from installer.host.pi import HostInfo
    from installer.hosts.pointer import Pointer
    from installer.hosts.profile import Host


# ext launch's warnings, handed to pi: ext's /ext command file (installed with every set) says
# them as pi's own notices at startup, where pi's screen does not wipe them (ext-command.ts).
NOTICE_VAR = "EXTSET_LAUNCH_NOTICE"


class Launch(NamedTuple):
    """`ext launch`'s options: what follows `--`, the host's."""

    args: tuple[str, ...] = ()


class Exec(NamedTuple):
    """What `ext launch` runs once its warnings are shown: the host, on the agent dir."""

    host: HostInfo
    args: tuple[str, ...]
    warnings: tuple[str, ...]
    wait: bool = False  # pi's screen would wipe warnings printed before it (wiped_unsaid)

    def env(self, base: Mapping[str, str]) -> dict[str, str]:
        """pi's environment: base, with the warnings for pi to show (and no older ones)."""
        env = {k: v for k, v in base.items() if k != NOTICE_VAR}
        if self.warnings:
            env[NOTICE_VAR] = "\n".join(w.replace("\n", " ") for w in self.warnings)
        return env

    def start(self, agent_dir: Path, base: Mapping[str, str]) -> NoReturn:
        """Replace this process with pi, on the agent dir."""
        from installer.host.pi import launch as exec_pi

        exec_pi(self.host, agent_dir, list(self.args), self.env(base))


class HostExec(NamedTuple):
    """What `ext --host H launch` runs: the host's binary, its variable naming its dir."""

    host: Host
    binary: Path
    args: tuple[str, ...]
    point: Pointer
    warnings: tuple[str, ...] = ()

    def env(self, base: Mapping[str, str]) -> dict[str, str]:
        if not self.point.value:  # the host's own default dir: its variable unset
            return {k: v for k, v in base.items() if k != self.point.name}
        return {**base, self.point.name: self.point.value}

    def start(self, agent_dir: Path, base: Mapping[str, str]) -> NoReturn:
        """Replace this process with the host's binary (its signals and TTY are the host's)."""
        from installer.hosts.binary import exec_binary

        exec_binary(self.binary, [self.host.binary, *self.args], self.env(base))


def launch(ctx: Context, options: Launch) -> Exec | HostExec:
    """The host to exec, recorded as a session for the process guards, and the warnings."""
    from installer.host.set_command import refuse_strange_set

    refuse_strange_set(ctx, "launch")
    if not ctx.on.is_pi:
        return launch_host(ctx, options)
    host, warnings = prepare_launch(ctx)
    record_session(ctx, host, list(options.args))
    return Exec(host, options.args, tuple(warnings), wiped_unsaid(ctx, options.args))


# pi's options that draw no full screen (helper-49), and its commands that draw none
# (`pi --help`'s Commands; `config` is a screen of its own, which wipes as pi's does)
_NO_SCREEN = frozenset(
    {"-p", "--print", "-v", "--version", "-h", "--help", "--mode", "--list-models", "--export"}
)
_PI_COMMANDS = frozenset({"install", "remove", "uninstall", "update", "list", "auth", "mcp"})


def wiped_unsaid(ctx: Context, args: tuple[str, ...]) -> bool:
    """Whether pi's screen would wipe warnings printed before it, with nothing to say them
    again: terminals all round, pi's full screen (not one of pi's commands, print mode,
    --version, --help, rpc, …), and no /ext to say them as pi's notice (none in the agent
    dir, or pi told to load no extension). pi takes a command only as its first argument
    (package-manager-cli.js, main.js): `pi -c update` opens its screen with the message
    "update" (helper-52)."""
    env = ctx.env
    if not (env.stdin_tty and env.stdout_tty and env.stderr_tty):
        return False
    if any(a.partition("=")[0] in _NO_SCREEN for a in args):
        return False
    if args and args[0] in _PI_COMMANDS:
        return False
    if "-ne" in args or "--no-extensions" in args:
        return True
    return not (ctx.agent_dir / "extensions" / "ext-command.ts").exists()


def launch_host(ctx: Context, options: Launch) -> HostExec:
    """Another host: its binary on PATH (missing: exit 1 with the install command), pointed
    at its dir by its own variable; what that variable moves besides is said first."""
    from installer.hosts.binary import require_binary
    from installer.hosts.dirs import default_dir
    from installer.hosts.pointer import moves_others, pointer

    host = ctx.on
    point = pointer(
        host, ctx.agent_dir, default_dir(ctx.env, host) if host.unset_at_default else None
    )
    binary = require_binary(host, ctx.env.environ.get("PATH"))
    note = moves_others(host, point, ctx.env.environ)
    warnings = (f"{note}, for {host.title} and what it runs",) if note else ()
    return HostExec(host, binary, options.args, point, warnings)


def find(ctx: Context) -> HostInfo:
    """The manifest's host command, found on PATH or as a path; an error names the fix."""
    from installer.host.hints import not_found
    from installer.host.pi import find_host

    command = ctx.manifest.host_command
    host = find_host(command, ctx.env.environ.get("PATH"))
    if host is None:
        raise ExtError(*not_found(command, ctx.env.environ.get("PATH")))
    return host


def prepare_launch(ctx: Context) -> tuple[HostInfo, list[str]]:
    """The host to exec and the warnings to print first."""
    ctx.agent_dir.mkdir(parents=True, exist_ok=True)
    host = find(ctx)
    refuse_old_node(ctx, host)
    refuse_unreadable_settings(ctx)
    warning = drift_warning(ctx, host)
    return host, [warning] if warning else []


def refuse_unreadable_settings(ctx: Context) -> None:
    """An error instead of exec-ing pi into a settings.json it would hang on (a FIFO) or read
    without end (/dev/zero): the agent dir's, or the project's here."""
    from installer.settings.files import pi_would_hang

    found = pi_would_hang(ctx.agent_dir, ctx.env.cwd)
    if found is not None:
        path, why = found
        from installer.ground.shellword import aside

        raise ExtError(f"not starting pi: {why}", aside(path))


def refuse_old_node(ctx: Context, host: HostInfo) -> None:
    """An error (exit 1, with the fix) instead of exec-ing pi into its own stack trace."""
    from installer.host.node import fit, refusal

    path = ctx.env.environ.get("PATH")  # pi's session gets it as it is (its `env node` too)
    problem = refusal(host, fit(host, path, as_a_shell=True), ctx.manifest.host_tested)
    if problem is not None:
        raise problem


def record_session(ctx: Context, host: HostInfo, args: list[str]) -> None:
    """Register this process as a host session (same pid once exec'd) for process guards."""
    if not any(g.process for g in ctx.manifest.guards.values()):
        return
    from installer.agent.sessions import write_session_record

    write_session_record(ctx.agent_dir, [host.command, *args])
