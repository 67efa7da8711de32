"""Disable guards: the manifest's reasons to refuse switching an extension off.

`[guards.<name>] process = "--flag"` refuses while a live host session was started with that
flag (known from the session registry, installer/agent/sessions.py); `required_by = [...]` and
`[extensions.<other>] requires = [...]` refuse while a dependent stays enabled. `--force`
turns a refusal into a warning that names the risk.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence

from installer.ground.errors import GuardRefused
from installer.ground.few import joined
from installer.ground.records import NamedTuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    from installer.agent.sessions import SessionRecord
    from installer.ground.context import Context
    from installer.ground.manifest import Manifest


class Blocker(NamedTuple):  # not a dataclass: `ext --json list` reads guards, and stays light
    """One reason not to disable `name` now."""

    name: str
    why: str  # what is live or enabled that needs it
    risk: str  # what goes wrong if it is disabled anyway
    reason: str | None = None  # the manifest's own words
    fix: str | None = None  # what lifts it, when not "stop what needs it"
    needed_by: tuple[str, ...] = ()  # the enabled items that need it (a dependency's refusal)


def dependents(manifest: Manifest, name: str) -> tuple[str, ...]:
    """The items that need `name`: its guard's required_by, and every `requires` naming it."""
    guard = manifest.guards.get(name)
    listed = guard.required_by if guard else ()
    needs = (other for other, reqs in manifest.requires.items() if name in reqs)
    return tuple(dict.fromkeys((*listed, *needs)))


def requirements(manifest: Manifest, name: str) -> tuple[str, ...]:
    """The items `name` needs: its `requires`, and every guard whose required_by names it
    (the other side of `dependents`)."""
    listed = (other for other, guard in manifest.guards.items() if name in guard.required_by)
    return tuple(dict.fromkeys((*manifest.requires.get(name, ()), *listed)))


def guarded(manifest: Manifest, name: str) -> bool:
    """True when some guard could refuse disabling `name`."""
    return name in manifest.guards or bool(dependents(manifest, name))


def guard_json(manifest: Manifest, name: str) -> dict[str, object] | None:
    """`ext list --json`'s `guard` of an item: what can refuse disabling it, for `/ext`."""
    if not guarded(manifest, name):
        return None
    guard = manifest.guards.get(name)
    out: dict[str, object] = {"required_by": list(dependents(manifest, name))}
    if guard and guard.process:
        out["process"] = guard.process
    if guard and guard.reason:
        out["reason"] = guard.reason
    return out


def needs_sessions(manifest: Manifest, disabling: Iterable[str]) -> bool:
    """True when a process guard applies to one of these names (only then read the registry)."""
    return any(_flag(manifest, n) for n in disabling)


def _flag(manifest: Manifest, name: str) -> str | None:
    guard = manifest.guards.get(name)
    return guard.process if guard else None


def blockers(
    manifest: Manifest,
    disabling: Iterable[str],
    enabled_after: set[str],
    sessions: Sequence[SessionRecord],
    switched_on: Collection[str] = (),
) -> list[Blocker]:
    """Every guard that refuses disabling these names, given what is enabled afterwards (of
    which `switched_on` this run turns on: said so, not "is enabled"). Pure."""
    out: list[Blocker] = []
    for name in disabling:
        guard = manifest.guards.get(name)
        reason = guard.reason if guard else None
        flag = guard.process if guard else None
        if flag:
            out.extend(
                Blocker(
                    name,
                    f"a live session ({s.describe()}) was started with {flag}",
                    f"that session still expects {name} for {flag}; it loses it at its "
                    "next /reload or /new",
                    reason,
                )
                for s in sessions
                if s.has_flag(flag)
            )
        # One refusal naming every item that needs it, the manifest's reason said once
        # (helper-44: one per dependent, the reason repeated under each).
        needing = [other for other in dependents(manifest, name) if other in enabled_after]
        if needing:
            who = joined(needing)
            fail = "may fail to load or misbehave" if len(needing) == 1 else "may fail to load"
            why = _needing(needing, switched_on)
            risk = f"{who} {fail} without {name}"
            out.append(Blocker(name, why, risk, reason, None, tuple(needing)))
    held = [b.name for b in out if b.needed_by]
    if not held:
        return out
    # One way out for them all (helper-90: the fix of the first alone left the second
    # refused), and with what needs the ones that need them (a chain: top3 needs top).
    fix = _keep_on(held, depending_on(manifest, held, enabled_after), switched_on)
    return [b._replace(fix=fix) if b.needed_by else b for b in out]


def depending_on(manifest: Manifest, names: Sequence[str], among: Collection[str]) -> list[str]:
    """Every item of `among` that needs one of `names`, directly or through another."""
    found: list[str] = []
    todo = list(names)
    while todo:
        for other in dependents(manifest, todo.pop(0)):
            if other in among and other not in found and other not in names:
                found.append(other)
                todo.append(other)
    return found


