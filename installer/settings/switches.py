"""pi's own switches: the `-path` / `+path` patterns `pi config` writes, read and written as pi.

From pi 0.73.1's `dist/modes/interactive/components/config-selector.js`: a switch drops every
pattern naming the item (`!`, `+` or `-` stripped, equal to its path), then appends `+path`
(on) or `-path` (off). Local resources (what pi finds in the agent dir's `extensions/`,
`skills/`, ...) are switched in the top-level `"extensions"`, `"skills"`, `"prompts"`,
`"themes"` arrays, paths relative to the agent dir (`<cwd>/.pi` for project scope); a package's
in its entry's object form, paths relative to the package root, and an entry left with no
array goes back to the plain string.

Matching follows `dist/core/package-manager.js`: for local resources `isEnabledByOverrides`
(`!glob` off, then `+exact` on, then `-exact` off); for a package `applyPatterns` (plain
globs include, `!` excludes, `+` adds back, `-` removes; `[]` loads none). Project scope
`<cwd>/.pi/settings.json` is read for the cwd ext runs in; a project entry for the same
package replaces the user one (`dedupePackages`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from pathlib import Path

from installer.ground.records import NamedTuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from typing import Any

    from installer.ground.context import Context
    from installer.links.states import Item, State
    from installer.sets.resources import Resource

KEYS = {"extension": "extensions", "skill": "skills", "prompt": "prompts", "theme": "themes"}
_SIGNS = ("!", "+", "-")


class PiSwitch(NamedTuple):
    """What pi's settings say of one item: on or off, the pattern that decided, and where."""

    on: bool
    pattern: str  # `-extensions/notify.ts`, `!extensions/*`, or `[]`
    where: str  # `settings.json "extensions"`, `.pi/settings.json packages entry /x/set`
    scope: str = "user"
    package: bool = False  # from a packages entry of the set, else a top-level array

    def describe(self) -> str:
        if not self.pattern:
            return f"{'on' if self.on else 'off'} in pi: {self.where} loads it"
        return f"{'on' if self.on else 'off'} in pi: {self.pattern} in {self.where}"

    def to_json(self) -> dict[str, Any]:
        return {"on": self.on, "pattern": self.pattern, "where": self.where, "scope": self.scope}


def strip(pattern: str) -> str:
    return pattern[1:] if pattern.startswith(_SIGNS) else pattern


def item_path(kind: str, filename: str, layout: str, entry: str = "index.ts") -> str:
    """The path pi config writes for an item: relative to the agent dir or the package root."""
    folder = KEYS[kind]
    if layout != "dir":
        return f"{folder}/{filename}"
    return f"{folder}/{filename}/{entry if kind == 'extension' else 'SKILL.md'}"


# --- matching, as pi does it ---------------------------------------------------------------


@lru_cache(maxsize=256)
def _glob(pattern: str) -> re.Pattern[str]:
    """minimatch's common subset: `**` any depth, `*` and `?` within one path segment."""
    import re  # only a `!glob` or a plain include pattern pays for it

    out, i = [], 0
    while i < len(pattern):
        if pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out) + r"\Z")


def _candidates(rel: str, absolute: str, exact: bool) -> tuple[str, ...]:
    name = rel.rpartition("/")[2]
    base = (rel, absolute) if exact else (rel, name, absolute)
    if name != "SKILL.md":
        return base
    parent_rel, parent_abs = rel.rpartition("/")[0], absolute.rpartition("/")[0]
    parent = (parent_rel, parent_abs) if exact else (parent_rel, parent_rel.rpartition("/")[2])
    return (*base, *parent, *((parent_abs,) if not exact else ()))


def _matches(pattern: str, rel: str, absolute: str) -> bool:
    rx = _glob(pattern)
    return any(rx.match(c) for c in _candidates(rel, absolute, exact=False))


def _matches_exact(pattern: str, rel: str, absolute: str) -> bool:
    p = pattern[2:] if pattern.startswith("./") else pattern
    return p in _candidates(rel, absolute, exact=True)


def local_switch(patterns: Sequence[Any], rel: str, absolute: str) -> tuple[bool, str] | None:
    """pi's `isEnabledByOverrides` for a resource found in the agent dir; None = no pattern."""
    found: tuple[bool, str] | None = None
    strs = [p for p in patterns if isinstance(p, str)]
    for sign, on, match in (("!", False, _matches), ("+", True, _matches_exact)):
        hit = next((p for p in strs if p.startswith(sign) and match(p[1:], rel, absolute)), None)
        if hit is not None:
            found = (on, hit)
    hit = next(
        (p for p in strs if p.startswith("-") and _matches_exact(p[1:], rel, absolute)), None
    )
    return (False, hit) if hit is not None else found


