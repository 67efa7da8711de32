"""The host's version against the set's tested range: the one-line warning, or None."""

from __future__ import annotations

from typing import TYPE_CHECKING

from installer.ground.context import Context

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
    from installer.host.pi import drift_message, find_host
    from installer.host.set_command import untrusted_root

    if host is None:
        untrusted = untrusted_root(
            ctx.set_root, ctx.agent_dir, trusted, ctx.set_source, ctx.agent_dir_source
        )
        path = ctx.env.environ.get("PATH")
        host = find_host(ctx.manifest.host_command, path, untrusted=untrusted)
    if host is None:
        return None
    if host.version is None:
        return host.note  # a hang is said once, by the run that waited for it
    manifest = ctx.manifest
    return drift_message(
        host.version, manifest.host_tested, manifest.host_command, host.package, host.resolved
    )
