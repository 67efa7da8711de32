"""Each item of the set in the agent dir, foreign dangling links, loading twice, the recorder."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from installer.doctor.checks.agent import existing
from installer.doctor.finding import Finding, Skip, error, info, ok, warn
from installer.doctor.subject import Subject
from installer.ground.context import Context, home_of
from installer.ground.errors import ExtError
from installer.ground.shellword import shell_word
from installer.links.scan import AgentState, Entry
from installer.links.states import Item
from installer.sets.resources import Resource

if TYPE_CHECKING:
    from installer.hosts.profile import Host

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
    from installer.ground.state import load_state
    from installer.links.scan import check_folders, scan
    from installer.links.states import classify

    try:
        check_folders(agent_dir, folders=ctx.folders)
    except ExtError:
        raise Skip("a resource folder is not a real folder (see agent.folders)") from None
    try:
        resources = s.resources()
    except ExtError:
        raise Skip("the set's resources could not be read (see set.resources)") from None
    state = load_state(agent_dir)
    record = state.record_of(ctx.set_root, ctx.manifest.name)
    mode = record.mode if record else ctx.manifest.mode
    old = state.old_roots(ctx.set_root, ctx.manifest.name)
    others = [Path(o.root) for o in state.others(ctx.set_root, ctx.manifest.name)]
    if not ctx.on.is_pi:
        return _host_survey(ctx, resources, old, others)
    from installer.settings.switches import with_pi

    agent = scan(agent_dir, ctx.set_root, old, other_sets=others)
    found = [classify(agent, r) for r in resources]
    return Survey(ctx, mode, agent, tuple(with_pi(ctx, found) if mode == "link" else found))


def _host_survey(
    ctx: Context, resources: tuple[Resource, ...], old: Any, others: list[Path]
) -> Survey:
    """Another host's folders, and its items as `ext --host H list` shows them (the set's
    items it has a place for, then links of ours whose target left the set)."""
    from installer.hosts.placing import set_items
    from installer.links.scan import scan, seen
    from installer.links.states import items

    placed = set_items(ctx, resources)
    agent = scan(ctx.agent_dir, ctx.set_root, old, seen(placed), others, folders=ctx.folders)
    return Survey(ctx, "link", agent, tuple(items(ctx)[1]))


def each_item(s: Subject) -> Iterator[Finding]:
    """Enabled and disabled are fine; missing is news; in the way, stale or moved need a fix."""
    sv = survey(s)
    held = _held_instead(sv.ctx)
    found = [
        *(
            _registered(s, sv)
            if sv.mode == "register"
            else item_findings(sv.items, sv.agent, held=held)
        )
    ]
    found += _skipped_by_pi(s, sv)
    states = _registered_states(s, sv) if sv.mode == "register" else sv.items
    found += _unloadable(states)
    found += _needs_off(s, _as_listed(sv, states))
    found += _orphans(sv)
    # What needs doing first, then the count of what is fine.
    yield from sorted(found, key=lambda f: f.level == "ok")


def _unloadable(items: Iterable[Item]) -> list[Finding]:
    """An item pi loads here whose file it can no longer read whole at its start (a FIFO, a
    device, over 32 MiB): it became so after its install, which refuses one (helper-63); in
    either mode (helper-67). One left out, or switched off, pi does not read (helper-64: a
    prompt `--skip` left out was an error, and its fix was the --skip given)."""
    from installer.ground.readfile import CAP
    from installer.ground.shellword import skip_flag
    from installer.sets.modes import UNLOADABLE, unloadable

    return [
        error(
            f"pi cannot load {label} ({why}): {UNLOADABLE}",
            f"make it a regular file of at most {CAP // (1024 * 1024)} MiB, or leave it out "
            f"with `ext install {skip_flag([label])}`",
        )
        for label, why in unloadable([i.resource for i in items if i.state == "enabled"])
    ]


def _held_instead(ctx: Context) -> str:
    """The sets of this host the agent dir holds when it does not hold this one ("" when it
    holds this one, or none): doctor run from the wrong folder, whose items are not news."""
    from installer.ground.context import this_set
    from installer.ground.installs import placed

    found = placed(ctx.set_root, ctx.manifest.name, ctx.agent_dir, ctx.on.name)
    held = ", ".join(f"the set {r.name}" for r in found.held)
    return f"{held}, not {this_set(ctx.set_source)}" if held else ""


def _skipped_by_pi(s: Subject, sv: Survey) -> list[Finding]:
    """The skills on that pi skips: their file says why (installer.sets.piskill)."""
    from installer.sets.piskill import skipped

    if sv.mode == "register":
        on = [i for i in _registered_states(s, sv) if i.state == "enabled"]
    else:
        on = [i for i in sv.items if i.state == "enabled"]
    line = sv.ctx.pi_line()
    return [
        warn(f"{i.resource.label}: {why}", _give(i, why))
        for i in on
        if (why := skipped(i.resource, line))
    ]


def host_items(s: Subject) -> Iterator[Finding]:
    """Another host: each item placed in its folders, as `ext --host H list` has it; the
    problems said as for pi, first, then the count of what is fine."""
    sv = survey(s)
    install = f"ext --host {s.on.name} install"
    refused, unwritable, rest = [], [], []
    for i in sv.items:
        if i.refused:  # linked, but its SKILL.md lacks what the host needs: no install helps
            refused.append(warn(f"{i.resource.label}: {i.refused}", _give(i)))
        elif i.resource.written and i.state == "not-installed" and _why_unwritten(i):
            unwritable.append(i)
        else:
            rest.append(i)
    held = _held_instead(sv.ctx)
    items = item_findings(tuple(rest), sv.agent, s.on.title, install, s.on.name, held)
    found = [*refused, *items]
    if s.ctx is not None:
        from installer.hosts.shared import found_twice

        skills = tuple(i.resource for i in sv.items if i.resource.kind == "skill")
        for twice in found_twice(s.ctx, s.on, skills):
            what, _, fix = twice.rpartition(": ")
            found.append(warn(what, fix) if s.on.shared_twice_fix else warn(twice))
        found += _hidden_but_read(s.ctx, s.on)
    if unwritable:
        labels = ", ".join(i.resource.label for i in unwritable)
        whys = "; ".join(f"{i.resource.label}: {_why_unwritten(i)}" for i in unwritable)
        skip = ",".join(i.resource.label for i in unwritable)
        found.append(
            info(
                f"not written for {s.on.title}: {labels} ({whys})",
                f"change the template, or leave it out: `{install} --skip {shell_word(skip)}`",
            )
        )
    yield from sorted(found, key=lambda f: f.level == "ok")


def _hidden_but_read(ctx: Context, host: Host) -> list[Finding]:
    """Backups and parked skills in folders the host reads hidden folders of: loaded."""
    from installer.ground.home import expand_home
    from installer.hosts.shared import hidden_but_read, owner_of, parked_read

    out = []
    for path, folder in hidden_but_read(ctx, host):
        what = "a backup" if "/.bak/" in path else "a skill switched off (parked)"
        above = shell_word(folder.rpartition("/")[0])
        fix = f"move it out of {folder}: mv {shell_word(path)} {above}/"
        owner = owner_of(folder)
        real = expand_home(path, str(home_of(ctx.env)))
        if "/.off/" in path and owner and os.path.islink(real):
            # ext's parked link, another agent's switch: moved out, that agent's next install
            # would link it again, on (helper-55); gone, its installs leave it out with a skip
            fix = str(parked_read(ctx, host, folder, real.name, owner).switched_by)
        out.append(
            warn(
                f"{path}: {what}, which {host.title} loads all the same: it reads hidden "
                f"folders of {folder}",
                fix,
            )
        )
    return out


def _give(i: Item, why: str = "") -> str:
    """The fix for a skill its host skips, by why (`why`: pi's, else the item's own note)."""
    entries = i.resource.entries()  # the skill's file: its SKILL.md, or a root .md file
    file = entries[0] if entries else i.resource.source + "/SKILL.md"
    from installer.sets.piskill import NOT_TEXT, YAML_ERROR

    said = why or i.refused or i.note or ""
    # helper-84, helper-87: a YAML error, or a description that is not text, was told to give
    # the file "what it lacks"
    if "which YAML refuses" in said or YAML_ERROR in said:
        return f"correct the YAML of {file}'s frontmatter, as said"
    if NOT_TEXT in said:
        return f"make the description in {file} text (quote it)"
    return f"give {file} what it lacks"


def _why_unwritten(i: Item) -> str | None:
    """Why ext cannot write a host's file for this item now (Gemini CLI's TOML), or None."""
    from installer.hosts.written import wanted

    return wanted(i.resource, "").why_not  # the header is not asked for


def _as_listed(sv: Survey, items: Sequence[Item]) -> Sequence[Item]:
    """Register mode's items as `ext list` says them: one off by the filters of ext's own
    --skip is left out, not off (helper-88: list said `not-installed`, doctor "is off")."""
    if sv.mode != "register":
        return items
    from installer.ground.state import load_state
    from installer.links.states import left_out
    from installer.settings.selection import recorded_skips

    return left_out(list(items), recorded_skips(load_state(sv.ctx.agent_dir), sv.ctx))


def _needs_off(s: Subject, items: Iterable[Item]) -> list[Finding]:
    """An item on while one it requires is off or not installed (its `requires`, or a guard's
    `required_by` naming it). helper-86: `ext enable` of it beside the other off was said
    nowhere; helper-87: one left out by --skip was not said either."""
    if s.manifest is None:
        return []
    from installer.agent.guards import requirements

    states = {i.resource.label: i.state for i in items}
    said = {"disabled": "is off", "not-installed": "is not installed"}  # enable puts it in
    return [
        warn(
            f"{name} is on, but {need}, which it requires, {said[states[need]]}: {name} may "
            "fail to load or misbehave",
            f"ext enable {shell_word(need)}, or ext disable {shell_word(name)}",
        )
        for name, state in states.items()
        if state == "enabled"
        for need in requirements(s.manifest, name)
        if states.get(need) in said
    ]


def item_findings(
    items: tuple[Item, ...],
    agent: AgentState,
    host: str = "pi",
    install: str = INSTALL,
    host_name: str = "pi",
    held: str = "",
) -> Iterator[Finding]:
    """Link mode: one finding per item that needs attention, then a count of the healthy ones
    (`host`: the host's title, in words; `host_name`: its --host, in commands; `held`: the
    sets the dir holds instead of this one, whose install here is no fix)."""
    missing = [i.resource.label for i in items if i.state == "not-installed"]
    for item in items:
        if item.pi is not None and item.state != "not-installed":
            yield from _pi_says(item)
        if item.state in ("conflict", "foreign"):
            entry = agent.entries[item.path]
            yield _in_the_way(item, entry, host, install, agent.agent_dir, host_name)
        elif item.state == "stale":
            yield _stale(item, agent.entries[item.path], install)
    if missing and held:
        said = f"this dir holds {held}: see agent.dir"
        yield info(f"not installed: {', '.join(missing)} ({said})")
    elif missing:
        yield info(f"not installed: {', '.join(missing)}", install)
    live = [i for i in items if i.state in ("enabled", "disabled")]
    if live:
        off = sum(i.state == "disabled" for i in live)
        yield ok(f"{len(live) - off} enabled, {off} disabled")
    elif not items:
        yield ok("the set has no items to install")


def _pi_says(item: Item) -> Iterator[Finding]:
    """An item pi's own settings switch: off by `pi config`, or loaded from a package anyway."""
    pi = item.pi
    if pi is None:
        return
    label, name = item.resource.label, item.resource.name
    if pi.package and item.state == "enabled":
        how = f"parked it ({item.path})" if item.path != item.resource.dest else "did not link it"
        yield warn(
            f"{label}: ext {how}, yet pi loads it: {pi.describe()}",
            "drop that packages entry (see loaded-twice), or `ext install --mode register`",
        )
    elif not pi.on and item.path == item.resource.dest:
        yield info(
            f"{label}: {pi.describe()}, so pi does not load it",
            f"`ext enable {shell_word(name)}` or `pi config` switches it back on",
        )


