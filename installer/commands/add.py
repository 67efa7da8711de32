"""`ext add NAME`: a new extension, skill, prompt or theme in the set, from a template."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

from installer.engine.result import PlanResult
from installer.ground.errors import UsageError
from installer.ground.records import NamedTuple
from installer.host.pi import HostInfo
from installer.scaffold import templates
from installer.scaffold.creation import Bench, Confirm, Piece, run
from installer.scaffold.templates import host_package
from installer.sets.pirules import SUFFIXES
from installer.sets.resources import FOLDER, KINDS, check_name, nearest_kind

# Where a resource of each kind could already be, by name: any of these is "taken".
_TAKEN = {
    "extension": ("{n}.ts", "{n}.js", "{n}"),
    "skill": ("{n}", "{n}.md"),
    "prompt": ("{n}.md",),
    "theme": ("{n}.json",),
}
# pi's skill names (the Agent Skills standard): lowercase words joined by single hyphens.
_SKILL_NAME = r"[a-z0-9]+(-[a-z0-9]+)*"


class Add(NamedTuple):
    """`ext add`'s options, as installer.cli.grammar names them."""

    name: str = ""
    kind: str = "extension"
    as_dir: bool = False
    dry_run: bool = False
    yes: bool = False  # the front's: the confirm it hands in does not ask


def add(bench: Bench, options: Add, confirm: Confirm) -> PlanResult:
    """The new item in the set (bench.folder), from its kind's template."""
    o = options
    kind, name = kind_and_name(o.name, o.kind, o.as_dir)
    host = bench.host() if kind in ("extension", "theme") else None  # pi's types, a theme's
    return add_item(bench.folder, name, kind, o.as_dir, o.dry_run, confirm, host, bench.install)


def kind_and_name(typed: str, kind: str, as_dir: bool = False) -> tuple[str, str]:
    """The kind and name of `ext add skill:review`, as every other command reads that label
    (it made an extension named `skill:review.ts`); `--kind` says the kind of a bare name."""
    prefix, colon, bare = typed.partition(":")
    if not colon:
        return kind, typed
    near = prefix.lower() if prefix.lower() in KINDS else nearest_kind(prefix)
    if near is None or ":" in bare:  # `a:b`, `skill:a:b`: no kind, or a name with a colon
        raise UsageError(
            f"name {typed!r} has a ':' that names no kind, where ext's commands read "
            f"KIND:NAME ({' | '.join(KINDS)}); nothing was written",
            "use a plain name like 'notify' (hyphens are fine)",
        )
    if near != prefix.lower():
        from installer.ground.errors import Typo

        raise Typo(f"unknown kind {prefix!r} in {typed!r}", typed, f"{near}:{bare}")
    if kind not in ("extension", near):  # extension is --kind's default: the label says more
        raise UsageError(
            f"{typed!r} names a {near}, --kind says {kind}; nothing was written",
            f"name the kind once: `ext add {near}:{bare}{' --dir' if as_dir else ''}`",
        )
    return near, bare


def add_item(
    set_root: Path,
    name: str,
    kind: str,
    as_dir: bool,
    dry_run: bool,
    confirm: Confirm,
    host: HostInfo | None,
    install: str = "ext install",
) -> PlanResult:
    """Plan the new resource's file (and folder), then create it; never over anything there.

    The note names a whole install, never `--only NAME`: a selection is what is installed, so
    that would take the set's other items out."""
    if kind not in KINDS:
        from installer.ground.errors import Typo

        close = nearest_kind(kind)  # skills, Skill
        if close:
            raise Typo(f"unknown kind {kind!r}", kind, close)
        raise UsageError(f"unknown kind {kind!r}", f"use --kind {' | '.join(KINDS)}")
    name = _bare(check_name(name), kind)
    if kind == "extension" and name == "index" and not as_dir:
        raise UsageError(
            "extensions/index.ts would make pi load the whole extensions/ folder as one "
            "extension; nothing was written",
            "pick another name, or pass --dir for a folder extension",
        )
    folder, said = _home(set_root, name, kind, as_dir, host)
    _check_free(folder, name, kind)
    path = _path(folder, name, kind, as_dir)
    piece = Piece(path, _text(name, kind, host), f"a new {kind}")
    note = f"next: {install}   (installs it with the rest of the set, linked or registered)"
    return run("add", lambda: [piece], said, dry_run, confirm, (note,))


def _home(
    set_root: Path, name: str, kind: str, as_dir: bool, host: HostInfo | None
) -> tuple[Path, tuple[str, ...]]:
    """The folder the new item goes in: its kind's, unless the set is a pi package whose
    manifest does not cover it there but covers another folder (`./src/*.ts`); then that one.
    With the warning when no folder the manifest names would have pi load it."""
    default = set_root / FOLDER[kind]
    said = _undeclared(set_root, _path(default, name, kind, as_dir), kind, host)
    if not said:
        return default, ()
    for folder in _named_folders(set_root, kind, host):
        if not _undeclared(set_root, _path(folder, name, kind, as_dir), kind, host):
            return folder, ()
    return default, said


