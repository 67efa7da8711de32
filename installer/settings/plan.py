"""The settings.json part of a plan: seeds, the register entry and its filters, key warnings."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable
from pathlib import Path

from installer.engine.plan import Action, SettingsWrite
from installer.ground.context import Context
from installer.ground.records import NamedTuple
from installer.ground.state import SetRecord, State
from installer.sets.resources import Resource

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    Change = Callable[[dict[str, Any]], dict[str, Any]]

SKIPPED = "skipped"  # state record extra: ext's own --only/--skip filters in register mode


# Settings that make pi run a program, load code, or send its traffic elsewhere (pi's
# docs/settings.md): a seed of one is said as such (helper-82: a prompts-only set seeded
# `shellPath` to a script of its own, shown as any `+ seed` line, and kept after uninstall;
# helper-83: three more).
RUNS = {
    "shellPath": "pi runs every shell command in it",
    "shellCommandPrefix": "pi runs it before every shell command",
    "npmCommand": "pi runs it to look up and install packages",
    "selfUpdateCommand": "`pi update` runs it",
    "externalEditor": "pi runs it for the external-editor key",
    "extensions": "pi loads and runs the code it names",
    "packages": "pi loads the packages it names, code included",
    "defaultProjectTrust": "it decides whether a project's own code loads without asking",
    "httpProxy": "pi sends its model traffic through it",
}


def runs(key: str) -> str | None:
    """What pi does with a (dotted) settings key that makes it run a program, or None."""
    return RUNS.get(key.partition(".")[0])


def running(keys: list[str]) -> str:
    """`shellPath, which makes` / `a, b, which make`: seeds that make pi run a program."""
    make = "makes" if len(keys) == 1 else "make"
    return f"{', '.join(keys)}, which {make} pi run a program, load code or route its traffic"


def settings_path(ctx: Context) -> Path:
    return ctx.agent_dir / "settings.json"


class Flip(NamedTuple):
    """One item switched on or off in pi's own patterns (installer/settings/switches.py)."""

    package: bool  # the set's packages entry (register mode), else the top-level array
    key: str  # "extensions", "skills", "prompts" or "themes"
    path: str  # `extensions/notify.ts`, relative to the set root or the agent dir
    on: bool


class Intent(NamedTuple):
    """What a command wants of settings.json; `change` recomputes it from the file under lock."""

    seed: bool = False
    seeded: frozenset[str] = frozenset()  # seed keys written once already: never again
    register: bool = False
    unregister: bool = False
    registered: bool = False  # with unregister: the set's entry is what installed it (register)
    excluded: tuple[str, ...] | None = None  # `-path` filters ext wants, None = keep as is
    old_roots: tuple[Path, ...] = ()  # folders the set was moved from: their entries go
    released: tuple[str, ...] = ()  # ext's own earlier filters it may drop (pi's stay)
    skipped: tuple[str, ...] = ()  # of `excluded`, ext's own filters of this run's --only/--skip
    flips: tuple[Flip, ...] = ()  # items switched as `pi config` switches them
    drop_packages: bool = False  # an unregister that empties `packages`, a key ext added: it goes
    drop_file: bool = False  # a settings.json ext made, left empty (`{}`) by the change: it goes
    # Links that go: the top-level patterns ext wrote to switch them ((key, pattern)) go too.
    unswitched: tuple[tuple[str, str], ...] = ()

    @property
    def empty(self) -> bool:
        switches = bool(self.old_roots or self.flips or self.unswitched)
        wants = self.seed or self.register or self.unregister or switches
        return not wants and self.excluded is None


class SettingsPlan(NamedTuple):
    """Its actions each carry `change` (SettingsWrite): the executor writes it once for all."""

    actions: tuple[Action, ...]
    change: Change | None
    diff: str | None
    warnings: tuple[str, ...]
    removes_file: bool = False  # settings.json, which ext made, goes (nothing is left in it)

    def written_first(self) -> SettingsPlan:
        """The same, its write taken before the plan's other writes (install's `-path`s go in
        before the links they keep off)."""
        if self.change is None:
            return self

        def first(a: Action) -> Action:
            write = a.payload
            if not isinstance(write, SettingsWrite):
                return a
            return a._replace(payload=write._replace(first=True))

        return self._replace(actions=tuple(first(a) for a in self.actions))