def _in_the_way(
    item: Item,
    e: Entry,
    host: str = "pi",
    install: str = INSTALL,
    agent_dir: Path | None = None,
    host_name: str = "pi",
) -> Finding:
    label = item.resource.label
    if e.kind == "link" and e.owner == "other":
        # Not a fault: two sets of the user's hold one name, and the first one installed won.
        # Keeping it needs nothing (a skip is not recorded in link mode, so it cannot be told).
        here = f" --host {host_name}" if host_name != "pi" else ""
        here += f" --agent-dir {shell_word(agent_dir)}" if agent_dir is not None else ""
        parked = item.path == item.resource.disabled_dest  # that set's, switched off there
        loads = "neither (it is off there)" if parked else "the other one"
        return info(
            f"{label}: {item.path} is the {label} of another set ext installed here ({e.root}), "
            f"so this set's {label} is not installed; {host} loads {loads}",
            f"nothing to do to keep it; for this set's, uninstall the other set here first "
            f"(`ext --set {shell_word(Path(e.root or '.'))}{here} uninstall`), then `{install}`",
        )
    if e.kind == "link":
        what = f"a link to {e.target}, not into the set"
    else:
        what = "a folder of yours" if e.kind == "dir" else "a file of yours"
    return warn(
        f"{label}: {item.path} is {what}, so the set's {label} is not installed",
        f"{install} (backs it up beside it, then links the set's)",
    )


