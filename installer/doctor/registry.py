"""The checks in the order doctor runs them, and the runner that turns any outcome into findings."""

from __future__ import annotations

import dataclasses
import difflib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from installer.doctor.checks import (
    agent,
    consent,
    deep_loader,
    flags,
    host,
    imports,
    items,
    node,
    other_host,
    setfolder,
    settings,
    shared,
    slash_ext,
    source,
    updates,
)
from installer.doctor.finding import Finding, Skip
from installer.doctor.subject import Subject
from installer.ground.errors import ExtError, Typo, UsageError
from installer.hosts.table import HOSTS

Run = Callable[[Subject], Iterable[Finding]]

# Which hosts a check looks at (`Check.hosts`): pi's own (its settings, consent, loader, Node,
# /ext), every host's (the set, the dir, its links), or the others' (their binary, their judge).
PI_ONLY = frozenset({"pi"})
EVERY = frozenset(HOSTS)
OTHERS = EVERY - PI_ONLY


@dataclass(frozen=True)
class Check:
    """One check: its id, what it looks at (for --list-checks), and the function."""

    id: str
    summary: str
    run: Run
    deep: bool = False  # only with --deep (or when named with --check)
    network: bool = False  # skipped with --no-network
    hosts: frozenset[str] = PI_ONLY  # the hosts it applies to (--host); not run for the rest
    # It reads ext's install for this host in the agent dir: not run in a dir that holds other
    # agents' installs alone (helper-87: pi's doctor in Claude Code's dir read Claude Code's
    # record and links as pi's, and gave `ext install` as the fix, which is refused there).
    here: bool = False

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "summary": self.summary,
            "deep": self.deep,
            "network": self.network,
            "hosts": sorted(self.hosts),
        }


CHECKS: tuple[Check, ...] = (
    Check("set", "the set folder is found", setfolder.found, hosts=EVERY),
    Check("set.manifest", "extset.toml parses; unknown keys", setfolder.manifest, hosts=EVERY),
    Check(
        "set.resources",
        "every resource present, names unique, links stay in the set",
        setfolder.resources,
        hosts=EVERY,
    ),
    Check(
        "set.dependencies",
        "the npm packages the set's extensions declare are installed",
        setfolder.dependencies,
    ),
    Check(
        "set.permissions",
        "no set file writable by group or others",
        setfolder.permissions,
        hosts=EVERY,
    ),
    Check("agent.dir", "the agent dir exists and is writable", agent.exists, hosts=EVERY),
    Check(
        "agent.permissions",
        "the agent dir is not writable by group or others",
        agent.perms,
        hosts=EVERY,
    ),
    Check("agent.folders", "extensions/, skills/, … are real folders", agent.folders, hosts=EVERY),
    Check(
        "agent.interrupted",
        "no run of ext cut short part-way (its journal never closed)",
        agent.interrupted,
        hosts=EVERY,
        here=True,  # a run cut short in another agent's dir is that agent's to finish
    ),
    Check(
        "items",
        "each item of the set: enabled, disabled, missing, stale",
        items.each_item,
        here=True,
    ),
    Check(
        "host.items",
        "each item placed for the host: enabled, disabled, missing, stale",
        items.host_items,
        hosts=OTHERS,
        here=True,
    ),
    Check(
        "items.foreign", "dangling links that are not ext's", items.dangling_foreign, hosts=EVERY
    ),
    Check(
        "items.by-hand",
        "items placed in the agent dir by hand, in no set",
        items.hand_placed,
        here=True,
    ),
    Check(
        "loaded-twice",
        "the set linked and also a package (user or project scope)",
        items.twice,
        here=True,
    ),
    Check(
        "skills.shared",
        "no skill of the set also in ~/.agents/skills or the project's .agents/skills",
        shared.skills,
        here=True,
    ),
    Check("settings.json", "settings.json parses", settings.parses, here=True),
    Check("settings.keys", "no retired or renamed keys left", settings.keys, here=True),
    Check("settings.seeds", "the set's first-run settings are present", settings.seeds, here=True),
    Check(
        "settings.lock", "no settings.json.lock file or stale lock dir", settings.lock, here=True
    ),
    Check("flags", "registerFlag names unique across loaded extensions", flags.unique, here=True),
    Check("host", "pi is found; where, which version", host.found),
    Check(
        "host.found",
        "the host's binary is on PATH; which version",
        other_host.found,
        hosts=OTHERS,
    ),
    Check(
        "host.tested",
        "the host's version is within [hosts.NAME] tested",
        other_host.tested,
        hosts=OTHERS,
    ),
    Check(
        "host.moved", "which package the pi found is published as (it moved at 0.74)", host.moved
    ),
    Check("host.node", "the Node on PATH can run the pi found (its engines.node)", node.runs),
    Check("host.drift", "pi's version is within [host] tested", host.drift),
    Check("host.scope", "no value import from the pi scope this pi lacks", source.scope),
    Check(
        "host.imports",
        "linked extensions' imports resolve where pi looks (0.73: from the link)",
        imports.linked,
        here=True,
    ),
    Check(
        "host.env", "PI_CODING_AGENT_DIR in this shell names the agent dir", host.env_var, here=True
    ),
    Check(
        "recorder",
        "ext's session recorder, where process guards need it",
        items.recorder,
        here=True,
    ),
    Check(
        "command",
        "/ext inside pi: ext's command file, current, its ext there",
        items.command,
        here=True,
    ),
    Check(
        "command.ext",
        "the ext /ext runs is yours, writable by nobody else",
        slash_ext.binary,
        here=True,
    ),
    Check("command.name", "no set extension registers a command named ext", slash_ext.name_clash),
    Check("consent", "approved projects whose hooks changed since", consent.approvals, here=True),
    Check(
        "consent.runner",
        "project-hooks, which runs approved hooks, is enabled",
        consent.runner,
        here=True,
    ),
    Check(
        "agent.hooks",
        "no hooks/ folder (pi warns and waits at start)",
        consent.hooks_folder,
        here=True,
    ),
    Check(
        "updates",
        "newer ext, host or set, from the update cache (one row each: updates.method, "
        "updates.ext, updates.host, updates.set)",
        updates.cached,
    ),
    Check("host.load", "start pi offline; every extension loads", host.load, deep=True, here=True),
    Check(
        "loader",
        "ext's list against pi's own loader, item by item",
        deep_loader.compare,
        deep=True,
        here=True,
    ),
    Check(
        "command.pi",
        "pi's own command list offers ext's /ext",
        slash_ext.in_pi,
        deep=True,
        here=True,
    ),
    Check(
        "host.loaded",
        "ext's list against the host's own listing, item by item",
        other_host.loaded,
        deep=True,
        hosts=OTHERS,
        here=True,
    ),
)


