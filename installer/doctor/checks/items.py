"""Each item of the set in the agent dir, foreign dangling links, loading twice, the recorder."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from installer.commands.listing import Item
from installer.context import Context
from installer.doctor.checks.agent import existing
from installer.doctor.finding import Finding, Skip, error, info, ok, warn
from installer.doctor.subject import Subject
from installer.errors import ExtError
from installer.links.scan import AgentState, Entry

INSTALL = "ext install"


@dataclass(frozen=True)
class Survey:
    """The agent dir as the link engine sees it, and the state of each item of the set."""

    ctx: Context
    mode: str
    agent: AgentState
    items: tuple[Item, ...]


def survey(s: Subject) -> Survey:
    """Scan the agent dir once for the item checks (Skip when there is nothing to scan)."""
    return s.memo("survey", lambda: _survey(s))


def _survey(s: Subject) -> Survey:
    agent_dir = existing(s)
    ctx = s.ctx
    if ctx is None:
        raise Skip("the set was not found")
    from installer.commands.listing import classify
    from installer.links.scan import check_folders, scan
    from installer.state import load_state

    try:
        check_folders(agent_dir)
    except ExtError:
        raise Skip("a resource folder is not a real folder (see agent.folders)") from None
    try:
        resources = s.resources()
    except ExtError:
        raise Skip("the set's resources could not be read (see set.resources)") from None
    state = load_state(agent_dir)
    record = state.record_of(ctx.set_root, ctx.manifest.name)
    mode = record.mode if record else ctx.manifest.mode
    agent = scan(agent_dir, ctx.set_root, state.old_roots(ctx.set_root, ctx.manifest.name))
    return Survey(ctx, mode, agent, tuple(classify(agent, r) for r in resources))


def each_item(s: Subject) -> Iterator[Finding]:
    """Enabled and disabled are fine; missing is news; in the way, stale or moved need a fix."""
    sv = survey(s)
    found = [*(_registered(s, sv) if sv.mode == "register" else item_findings(sv.items, sv.agent))]
    found += _orphans(sv)
    # What needs doing first, then the count of what is fine.
    yield from sorted(found, key=lambda f: f.level == "ok")


def item_findings(items: tuple[Item, ...], agent: AgentState) -> Iterator[Finding]:
    """Link mode: one finding per item that needs attention, then a count of the healthy ones."""
    missing = [i.resource.label for i in items if i.state == "not-installed"]
    for item in items:
        if item.state in ("conflict", "foreign"):
            yield _in_the_way(item, agent.entries[item.path])
        elif item.state == "stale":
            yield _stale(item, agent.entries[item.path])
    if missing:
        yield info(f"not installed: {', '.join(missing)}", INSTALL)
    live = [i for i in items if i.state in ("enabled", "disabled")]
    if live:
        off = sum(i.state == "disabled" for i in live)
        yield ok(f"{len(live) - off} enabled, {off} disabled")
    elif not items:
        yield ok("the set has no items to install")


def _in_the_way(item: Item, e: Entry) -> Finding:
    label = item.resource.label
    if e.kind == "link":
        what = f"a link to {e.target}, not into the set"
    else:
        what = "a folder of yours" if e.kind == "dir" else "a file of yours"
    return warn(
        f"{label}: {item.path} is {what}, so the set's {label} is not installed",
        f"{INSTALL} (backs it up beside it, then links the set's)",
    )


def _stale(item: Item, e: Entry) -> Finding:
    label, r = item.resource.label, item.resource
    level = error if item.path == r.dest else warn  # a disabled form is never loaded
    if e.owner == "moved":
        return level(
            f"{label}: {item.path} points at an older location of the set ({e.root}), "
            "which is gone",
            f"{INSTALL} (relinks it to {r.source})",
        )
    if not e.exists:
        return level(
            f"{label}: {item.path} is a link of ext's whose target is gone ({e.target})",
            f"{INSTALL} (relinks it to {r.source})",
        )
    return warn(
        f"{label}: {item.path} points at {e.target}, not at the set's {r.source}",
        f"{INSTALL} (relinks it)",
    )


def _orphans(sv: Survey) -> Iterator[Finding]:
    """Links of ours that no item of the set accounts for: a deleted or renamed resource."""
    known = {p for i in sv.items for p in (i.resource.dest, i.resource.disabled_dest)}
    for path, e in sorted(sv.agent.entries.items()):
        if e.kind != "link" or e.owner not in ("ours", "moved") or path in known:
            continue
        parked = path.endswith(".off") or "/.off/" in path
        if e.exists:
            yield info(f"{path} links into the set, to {e.target}, which is not an item")
            continue
        level = warn if parked else error
        yield level(
            f"{_label(path)}: {path} is a link of ext's to {e.target}, which is gone from the set"
            + (" (disabled, so pi does not load it)" if parked else ""),
            f"{INSTALL} (prunes it), or restore {e.target}",
        )


def _label(path: str) -> str:
    """An item name for a path in the agent dir, as `ext list` shows one: notify, prompt:fix."""
    from installer.resources import FOLDER

    folder, _, rest = path.partition("/")
    name = os.path.basename(rest.removesuffix(".off"))
    kind = next((k for k, f in FOLDER.items() if f == folder), "")
    for suffix in (".ts", ".js", ".md", ".json"):
        name = name.removesuffix(suffix)
    return name if kind == "extension" else f"{kind}:{name}"


def _registered(s: Subject, sv: Survey) -> Iterator[Finding]:
    entries = _entries(s)
    if not entries:
        yield info("not installed: the set is not in settings.json \"packages\" (register mode)",
                   INSTALL)  # fmt: skip
        return
    from installer.settings.packages import exclusions_of

    filters = {f for e in entries for f in exclusions_of(e)}
    off = sum(any(f in filters for f in i.resource.filters) for i in sv.items)
    yield ok(
        f"registered in settings.json as a package: {len(sv.items) - off} items on, {off} off "
        "(by its filters)"
    )


def _entries(s: Subject) -> list[Any]:
    try:
        return s.package_entries()
    except ExtError:
        raise Skip("settings.json cannot be read (see settings.json)") from None


def dangling_foreign(s: Subject) -> Iterator[Finding]:
    """Links that are not ext's and lead nowhere: pi fails on them; ext leaves them alone."""
    sv = survey(s)
    agent_dir = sv.agent.agent_dir
    found = False
    for path, e in sorted(sv.agent.entries.items()):
        if e.kind != "link" or e.owner != "foreign" or e.exists:
            continue
        found = True
        parked = path.endswith(".off") or "/.off/" in path
        yield (info if parked else warn)(
            f"{path} is a link to {e.target}, which does not exist (not ext's, so left alone)",
            f"rm {agent_dir / path}",
        )
    if not found:
        yield ok("no dangling links")