def _stale(item: Item, e: Entry, install: str = INSTALL) -> Finding:
    label, r = item.resource.label, item.resource
    level = error if item.path == r.dest else warn  # a disabled form is never loaded
    if r.written:  # a file ext wrote from the set's text (Gemini CLI's TOML), not a link
        return warn(
            f"{label}: {item.path} was written from an earlier {r.source}, which changed since",
            f"{install} (writes it again)",
        )
    if e.owner == "moved":
        return level(
            f"{label}: {item.path} points at an older location of the set ({e.root}), "
            "which is gone",
            f"{install} (relinks it to {r.source})",
        )
    if not e.exists:
        return level(
            f"{label}: {item.path} is a link of ext's whose target is gone ({e.target})",
            f"{install} (relinks it to {r.source})",
        )
    return warn(
        f"{label}: {item.path} points at {e.target}, not at the set's {r.source}",
        f"{install} (relinks it)",
    )


def _orphans(sv: Survey) -> Iterator[Finding]:
    """Links of ours that no item of the set accounts for: a deleted or renamed resource."""
    from installer.links.states import kinds_of
    from installer.links.strays import loads_here, places, strays

    known = places(i.resource for i in sv.items)
    kinds = kinds_of(sv.ctx)
    loaded = dict(strays(sv.agent, known, kinds))  # what an install prunes
    for path, e in sorted(sv.agent.entries.items()):
        if e.kind != "link" or e.owner not in ("ours", "moved") or path in known:
            continue
        parked = path.endswith(".off") or "/.off/" in path
        if e.exists and ".bak." in os.path.basename(path):
            yield info(
                f"{path} is a backup of a link into this set (to {e.target}), set aside by an "
                "install of another set; pi does not load it",
                f"rm {shell_word(sv.agent.agent_dir / path)}",
            )
            continue
        if path in loaded:
            yield warn(
                f"{_label(path)}: {path} links into the set, to {e.target}, which is no item "
                f"of it now; {sv.ctx.on.title} loads it all the same",
                f"{INSTALL} (prunes it)",
            )
            continue
        if e.exists and loads_here(path, e, kinds):  # a link of the user's, or one ext made
            yield info(  # whose journal is gone (trimmed): said, never pruned (helper-33)
                f"{path} links into the set, to {e.target}, which is not an item; "
                f"{sv.ctx.on.title} loads it",
                "if ext linked it for an item the set dropped: "
                f"rm {shell_word(sv.agent.agent_dir / path)}",
            )
            continue
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
    from installer.links.states import resource_at

    return resource_at(path, "").label


