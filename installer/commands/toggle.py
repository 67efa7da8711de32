"""`ext enable`, `ext disable` and `ext toggle`: switch items of the set on and off.

Planning is in switch_plan.py; here the guards are checked, the plan confirmed and applied
under one lock as one journal entry, and in register mode the state record's
`extra["disabled"]` kept in step, so `ext install` leaves the user's choice alone.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from installer.commands.common import Confirm, Prepared, run_plan
from installer.commands.guards import (
    blockers,
    enforce,
    guarded,
    missing_requirements,
    needs_sessions,
)
from installer.commands.install import install_mode, with_settings
from installer.commands.settings_plan import Intent, SettingsPlan, plan_settings
from installer.commands.switch_plan import Switch, View, filter_of, plan_switch, read_view
from installer.context import Context
from installer.errors import Refused, UsageError
from installer.lock import agent_lock
from installer.manifest import Manifest
from installer.plan import Plan
from installer.resources import Resource, discover, resolve_name
from installer.result import PlanResult
from installer.sessions import live_sessions
from installer.state import State, load_state, save_state


@dataclass(frozen=True)
class Choice:
    """One line of the `ext toggle` checkbox list."""

    label: str
    title: str
    checked: bool
    disabled: str | None = None


Ask = Callable[[list[Choice]], "list[str] | None"]


def check_guards(ctx: Context, view: View, sw: Switch, force: bool, clean: bool) -> tuple[str, ...]:
    """Refuse a disable a guard forbids (Refused, exit 3); with --force, warnings instead."""
    off = [r.label for r in sw.turned_off]
    on = [r.label for r in sw.turned_on]
    now = {r.label for r, it in view.items.items() if it.state == "enabled"}
    after = (now - set(off)) | set(on)
    sessions = live_sessions(ctx.agent_dir, clean) if needs_sessions(ctx.manifest, off) else []
    warnings = enforce(blockers(ctx.manifest, off, after, sessions), force)
    known = {r.label for r in view.items}
    return warnings + missing_requirements(ctx.manifest, on, after, known)


def switch(
    ctx: Context, names: Sequence[str], enable: bool, force: bool, dry_run: bool, confirm: Confirm
) -> PlanResult:
    """`ext enable NAME…` / `ext disable NAME…`."""
    if not names:
        raise UsageError("name at least one item", "run `ext list` to see the names")
    resources = discover(ctx.set_root)
    chosen = dict.fromkeys(r for n in names for r in resolve_name(resources, n))
    want = dict.fromkeys(chosen, enable)
    return apply_switch(
        ctx, "enable" if enable else "disable", resources, want, force, dry_run, confirm
    )


def toggle(ctx: Context, ask: Ask, force: bool, confirm: Confirm) -> PlanResult:
    """`ext toggle`: pick in a checkbox list, then apply every change as one plan."""
    if not (ctx.env.stdin_tty and ctx.env.stderr_tty):
        raise UsageError(
            "ext toggle needs a terminal to show its list",
            "use `ext enable NAME…` or `ext disable NAME…` instead",
        )
    mode = install_mode(ctx, None)
    resources = discover(ctx.set_root)
    view = read_view(ctx, mode, resources)
    picked = ask(choices(ctx.manifest, view))
    if picked is None:
        raise Refused("cancelled; nothing was written")
    want = {
        r: r.label in picked
        for r, it in view.items.items()
        if it.switchable and (it.state == "enabled") != (r.label in picked)
    }
    if not want:
        return PlanResult(Plan("toggle"), changed=False, dry_run=False, notes=("no box changed",))
    return apply_switch(ctx, "toggle", resources, want, force, False, confirm)


def choices(manifest: Manifest, view: View) -> list[Choice]:
    """One checkbox per item: checked = enabled, its state, and `[guarded]` where one applies."""
    width = max((len(r.label) for r in view.items), default=4)
    out = []
    for r, it in view.items.items():
        mark = "  [guarded]" if r.kind == "extension" and guarded(manifest, r.name) else ""
        title = f"{r.label:<{width}}  {it.state}{mark}"
        disabled = None if it.switchable else (it.note or it.state)
        out.append(Choice(r.label, title, it.state == "enabled", disabled))
    return out


def apply_switch(
    ctx: Context,
    command: str,
    resources: Sequence[Resource],
    want: Mapping[Resource, bool],
    force: bool,
    dry_run: bool,
    confirm: Confirm,
) -> PlanResult:
    """Plan, check the guards, confirm, and apply under one lock as one journal entry."""
    mode = install_mode(ctx, None)
    last: list[Switch] = []

    def prepare() -> Prepared:
        view = read_view(ctx, mode, resources)
        sw = plan_switch(view, want, str(ctx.set_root))
        guard_warnings = check_guards(ctx, view, sw, force, clean=not dry_run)
        sp = SettingsPlan((), None, None, ())
        if sw.filters is not None and (sw.turned_on or sw.turned_off):
            sp = plan_settings(ctx, Intent(excluded=sw.filters))
        plan = Plan(command, sw.actions, (*guard_warnings, *sw.warnings, *sp.warnings))
        last[:] = [sw]
        return Prepared(plan, with_settings(ctx, plan, sp), (sp.diff,) if sp.diff else ())

    def new_state(state: State) -> State:
        return remember(state, ctx.set_root, want)

    result = run_plan(ctx, prepare, confirm, dry_run, new_state if mode == "register" else None)
    if mode == "register" and not dry_run and not result.applied:
        _remember_now(ctx, want)
    return result._replace(notes=(*last[-1].notes, *_summary(result, last[-1])))


def remember(state: State, set_root: Path, want: Mapping[Resource, bool]) -> State:
    """The state record with the user's register-mode choices in `extra["disabled"]`."""
    record = state.for_root(set_root)
    if record is None:
        return state
    disabled = list(record.extra.get("disabled", ()))
    for r, enable in want.items():
        mine = filter_of(r)
        if enable:
            disabled = [f for f in disabled if f not in mine]
        else:
            disabled.extend(f for f in mine if f not in disabled)
    if disabled == list(record.extra.get("disabled", ())):
        return state
    return state.with_set(record._replace(extra={**record.extra, "disabled": disabled}))


