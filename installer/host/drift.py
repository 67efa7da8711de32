"""The host's version against the set's tested range: the one-line warning, or None."""

from __future__ import annotations

from typing import TYPE_CHECKING

from installer.ground.context import Context

if TYPE_CHECKING:  # a set without a tested range never needs the host module
    from installer.host.pi import HostInfo


def drift_warning(ctx: Context, host: HostInfo | None = None) -> str | None:
    """The one-line drift warning for this set and host, or None (also when either is unknown)."""
    if ctx.manifest.host_tested is None:
        return None
    from installer.host.pi import drift_message, find_host

    if host is None:
        host = find_host(ctx.manifest.host_command, ctx.env.environ.get("PATH"))
    if host is None:
        return None
    if host.version is None:
        return host.note  # a hang is said once, by the run that waited for it
    manifest = ctx.manifest
    return drift_message(host.version, manifest.host_tested, manifest.host_command, host.package)