def _registered(s: Subject, sv: Survey) -> Iterator[Finding]:
    entries = _entries(s)
    if not entries and (old := _registered_before_a_move(sv)) is not None:
        # An error, as a link of ext's to the older location is in link mode: pi loads
        # nothing of the set (helper-39: a fleet's `doctor --json` passed such a host).
        yield error(
            f"not loaded: registered from an older location of the set ({old}), a folder "
            "that is gone (register mode)",
            INSTALL,
        )
        return
    if not entries:
        yield info("not installed: the set is not in settings.json \"packages\" (register mode)",
                   INSTALL)  # fmt: skip
        return
    found = _registered_states(s, sv)
    off = [i for i in found if i.state == "disabled"]
    by_pi = "; ".join(f"{i.resource.label}: {i.pi.describe()}" for i in off if i.pi is not None)
    yield ok(
        f"registered in settings.json as a package: {len(found) - len(off)} items on, "
        f"{len(off)} off" + (f" ({by_pi})" if by_pi else "")
    )


def _registered_before_a_move(sv: Survey) -> Path | None:
    """Where the set was before it moved, when its packages entry still names that folder."""
    from installer.links.states import Item, registered_before_a_move

    blank = [Item(i.resource, "not-installed", "settings.json") for i in sv.items]
    return registered_before_a_move(sv.ctx, blank)


