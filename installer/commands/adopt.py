"""`ext adopt`: bring extensions placed by hand in an agent dir into the set.

Each one is copied into the set at the same relative place, verified byte for byte, then the
original is moved to a timestamped backup and replaced by a link to the copy. The whole run is
one journal entry, so `ext undo` puts the agent dir (and the set) back as they were.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from installer.engine.plan import Action, Plan
from installer.engine.result import PlanResult
from installer.engine.run import Confirm, Prepared, run_plan, set_record
from installer.ground import backups, trees
from installer.ground.context import Context, same_path
from installer.ground.errors import ExtError, UsageError
from installer.ground.few import few
from installer.ground.home import expand_home
from installer.ground.records import NamedTuple
from installer.ground.shellword import shell_word
from installer.ground.state import State, load_state
from installer.links.scan import AgentState, scan
from installer.scaffold.adopt_scan import Candidate, candidates, diff, pick
from installer.sets.resources import FOLDER, Resource, discover

PREFER = ("set", "agent")


@dataclass(frozen=True)
class Adoption:
    """What happens to one candidate: the plan's lines, and what the apply step needs."""

    candidate: Candidate
    actions: tuple[Action, ...]
    dest: Path  # the set's path for it (what the agent dir's link will lead to)
    backup: str | None = None  # agent-relative; None: skipped
    copy: bool = True  # copy into the set (False: the set's own version is kept)
    set_backup: Path | None = None  # --prefer agent: where the set's version is moved
    diff: str | None = None


class Adopt(NamedTuple):
    """`ext adopt`'s options, as installer.cli.grammar names them."""

    names: tuple[str, ...] = ()
    every: bool = False
    from_dir: Path | None = None  # the front's: the agent dir it resolves the context with
    prefer: str | None = None
    clean_backups: bool = False
    dry_run: bool = False
    yes: bool = False  # the front's: the confirm it hands in does not ask


def adopt(ctx: Context, options: Adopt, confirm: Confirm) -> PlanResult:
    """Adopt the named (or all) hand-placed items; or, with --clean-backups, delete the
    backups earlier adoptions kept."""
    o = options
    if o.clean_backups:
        from installer.scaffold.adopt_backups import clean_backups

        if o.names or o.every or o.prefer:
            raise UsageError("--clean-backups takes no names", "ext adopt --clean-backups")
        return clean_backups(ctx, o.dry_run, confirm)
    if not o.names and not o.every and o.from_dir is not None:  # the fix keeps --from
        where = shell_word(expand_home(o.from_dir).absolute())
        raise UsageError(
            "name what to adopt, or pass --all", f"ext adopt --all --from {where} --dry-run"
        )
    return adopt_items(ctx, list(o.names), o.every, o.prefer, o.dry_run, confirm)


def adopt_items(
    ctx: Context,
    names: list[str],
    every: bool,
    prefer: str | None,
    dry_run: bool,
    confirm: Confirm,
) -> PlanResult:
    """Plan the adoption of the named (or all) real files and folders, show it, apply it."""
    if prefer is not None and prefer not in PREFER:
        raise UsageError(f"unknown --prefer {prefer!r}", "use --prefer set or --prefer agent")
    if not names and not every:
        raise UsageError("name what to adopt, or pass --all", "ext adopt --all --dry-run")
    if names and every:
        raise UsageError("name what to adopt, or pass --all, not both", "leave out one of them")
    _refuse_register_mode(ctx)

    def prepare() -> Prepared:
        state = load_state(ctx.agent_dir)
        agent = scan(ctx.agent_dir, ctx.set_root, state.old_roots(ctx.set_root, ctx.manifest.name))
        found, links = candidates(agent)
        chosen = pick(found, names, every, links)
        plans = _plan_all(ctx, agent, chosen, prefer)
        actions = tuple(a for p in plans for a in p.actions)
        skipped = [
            f"{p.candidate.rel}: the set has its own, different; skipped "
            "(--prefer set keeps the set's, --prefer agent takes this one)"
            for p in plans
            if p.backup is None and p.diff is not None
        ]
        not_taken = [n.line for n in links.values()] if every else []
        warnings = (*ctx.manifest.warnings, *not_taken, *skipped)
        plan = Plan("adopt", actions, warnings)
        diffs = tuple(p.diff for p in plans if p.diff)
        return Prepared(plan, diffs)

    def new_state(state: State) -> State:
        if state.for_root(ctx.set_root) is not None:
            return state
        return state.with_set(set_record(ctx, "link"))

    result = run_plan(ctx, prepare, confirm, dry_run, new_state)
    if result.plan.is_empty and result.diffs:
        # No plan is shown when there is nothing to do: the conflicts' diffs go with the notes,
        # a line each (a note is one line: its newlines would be shown as escapes).
        lines = tuple(f"    {line}" for d in result.diffs for line in d.splitlines())
        return _with_notes(result, lines)
    if result.applied:
        return _with_notes(result, (*_npm_installs(ctx, result.plan), *_next_steps(ctx)))
    return result