def package_switch(patterns: Sequence[Any], rel: str, absolute: str) -> tuple[bool, str] | None:
    """pi's `applyPatterns` for one file of a package entry's filter; None = no pattern."""
    strs = [p for p in patterns if isinstance(p, str)]
    if not strs:
        return (False, "[]")
    includes = [p for p in strs if not p.startswith(_SIGNS)]
    found: tuple[bool, str] | None = None
    if includes:
        hit = next((p for p in includes if _matches(p, rel, absolute)), None)
        found = (True, hit) if hit else (False, f"only {', '.join(includes)}")
    for p in strs:
        if p.startswith("!") and _matches(p[1:], rel, absolute) and (found is None or found[0]):
            found = (False, p)
    rest = local_switch([p for p in strs if p.startswith(("+", "-"))], rel, absolute)
    if rest is not None and (rest[0] or found is None or found[0]):
        found = rest
    return found


def loads_local(patterns: Any, rel: str, absolute: str) -> bool:
    """Whether pi loads a resource of the agent dir, under its kind's top-level array."""
    if not isinstance(patterns, list):
        return True
    hit = local_switch(patterns, rel, absolute)
    return hit is None or hit[0]


def loads_in_package(patterns: Any, rel: str, absolute: str) -> bool:
    """Whether pi loads one file of a package, under its entry's array for that kind (None:
    the entry has none, so the whole kind loads; `rel` is relative to the package root)."""
    if patterns is None:
        return True
    hit = package_switch(patterns if isinstance(patterns, list) else [], rel, absolute)
    return hit is None or hit[0]


# --- the settings files pi reads --------------------------------------------------------------


class Scope(NamedTuple):
    """One settings file pi reads: its scope, where relative paths start, and its data."""

    name: str  # "user" or "project"
    path: Path
    base: Path  # the agent dir, or <cwd>/.pi
    data: Mapping[str, Any]
    # Why its data may not be what pi reads (pi reads it as empty, or ext could not read it),
    # said whole, and the fix; None: read as pi reads it.
    unread: str | None = None
    fix: str | None = None

    @property
    def label(self) -> str:
        return "settings.json" if self.name == "user" else ".pi/settings.json"


def read_scopes(
    agent_dir: Path,
    cwd: Path | None,
    trusted: Callable[[], bool] | None,
    strips_bom: bool,
) -> tuple[Scope, ...]:
    """The user settings.json and, when ext runs where one is, the project `.pi/settings.json`
    (only when `trusted()` says pi reads it: pi 1.x gates it behind project trust).

    Read without pi's lock, as doctor reads: a view for `list` and the plans (a write re-reads
    under the lock, and refuses a file it cannot edit). Each is read as pi reads it
    (`_as_pi_reads`), with why when that is empty or unknown (`unread`). One that pi is
    writing (empty, or cut short, while pi holds its lock) is read once pi is done: read as
    empty, a switch planned from it was "nothing to do" (helper-30)."""
    out = []
    places = [("user", agent_dir / "settings.json", agent_dir)]
    if cwd is not None and (cwd / ".pi").resolve() != agent_dir.resolve():
        project = cwd / ".pi" / "settings.json"
        if os.path.lexists(project) and (trusted is None or trusted()):
            places.append(("project", project, cwd / ".pi"))
    for name, path, base in places:
        out.append(_as_pi_reads(Scope(name, path, base, {}), strips_bom))
    return tuple(out)


def _as_pi_reads(scope: Scope, strips_bom: bool) -> Scope:
    """A settings file's data as pi reads it. A file at its lock path: pi cannot lock it and
    reads it as empty (helper-58; on both pis). What ext's reader refuses that JSON.parse
    reads, pi reads: a duplicate key's last value (helper-58), a byte-order mark on a pi that
    strips one (pi 1.x; helper-51), a byte that is no UTF-8 (pi reads it as U+FFFD). What
    neither reads, pi reads as empty; a file ext does not read (over its size cap) may be read
    by pi: said so."""
    lock = Path(f"{scope.path}.lock")
    if os.path.lexists(lock) and not os.path.isdir(lock):
        from installer.ground.shellword import shell_word

        why = f"{lock} is a file: pi cannot lock {scope.label} and reads it as empty"
        return scope._replace(unread=why, fix=f"rm {shell_word(lock)}")
    if not os.path.lexists(scope.path):
        return scope  # no file: nothing switched (a fresh agent dir reads no settings code)
    from installer.ground.errors import ExtError
    from installer.settings.store import read_settings

    try:
        return scope._replace(data=read_settings(scope.path).data)
    except ExtError as err:
        reason = err.message.removesuffix("; nothing was changed")
        refused = scope._replace(unread=f"{reason}: pi reads it as empty", fix=err.fix)
    from installer.settings.files import MAX_BYTES
    from installer.settings.store import text_as_pi_reads

    text = text_as_pi_reads(scope.path)
    if text is None:  # over ext's cap (pi may read it), no file, no permission
        if os.path.isfile(scope.path) and os.path.getsize(scope.path) > MAX_BYTES:
            why = f"{reason}: pi may read it, so what it switches may not be shown as pi has it"
            return refused._replace(unread=why)
        return refused
    data = as_pi_parses(text, strips_bom)
    return refused if data is None else scope._replace(data=data)


