"""Skills a host reads from a shared folder (`~/.agents/skills`) where ext linked them for
another host: left out of the host's own folder, so that no host finds one skill twice."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path

from installer.engine.plan import Action
from installer.ground.context import Context, home_of
from installer.ground.records import NamedTuple
from installer.ground.shellword import shell_word
from installer.hosts.profile import folder_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Protocol

    from installer.hosts.profile import Host
    from installer.sets.resources import Resource

    class _Stated(Protocol):
        """An item of `ext list`'s or of a switch's view: what shared_items reads of it."""

        @property
        def resource(self) -> Resource: ...

        @property
        def state(self) -> str: ...


def shared_reads(
    ctx: Context, host: Host, skills: tuple[Resource, ...], ahead: frozenset[Path] = frozenset()
) -> dict[Resource, str]:
    """Skills the host already reads from a shared folder where this set's own copy is linked
    (`~/.agents/skills`, linked there for Codex CLI), or will be by a host this run installs
    into first (`ahead`: their skill folders): linked into the host's own folder too, it would
    find each twice. Each maps to the shared folder, as a person reads it."""
    return {r: folders[0] for r, folders in _all_reads(ctx, host, skills, ahead).items()}


def _all_reads(
    ctx: Context, host: Host, skills: tuple[Resource, ...], ahead: frozenset[Path] = frozenset()
) -> dict[Resource, list[str]]:
    """shared_reads, with every shared folder the host reads each skill from, in its order
    (helper-55: OpenCode, reading ~/.claude/skills and ~/.agents/skills, kept a skill that a
    fix naming one folder took from the other)."""
    reads = _read_folders(ctx, host)
    if not reads:
        return {}
    found: dict[Resource, list[str]] = {}
    for r in skills:
        if r.kind != "skill":
            continue
        real = r.real or r.source
        for folder, base in reads:
            there = base / r.filename
            linked = os.path.islink(there) and os.path.realpath(there) == real
            off = there.parent / ".off" / r.filename
            parked = os.path.lexists(off)  # kept off there
            # A host that reads hidden folders (OpenCode) loads a parked link all the same
            # (helper-48: ext called it disabled there, and linked a third copy).
            read_parked = host.reads_hidden and os.path.realpath(off) == real
            if linked or read_parked or (there.parent in ahead and not parked):
                found.setdefault(r, []).append(folder)
    return found


def kept_for_other_dirs(ctx: Context, actions: tuple[Action, ...]) -> tuple[Action, ...]:
    """A link in a folder outside the agent dir (Codex CLI's ~/.agents/skills) that this run
    would unlink stays while another dir of this host holds the set: that dir reads the same
    link, and would lose it (an uninstall, or an install that leaves the item out)."""
    shared = [a for a in actions if a.action == "unlink" and os.path.isabs(a.path)]
    if not shared:
        return actions
    from installer.ground.installs import holding

    others = [d for d, host in holding(ctx.set_root, ctx.agent_dir) if host == ctx.on.name]
    if not others:
        return actions
    why = f"{ctx.on.title}'s {others[0]} holds the set too and reads it here"
    return tuple(a._replace(action="keep", detail=why) if a in shared else a for a in actions)


def twins_read(
    ctx: Context, host: Host, skills: tuple[Resource, ...]
) -> list[tuple[Resource, str, str]]:
    """The skills about to be linked into the host's own folder that have a twin in a shared
    folder it reads: another skill the host names the same (OpenCode and Gemini CLI by the
    frontmatter `name`), not this set's copy. The host would load one of the two and report a
    collision. Each with the folder, as a person reads it, and the twin's real path."""
    from installer.hosts.skill_files import host_name, refusal

    if not any(r.kind == "skill" for r in skills):
        return []  # nothing about to be linked: no shared folder read
    seen: dict[str, tuple[str, str]] = {}
    for folder, base in _read_folders(ctx, host):
        try:
            entries = sorted(os.scandir(base), key=lambda e: e.name)
        except OSError:
            continue
        for e in entries:
            skill_md = os.path.join(e.path, "SKILL.md")
            if e.name.startswith(".") or not os.path.isfile(skill_md):
                continue
            if refusal(host, skill_md) and not host.lacking_as_command:
                continue  # one the host does not load is no twin
            named = host_name(host, skill_md, e.name)
            seen.setdefault(named, (folder, os.path.realpath(e.path)))
    out = []
    for r in skills:
        if r.kind != "skill":
            continue
        named = host_name(host, os.path.join(r.source, "SKILL.md"), r.name)
        twin = seen.get(named)
        if twin is not None and twin[1] != os.path.realpath(r.real or r.source):
            out.append((r, twin[0], twin[1]))
    return out


def parked_but_read(ctx: Context, actions: tuple[Action, ...]) -> list[str]:
    """A warning per skill this switch parks (`.off/`), or per backup an install makes
    (`.bak/`), in a folder another host reads with its hidden folders (OpenCode reads
    ~/.claude/skills and ~/.agents/skills so): that host still loads it."""
    out = []
    for a in actions:
        hidden = a.target if a.action == "disable" else a.backup if a.action == "backup" else None
        if not hidden or not any(p in hidden for p in ("/.off/", "/.bak/")):
            continue
        place = Path(ctx.agent_dir, hidden)  # a HOME folder's path is absolute already
        folder = next(p for p in place.parents if p.name in (".off", ".bak")).parent
        kept = str(place.relative_to(folder))
        name = Path(a.path).name
        for h, read in _reading_hidden(ctx, folder):
            # helper-55: it may read the same skill from another shared folder as well
            other = (
                _read_elsewhere_too(ctx, h, ctx.agent_dir / a.path)
                if a.action == "disable"
                else None
            )
            elsewhere = ""
            if other:  # linked there, or parked (helper-56: a skip leaves a parked link)
                there = dict(_read_folders(ctx, h))[other] / name
                if os.path.islink(there):
                    by = switched_off_by(ctx, h, other, f"skill:{name}") or "that folder's host"
                    by += " takes it from there"
                    elsewhere = f", and from {other}/{name} too, where ext linked it ({by})"
                else:
                    by = parked_read(ctx, h, other, name, owner_of(other)).switched_by or ""
                    elsewhere = f", and from {other}/.off/{name} too, where ext parked it ({by})"
            out.append(
                f"skill:{name}: {h.title} reads {read}, hidden folders too, and still loads "
                f"it from {read}/{kept}{elsewhere}"
                + (
                    f"; for {h.title} to lose it, remove that link "
                    f"(`rm {shell_word(Path(read) / kept)}`: only the link goes) and leave it "
                    f"out of {ctx.on.title}'s installs from then on "
                    f"(`ext --host {ctx.on.name} install --skip {shell_word(f'skill:{name}')}`)"
                    if a.action == "disable"
                    else ": move that backup out of the folder"
                )
            )
    return out


def _reading_hidden(ctx: Context, folder: Path) -> list[tuple[Host, str]]:
    """The hosts in use here, but this one, that read `folder` with its hidden folders."""
    from installer.hosts.table import HOSTS

    return [
        (h, read)
        for h in HOSTS.values()
        if h.name != ctx.on.name and h.reads_hidden and _present(ctx, h)
        for read, there in _read_folders(ctx, h)
        if there == folder
    ]


def hidden_but_read(ctx: Context, host: Host) -> list[tuple[str, str]]:
    """For a host that reads hidden folders of the shared skills folders (OpenCode): each
    skill in a `.bak/` (ext's backups) or `.off/` (ext's parked links) of one, which it loads
    all the same (helper-28: OpenCode loaded a backup of the user's own `deep` in place of the
    set's, at random); as (the skill's folder, how it reads there). Its own folder's hidden
    ones it skips (tests/e2e/test_host_facts.py; helper-48: doctor said otherwise)."""
    if not host.reads_hidden:
        return []
    out = []
    for named, folder in _read_folders(ctx, host):
        for hidden in (".bak", ".off"):
            try:
                names = sorted(os.listdir(folder / hidden))
            except OSError:
                continue
            out += [
                (f"{named}/{hidden}/{name}", named)
                for name in names
                if os.path.isfile(folder / hidden / name / "SKILL.md")
            ]
    return out


def _present(ctx: Context, host: Host) -> bool:
    """Whether the host is in use here: its dir (where it reads its config from) exists."""
    from installer.hosts.dirs import host_dir

    return host_dir(ctx.env, host)[0].is_dir()


def _read_folders(ctx: Context, host: Host) -> list[tuple[str, Path]]:
    """The shared folders the host reads in this shell, each as a person names it (`~/…`) and
    where it is (under HOME, or the home its variable names)."""
    home = _reads_home(ctx, host)
    return [(f, home / f.removeprefix("~/")) for f in host.reads(ctx.env.environ)]


def _reads_home(ctx: Context, host: Host) -> Path:
    """The home the host's `also_reads` folders are under: HOME, or the variable it names."""
    named = ctx.env.environ.get(host.reads_home_var) if host.reads_home_var else None
    return Path(named) if named else home_of(ctx.env)


def lost_elsewhere(
    ctx: Context, actions: tuple[Action, ...], but: tuple[str, ...] = ()
) -> list[str]:
    """A warning per skill this run unlinks (an uninstall, an install's --skip) or parks (a
    disable) in a folder another host reads too (`~/.agents/skills`, `~/.claude/skills`),
    where that host has this set installed and so did not link the skill into its own
    folder: it loses the skill, until its install is run again (which then links it there),
    named with its dir. A parked link stays loaded by a host that reads hidden folders
    (parked_but_read says so). `but`: the hosts the same run uninstalls from too, which lose
    nothing they keep."""
    from installer.hosts.table import HOSTS

    # a HOME folder's path is absolute in the plan (profile.folder_of): the join keeps it
    gone = [
        (ctx.agent_dir / a.path, a.action == "disable")
        for a in actions
        if a.action in ("unlink", "disable")
    ]
    readers: dict[Path, list[tuple[Host, str]]] = {}
    for h in HOSTS.values():
        for folder, there in (
            _read_folders(ctx, h) if h.name != ctx.on.name and h.name not in but else ()
        ):
            readers.setdefault(there, []).append((h, folder))
    hit = []
    for path, parked in gone:
        # A link parked in `.off/` is read there only by a host that reads hidden folders
        # (helper-50: its unlink was not said to take it from OpenCode).
        hidden = path.parent.name == ".off"
        read = path.parent.parent if hidden else path.parent
        if read in readers:
            hit.append(
                (path, [
                    (h, f)
                    for h, f in readers[read]
                    if not (parked and h.reads_hidden) and (h.reads_hidden or not hidden)
                ])
            )  # fmt: skip
    if not hit:
        return []
    from installer.ground.installs import holding
    from installer.hosts.skill_files import refusal

    installed = holding(ctx.set_root, ctx.agent_dir)
    home = home_of(ctx.env)
    out = []
    for path, hosts in hit:
        for host, folder in hosts:
            if _read_elsewhere_too(ctx, host, path):
                continue  # helper-48: OpenCode reads ~/.claude/skills too, and keeps it there
            if refusal(host, os.path.join(os.path.realpath(path), "SKILL.md")):
                continue  # helper-55: it never loaded it, so it loses nothing
            for dir_, name in installed:
                if name != host.name or _own_link(host, Path(dir_), path, home):
                    continue  # helper-55: its own folder holds it too, which it keeps
                where = shell_word(Path(dir_))  # `~/…` (the text output shortens a bare one)
                out.append(
                    f"skill:{path.name}: {host.title} ({where}) reads it from {folder} and loses "
                    f"it; to link it into {host.title}'s own folder, run "
                    f"`ext --host {host.name} --agent-dir {where} install` after this"
                )
    return out


def doubled_elsewhere(ctx: Context, actions: tuple[Action, ...]) -> list[str]:
    """A warning per skill this run links into a folder another host reads too
    (`~/.agents/skills`), where that host has this set installed and its own link of the same
    skill in its own folder: from now on it finds the skill twice (helper-50: Gemini CLI
    installed first, then Codex CLI). That host's next install drops its own link
    (read_elsewhere), so the warning names that command."""
    from installer.hosts.table import HOSTS

    made = [_made(ctx, a) for a in actions if a.action in ("link", "relink", "enable")]
    if not made:
        return []
    from installer.ground.installs import holding

    installed = holding(ctx.set_root, ctx.agent_dir)
    home = home_of(ctx.env)
    out = []
    for h in HOSTS.values():
        place = h.place("skill")
        dirs = [Path(d) for d, name in installed if name == h.name]
        if h.name == ctx.on.name or place is None or not dirs:
            continue
        reads = {there: folder for folder, there in _read_folders(ctx, h)}
        for path, real in made:
            if path.parent not in reads:
                continue
            for dir_ in dirs:
                own = Path(dir_, folder_of(place, home), path.name)
                if own.parent == path.parent or not os.path.islink(own):
                    continue
                if os.path.realpath(own) != real:
                    continue
                where = shell_word(dir_)
                out.append(
                    f"skill:{path.name}: {h.title} ({where}) reads it from "
                    f"{reads[path.parent]} too and finds it twice, with its own link; run "
                    f"`ext --host {h.name} --agent-dir {where} install` after this, which "
                    "drops that link"
                )
    return out


def _made(ctx: Context, a: Action) -> tuple[Path, str]:
    """Where a link of this plan goes live, and the real path it names (an enable renames
    its parked link into place). A HOME folder's path is absolute in the plan
    (profile.folder_of): the join keeps it."""
    if a.action == "enable":
        return ctx.agent_dir / (a.target or a.path), os.path.realpath(ctx.agent_dir / a.path)
    live = ctx.agent_dir / a.path
    return live, os.path.realpath(live.parent / (a.target or ""))  # a relative target too


def _own_link(host: Host, dir_: Path, path: Path, home: Path) -> bool:
    """Whether the host's own skills folder in `dir_` links the same skill as `path` (one
    ext linked there before this shared folder held it: Gemini CLI's install first)."""
    place = host.place("skill")
    if place is None:
        return False
    own = Path(dir_, folder_of(place, home), path.name)
    return own != path and os.path.islink(own) and os.path.realpath(own) == os.path.realpath(path)


def _read_elsewhere_too(ctx: Context, host: Host, path: Path) -> str | None:
    """The other folder (as a person names it) `host` reads the skill from, whose link at
    `path` this run takes away or parks (planned, so still there), where ext linked the same
    (a parked one, for a host that reads hidden folders); None when it reads it nowhere
    else."""
    if not os.path.islink(path):
        return None
    real = os.path.realpath(path)
    own = path.parent.parent if path.parent.name == ".off" else path.parent
    for folder, base in _read_folders(ctx, host):
        if base == own:
            continue
        places = [base / path.name, *([base / ".off" / path.name] if host.reads_hidden else [])]
        if any(os.path.islink(p) and os.path.realpath(p) == real for p in places):
            return folder
    return None


def read_elsewhere(
    actions: tuple[Action, ...], shared: Mapping[Resource, str]
) -> tuple[Action, ...]:
    """The plan's links, with a skill the host reads from a shared folder said as such (its
    link of ours in the host's own folder, if one was made before, goes)."""
    out = list(actions)
    dests = {r.dest: (r, folder) for r, folder in shared.items()}
    for i, a in enumerate(out):
        if a.path in dests and a.action in ("skip", "unlink"):
            _, folder = dests[a.path]
            out[i] = a._replace(detail=f"already read from {folder}, where ext linked it")
    return tuple(out)


def owner_of(folder: str) -> str | None:
    """The host whose own place a shared folder is (`~/.agents/skills`: Codex CLI's;
    `~/.claude/skills`: Claude Code's default), for a command that switches an item there."""
    from installer.hosts.table import HOSTS

    for host in HOSTS.values():
        for place in host.places:
            if place.kind == "skill" and place.folder == folder:
                return host.name
            if place.kind == "skill" and f"{host.default_dir}/{place.folder}" == folder:
                return host.name
    return None


def found_twice(
    ctx: Context, host: Host, skills: tuple[Resource, ...], ahead: frozenset[Path] = frozenset()
) -> list[str]:
    """A warning per skill the host finds in two shared folders, each linked there by ext for
    another host (OpenCode reads ~/.claude/skills and ~/.agents/skills), or to be by a host
    this run installs into first (`ahead`: helper-48, a served first install said nothing),
    with the host's way to read only one."""
    reads = _read_folders(ctx, host)
    if len(reads) < 2:
        return []
    out = []
    for r in skills:
        if r.kind != "skill":
            continue
        real = r.real or r.source
        where = [
            folder
            for folder, base in reads
            if (os.path.islink(there := base / r.filename) and os.path.realpath(there) == real)
            or (base in ahead and not os.path.lexists(base / ".off" / r.filename))
        ]
        if len(where) > 1:
            fix = f": {host.shared_twice_fix}" if host.shared_twice_fix else ""
            out.append(
                f"{r.label}: {host.title} finds it in {' and '.join(where)}, where ext linked it "
                f"for other agents, and reports a duplicate{fix}"
            )
    return out


class SharedPlace(NamedTuple):
    """Where a host reads a skill of the set that ext linked for another agent: its path
    there, the note that says so, and the command that takes it from the host (None: no
    agent owns that folder)."""

    path: str
    note: str
    switched_by: str | None


def shared_places(
    ctx: Context, host: Host, skills: tuple[Resource, ...]
) -> dict[Resource, SharedPlace]:
    """For each of `skills` that the host reads from a shared folder where ext linked it: its
    place there (SharedPlace). `ext list` shows it on; enable/disable leave it."""
    shared = _all_reads(ctx, host, skills) if skills else {}
    out = {}
    for r, folders in shared.items():
        first, *more = (_place(ctx, host, folder, r) for folder in folders)
        if more:  # each folder's own way: one alone leaves the skill loaded from the other
            also = "; ".join(f"from {m.path} too: {m.switched_by or m.note}" for m in more)
            ways = [p.switched_by for p in (first, *more)]
            by = ", and ".join(w for w in ways if w) if all(ways) else None
            first = SharedPlace(first.path, f"{first.note}; {also}", by)
        out[r] = first
    return out


def _place(ctx: Context, host: Host, folder: str, r: Resource) -> SharedPlace:
    """The skill r as the host reads it from one shared folder, linked or parked there."""
    owner = owner_of(folder)
    if not os.path.islink(dict(_read_folders(ctx, host))[folder] / r.filename):
        return parked_read(ctx, host, folder, r.filename, owner)  # parked: read all the same
    by = switched_off_by(ctx, host, folder, r.label)  # ext's record read once, not thrice
    if owner and host.reads_hidden:  # a parked link loads all the same
        note = (
            f"{host.title} reads it from {folder}, where ext linked it, hidden folders "
            f"too: {by} takes it away"
        )
    else:
        how = (
            f"`{owner_run(ctx, owner)} enable/disable {shell_word(r.label)}`"
            if owner
            else "that folder's host"
        )
        note = f"{host.title} reads it from {folder}, where ext linked it: switch it with {how}"
    return SharedPlace(f"{folder}/{r.filename}", note, by)


def shared_items(
    ctx: Context, items: Iterable[_Stated], states: tuple[str, ...]
) -> dict[Resource, SharedPlace]:
    """shared_places of the items in `states` (one step for `ext list` and the switches,
    helper-52: it was written twice)."""
    return shared_places(ctx, ctx.on, tuple(i.resource for i in items if i.state in states))


def parked_read(
    ctx: Context, host: Host, folder: str, filename: str, owner: str | None
) -> SharedPlace:
    """A skill another agent's link keeps parked in `folder`, which `host` reads, hidden
    folders too: its path there, and the note naming what takes it away. Its agent's
    `install --skip` leaves a parked link as it is, off (helper-49: that fix changed
    nothing): the link goes by hand, and the skip keeps it out after."""
    path = f"{folder}/.off/{filename}"
    label = shell_word(f"skill:{filename}")
    # a --skip holds for its run only (README): each install after needs it (helper-50)
    skip = (
        f", and pass --skip {label} to each `{owner_run(ctx, owner)} install` after"
        if owner
        else ""
    )
    by = f"`rm {shell_word(Path(path))}` (only the link goes){skip}"
    note = f"{host.title} reads it from {folder}, where ext parked it, hidden folders too: {by}"
    return SharedPlace(path, note, by)


def owner_run(ctx: Context, owner: str) -> str:
    """`ext --host codex`, the agent that linked a skill into a shared folder, with the
    `--agent-dir` of its one dir that holds the set when that is not its default (helper-77:
    the fix without it, pasted, asked for a `~/.codex` that was never made)."""
    from installer.ground.context import same_path
    from installer.ground.installs import holding
    from installer.hosts.dirs import default_dir
    from installer.hosts.table import HOSTS

    dirs = [d for d, host in holding(ctx.set_root) if host == owner]
    run = f"ext --host {owner}"
    if len(dirs) == 1 and not same_path(dirs[0], default_dir(ctx.env, HOSTS[owner])):
        run += f" --agent-dir {shell_word(dirs[0])}"
    return run


def switched_off_by(ctx: Context, host: Host, folder: str, label: str) -> str | None:
    """The command that takes from `host` an item it reads from `folder`, where ext linked it
    for another agent, whose disable it is; a host that reads hidden folders (OpenCode) loads
    a parked link all the same, so there it is leaving the item out of that agent's installs.
    None when no agent owns the folder."""
    owner = owner_of(folder)
    if owner is None:
        return None
    if host.reads_hidden:  # the install's whole selection: its earlier --only/--skip too
        return (
            f"`{owner_run(ctx, owner)} install --skip {shell_word(label)}` (with the --only or "
            "--skip that install had)"
        )
    return f"`{owner_run(ctx, owner)} disable {shell_word(label)}`"