def excluded_filters(resources: Iterable[Resource]) -> tuple[str, ...]:
    """The package filters that keep these items from loading (every kind, every file)."""
    return tuple(f for r in resources for f in r.filters)


def seed_keys(ctx: Context) -> frozenset[str]:
    """The manifest's seed keys, dotted."""
    if not ctx.manifest.seeds:
        return frozenset()
    from installer.settings import dotted

    return frozenset(dotted.flatten(ctx.manifest.seeds))


WROTE = "wrote"  # the record's key: of the seed keys, those the set's installs wrote


def seeded_before(record: SetRecord | None, ctx: Context) -> frozenset[str]:
    """The seed keys this set already wrote here once (none on a first install).

    A record from before ext kept this list was made by an install that seeded every key
    of its manifest: those count as seeded.
    """
    if record is None:
        return frozenset()
    keys = record.extra.get("seeded")
    if keys is None:
        return seed_keys(ctx)
    return (
        frozenset(k for k in keys if isinstance(k, str)) if isinstance(keys, list) else frozenset()
    )


def seeds_left(ctx: Context, intent: Intent) -> dict[str, Any]:
    """The seeds not yet written once (dotted keys), for the intent to write where absent."""
    from installer.settings import dotted

    flat = dotted.flatten(ctx.manifest.seeds)
    return {k: v for k, v in flat.items() if k not in intent.seeded}


def make_change(ctx: Context, intent: Intent) -> Change:
    """A function of the current settings that applies the intent; pure, so it can be re-run."""
    from installer.sets.resources import undeclared_kinds
    from installer.settings import SetPackage, apply_seeds, register, unregister
    from installer.settings.packages import with_blocks
    from installer.settings.switches import (
        merge_filters,
        switch_entry,
        switch_local,
        unswitch_local,
    )

    ours = SetPackage.of(ctx.set_root, settings_path(ctx))
    touches = intent.excluded is not None or any(f.package for f in intent.flips)
    blocked = (
        undeclared_kinds(ctx.set_root, ctx.pi_line()) if touches and not intent.unregister else ()
    )

    def change(data: dict[str, Any]) -> dict[str, Any]:
        if intent.seed and ctx.manifest.seeds:
            data = apply_seeds(data, seeds_left(ctx, intent)).settings
        for old in intent.old_roots:  # a moved set: its entry names a folder that is gone
            data = unregister(data, SetPackage.of(old, settings_path(ctx))).settings
        if intent.unregister:
            data = unregister(data, ours).settings
            if intent.drop_packages and data.get("packages") == []:
                data = {k: v for k, v in data.items() if k != "packages"}
        elif intent.excluded is not None:
            data = merge_filters(data, ours, intent.excluded, intent.released)
        elif intent.register:
            data = register(data, ours).settings
        for f in intent.flips:
            if f.package:
                data = switch_entry(data, ours, f.key, f.path, f.on)
            else:
                data = switch_local(data, f.key, f.path, f.on)
        if intent.unswitched:
            data = unswitch_local(data, intent.unswitched)
        return with_blocks(data, ours, blocked)

    return change


