"""`ext enable`, `ext disable` and `ext toggle`: switch items of the set on and off.

Planning is in switch_plan.py; here the guards are checked, the plan confirmed and applied
under one lock as one journal entry. What is switched off lives where pi reads it (`.off`
links, pi's own `-path` patterns; link mode writes a `-path` with `[set] switch = "pi"`), so
`ext install` and `pi config` see the same switch.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from installer.agent.guards import blockers_here, enforce, guarded, missing_requirements
from installer.engine.plan import Action, Plan, SettingsWrite
from installer.engine.result import PlanResult
from installer.engine.run import Confirm, Prepared, run_plan
from installer.ground.context import Context
from installer.ground.errors import ExtError, Refused, UsageError
from installer.ground.manifest import Manifest
from installer.ground.records import NamedTuple
from installer.ground.state import State, load_state
from installer.hosts.placing import set_items
from installer.links.shared import refuse_same_names_here
from installer.links.switch import Blocked, Switch, View, filter_of, plan_switch, read_view
from installer.links.twins import hinted
from installer.sets.modes import install_mode
from installer.sets.resources import Resource, resolve_name
from installer.settings.plan import (
    Intent,
    SettingsPlan,
    claimed,
    file_goes,
    plan_settings,
    still_written,
)

if TYPE_CHECKING:
    from installer.hosts.profile import Host


@dataclass(frozen=True)
class Choice:
    """One line of the `ext toggle` checkbox list."""

    label: str
    title: str
    checked: bool
    disabled: str | None = None
    state: str = ""
    mark: str = ""


# The checklist: the choices, and a guard check per toggle (the labels on after -> why not).
Ask = Callable[[list[Choice], Callable[[frozenset[str]], "str | None"]], "list[str] | None"]


class Choose(Protocol):
    """What `ext toggle` asks through: the checklist, and the y/N on the plan (a Confirm)."""

    def __call__(self, plan: Plan, diffs: tuple[str, ...]) -> None: ...

    def told(self, plan: Plan, diffs: tuple[str, ...]) -> None: ...

    def pick(
        self, choices: list[Choice], check: Callable[[frozenset[str]], str | None]
    ) -> list[str] | None: ...


class Enable(NamedTuple):
    """`ext enable`'s options, as installer.cli.grammar names them."""

    names: tuple[str, ...] = ()
    dry_run: bool = False
    yes: bool = False  # the front's: the confirm it hands in does not ask


class Disable(NamedTuple):
    """`ext disable`'s options, as installer.cli.grammar names them."""

    names: tuple[str, ...] = ()
    force: bool = False
    dry_run: bool = False
    yes: bool = False  # the front's: the confirm it hands in does not ask


class Toggle(NamedTuple):
    """`ext toggle`'s options, as installer.cli.grammar names them."""

    force: bool = False
    yes: bool = False  # the front's: the confirm it hands in does not ask
    dry_run: bool = False
    on: tuple[str, ...] = ()  # names, split at commas
    off: tuple[str, ...] = ()


def enable(ctx: Context, options: Enable, confirm: Confirm) -> PlanResult:
    """`ext enable NAME…`: switch items back on."""
    return switch(ctx, options.names, True, False, options.dry_run, confirm)


def disable(ctx: Context, options: Disable, confirm: Confirm) -> PlanResult:
    """`ext disable NAME…`: switch items off, unless a guard refuses (exit 3)."""
    return switch(ctx, options.names, False, options.force, options.dry_run, confirm)


def toggle(ctx: Context, options: Toggle, prompt: Choose) -> PlanResult:
    """`ext toggle`: the checklist, or `--on`/`--off` as one plan (what /ext runs)."""
    if options.on or options.off:
        if options.force:
            raise UsageError("--force is not for --on/--off", "use `ext disable --force`")
        return switch_both(ctx, options.on, options.off, options.dry_run, prompt)
    if options.dry_run:
        raise UsageError("--dry-run needs --on or --off", "name what to switch")
    # The list showed each row now -> after and refused what a guard refuses: its Enter is the
    # answer, so the plan is shown as it is applied, without asking again.
    return checklist(ctx, prompt.pick, options.force, prompt.told)