def as_pi_parses(text: str, strips_bom: bool) -> dict[str, Any] | None:
    """settings.json's text as pi reads it, when ext's reader refuses it: past a byte-order
    mark on a pi that strips one, then as JSON.parse reads it (a duplicate key's last value; no
    NaN), when it is an object; blank text as pi reads it, empty; else None."""
    import json

    if strips_bom and text.startswith("\ufeff"):
        text = text[1:]

    def no_constant(name: str) -> None:
        raise ValueError(name)

    if not text.strip():
        return {}
    try:
        data = json.loads(text, parse_constant=no_constant)
    except (ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) else None


def scopes_of(ctx: Context) -> tuple[Scope, ...]:
    """The settings scopes the pi found reads for this cwd: a project's only once pi trusts
    the project (installer/host/trust.py; a pi without the gate always reads it)."""

    cwd = ctx.env.cwd

    def trusted() -> bool:
        from installer.host.trust import project_trust

        home = Path(ctx.env.environ.get("HOME") or Path.home())
        return cwd is None or project_trust(ctx.pi_line(), ctx.agent_dir, cwd, home).trusted

    return read_scopes(ctx.agent_dir, ctx.env.cwd, trusted, ctx.pi_line().strips_bom)


def package_entries(scopes: Iterable[Scope], set_root: Path) -> list[tuple[Scope, Any]]:
    """Every packages entry naming the set, user scope first, as (scope, entry)."""
    by_user_first = sorted(scopes, key=lambda s: s.name != "user")
    listed = [
        (s, s.data["packages"]) for s in by_user_first if isinstance(s.data.get("packages"), list)
    ]
    if not listed:
        return []  # no packages key: the matching rules are not even loaded
    from installer.settings.packages import SetPackage

    found = []
    for scope, packages in listed:
        ours = SetPackage(set_root, scope.base)
        found += [(scope, e) for e in packages if ours.matches(e)]
    return found


def linked_switch(scopes: Sequence[Scope], kind: str, path: str) -> PiSwitch | None:
    """pi's switch for an item linked into the user agent dir (its top-level array)."""
    user = next((s for s in scopes if s.name == "user"), None)
    if user is None:
        return None
    key = KEYS[kind]
    patterns = user.data.get(key)
    if not isinstance(patterns, list):
        return None
    hit = local_switch(patterns, path, str(user.base / path))
    return None if hit is None else PiSwitch(hit[0], hit[1], f'{user.label} "{key}"')


def registered_switch(
    entries: Sequence[tuple[Scope, Any]], set_root: Path, kind: str, path: str
) -> PiSwitch | None:
    """pi's switch for an item of the registered set, from the entry pi uses (a project one
    wins); pattern "" when no pattern names it (the entry loads it). None: not registered."""
    if not entries:
        return None
    scope, entry = next(((s, e) for s, e in entries if s.name == "project"), entries[0])
    key = KEYS[kind]
    where = f"{scope.label} packages entry {source_of(entry)}"
    patterns = entry.get(key) if isinstance(entry, dict) else None
    if patterns is None:
        return PiSwitch(True, "", where, scope.name, package=True)
    patterns = patterns if isinstance(patterns, list) else []
    hit = package_switch(patterns, path, str(set_root / path)) or (True, "")
    return PiSwitch(hit[0], hit[1], f'{where} "{key}"', scope.name, package=True)


def path_of(r: Resource) -> str:
    """The path pi config writes for an item linked into the agent dir (relative to it)."""
    if r.layout != "dir":
        return r.dest
    if r.loads:  # the file pi loads, below the link that stands for the item's folder
        return f"{r.dest}/{r.loads[0][len(r.source) + 1 :]}"
    return item_path(r.kind, r.filename, r.layout, r.entry)


