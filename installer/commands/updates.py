"""`ext update --check` / `ext outdated`, and the passive notice other commands show."""

from __future__ import annotations

from typing import Any

from installer.context import Context


def _host_facts(ctx: Context) -> Any:
    from installer.host import find_host
    from installer.updates import HostFacts

    info = find_host(ctx.manifest.host_command, ctx.env.environ.get("PATH"))
    return HostFacts.from_info(info) if info is not None else None


def check(ctx: Context) -> Any:
    """Check ext, the host and the set now (each with its own timeout); never raises."""
    from installer.updates import check_now

    return check_now(host=_host_facts(ctx), set_dir=ctx.set_root, env=ctx.env.environ)


def notice(ctx: Context) -> str | None:
    """The cached update notice due now, if any; never waits on the network."""
    tty = ctx.env.stdout_tty and ctx.env.stderr_tty
    if not ctx.manifest.update_check or not tty:
        return None  # decided before finding the host: scripts and CI pay nothing
    from installer.updates import passive_notice

    found = passive_notice(
        host=_host_facts(ctx), set_dir=ctx.set_root, env=ctx.env.environ, tty=tty
    )
    return found.text() if found is not None else None