def check_guards(ctx: Context, view: View, sw: Switch, force: bool, clean: bool) -> tuple[str, ...]:
    """Refuse a disable a guard forbids (Refused, exit 3); with --force, warnings instead.
    Only what is on now is switched off: an item put in switched off was never loaded."""
    now = {r.label for r, it in view.items.items() if it.state == "enabled"}
    off = [r.label for r in sw.turned_off if r.label in now]
    on = [r.label for r in sw.turned_on]
    after = (now - set(off)) | set(on)
    warnings = enforce(blockers_here(ctx, off, after, clean, set(on) - now), force)
    known = {r.label for r in view.items}
    return warnings + missing_requirements(ctx.manifest, on, after, known)


def _named(
    ctx: Context, resources: Sequence[Resource], name: str, verb: str = "enable"
) -> list[Resource]:
    """The items a name means here; for another host, a name of a kind it takes none of is
    said as such (`hello` is a pi extension), not as a name the set does not have; a name of
    another set installed in this dir, with the command for that set (`verb`: the switch)."""
    try:
        return resolve_name(tuple(resources), name)
    except UsageError:
        _refuse_stale(ctx, name)
        if ctx.on.is_pi:  # another host's sets read by its kinds: see placed() (helper-36)
            _in_another_set(ctx, name, verb)
            raise
        from installer.hosts.placing import placed

        for r, why in placed(ctx).absent:
            if name in (r.name, r.label, r.filename):
                from installer.ground.shellword import shell_word

                raise UsageError(
                    f"{r.label} is not installed into {ctx.on.title}: {why}",
                    f"switch it in pi: `ext disable {shell_word(r.label)}` (without --host)",
                ) from None
        raise


def _in_another_set(ctx: Context, name: str, verb: str) -> None:
    """A name this set lacks that another set installed in this dir has: said, with that
    set's command (helper-35: "no item named 'notify'", and `ext list` showed none)."""
    from pathlib import Path

    from installer.ground.errors import ExtError
    from installer.ground.shellword import shell_word
    from installer.sets.resources import discover

    for other in load_state(ctx.agent_dir).others(ctx.set_root, ctx.manifest.name):
        root = Path(other.root)
        try:
            found = resolve_name(discover(root, ctx.pi_line()), name) if root.is_dir() else []
        except ExtError:
            continue
        if found:
            raise UsageError(
                f"{name!r} is no item of this set ({ctx.manifest.name}) but of "
                f"{other.name!r}, which ext installed here from {root}",
                f"switch it with that set: ext --set {shell_word(root)} {verb} {name}",
            )


def _refuse_stale(ctx: Context, name: str) -> None:
    """A name the set no longer has, whose link is still in the agent dir (`ext list` shows
    it stale): said as that, with the fix, not as a name the set never had."""
    from installer.links.states import items

    for item in items(ctx)[1]:
        r = item.resource
        if item.state != "stale" or name not in (r.name, r.label, r.filename):
            continue
        if os.path.exists(ctx.agent_dir / item.path):  # its file stays; the set dropped it
            raise UsageError(
                f"{r.label} is no item of the set now, yet its link in the agent dir loads "
                f"({item.path})",
                "run `ext install` to prune it",
            )
        raise UsageError(
            f"{r.label} is gone from the set: its link in the agent dir is stale ({item.path})",
            f"run `ext install` to prune it, or put {r.source or item.path} back",
        )


def switch(
    ctx: Context, names: Sequence[str], enable: bool, force: bool, dry_run: bool, confirm: Confirm
) -> PlanResult:
    """`ext enable NAME…` / `ext disable NAME…`."""
    if not names:
        raise UsageError("name at least one item", "run `ext list` to see the names")
    resources = set_items(ctx)
    command = "enable" if enable else "disable"
    chosen = dict.fromkeys(r for n in names for r in _named(ctx, resources, n, command))
    want = dict.fromkeys(chosen, enable)
    return apply_switch(ctx, command, resources, want, force, dry_run, confirm, names)


def switch_both(
    ctx: Context, on: Sequence[str], off: Sequence[str], dry_run: bool, confirm: Confirm
) -> PlanResult:
    """`ext toggle --on NAME… --off NAME…`: both directions as one plan (what `/ext` applies)."""
    resources = set_items(ctx)
    want = {r: True for n in on for r in _named(ctx, resources, n, "toggle --on")}
    for r in (r for n in off for r in _named(ctx, resources, n, "toggle --off")):
        if want.get(r):
            raise UsageError(f"{r.label} is named by both --on and --off", "name it once")
        want[r] = False
    return apply_switch(ctx, "toggle", resources, want, False, dry_run, confirm, (*on, *off))