def _named_folders(set_root: Path, kind: str, host: HostInfo | None) -> list[Path]:
    """The folders a pi package's manifest names for a kind: an entry's own folder, or the
    folder before its first glob (`./src/*.ts` -> src, made if missing), each inside the set."""
    from installer.host.lines import line_of
    from installer.host.pi import line_here
    from installer.sets.pipatterns import is_override
    from installer.sets.pirules import manifest_list, read_manifest

    pi = line_of(host.version, host.package) if host else line_here()
    out: list[Path] = []
    for entry in manifest_list(read_manifest(str(set_root), pi), FOLDER[kind]) or []:
        if is_override(entry) or entry.startswith("!"):
            continue
        parts = entry.removeprefix("./").split("/")
        fixed = list(itertools.takewhile(lambda p: not any(c in p for c in "*?[{"), parts))
        folder = set_root.joinpath(*fixed) if fixed else set_root
        if folder.exists():
            named = folder.is_dir()
        elif fixed != parts:  # the folder before a glob, made with the item
            named = True
        else:  # a path not there yet: a folder, unless it has a file's suffix
            named = not folder.name.endswith(SUFFIXES[FOLDER[kind]])
        if named and folder.resolve().is_relative_to(set_root.resolve()) and not _is_item(folder):
            out.append(folder)
    return list(dict.fromkeys(out))


def _undeclared(set_root: Path, path: Path, kind: str, host: HostInfo | None) -> tuple[str, ...]:
    """In a pi package the manifest, not the folder, says what pi loads: say so."""
    from installer.host.lines import line_of
    from installer.host.pi import line_here
    from installer.sets.pipatterns import is_override, minimatch
    from installer.sets.pirules import manifest_list, read_manifest

    if not (set_root / "package.json").exists():
        return ()
    pi = line_of(host.version, host.package) if host else line_here()
    manifest = read_manifest(str(set_root), pi)
    if manifest is None:
        return ()
    rel = path.relative_to(set_root)
    if kind in ("extension", "skill") and path.name in ("index.ts", "SKILL.md"):
        rel = rel.parent
    covered = [str(rel), *(str(p) for p in rel.parents if str(p) != ".")]
    for entry in manifest_list(manifest, FOLDER[kind]) or []:
        bare = entry[2:] if entry.startswith("./") else entry
        if not is_override(entry) and any(
            c == bare.rstrip("/") or minimatch(c, bare) for c in covered
        ):
            return ()
    return (
        f"this set is a pi package: pi loads {rel} only if package.json's "
        f'"pi"."{FOLDER[kind]}" names it (add "./{rel}", or a glob that covers it)',
    )


def _is_item(folder: Path) -> bool:
    """A folder that is one item itself (a skill's SKILL.md, an extension's entry): pi does
    not look for another inside it."""
    return any((folder / entry).is_file() for entry in ("SKILL.md", "index.ts", "index.js"))


def _bare(name: str, kind: str) -> str:
    """`notify.ts` -> `notify`; a hidden name would never be found, a skill must fit pi's rule."""
    bare = name
    for suffix in SUFFIXES[FOLDER[kind]]:
        bare = bare.removesuffix(suffix)
    if not bare or bare.startswith("."):
        raise UsageError(
            f"{kind} name {name!r} is hidden or empty", "use a plain name like 'notify'"
        )
    if any(c.isspace() or c == "," for c in bare):
        raise UsageError(
            f"{kind} name {name!r} has a space or a comma (`--only a,b` splits at commas, a "
            "shell at spaces); nothing was written",
            "use a plain name like 'notify' (hyphens are fine)",
        )
    if kind == "skill" and (len(bare) > 64 or not re.fullmatch(_SKILL_NAME, bare)):
        slug = templates.flag_prefix(bare)[:64].rstrip("-")
        wants = "lowercase letters, digits and single hyphens"
        if re.fullmatch(_SKILL_NAME, bare):  # helper-77: the rule broken is the length
            wants = f"at most 64 characters; this one has {len(bare)}"
        raise UsageError(f"skill name {bare!r}: pi wants {wants}", f"try {slug!r}")
    return bare


def _check_free(folder: Path, name: str, kind: str) -> None:
    for pattern in _TAKEN[kind]:
        path = folder / pattern.format(n=name)
        if path.exists() or path.is_symlink():
            raise UsageError(
                f"the set already has {path}; nothing was written",
                "pick another name, or edit the one that is there",
            )


def _path(folder: Path, name: str, kind: str, as_dir: bool) -> Path:
    if kind == "skill":
        return folder / name / "SKILL.md"  # a skill is a folder, whatever --dir says
    if as_dir and kind != "extension":
        raise UsageError(f"--dir is for extensions and skills, not a {kind}", "leave out --dir")
    if as_dir:
        return folder / name / "index.ts"
    return folder / f"{name}{SUFFIXES[FOLDER[kind]][0]}"


def _text(name: str, kind: str, host: HostInfo | None) -> str:
    if kind == "extension":
        package, _ = host_package(host)
        return templates.EXTENSION.format(name=name, package=package)
    if kind == "skill":
        return templates.SKILL.format(name=name)
    if kind == "prompt":
        return templates.PROMPT.format(name=name)
    return templates.theme(name, _host_theme(host))


def _host_theme(host: HostInfo | None) -> dict[str, object] | None:
    """The installed pi's own dark theme: every colour token that pi version wants; None (the
    template's own, every token in hex) when it writes a colour as a function (pi 1.x's
    `okhsl(295 50% 67%)`), which an older pi cannot read (helper-81: a theme made with pi 1.6
    found failed to load in pi 0.73, `Variable reference not found`)."""
    _, package_dir = host_package(host)
    if package_dir is None:
        return None
    path = package_dir / "dist" / "modes" / "interactive" / "theme" / "dark.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("colors"), dict):
        return None
    values = [v for table in ("vars", "colors") for v in dict(data.get(table) or {}).values()]
    return None if any(isinstance(v, str) and "(" in v for v in values) else data
