"""`ext uninstall`: remove our links (enabled and disabled) and our packages entry; backups stay.

The last set's uninstall also takes what ext left for itself: its agent-file copies, the empty
folders it made, a `packages` key it added and left empty, a settings.json it made that holds
nothing else, the records of pi sessions that have ended. The journal stays (undo's).
"""

from __future__ import annotations

from pathlib import Path

from installer.agent.recorder import plan_agent_files
from installer.engine.made import Made
from installer.engine.plan import Action, Plan
from installer.engine.result import PlanResult
from installer.engine.run import Confirm, Prepared, run_plan
from installer.ground.context import Context
from installer.ground.records import NamedTuple
from installer.ground.state import SetRecord, State, load_state
from installer.links.kept import kept_backups
from installer.links.leftovers import plan_leftovers, what_ext_made
from installer.links.plan import plan_uninstall
from installer.links.scan import AgentState, scan
from installer.settings.plan import Intent, SettingsPlan, plan_settings, settings_path
from installer.settings.switches import KEYS


class Uninstall(NamedTuple):
    """`ext uninstall`'s options, as installer.cli.grammar names them."""

    dry_run: bool = False
    yes: bool = False  # the front's: the confirm it hands in does not ask
    # The hosts this one run uninstalls from ([hosts] serve): none of them is told to
    # install again for a skill it loses here.
    along: tuple[str, ...] = ()


def uninstall(ctx: Context, options: Uninstall, confirm: Confirm) -> PlanResult:
    """Plan the removals, show them, and apply them once confirmed."""

    def prepare() -> Prepared:
        state = load_state(ctx.agent_dir)
        record = state.record_of(ctx.set_root, ctx.manifest.name)
        old = state.old_roots(ctx.set_root, ctx.manifest.name)
        others = [Path(o.root) for o in state.others(ctx.set_root, ctx.manifest.name)]
        agent = scan(ctx.agent_dir, ctx.set_root, old, other_sets=others, folders=ctx.folders)
        links = plan_uninstall(agent)
        pi = ctx.on.is_pi  # only pi has ext's agent files and a packages entry
        if not pi:  # a shared folder's link another dir of this host reads stays
            from installer.hosts.shared import kept_for_other_dirs

            links = links._replace(actions=kept_for_other_dirs(ctx, links.actions))
        actions = links.actions + _written(ctx, agent)
        if pi:  # ext's own agent files go too, unless another set installed here has them
            # Named: the set's records at older roots (its folder moved) are its own.
            own = plan_agent_files(
                ctx.agent_dir, agent, state, ctx.set_root, None, name=ctx.manifest.name
            ).actions
            if record is None:  # not this set's
                own = tuple(a for a in own if a.action != "keep")
            actions += own
        has_settings = pi and settings_path(ctx).exists()
        # One walk over the journals: what ext made, and (pi) the `-path`s it wrote.
        keys = KEYS.values() if has_settings else ()
        made = what_ext_made(ctx.agent_dir, ctx.folders, keys)
        last = not others  # the last set: the agent dir as ext found it
        was_last[:] = [last]
        if last:
            gone = [a.path for a in actions if a.action not in ("keep", "skip")]  # what goes
            actions += plan_leftovers(ctx.agent_dir, gone, made, ctx.folders)
        sp = SettingsPlan((), None, None, ())
        if has_settings:
            drop = last and made.packages_key
            ours = last and made.settings_file  # left `{}`, it goes too
            stale = _switches_of(made, links.actions)  # ext's `-path` of a link that goes
            intent = Intent(
                unregister=True,
                registered=record is not None and record.mode == "register",
                drop_packages=drop,
                drop_file=ours,
                unswitched=stale,
                old_roots=tuple(old),  # the set's folder moved: the entry naming the old one
            )
            sp = plan_settings(ctx, intent)
        if has_settings and last:
            kept_seeds[:] = _seeds_kept(ctx, record)
        warnings = sp.warnings
        if not pi:  # another agent may read the folder a skill is unlinked from
            from installer.hosts.shared import lost_elsewhere

            warnings = (*warnings, *lost_elsewhere(ctx, actions, but=options.along))
        everything = actions + sp.actions
        plan = Plan("uninstall", everything, (*warnings, *_not_here(state, ctx, everything)))
        # A link's, a file ext wrote (Gemini CLI's TOML: helper-48), an agent file's link.
        kept[:] = kept_backups(ctx.agent_dir, actions, ctx.on.title)
        return Prepared(plan, (sp.diff,) if sp.diff else ())

    def new_state(state: State) -> State:
        return state.without([ctx.set_root, *state.old_roots(ctx.set_root, ctx.manifest.name)])

    kept: list[str] = []  # what the user had where a link goes: backups stay, and say where
    kept_seeds: list[str] = []  # settings the set seeded, which stay the user's
    was_last: list[bool] = []
    result = run_plan(ctx, prepare, confirm, options.dry_run, new_state, mends=True)
    if result.applied and was_last == [True] and ctx.on.is_pi:
        _clear_ended_sessions(ctx.agent_dir)
    notes = (*result.notes, *kept, *kept_seeds)
    return result._replace(notes=notes) if notes != result.notes else result