def package_paths(r: Resource) -> tuple[str, ...]:
    """The paths pi config writes for an item of the registered set (relative to the set):
    one per file pi loads for it (a folder extension may declare several)."""
    from installer.settings.packages import untag

    return tuple(untag(f)[1][1:] for f in r.filters)


def view_linked(
    scopes: Sequence[Scope], set_root: Path, r: Resource, state: str
) -> PiSwitch | None:
    """Link mode: pi's top-level switch of a linked item; for an item not linked (or parked),
    the packages entry that loads it anyway (pi prefers the link only while it is there)."""
    path = path_of(r)
    if state == "enabled":
        return linked_switch(scopes, r.kind, path)
    found = view_registered(package_entries(scopes, set_root), set_root, r)
    if found is not None and found.on:
        return found
    # A parked item: pi's own `-path` for it would still hold once ext switches it back on.
    return linked_switch(scopes, r.kind, path) if state == "disabled" else None


def view_registered(
    entries: Sequence[tuple[Scope, Any]], set_root: Path, r: Resource
) -> PiSwitch | None:
    """Register mode: pi's switch of an item from the entry pi uses; off when any of its
    files is off (the first such pattern), else what decided its first file."""
    found = [registered_switch(entries, set_root, r.kind, p) for p in package_paths(r)]
    return next((sw for sw in found if sw is not None and not sw.on), found[0] if found else None)


def source_of(entry: Any) -> str:
    return str(entry.get("source") if isinstance(entry, dict) else entry)


# --- writing: pi config's own edit, and ext's additions that keep pi's patterns ---------------


def switched(patterns: Sequence[Any], path: str, on: bool, package: bool) -> list[Any]:
    """pi config's switch of one item: its patterns dropped, then `-path`; to switch on, `+path`
    only when what is left would still keep it off (a `!glob`, an include that misses it).

    To switch on, every `-` pattern pi reads as this very item goes too, in whatever form it
    was written (`-./skills/x/SKILL.md`, `-skills/x` for a skill's folder): pi config drops
    only its own form, and a `-` beats a `+`, so the item would have stayed off."""
    kept = [p for p in patterns if not (isinstance(p, str) and strip(p) == path)]
    if on:
        kept = [
            p
            for p in kept
            if not (isinstance(p, str) and p.startswith("-") and _matches_exact(p[1:], path, path))
        ]
    if not on:
        return [*kept, f"-{path}"]
    if package:
        still_off = bool(kept) and (package_switch(kept, path, path) or (True, ""))[0] is False
    else:
        still_off = (local_switch(kept, path, path) or (True, ""))[0] is False
    return [*kept, f"+{path}"] if still_off else kept


def merged(patterns: Sequence[Any], wanted: Iterable[str], released: Iterable[str]) -> list[Any]:
    """Every pattern kept, byte for byte and in its place; `-path` appended for each wanted
    path not already excluded; ext's own earlier `-path`s dropped where `released`."""
    drop = {f"-{strip(p)}" for p in released} - {f"-{strip(p)}" for p in wanted}
    out = [p for p in patterns if not (isinstance(p, str) and p in drop)]
    have = {p for p in out if isinstance(p, str)}
    for p in dict.fromkeys(f"-{strip(w)}" for w in wanted):
        if p not in have:
            out.append(p)
    return out


def with_patterns(entry: Any, key: str, patterns: list[Any]) -> Any:
    """entry with `key` set to patterns; none left: the key goes, and a bare object folds back
    to its source string, as pi config does."""
    obj: dict[str, Any] = dict(entry) if isinstance(entry, dict) else {"source": entry}
    if patterns:
        obj[key] = patterns
    else:
        obj.pop(key, None)
    return obj["source"] if set(obj) == {"source"} else obj


def _key_of(path: str) -> str:
    from installer.settings.packages import untag

    return untag(path)[0]


def _bare(path: str) -> str:
    from installer.settings.packages import untag

    return untag(path)[1]


def merge_filters(
    settings: Mapping[str, Any], ours: Any, wanted: Sequence[str], released: Sequence[str] = ()
) -> dict[str, Any]:
    """Register the set if needed; its entry gains `wanted` filters and loses ext's own
    `released` ones; every other pattern, pi config's included, stays as it was."""
    from installer.settings.packages import find_entries, register

    out = register(settings, ours).settings
    index = find_entries(out, ours)[0]
    entry = out["packages"][index]
    for key in KEYS.values():
        mine = [_bare(w) for w in wanted if _key_of(w) == key]
        gone = [_bare(r) for r in released if _key_of(r) == key]
        current = entry.get(key) if isinstance(entry, dict) else None
        if current is None and not mine:
            continue  # no array: the whole kind loads; nothing of ours to add
        if current is not None and not isinstance(current, list):
            _not_a_list(key, entry)
        entry = with_patterns(entry, key, merged(current or [], mine, gone))
    out["packages"][index] = entry
    return out