def _keep_on(names: Sequence[str], needing: Sequence[str], switched_on: Collection[str]) -> str:
    """A dependency's way out: nothing to stop, a choice to make (helper-88: "stop what needs
    it first" of an item the same run switched on)."""
    now, new = _by_now(needing, switched_on)
    ways = [f"leave {joined(new)} off"] if new else []
    ways += [f"switch {joined(now)} off too"] if now else []
    return f"keep {joined(names)} on, or {' and '.join(ways)}"


def _by_now(needing: Sequence[str], switched_on: Collection[str]) -> tuple[list[str], list[str]]:
    """What needs it: on now, and switched on by this run."""
    return [n for n in needing if n not in switched_on], [n for n in needing if n in switched_on]


def _needing(needing: Sequence[str], switched_on: Collection[str]) -> str:
    """`b is enabled and needs it`; one this run switches on is said as such (helper-87:
    `toggle --on top --off base` said "top is enabled" of top, off until then)."""
    now, new = _by_now(needing, switched_on)
    if not new or not now:
        one = len(needing) == 1
        state = "enabled" if not new else "switched on by this run"
        needs = "is {} and needs" if one else "are {} and need"
        return f"{joined(needing)} {needs.format(state)} it"
    on = f"{joined(now)} {'is' if len(now) == 1 else 'are'} enabled"
    turned = f"{joined(new)} {'is' if len(new) == 1 else 'are'} switched on by this run"
    return f"{on} and {turned}; {'both' if len(needing) == 2 else 'all'} need it"


def unseen(manifest: Manifest, disabling: Iterable[str], why: str) -> list[Blocker]:
    """A process guard that cannot see pi's sessions refuses: it cannot know none is live."""
    from installer.agent.recorder import switch_back_on

    return [
        Blocker(
            name,
            f"ext cannot see pi's sessions: its session recorder {why}",
            f"a session started with {flag} would lose {name} at its next /reload or /new",
            (manifest.guards[name].reason if name in manifest.guards else None),
            switch_back_on(why),
        )
        for name in disabling
        if (flag := _flag(manifest, name))
    ]


def enforce(
    found: Sequence[Blocker],
    force: bool,
    verb: str = "disable",
    anyway: str = "pass --force to disable it anyway",
) -> tuple[str, ...]:
    """Refuse (exit 3) with every reason; with --force, the warnings that name each risk.
    `verb` and `anyway`: what is refused and how to do it regardless (an install's --skip
    leaves an item out: `ext disable --force` first)."""
    if not found:
        return ()
    if not force:
        lines = [f"refusing to {verb} {b.name}: {_why(b)}" for b in found]
        refused: dict[str, str] = {}
        for b in found:
            refused[b.name] = f"{refused[b.name]}; {_why(b)}" if b.name in refused else _why(b)
        first = next((b.fix for b in found if b.fix), "stop what needs it first")
        raise GuardRefused(
            "; ".join(lines) + "; nothing was written", f"{first}, or {anyway}", refused
        )
    return tuple(f"--force: disabling {b.name} although {b.why}: {b.risk}" for b in found)


def _why(b: Blocker) -> str:
    return f"{b.why} ({b.reason})" if b.reason else b.why


def missing_requirements(
    manifest: Manifest,
    enabling: Iterable[str],
    enabled_after: set[str],
    known: set[str],
    left_out: Collection[str] = (),
) -> tuple[str, ...]:
    """Warnings for items switched on while something they require stays off (helper-86: an
    item a guard's required_by names was switched on beside it switched off, unsaid), or is
    left out by the install's --only/--skip (`left_out`: helper-88)."""
    out = []
    for name in enabling:
        for need in requirements(manifest, name):
            if need in known and need not in enabled_after:
                from installer.ground.shellword import shell_word

                how = "this install leaves out" if need in left_out else "stays off"
                out.append(f"{name} requires {need}, which {how}: `ext enable {shell_word(need)}`")
    return tuple(out)


def blockers_here(
    ctx: Context, off: list[str], after: set[str], clean: bool, switched_on: Collection[str] = ()
) -> list[Blocker]:
    """What refuses switching `off` (each on now) off, with `after` enabled afterwards: a live
    session started with a guard's flag (read only where a flag guards one), or sessions ext
    cannot see, or an item that stays on and needs one. `ext disable` and an install's
    --only/--skip ask the same."""
    from installer.agent.sessions import live_sessions

    if not needs_sessions(ctx.manifest, off):
        return blockers(ctx.manifest, off, after, [], switched_on)
    found = blockers(ctx.manifest, off, after, live_sessions(ctx.agent_dir, clean), switched_on)
    why = _recorder_blind(ctx)
    if why is not None and not any(b.why.startswith("a live session") for b in found):
        found += unseen(ctx.manifest, off, why)
    return found


def _recorder_blind(ctx: Context) -> str | None:
    """Why the process guards cannot see pi's sessions, once ext has installed the set here."""
    from installer.agent.recorder import blind_spot
    from installer.ground.state import load_state

    if load_state(ctx.agent_dir).for_root(ctx.set_root) is None:
        return None  # not installed by ext: only `ext launch` sessions exist to be seen
    return blind_spot(ctx.agent_dir, ctx.env.cwd, ctx.pi_line().strips_bom)