def _registered_states(s: Subject, sv: Survey) -> list[Item]:
    """The items of a registered set as pi's packages entry switches them (none when the set
    is not in settings.json)."""
    from installer.settings.switches import registered_states

    if not _entries(s):
        return []
    blank = [i._replace(state="not-installed") for i in sv.items]
    return list(s.memo("registered", lambda: registered_states(sv.ctx, blank)))


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
    from installer.agent.recorder import FILES, left_by_a_move
    from installer.ground.state import load_state

    state = load_state(agent_dir)
    for path, e in sorted(sv.agent.entries.items()):
        if e.kind != "link" or e.owner != "foreign" or e.exists:
            continue
        file = next((f for f in FILES if path in (f.dest, f"{f.dest}.off")), None)
        if file is not None and left_by_a_move(state, file, e.target, e.exists):
            continue  # ext's own, from before the dir moved: `command`'s and `recorder`'s
        found = True
        parked = path.endswith(".off") or "/.off/" in path
        yield (info if parked else warn)(
            f"{path} is a link to {e.target}, which does not exist (not ext's, so left alone)",
            f"rm {shell_word(agent_dir / path)}",
        )
    if not found:
        yield ok("no dangling links")


def hand_placed(s: Subject) -> Iterator[Finding]:
    """Items in the agent dir that no set of ext's put there: pi loads them beside the set's,
    and `ext list` (the set's items) never shows them (helper-75)."""
    from installer.scaffold.adopt_scan import candidates

    sv = survey(s)
    found, not_taken = candidates(sv.agent)
    # and the names adopt would refuse (`my, ext/`), which pi loads all the same (helper-78)
    real = [c for c in not_taken if sv.agent.entries[c.rel].kind != "link"]
    # a hand-made `.off` loads nothing; a name with ", " is quoted (helper-80: `my, ext`)
    on = [shell_word(n) for n in sorted({c.label for c in (*found, *real) if not c.off})]
    if not on:
        yield ok("nothing placed by hand beside the sets' items")
        return
    shown = ", ".join(on[:_SHOWN]) + (f" and {len(on) - _SHOWN} more" if len(on) > _SHOWN else "")
    fix = "ext adopt --all --dry-run (what bringing them into the set would do)"
    if sv.ctx.set_source == "bundled":  # adopt takes nothing into ext's own set (helper-78)
        dir_ = shell_word(sv.ctx.agent_dir)
        fix = f"ext init ~/my-pi-set && ext --set ~/my-pi-set adopt --all --from {dir_} --dry-run"
    yield info(
        f"pi also loads {_count(len(on), 'item')} placed here by hand, in no set: {shown}", fix
    )