def checklist(ctx: Context, ask: Ask, force: bool, confirm: Confirm) -> PlanResult:
    """`ext toggle`: pick in a checkbox list, then apply every change as one plan."""
    if not (ctx.env.stdin_tty and ctx.env.stderr_tty):
        raise UsageError(
            "toggle needs a terminal to show its checklist",
            # names joined by commas (helper-89: `--on a b` read `b` as a stray argument)
            "use `ext toggle --on NAME,NAME --off NAME --yes` (or `enable`/`disable NAME…`)",
        )
    mode = install_mode(ctx, None)
    resources = set_items(ctx)
    view = read_view(ctx, mode, resources)

    def refusal(on_after: frozenset[str]) -> str | None:
        """Why the guards refuse this batch as it stands (checked at each toggle), or None."""
        want = _wanted(view, on_after)
        try:
            sw = plan_switch(view, want, str(ctx.set_root), ctx.manifest.switch)
            check_guards(ctx, view, sw, force, clean=False)
        except Refused as exc:
            return exc.message.removesuffix("; nothing was written")
        return None

    picked = ask(choices(ctx.manifest, view), refusal)
    if picked is None:
        raise Refused("cancelled; nothing was written")
    want = _wanted(view, frozenset(picked))
    if not want:  # left with no box changed: the list on screen said it all
        return PlanResult(Plan("toggle"), changed=False, dry_run=False, said=False)
    return apply_switch(ctx, "toggle", resources, want, force, False, confirm)


def _asked(command: str, want: Mapping[Resource, bool]) -> tuple[str, ...]:
    """The items a switch was asked for, as its command line names them (`--on a --off b` for
    toggle's, the picker's included), for its journal."""
    if command != "toggle":
        return tuple(r.label for r in want)
    return tuple(w for r, on in want.items() for w in ("--on" if on else "--off", r.label))


def _wanted(view: View, on_after: frozenset[str]) -> dict[Resource, bool]:
    """Each item the checklist changes: on or off (a box of an item left out, ticked: on)."""
    return {
        r: r.label in on_after
        for r, it in view.items.items()
        if (it.switchable or view.puttable(r)) and (it.state == "enabled") != (r.label in on_after)
    }


def choices(manifest: Manifest, view: View) -> list[Choice]:
    """One checkbox per item: checked = enabled, its state, and `[guarded]` where one applies."""
    from installer.ground.screen import cells, pad

    width = max((cells(r.label) for r in view.items), default=4)
    out = []
    for r, it in view.items.items():
        mark = "  [guarded]" if r.kind == "extension" and guarded(manifest, r.name) else ""
        by_pi = f"  [{it.pi.describe()}]" if it.pi is not None else ""
        title = f"{pad(r.label, width)}  {it.state}{mark}{by_pi}"
        disabled = None if it.switchable or view.puttable(r) else (it.note or it.state)
        marks = f"{mark}{by_pi}".strip()
        out.append(Choice(r.label, title, it.state == "enabled", disabled, it.state, marks))
    return out


def _refuse_unread_settings(ctx: Context) -> None:
    """Register mode: settings.json, which holds the set's entry, as ext's writer reads it;
    what it refuses (a comment, a byte-order mark, a lock file) is said as install says it."""
    from installer.settings.plan import settings_path
    from installer.settings.store import read_settings
    from installer.settings.switches import scopes_of

    path = settings_path(ctx)
    read_settings(path)
    user = next((sc for sc in scopes_of(ctx) if sc.path == path and sc.unread), None)
    if user is not None:  # a file at its lock path (helper-61): pi reads it as empty
        raise ExtError(f"{user.unread}; nothing was changed", user.fix)