def _remember_now(ctx: Context, want: Mapping[Resource, bool]) -> None:
    """A no-op switch still records the choice (a filter from `install --skip` is not one)."""
    if not (ctx.agent_dir / ".extset").is_dir():
        return
    with agent_lock(ctx.agent_dir):
        state = load_state(ctx.agent_dir)
        updated = remember(state, ctx.set_root, want)
        if updated != state:
            save_state(ctx.agent_dir, updated)


def _summary(result: PlanResult, sw: Switch) -> tuple[str, ...]:
    if not result.applied:
        return ()
    lines = [
        f"now {word}: {', '.join(r.label for r in group)}"
        for word, group in (("enabled", sw.turned_on), ("disabled", sw.turned_off))
        if group
    ]
    lines.append("running sessions pick this up at their next /reload")
    return tuple(lines)


def checkbox(choices: list[Choice]) -> list[str] | None:
    """The questionary checkbox on the terminal (drawn on stderr); None on Escape or Ctrl-C."""
    import sys

    import questionary
    from prompt_toolkit.key_binding import KeyBindings, merge_key_bindings
    from prompt_toolkit.output import create_output

    question = questionary.checkbox(
        "Switch items on (checked) or off",
        instruction="(space switches, enter applies, escape cancels)",
        choices=[
            questionary.Choice(c.title, value=c.label, checked=c.checked, disabled=c.disabled)
            for c in choices
        ],
        output=create_output(stdout=sys.stderr),
    )
    cancel = KeyBindings()

    @cancel.add("escape", eager=True)
    def _cancel(event: Any) -> None:
        event.app.exit(exception=KeyboardInterrupt, style="class:aborting")

    app = question.application
    app.key_bindings = merge_key_bindings([app.key_bindings or KeyBindings(), cancel])
    try:
        answer = question.unsafe_ask()
    except KeyboardInterrupt:
        return None
    return None if answer is None else [str(a) for a in answer]