# The rows a check names after their thing (installer.doctor.checks.updates), each selecting
# the check that makes it; any other id is a check's own (helper-72: a typo's first part, as
# `set` of `set.manfest`, ran another check and passed).
ROWS = {f"updates.{thing}": "updates" for thing in ("method", "ext", "host", "set")}


def select_checks(ids: Sequence[str], deep: bool, host: str | None = None) -> tuple[Check, ...]:
    """The checks to run: the named ones (deep or not), else every one --deep allows; with
    `host`, of those only the ones for that host (a named one for another host is kept, and
    run_checks says why it is not run)."""
    known = {c.id: c for c in CHECKS}
    for wanted in ids:
        if wanted not in known and wanted not in ROWS:
            close = difflib.get_close_matches(wanted, [*known, *ROWS], n=1, cutoff=0.5)
            message = f"doctor has no check named {wanted!r}"
            if close:  # the command line with it, where ext knows what was typed
                raise Typo(message, wanted, close[0])
            raise UsageError(message, "see `ext doctor --list-checks`")
    ids = [ROWS.get(w, w) for w in ids]
    if ids:
        return tuple(c for c in CHECKS if c.id in ids)
    return tuple(c for c in CHECKS if (deep or not c.deep) and (host is None or host in c.hosts))


def run_checks(
    ctx: Subject,
    ids: Sequence[str] = (),
    deep: bool = False,
    network: bool = True,
    *,
    debug: bool = False,
) -> list[Finding]:
    """Run the selected checks in order; a check that raises is `failed`, never a traceback.

    With `debug`, a crashing check's exception propagates instead, traceback and all.
    """
    found: list[Finding] = []
    host = ctx.on
    elsewhere = _other_agents_only(ctx)
    for check in select_checks(ids, deep, host.name):
        if host.name not in check.hosts:
            why = f"not checked: a check of {_for(check)}, not of {host.title}"
            found.append(Finding(check.id, "info", why))
            continue
        if check.here and elsewhere:
            found.append(Finding(check.id, "info", f"not checked: {OTHER_AGENTS_ONLY}"))
            continue
        if check.network and not network:
            found.append(Finding(check.id, "info", "not checked: needs the network (--no-network)"))
            continue
        rows = [wanted for wanted in ids if ROWS.get(wanted) == check.id]
        results = run_one(check, ctx, debug=debug)
        if rows and check.id not in ids:  # `--check updates.ext`: that row (or why none)
            results = [f for f in results if f.id in rows or f.id == check.id]
        found.extend(results)
    return found


OTHER_AGENTS_ONLY = "this dir holds other agents' installs only (see agent.dir)"


def _other_agents_only(ctx: Subject) -> frozenset[str]:
    """The agents whose installs alone the agent dir holds (none: it holds this host's, or
    nothing of ext's, or cannot be read, which agent.dir and items say)."""
    if ctx.agent_dir is None or not ctx.agent_dir.is_dir():
        return frozenset()
    try:
        return ctx.other_agents()
    except (ExtError, OSError):
        return frozenset()


def _for(check: Check) -> str:
    """The hosts a check is for, as a person reads them: `pi`, `the other hosts`."""
    return "pi" if check.hosts == PI_ONLY else "the hosts other than pi"


def run_one(check: Check, ctx: Subject, *, debug: bool = False) -> list[Finding]:
    """One check's findings, each stamped with the check's id."""
    try:
        results = list(check.run(ctx))
    except Skip as skip:
        return [Finding(check.id, "info", f"not checked: {skip.reason}")]
    except ExtError as exc:  # a fault of the thing checked, said the way every command says it
        return [Finding(check.id, "error", exc.message, exc.fix)]
    except Exception as exc:  # the check's own bug: say so, and keep going
        if debug:
            raise
        summary = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        return [
            Finding(
                check.id,
                "failed",
                f"the check itself failed ({summary}); this says nothing about your install",
                "report it as a bug in ext doctor; `ext --debug doctor --check "
                f"{check.id}` shows the traceback",
            )
        ]
    return [dataclasses.replace(f, id=check.id) if not f.id else f for f in results]