def plan_settings(ctx: Context, intent: Intent) -> SettingsPlan:
    """Read settings.json, and say what the intent would change, as actions and a diff."""
    path = settings_path(ctx)
    nothing = intent.empty and not (ctx.manifest.retired or ctx.manifest.renamed)
    if nothing or (not os.path.lexists(path) and not _must_write(ctx, intent)):
        return SettingsPlan((), None, None, ())  # tidying up a file that is not there: nothing
    from installer.ground.errors import ExtError
    from installer.settings import (
        find_renamed,
        find_retired,
        preview_of,
        read_settings,
        render_diff,
    )

    try:
        doc = read_settings(path)
    except ExtError as err:
        if _must_write(ctx, intent):
            raise
        # pi starts with such a file too (it warns and uses defaults): the links need not wait.
        # Its "nothing was changed" would be untrue of a run that goes on to make links.
        why = err.message.removesuffix("; nothing was changed")
        skipped = f"{why}; ext left it as it was; its packages were not checked (fix: {err.fix})"
        return SettingsPlan((), None, None, (skipped,))
    warnings = _key_warnings(ctx, doc.data, find_retired, find_renamed)
    if intent.empty:
        return SettingsPlan((), None, None, warnings)
    change = make_change(ctx, intent)
    update = preview_of(doc, change, remove_empty=intent.drop_file)
    if not update.changed:
        return SettingsPlan((), change, None, warnings)
    from installer.ground.atomic import target_of

    target_of(path)  # a link into a missing folder: refused with the plan (helper-87), not later
    after = json.loads(update.after) if update.after else {}
    said = _actions(ctx, doc.data, after, intent)
    write = SettingsWrite(change, remove_empty=intent.drop_file)
    if update.after is None and said:  # a file ext made, left empty: it goes with the last line
        said = (*said[:-1], file_goes(said[-1]))
    elif update.after is None:  # no line to show it by (it held `{}` already): it stays
        update = preview_of(doc, change)
        write = SettingsWrite(change)
        if not update.changed:
            return SettingsPlan((), change, None, warnings)
    actions = tuple(a._replace(payload=write) for a in said)
    diff = render_diff(update.before, update.after, "settings.json")
    warnings += _program_seeds(actions)
    return SettingsPlan(actions, change, diff, warnings, removes_file=update.after is None)


def _program_seeds(actions: tuple[Action, ...]) -> tuple[str, ...]:
    """One warning for the seeds this plan writes that make pi run a program: read before
    saying yes, and they stay after uninstall (seeded settings are the user's)."""
    keys = [str(a.data["key"]) for a in actions if a.action == "seed" and a.data]
    keys = [k for k in keys if runs(k)]
    if not keys:
        return ()
    stay = "it stays" if len(keys) == 1 else "they stay"
    return (f"the set seeds {running(keys)}; {stay} in settings.json after uninstall",)


def file_goes(line: Action) -> Action:
    """The settings line with which settings.json goes (ext made it, nothing is left in it)."""
    return line._replace(detail=f"{line.detail}; settings.json goes with it (ext made it)")


def _must_write(ctx: Context, intent: Intent) -> bool:
    """Whether the intent has something of the set's own to write, beyond tidying up: a switch
    ext would report done must not be dropped because settings.json could not be read."""
    wants = intent.register or intent.excluded is not None or bool(intent.flips)
    wants = wants or (intent.unregister and intent.registered)  # uninstall in register mode
    return bool(intent.seed and ctx.manifest.seeds) or wants


def _actions(
    ctx: Context, before: dict[str, Any], after: dict[str, Any], intent: Intent
) -> tuple[Action, ...]:
    from installer.settings import SetPackage, apply_seeds, find_entries

    actions: list[Action] = []
    if intent.seed and ctx.manifest.seeds:
        seeded = apply_seeds(before, seeds_left(ctx, intent)).seeded
        for key, value in seeded.items():
            ran = runs(key)
            note = f"; {ran}" if ran else ""
            actions.append(
                Action(
                    "seed",
                    "settings.json",
                    detail=f"{key} = {json.dumps(value)}{note}",
                    data={"key": key, "value": value},
                )
            )
    ours = SetPackage.of(ctx.set_root, settings_path(ctx))
    was = (
        [before["packages"][i] for i in find_entries(before, ours)] if "packages" in before else []
    )
    now = [after["packages"][i] for i in find_entries(after, ours)] if "packages" in after else []
    if not was and now:
        actions.append(
            Action(
                "register",
                "settings.json",
                target=str(ctx.set_root),
                detail="packages",
                data=now[0],
            )
        )
    elif was and not now:
        actions.append(
            Action(
                "unregister",
                "settings.json",
                target=str(ctx.set_root),
                detail="removes the packages entry"
                + ("" if "packages" in after else ", and the packages key ext added"),
                data=was[0],
            )
        )
    elif "packages" in before and "packages" not in after:  # the entry went before: the key
        actions.append(
            Action(
                "unregister",
                "settings.json",
                detail="removes the empty packages key ext added",
            )
        )
    old = was[0] if was else ours.source  # a new entry starts as the plain string
    if now and old != now[0]:
        actions.append(
            Action(
                "filter",
                "settings.json",
                target=str(ctx.set_root),
                detail=_patterns_changed(old, now[0], _untagged(intent.skipped)),
                data=now[0],
            )
        )
    for key in ("extensions", "skills", "prompts", "themes"):
        if before.get(key) != after.get(key):
            detail = f'"{key}": {_list_changed(before.get(key), after.get(key))}'
            actions.append(Action("filter", "settings.json", detail=detail, data=after.get(key)))
    return tuple(actions)


