"""`ext update --check` / `ext outdated`, and the passive notice other commands show."""

from __future__ import annotations

from installer.ground.context import Context
from installer.ground.records import NamedTuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class Update(NamedTuple):
    """`ext update`'s options: `--check` or not, the same check (ext upgrades nothing)."""

    check: bool = False
    trust_set: bool = False  # run the set's own [host] command, and git in it, uninstalled


class Outdated(NamedTuple):
    """`ext outdated`'s options."""

    trust_set: bool = False


def update(ctx: Context, options: Update) -> Any:
    """`ext update [--check]`: the report `ext outdated` gives."""
    return check(ctx, options.trust_set)


def outdated(ctx: Context, options: Outdated) -> Any:
    """`ext outdated`: newer ext, pi or set, and the command to upgrade each."""
    return check(ctx, options.trust_set)


def _host_facts(ctx: Context, trusted: bool = False) -> Any:
    from installer.host.pi import find_host
    from installer.host.set_command import untrusted_root
    from installer.updates import HostFacts

    untrusted = untrusted_root(
        ctx.set_root,
        ctx.agent_dir,
        trusted,
        source=ctx.set_source,
        agent_source=ctx.agent_dir_source,
    )
    info = find_host(ctx.manifest.host_command, ctx.env.environ.get("PATH"), untrusted=untrusted)
    return HostFacts.from_info(info, ctx.manifest.host_tested) if info is not None else None


def check(ctx: Context, trust_set: bool = False) -> Any:
    """Check ext, the host and the set now (each with its own timeout), and cache the results
    so doctor and the passive notices see them; never raises. `trust_set`: --trust-set."""
    from installer.host.set_command import SET_WITHHELD, set_trusted
    from installer.updates import refresh

    where = (ctx.set_root, ctx.set_source, ctx.agent_dir, ctx.agent_dir_source)
    trusted = set_trusted(*where, trust_set)
    withheld = None if trusted else SET_WITHHELD
    host, env = _host_facts(ctx, trust_set), ctx.env.environ
    return refresh(host=host, set_dir=ctx.set_root, env=env, set_withheld=withheld)


def notice(ctx: Context) -> str | None:
    """The cached update notice due now, if any; never waits on the network."""
    tty = ctx.env.stdout_tty and ctx.env.stderr_tty
    if not ctx.manifest.update_check or not tty:
        return None  # decided before finding the host: scripts and CI pay nothing
    from installer.host.set_command import set_trusted
    from installer.updates import passive_notice

    trusted = set_trusted(ctx.set_root, ctx.set_source, ctx.agent_dir, ctx.agent_dir_source)
    set_dir = ctx.set_root if trusted else None  # no git in a set not installed
    found = passive_notice(host=_host_facts(ctx), set_dir=set_dir, env=ctx.env.environ, tty=tty)
    return found.text() if found is not None else None