def _link(c: Candidate, dest: Path) -> Action:
    """The link back in the adopted entry's place; at its `.off` name when it was off."""
    return Action("link", c.rel, target=str(dest), detail="off, as you had it" if c.off else None)


def _npm_installs(ctx: Context, plan: Plan) -> tuple[str, ...]:
    """For each extension folder copied into the set whose package.json names npm packages
    that are now nowhere to be found (node_modules/ stays out of a copy), the install to run."""
    from installer.sets.dependencies import missing

    said = []
    for a in plan.actions:
        if a.action != "copy" or not a.path.startswith("extensions/") or a.target is None:
            continue
        dest = Path(a.target)
        lost = missing(dest / "index.ts", ctx.set_root, ctx.pi_line()) if dest.is_dir() else None
        if lost is not None:
            said.append(
                f"pi cannot load {a.path} until its npm packages ({', '.join(lost.names)}) are "
                f"installed, as node_modules/ stays out of the copy: {lost.fix}"
            )
    return tuple(said)


def _refuse_register_mode(ctx: Context) -> None:
    record = load_state(ctx.agent_dir).for_root(ctx.set_root)
    if record is not None and record.mode == "register":
        raise ExtError(
            f"the set is registered as a package in {ctx.agent_dir}: adopted links would load "
            "its extensions a second time",
            "switch it to links first (ext install --mode link), then adopt",
        )


def _plan_all(
    ctx: Context, agent: AgentState, chosen: list[Candidate], prefer: str | None
) -> list[Adoption]:
    own = {(r.kind, r.name): r for r in discover(ctx.set_root, ctx.pi_line())}
    namer = backups.Namer(agent.taken, backups.stamp(ctx.env.now()))
    seen: dict[tuple[str, str], Candidate] = {}
    out = []
    for c in chosen:
        on = agent.entries.get(c.in_set) if c.off else None
        if on is not None and on.kind == "link":  # the item is linked here, on
            detail = (
                f"{c.label} is linked here, on ({c.in_set}): your file stays; "
                f"`ext disable {shell_word(c.label)}` switches it off"
            )
            out.append(
                Adoption(c, (Action("skip", c.rel, detail=detail),), ctx.set_root / c.in_set)
            )
            continue
        first = seen.setdefault((c.kind, c.name), c)
        if first is not c:
            # Two of one name (alpha.ts and alpha/) would make the set refuse to load.
            detail = f"{first.filename} is adopted as {c.label} already; rename one of them"
            out.append(
                Adoption(c, (Action("skip", c.rel, detail=detail),), ctx.set_root / c.in_set)
            )
            continue
        out.append(_plan_one(ctx, c, own.get((c.kind, c.name)), prefer, namer))
    return out


def _plan_one(
    ctx: Context,
    c: Candidate,
    theirs: Resource | None,
    prefer: str | None,
    namer: backups.Namer,
) -> Adoption:
    source = ctx.agent_dir / c.rel
    dest = ctx.set_root / c.in_set
    try:
        trees.entries(source, trees.LEFT_OUT)  # all readable: files, folders and links only
    except (OSError, ExtError) as exc:
        why = exc.message if isinstance(exc, ExtError) else f"{exc.strerror}: {exc.filename}"
        return Adoption(c, (Action("skip", c.rel, detail=f"cannot be copied: {why}"),), dest)
    existing = Path(theirs.source) if theirs is not None else dest
    inward = _links_into(source, ctx.set_root)
    if inward:
        return _linked_back(c, source, existing, dest, inward, namer)
    if not os.path.lexists(existing):
        backup = _agent_backup(namer, c)
        actions = (
            Action("copy", c.rel, target=str(dest), detail=_copy_detail(source, dest)),
            Action(
                "backup",
                c.rel,
                backup=backup,
                detail=f"your {_word(c)}, kept until `ext adopt --clean-backups`",
            ),
            _link(c, dest),
        )
        return Adoption(c, actions, dest, backup)
    return _conflict(c, source, existing, dest, prefer, namer)


def _links_into(source: Path, set_root: Path) -> list[str]:
    """The links in an agent dir's folder that lead into the set: GNU Stow's `--no-folding`
    makes a real folder of links to the set's files (helper-41)."""
    real_root = os.path.realpath(set_root)
    out = []
    for rel, kind, _ in trees.entries(source, trees.LEFT_OUT):
        if kind == "link":
            real = os.path.realpath(source / rel)
            if real == real_root or real.startswith(real_root + os.sep):
                out.append(rel or ".")
    return out