def apply_switch(
    ctx: Context,
    command: str,
    resources: Sequence[Resource],
    want: Mapping[Resource, bool],
    force: bool,
    dry_run: bool,
    confirm: Confirm,
    named: Sequence[str] = (),
) -> PlanResult:
    """Plan, check the guards, confirm, and apply under one lock as one journal entry."""
    mode = install_mode(ctx, None)
    last: list[Switch] = []

    def prepare() -> Prepared:
        # What install refuses, enable does not sneak in: another set's skill of one name.
        refuse_same_names_here(ctx, [r for r, on in want.items() if on])
        if mode == "register":  # the entry is the switch: one ext cannot read is no "not
            _refuse_unread_settings(ctx)  # registered" (helper-60: exit 0, nothing switched)
        view = read_view(ctx, mode, resources)
        sw = plan_switch(view, want, str(ctx.set_root), ctx.manifest.switch)
        # By name from a shell (a script reads the exit code); toggle's batches (the picker,
        # /ext inside pi) apply the rest and say what was left, row by row.
        if named and command in ("enable", "disable") and sw.blocked:
            raise _blocked(sw.blocked)
        guard_warnings = check_guards(ctx, view, sw, force, clean=not dry_run)
        sp = SettingsPlan((), None, None, ())
        if sw.flips:  # an enable that empties a settings.json ext made takes the file too
            ours = any(f.on for f in sw.flips) and _made_settings(ctx)
            sp = plan_settings(ctx, Intent(flips=sw.flips, drop_file=ours))
        warnings = (*guard_warnings, *sw.warnings, *sp.warnings, *_skips(ctx, want))
        if not ctx.on.is_pi:  # a host that reads this host's folder, hidden folders too
            from installer.hosts.shared import doubled_elsewhere, lost_elsewhere, parked_but_read

            warnings += (
                *parked_but_read(ctx, sw.actions),
                *lost_elsewhere(ctx, sw.actions),
                *doubled_elsewhere(ctx, sw.actions),
            )
        actions = hinted(_carrying(sw.actions, sp), ctx, view, want, named)
        plan = Plan(command, actions, warnings, asked=_asked(command, want))
        last[:] = [sw]
        return Prepared(plan, (sp.diff,) if sp.diff else ())

    mine = [f for r in want for f in filter_of(r)]

    def new_state(state: State) -> State:
        return still_written(claimed(state, ctx.set_root, mine), ctx)

    result = run_plan(ctx, prepare, confirm, dry_run, new_state if mode == "register" else None)
    return result._replace(notes=(*last[-1].notes, *_summary(result, last[-1], ctx.on)))


def _blocked(blocked: Sequence[Blocked]) -> Refused:
    """An enable or disable by name that an entry not ours stands in the way of: refused as a
    whole (exit 3, nothing written), as a guard refuses, so that a script sees it undone."""
    said = "; ".join(f"{b.label} ({b.why})" for b in blocked)
    fix = blocked[0].fix if len(blocked) == 1 else "; ".join(f"{b.label}: {b.fix}" for b in blocked)
    return Refused(f"not switched, nothing written: {said}", fix)


def _skips(ctx: Context, want: Mapping[Resource, bool]) -> list[str]:
    """The skills switched on that pi will skip all the same (their SKILL.md says why)."""
    if not ctx.on.is_pi:
        return []
    from installer.sets.resources import pi_skips

    return pi_skips([r for r, on in want.items() if on], ctx.pi_line())


def _made_settings(ctx: Context) -> bool:
    """Whether ext made settings.json (its journals tell), so that left `{}` it goes."""
    from installer.links.leftovers import what_ext_made

    return what_ext_made(ctx.agent_dir, ()).settings_file


def _carrying(actions: tuple[Action, ...], sp: SettingsPlan) -> tuple[Action, ...]:
    """The switch's settings lines, each carrying the one change that writes them all."""
    if sp.change is None:
        return actions
    if sp.diff is None:  # a `-path` there already: no line says it is added
        return tuple(a for a in actions if a.action != "filter")
    # Before any link: a `-path` keeps off what it is put in for (switch = "pi").
    links = any(a.action == "link" for a in actions)
    write = SettingsWrite(sp.change, first=links, remove_empty=sp.removes_file)
    out = [a._replace(payload=write) if a.action == "filter" else a for a in actions]
    last = max((i for i, a in enumerate(out) if a.action == "filter"), default=None)
    if sp.removes_file and last is not None:
        out[last] = file_goes(out[last])
    return tuple(out)


def _summary(result: PlanResult, sw: Switch, host: Host) -> tuple[str, ...]:
    if not result.applied:
        return ()
    lines = [
        f"now {word}: {', '.join(r.label for r in group)}"
        for word, group in (("enabled", sw.turned_on), ("disabled", sw.turned_off))
        if group
    ]
    lines.append(host.picks_up)
    return tuple(lines)