def twice(s: Subject) -> Iterator[Finding]:
    """The set both linked and registered as a package: pi loads every extension twice."""
    sv = survey(s)
    entries = _entries(s)
    linked = [i.resource.label for i in sv.items if i.state == "enabled"]
    root, agent_dir = sv.ctx.set_root, sv.ctx.agent_dir
    if linked and entries:
        fix = (
            f"{INSTALL} (register mode removes the links)"
            if sv.mode == "register"
            else f"drop the package: PI_CODING_AGENT_DIR={agent_dir} pi remove {root}"
        )
        yield error(
            f"the set is loaded twice: linked ({', '.join(linked)}) and registered in "
            f'settings.json "packages" ({root})',
            fix,
        )
    elif len(entries) > 1:
        yield error(
            f'the set is in settings.json "packages" {len(entries)} times',
            f"keep one entry for {root} in {agent_dir / 'settings.json'}",
        )
    elif linked or entries:
        yield ok("the set is loaded once (" + ("linked" if linked else "registered") + ")")
    else:
        yield ok("the set is not installed here, so not loaded twice either")


def recorder(s: Subject) -> Iterator[Finding]:
    """ext's session recorder, which the process guards read, is there and current."""
    from installer.recorder import RECORDER, status, wants_recorder
    from installer.state import load_state

    agent_dir = existing(s)
    if s.manifest is None or s.set_root is None:
        raise Skip("the set's manifest could not be read")
    if not wants_recorder(s.manifest):
        yield ok("not needed: the set has no process guards")
        return
    now = status(agent_dir)
    installed = load_state(agent_dir).for_root(s.set_root) is not None
    if now == "current":
        yield ok(f"{RECORDER} is current")
    elif now == "stale":
        yield warn(f"{RECORDER} is older than the one this ext ships", INSTALL)
    elif installed:
        yield warn(
            f"{RECORDER} is missing: the process guards only see sessions started with "
            "`ext launch`",
            INSTALL,
        )
    else:
        yield info("not installed yet (the set's process guards need it)", INSTALL)