def _linked_back(
    c: Candidate, source: Path, existing: Path, dest: Path, inward: list[str], namer: backups.Namer
) -> Adoption:
    """A folder holding links into the set. Each leading to the set's own file at its place
    is the set's item already: backed up and linked, as an identical one. Any other is
    skipped: copied into the set, such a link would lead the set back into itself (with
    `--prefer agent`, to itself once the set's version was moved aside)."""
    mirror = existing == dest and _mirrors(source, dest)
    if not mirror:
        detail = f"holds links into the set ({few(inward)}); copied, the set would lead to itself"
        return Adoption(c, (Action("skip", c.rel, detail=f"{detail}; merge by hand"),), dest)
    backup = _agent_backup(namer, c)
    why = "links to the set's own files (as GNU Stow's --no-folding makes)"
    actions: tuple[Action, ...] = (
        Action("backup", c.rel, backup=backup, detail=f"your {_word(c)}: {why}"),
        _link(c, dest),
    )
    return Adoption(c, actions, dest, backup, copy=False)


def _mirrors(source: Path, dest: Path) -> bool:
    """Whether `source` is `dest` over again in links: the same folders, and for each file of
    `dest` a link at the same place in `source` that leads to it."""
    theirs = trees.entries(source, trees.LEFT_OUT)
    ours = {rel: kind for rel, kind, _ in trees.entries(dest, trees.LEFT_OUT)}
    if {rel for rel, _, _ in theirs} != set(ours):
        return False
    for rel, kind, _ in theirs:
        if kind == "dir":
            if ours[rel] != "dir":
                return False
        elif kind != "link" or os.path.realpath(source / rel) != os.path.realpath(dest / rel):
            return False
    return True


def _conflict(
    c: Candidate,
    source: Path,
    existing: Path,
    dest: Path,
    prefer: str | None,
    namer: backups.Namer,
) -> Adoption:
    same = existing == dest and trees.entries(existing, trees.LEFT_OUT) == trees.entries(
        source, trees.LEFT_OUT
    )
    if same or (prefer == "set" and existing == dest):
        why = "identical to the set's" if same else "--prefer set: the set's version stays"
        backup = _agent_backup(namer, c)
        actions: tuple[Action, ...] = (
            Action("backup", c.rel, backup=backup, detail=f"your {_word(c)}; {why}"),
            _link(c, dest),
        )
        return Adoption(c, actions, dest, backup, copy=False)
    text = diff(existing, source, c.in_set, c.rel)
    if existing != dest:
        detail = f"the set has {c.label} as {existing.name}: a different layout; merge by hand"
        return Adoption(c, (Action("skip", c.rel, detail=detail),), dest, diff=text)
    if prefer != "agent":
        detail = "the set has its own, different (pass --prefer set or --prefer agent)"
        return Adoption(c, (Action("skip", c.rel, detail=detail),), dest, diff=text)
    set_backup = _set_backup(dest, c.layout, namer.when)
    backup = _agent_backup(namer, c)
    actions = (
        Action("backup", str(dest), backup=str(set_backup), detail="the set's version"),
        Action("copy", c.rel, target=str(dest), detail=_copy_detail(source, dest)),
        Action("backup", c.rel, backup=backup, detail=f"your {_word(c)}"),
        _link(c, dest),
    )
    return Adoption(c, actions, dest, backup, set_backup=set_backup, diff=text)


def _agent_backup(namer: backups.Namer, c: Candidate) -> str:
    """Where the agent dir's own keeps its bytes, relative to the agent dir."""
    return namer.pick(FOLDER[c.kind], c.filename, c.layout == "dir")


def _set_backup(dest: Path, layout: str, when: str) -> Path:
    """Where --prefer agent keeps the set's version: beside it, or in `<kind>/.bak/` (a folder)."""
    parent = Path(backups.parent(str(dest.parent), layout == "dir"))
    return parent / backups.free(dest.name, when, lambda n: os.path.lexists(parent / n))


def _copy_detail(source: Path, dest: Path) -> str:
    """What the copy step does, and what it leaves out of the set and why."""
    detail = f"into {dest}, verified byte for byte"
    gone = trees.left_out(source, trees.LEFT_OUT)
    if not gone:
        return detail
    why = "; ".join(f"{rel}: {trees.LEFT_OUT[Path(rel).name]}" for rel in gone)
    return f"{detail}; left out (the backup keeps them) {why}"


def _word(c: Candidate) -> str:
    return "folder" if c.layout == "dir" else "file"


def _with_notes(result: PlanResult, notes: tuple[str, ...]) -> PlanResult:
    return result._replace(notes=(*result.notes, *notes))


def _next_steps(ctx: Context) -> tuple[str, ...]:
    named = ctx.agent_dir_source in ("--agent-dir", "--from")
    ext = f"ext --agent-dir {shell_word(ctx.agent_dir.resolve())}" if named else "ext"
    lines = [
        f"the originals are kept as backups; once all is well: {ext} adopt --clean-backups",
        f"changed your mind? `{ext} undo` puts the agent dir and the set back as they were",
    ]
    target = ctx.manifest.agent_dir
    if named and not (target is not None and same_path(expand_home(target), ctx.agent_dir)):
        lines.append(
            f"ext finds this agent dir by itself once extset.toml has [target] "
            f'agent_dir = "{ctx.agent_dir.resolve()}"'
        )
    return tuple(lines)