def _not_here(state: State, ctx: Context, actions: tuple[Action, ...]) -> tuple[str, ...]:
    """A set with no record here and nothing of it to remove: `nothing to do` alone read as
    if it had been uninstalled before."""
    if state.record_of(ctx.set_root, ctx.manifest.name) is not None:
        return ()
    if any(a.action not in ("keep", "skip") for a in actions):
        return ()
    return ("the set is not installed in this agent dir: nothing to remove",)


def _clear_ended_sessions(agent_dir: Path) -> None:
    """The records of pi sessions that have ended (`ext launch` and the recorder write them),
    and their folder once empty: bookkeeping of ext's, not the journal's to undo. A session
    still running keeps its record, which the next run of ext cleans once it ends."""
    import contextlib
    import os

    from installer.agent.sessions import live_sessions, sessions_dir

    live_sessions(agent_dir, clean=True)
    with contextlib.suppress(OSError):  # a live session's record is in it, or there is none
        os.rmdir(sessions_dir(agent_dir))


def _seeds_kept(ctx: Context, record: SetRecord | None) -> list[str]:
    """A line naming the settings the set seeded that settings.json still holds: they stay,
    the user's since the first install (a seed is written once, never taken back)."""
    from installer.ground.errors import ExtError
    from installer.settings import dotted, read_settings
    from installer.settings.plan import WROTE, running, runs, seeded_before

    try:
        data = read_settings(settings_path(ctx)).data
    except ExtError:
        return []
    if not isinstance(data, dict):
        return []
    # The keys the set's installs wrote, when the record says; else (nothing written, or a
    # record of an older ext) the seed keys it found there, which may have been the user's.
    wrote = record.extra.get(WROTE) if record is not None else None
    keys = wrote if isinstance(wrote, list) else seeded_before(record, ctx)
    held = [k for k in sorted(keys) if isinstance(k, str) and dotted.lookup(data, k).found]
    if not held:
        return []
    ran = [k for k in held if runs(k)]
    said = f" ({running(ran)})" if ran else ""
    if isinstance(wrote, list):
        them = "them" if len(held) > 1 else "it"  # helper-86: "with a: ... seeded them"
        return [
            f"settings.json stays, with {', '.join(held)}: the set seeded {them} once; yours "
            f"now{said}"
        ]
    return [
        f"settings.json stays, with {', '.join(held)}: keys the set seeds; ext takes none "
        f"back{said}"
    ]


def _switches_of(made: Made, unlinked: tuple[Action, ...]) -> tuple[tuple[str, str], ...]:
    """The top-level patterns ext wrote (its journals tell) that switch a link that goes
    (`switch = "pi"`: a disabled item's `-path`), at its place or a file below it (a parked
    link's place too: `a.ts.off` is `a.ts`). Stale once the link is gone, they would keep off
    whatever comes to that path; a pattern pi config or the user wrote stays theirs."""
    from installer.settings.switches import names_a_place

    places = []
    for a in unlinked:
        if a.action in ("unlink", "prune"):
            folder, _, name = a.path.rpartition("/")
            places.append(f"{folder.removesuffix('/.off')}/{name.removesuffix('.off')}")
    return tuple(sorted((k, p) for k, p in made.patterns if names_a_place(p, places)))


def _written(ctx: Context, agent: AgentState) -> tuple[Action, ...]:
    """The files ext wrote into another host (Gemini CLI's commands), while still ext's."""
    if ctx.on.is_pi:
        return ()
    from installer.hosts.placing import placed
    from installer.hosts.written import plan_unwrite, recorded

    hashes = recorded(ctx.agent_dir, ctx.set_root, ctx.manifest.name)
    return tuple(plan_unwrite(agent, placed(ctx).written, hashes)) if hashes else ()
