"""The host's version against the set's tested range: the one-line warning, or None."""

from __future__ import annotations

from installer.ground.context import Context

TYPE_CHECKING = False
if TYPE_CHECKING:  # a set without a tested range never needs the host module
    from installer.host.pi import HostInfo


def drift_warning(
    ctx: Context, host: HostInfo | None = None, *, trusted: bool = False
) -> str | None:
    """The one-line drift warning for this set and host, or None (also when either is unknown).

    A host command the set names is run only once the set is installed here, or `trusted`.
    """
    if ctx.manifest.host_tested is None:
        return None
    host = host or _host(ctx, trusted)
    if host is None:
        return None
    return _drift(ctx, host)


def host_warnings(ctx: Context, *, trusted: bool = False) -> tuple[str, ...]:
    """An install's words on the host: the drift warning, and that pi cannot start on the Node
    PATH finds (helper-81: pi 1.6 on Node 20 installed with no word; only doctor said it).
    Asked only of a set with a tested range, whose install looks for pi anyway."""
    if ctx.manifest.host_tested is None:
        return ()
    host = _host(ctx, trusted)
    if host is None:
        return ()
    drift = _drift(ctx, host)
    return (*((drift,) if drift else ()), *_node(ctx, host))


def _host(ctx: Context, trusted: bool) -> HostInfo | None:
    from installer.host.pi import find_host
    from installer.host.set_command import untrusted_root

    untrusted = untrusted_root(
        ctx.set_root, ctx.agent_dir, trusted, ctx.set_source, ctx.agent_dir_source
    )
    return find_host(ctx.manifest.host_command, ctx.env.environ.get("PATH"), untrusted=untrusted)


def _node(ctx: Context, host: HostInfo) -> tuple[str, ...]:
    """pi cannot start on the Node this PATH finds: why, in one line, as doctor's host.node
    judges it (`fit`: a stand-in node of a wrapper pi is not judged), which gives the fix."""
    if host.version is None:
        return ()
    from installer.host.node import fit, refusal

    why = refusal(host, fit(host, ctx.env.environ.get("PATH")), ctx.manifest.host_tested)
    return (f"{why.message}; `ext doctor` says how to fix it",) if why is not None else ()


def _drift(ctx: Context, host: HostInfo) -> str | None:
    from installer.host.pi import drift_message

    if host.version is None:
        return host.note  # a hang is said once, by the run that waited for it
    manifest = ctx.manifest
    return drift_message(
        host.version, manifest.host_tested, manifest.host_command, host.package, host.resolved
    )