_SHOWN = 8  # names listed before "and N more"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def twice(s: Subject) -> Iterator[Finding]:
    """The set both linked and a package (user or project scope): what pi 0.73.1 does with it.

    pi loads one copy of each file (it de-duplicates by real path) and prefers a link in the
    agent dir over the package's copy; a project `.pi/settings.json` entry replaces the user
    one. So nothing loads twice, but one of ext's switches stops working.
    """
    from installer.settings.switches import package_entries, scopes_of

    sv = survey(s)
    root, agent_dir = sv.ctx.set_root, sv.ctx.agent_dir
    found = package_entries(scopes_of(sv.ctx), root)
    user = [e for sc, e in found if sc.name == "user"]
    project = [sc for sc, _ in found if sc.name == "project"]
    linked = [i.resource.label for i in sv.items if _linked_in_place(sv.agent, i)]
    if linked and found:
        where = "a project .pi/settings.json" if project and not user else "settings.json"
        stops = (
            _what_loads_from_the_package(sv)
            if sv.mode == "link"
            else "the entry's filters (`ext disable`, or pi config's switch in the package group)"
            f" have no effect on the linked items ({', '.join(linked)})"
        )
        fix = (
            f"{INSTALL} (register mode removes the links)"
            if sv.mode == "register"
            else f"drop the package: PI_CODING_AGENT_DIR={agent_dir} pi remove {root}"
            + (" -l (in that project)" if project and not user else "")
        )
        yield error(
            f"the set is linked ({', '.join(linked)}) and also a package in {where} ({root}): "
            f"pi loads each file once, the link first, so {stops}",
            fix,
        )
    elif len(user) > 1:
        yield error(
            f'the set is in settings.json "packages" {len(user)} times',
            f"keep one entry for {root} in {agent_dir / 'settings.json'}",
        )
    if project and sv.mode == "register" and user:
        yield warn(
            f"a project .pi/settings.json ({project[0].path}) registers the set too: pi uses "
            "that entry instead of the user one here, so ext's switches (in the user entry) do "
            "not apply in that project",
            f"drop one: `pi remove -l {root}` in that project, or switch there with `pi config`",
        )
    if (linked and found) or len(user) > 1:
        return
    if linked or found:
        yield ok("the set is loaded once (" + ("linked" if linked else "registered") + ")")
    else:
        yield ok("the set is not installed here, so not loaded twice either")


def _linked_in_place(agent: AgentState, item: Item) -> bool:
    """A link of ours at the item's enabled name: what pi prefers to a package's copy."""
    e = agent.entries.get(item.resource.dest)
    return e is not None and e.kind == "link" and e.owner == "ours" and e.exists


def _what_loads_from_the_package(sv: Survey) -> str:
    """Link mode with the set a package too: which of ext's switches stop working, and what
    pi loads from the package now. pi's `-path` on a link still holds: the link wins, off."""
    now = [
        i.resource.label
        for i in sv.items
        if i.state == "enabled" and i.pi is not None and i.pi.package
    ]
    return (
        "what is not linked loads from the package: a link parked as .off and "
        "`ext install --skip` have no effect (`ext disable` holds: it keeps the link, off by "
        "pi's -path)" + (f"; loaded from the package now: {', '.join(now)}" if now else "")
    )