def switch_entry(
    settings: Mapping[str, Any], ours: Any, key: str, path: str, on: bool
) -> dict[str, Any]:
    """pi config's switch of one item of the registered set, in its entry."""
    from installer.settings.packages import find_entries, register

    out = register(settings, ours).settings
    index = find_entries(out, ours)[0]
    entry = out["packages"][index]
    current = entry.get(key) if isinstance(entry, dict) else None
    if current is None and on:
        return out  # no array, so the whole kind loads: nothing to clear
    if current is not None and not isinstance(current, list):
        _not_a_list(key, entry)
    out["packages"][index] = with_patterns(entry, key, switched(current or [], path, on, True))
    return out


def switch_local(settings: Mapping[str, Any], key: str, path: str, on: bool) -> dict[str, Any]:
    """pi config's switch of one resource of the agent dir, in the top-level array."""
    out = dict(settings)
    current = out.get(key)
    if current is None and on:
        return out
    if current is not None and not isinstance(current, list):
        _not_a_list(key, None)
    patterns = switched(current or [], path, on, False)
    if patterns:
        out[key] = patterns
    else:
        out.pop(key, None)  # only our `-path` was there: the key goes with it
    return out


def names_a_place(pattern: str, places: Iterable[str]) -> bool:
    """Whether a top-level pattern switches one of these places (relative to the agent dir)
    or a file below it, read as a path (a glob below a place counts: ext writes none)."""
    if not pattern.startswith(_SIGNS):
        return False
    path = strip(pattern)
    return any(path == g or path.startswith(f"{g}/") for g in places)


def unswitch_local(
    settings: Mapping[str, Any], patterns: Iterable[tuple[str, str]]
) -> dict[str, Any]:
    """settings without these top-level patterns ((key, pattern), the switches of links that
    go); an array left empty goes with them. Every other pattern stays, in its place."""
    gone: dict[str, set[str]] = {}
    for key, pattern in patterns:
        gone.setdefault(key, set()).add(pattern)
    out = dict(settings)
    for key, drop in gone.items():
        current = out.get(key)
        if not isinstance(current, list) or not any(p in drop for p in current):
            continue
        kept = [p for p in current if not (isinstance(p, str) and p in drop)]
        if kept:
            out[key] = kept
        else:
            out.pop(key)
    return out


def _not_a_list(key: str, entry: Any) -> None:
    from installer.ground.errors import ExtError

    where = f"of the package {source_of(entry)!r}" if entry is not None else "at the top level"
    raise ExtError(
        f'"{key}" {where} in settings.json is not a list; nothing was changed',
        fix="make it a list of patterns (pi's docs/packages.md), then run the command again",
    )


# --- the items of `ext list` with pi's view -----------------------------------------------


def with_pi(ctx: Context, items: Sequence[Item]) -> list[Item]:
    """Link mode: each item with pi's switch, and its state as pi has it (a `-path` is off;
    a parked item that a packages entry loads anyway is on)."""
    scopes = scopes_of(ctx)
    out = []
    for it in items:
        sw = view_linked(scopes, ctx.set_root, it.resource, it.state)
        if sw is None:
            out.append(it)
        elif it.state == "enabled" and not sw.on:
            out.append(it._replace(state="disabled", pi=sw))
        elif it.state != "enabled" and sw.on and sw.package:
            note = "pi loads it from that packages entry; ext's switch cannot stop it (doctor)"
            out.append(it._replace(state="enabled", pi=sw, note=it.note or note))
        else:
            out.append(it._replace(pi=sw))
    return out


def registered_states(
    ctx: Context,
    items: Sequence[Item],
    set_root: Path | None = None,
    scopes: tuple[Scope, ...] | None = None,
) -> list[Item]:
    """Register mode: each item on or off by the packages entry pi uses (`items` come in as
    not-installed); every kind, since pi filters skills, prompts and themes too. `set_root`:
    another folder the set was registered from (a moved set); `scopes`: as `scopes_of` read
    them, when the caller has."""
    root = set_root or ctx.set_root
    entries = package_entries(scopes_of(ctx) if scopes is None else scopes, root)
    if not entries:
        return list(items)
    out = []
    for it in items:
        sw = view_registered(entries, root, it.resource)
        state: State = "enabled" if sw is None or sw.on else "disabled"
        said = sw is not None and (sw.pattern or sw.scope == "project")
        out.append(it._replace(state=state, pi=sw if said else None))
    return out