def _patterns_changed(was: Any, now: Any, skipped: frozenset[tuple[str, str]]) -> str:
    """What changed in an entry's filters, key by key: `"extensions": adds -extensions/a.ts`;
    a filter of --only/--skip (`skipped`: (key, pattern)) says so, as link mode's unlink does."""
    parts = []
    for key in ("extensions", "skills", "prompts", "themes"):
        old = was.get(key) if isinstance(was, dict) else None
        new = now.get(key) if isinstance(now, dict) else None
        if old != new:
            left_out = {p for k, p in skipped if k == key}
            parts.append(f'"{key}": {_list_changed(old, new, left_out)}')
    return "; ".join(parts) or "no filters"


def _untagged(filters: tuple[str, ...]) -> frozenset[tuple[str, str]]:
    from installer.settings.packages import untag

    return frozenset(untag(f) for f in filters)


def _list_changed(old: Any, new: Any, left_out: set[str] | None = None) -> str:
    from installer.links.plan import NOT_SELECTED

    old_l = old if isinstance(old, list) else []
    new_l = new if isinstance(new, list) else []
    why = left_out or set()
    added = [
        f"adds {p} ({NOT_SELECTED})" if p in why else f"adds {p}" for p in new_l if p not in old_l
    ]
    dropped = [f"drops {p}" for p in old_l if p not in new_l]
    return ", ".join(added + dropped) or "reordered"


def _key_warnings(
    ctx: Context, data: dict[str, Any], find_retired: Any, find_renamed: Any
) -> tuple[str, ...]:
    out = []
    for r in find_retired(data, ctx.manifest.retired):
        out.append(
            f"settings.json still has {r.key!r}, which was retired: {r.why} "
            f"(fix: remove it, or `ext settings migrate --remove-retired`)"
        )
    for r in find_renamed(data, ctx.manifest.renamed):
        out.append(
            f"settings.json still has {r.old!r}, renamed to {r.new!r} (fix: `ext settings migrate`)"
        )
    return tuple(out)


def registered(ctx: Context) -> list[Any]:
    """Our set's entries in settings.json packages (empty when not registered or unreadable)."""
    from installer.ground.errors import ExtError
    from installer.settings import SetPackage, find_entries, read_settings

    path = settings_path(ctx)
    if not path.exists():
        return []
    try:
        data = read_settings(path).data
        ours = SetPackage.of(ctx.set_root, path)
        return [data["packages"][i] for i in find_entries(data, ours)]
    except ExtError:
        return []


def still_written(state: State, ctx: Context) -> State:
    """The state record without those of ext's own --skip filters the set's entry no longer
    holds: pi config took one out (its `+path` stood in its place), so what is there now is
    the user's (helper-51: a later toggle of theirs in pi config was undone by an install)."""
    record = state.for_root(ctx.set_root)
    skips = list(record.extra.get(SKIPPED, ())) if record is not None else []
    if not skips:
        return state
    there = {
        pattern
        for entry in registered(ctx)
        if isinstance(entry, dict)
        for patterns in entry.values()
        if isinstance(patterns, list)
        for pattern in patterns
        if isinstance(pattern, str)
    }
    return claimed(state, ctx.set_root, [f for f in skips if f not in there])


def claimed(state: State, set_root: Path, filters: Iterable[str]) -> State:
    """The state record without these filters among ext's own --skip ones: the user has now
    switched the item themselves, so a later install keeps whatever they chose."""
    record = state.for_root(set_root)
    skips = list(record.extra.get(SKIPPED, ())) if record is not None else []
    kept = [f for f in skips if f not in set(filters)]
    if record is None or kept == skips:
        return state
    extra = {k: v for k, v in record.extra.items() if k != SKIPPED}  # none left: as install
    return state.with_set(record._replace(extra={**extra, SKIPPED: kept} if kept else extra))