def recorder(s: Subject) -> Iterator[Finding]:
    """ext's session recorder, which the process guards read, is there and current."""
    from installer.agent.recorder import RECORDER, status, switch_back_on, wants_recorder
    from installer.ground.state import load_state

    agent_dir = existing(s)
    if s.manifest is None or s.set_root is None:
        raise Skip("the set's manifest could not be read")
    if not wants_recorder(s.manifest):
        yield ok("not needed: the set has no process guards")
        return
    now = status(agent_dir)
    installed = load_state(agent_dir).for_root(s.set_root) is not None
    off = _recorder_off(s, agent_dir)
    if off is not None:
        yield error(
            f"ext's session recorder {off}: the process guards cannot see pi's sessions, so "
            "they refuse every disable they guard",
            switch_back_on(off),
        )
    elif now == "current":
        yield ok(f"{RECORDER} is current")
    elif now == "stale":
        yield warn(f"{RECORDER} is older than the one this ext ships", INSTALL)
    elif now == "moved":
        yield warn(
            f"{RECORDER} leads to where the agent dir was before it moved: the process guards "
            "only see sessions started with `ext launch`",
            INSTALL,
        )
    elif installed:
        yield warn(
            f"{RECORDER} is missing: the process guards only see sessions started with "
            "`ext launch`",
            INSTALL,
        )
    else:
        yield info("not installed yet (the set's process guards need it)", INSTALL)


def _recorder_off(s: Subject, agent_dir: Any) -> str | None:
    """The recorder switched off (not merely missing): parked, or by pi's own `-path`."""
    from installer.agent.recorder import blind_spot

    cwd = s.ctx.env.cwd if s.ctx is not None else None
    why = blind_spot(agent_dir, cwd, s.pi_line().strips_bom)
    return None if why is None or why.startswith("is missing") else why


def command(s: Subject) -> Iterator[Finding]:
    """`/ext` inside pi: ext's command file is linked, current, and its `ext` is still there."""
    from installer.agent.recorder import (
        COMMAND,
        command_record,
        status,
        switched_off_in_pi,
        switched_on_in_pi,
    )
    from installer.ground.state import load_state

    agent_dir = existing(s)
    now = status(agent_dir, COMMAND)
    state = load_state(agent_dir)
    record = state.for_root(s.set_root) if s.set_root is not None else None
    if now == "missing":
        # Not an error: everything works without it (`ext adopt` does not install it, say).
        why = "the set is not installed here yet" if record is None else f"no {COMMAND.dest}"
        yield info(f"/ext is not available in pi: {why}", INSTALL)
        return
    if now == "stale":
        yield warn(f"/ext is older than the one this ext ships ({COMMAND.dest})", INSTALL)
        return
    if now == "moved":
        yield warn(
            f"/ext is not available in pi: {COMMAND.dest} leads to where the agent dir "
            "was before it moved",
            INSTALL,
        )
        return
    cwd = s.ctx.env.cwd if s.ctx else None
    off = switched_off_in_pi(agent_dir, cwd, COMMAND.dest, s.pi_line().strips_bom)
    if off is not None:
        yield info(
            f"/ext is not available in pi: {COMMAND.dest} is switched off ({off})",
            switched_on_in_pi(COMMAND.dest),
        )
        return
    named = command_record(state, s.set_root)
    ext = (named.extra.get(COMMAND.key) or {}).get("ext") if named else None
    if not ext or not os.path.isabs(ext) or not os.path.isfile(ext):
        # /ext runs the recorded path only: never an `ext` that PATH finds instead.
        gone = f"the ext that installed it ({ext}) is gone" if ext else "no ext is recorded for it"
        which = "" if named is None or named is record else f" --set {shell_word(Path(named.root))}"
        yield warn(
            f"/ext is in pi, but {gone}: /ext cannot run",
            f"run `ext{which} install` with the ext you use now",
        )
        return
    yield ok(f"/ext is available in pi ({COMMAND.dest}, runs {ext})")
