"""`ext update --check` / `ext outdated`, and the passive notice other commands show."""

from __future__ import annotations

from typing import Any

from installer.context import Context


def _host_facts(ctx: Context) -> Any:
    from installer.host import find_host
    from installer.updates import HostFacts

    info = find_host(ctx.manifest.host_command, ctx.env.environ.get("PATH"))
    return HostFacts.from_info(info, ctx.manifest.host_tested) if info is not None else None


def check(ctx: Context) -> Any:
    """Check ext, the host and the set now (each with its own timeout), and cache the results
    so doctor and the passive notices see them; never raises."""
    from installer.updates import refresh

    return refresh(host=_host_facts(ctx), set_dir=ctx.set_root, env=ctx.env.environ)


# What to do when a check could not run for want of configuration.
UNCONFIGURED = {
    "ext": "to check ext, set EXT_INDEX_URL (or index-url in your pip config, or [updates] "
    "index in ~/.config/extset/config.toml) to your package index",
    "host": "to check pi, set EXT_NPM_REGISTRY (or registry= in ~/.npmrc) to your npm registry",
}


def lines(report: Any) -> list[str]:
    """One line per thing checked; an unconfigured check says what to configure."""
    out = []
    for result in report.results:
        line = result.line()
        if result.status == "not-configured" and result.name in UNCONFIGURED:
            line += f"; {UNCONFIGURED[result.name]}"
        out.append(line)
    return out


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
