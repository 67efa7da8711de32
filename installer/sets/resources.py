"""The resources of a set: what pi loads from it, item by item (rules in installer/sets/pirules.py).

A set is the conventional layout (extensions/, skills/, prompts/, themes/) or a pi package: a
root package.json whose `pi` manifest names, per kind, the paths and globs pi loads. This module
turns what pi would load into named items that link mode can link and register mode can filter.
"""

from __future__ import annotations

import os
from pathlib import Path

from installer.ground.errors import ExtError, Typo, UsageError
from installer.ground.records import NamedTuple
from installer.host.lines import TODAY, PiLine

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from typing import Any, Literal

    from installer.ground.context import Env
    from installer.sets.pirules import Found, Layout

    Kind = Literal["extension", "skill", "prompt", "theme"]

KINDS: tuple[Kind, ...] = ("extension", "skill", "prompt", "theme")
FOLDER: dict[str, str] = {
    "extension": "extensions",
    "skill": "skills",
    "prompt": "prompts",
    "theme": "themes",
}
PI_KINDS: dict[str, Kind] = {FOLDER[k]: k for k in KINDS}  # pi's folder -> the kind it holds
_WHAT = {kind: f"{kind} name" for kind in KINDS}
# A file item's link switched off: `<name>.ts.off` beside it (folders park in `.off/`).
_PARKED_FILES = (".ts.off", ".js.off", ".md.off", ".json.off")
_BAD_CHARS = frozenset("/\\\0")
# A name's bytes at most: a file extension's name with its suffix (`.json`), `.off` and a
# backup's `.bak.YYYYMMDD-HHMMSS-NN` stays within NAME_MAX (255) on every Linux file system.
_LONGEST = 200
_REFUSED = _BAD_CHARS | {",", *(chr(c) for c in (*range(32), 127))}


class Resource(NamedTuple):
    """One installable item of a set."""

    kind: Kind
    name: str
    filename: str  # entry name inside the kind folder: `notify.ts`, `git-checkpoint`
    layout: Layout
    source: str  # absolute path inside the set
    real: str = ""  # source with every link resolved
    loads: tuple[str, ...] = ()  # the files pi loads for it, as pi names them (not resolved)
    declared: tuple[str, ...] = ()  # the same, relative to the set root: what filters name
    unlinkable: str = ""  # why link mode cannot express it ("" when it can)
    folder: str = ""  # the host's folder for it when not pi's (installer.hosts.placing)
    written: str = ""  # the format ext writes it in for that host ("toml"); "": linked

    @property
    def home(self) -> str:
        """The folder of the agent dir it goes in: pi's for its kind, else the host's."""
        return self.folder or FOLDER[self.kind]

    # dest and disabled_dest are asked ten times an item in a plan: no property calls another
    @property
    def dest(self) -> str:
        """Where it goes, relative to the agent dir."""
        return f"{self.folder or FOLDER[self.kind]}/{self.filename}"

    @property
    def disabled_dest(self) -> str:
        """Its disabled form: a `.off` suffix for files, parked in `.off/` for folders."""
        home = self.folder or FOLDER[self.kind]
        if self.layout == "file":
            return f"{home}/{self.filename}.off"
        return f"{home}/.off/{self.filename}"

    @property
    def entry(self) -> str:
        """The file pi loads a folder extension from (index.ts, else index.js)."""
        if self.layout != "dir" or os.path.exists(f"{self.source}/index.ts"):
            return "index.ts"
        return "index.js" if os.path.exists(f"{self.source}/index.js") else "index.ts"

    @property
    def filters(self) -> tuple[str, ...]:
        """The register-mode filters that keep pi from loading it: `-path` per loaded file.

        An extension's filter is the bare pattern (`-extensions/foo.ts`, as ext always wrote
        it); another kind's carries its settings key: `skills:-skills/a/SKILL.md`.
        """
        from installer.settings.packages import tag

        rels = self.declared or (self._conventional(),)
        return tuple(tag(FOLDER[self.kind], f"-{rel}") for rel in rels)

    def _conventional(self) -> str:
        if self.layout == "file":
            return self.dest
        return f"{self.dest}/{self.entry if self.kind == 'extension' else 'SKILL.md'}"

    def loaded(self) -> tuple[str, ...]:
        """The paths of the files pi loads for it, as the set names them (links not resolved)."""
        if self.loads:
            return self.loads
        if self.layout == "file":
            return (self.source,)
        return (f"{self.source}/{self._conventional().rpartition('/')[2]}",)

    def entries(self) -> list[str]:
        """The real paths of the files pi loads for it, sorted (links resolved: read the disk)."""
        return sorted({os.path.realpath(p) for p in self.loaded()})

    @property
    def label(self) -> str:
        return self.name if self.kind == "extension" else f"{self.kind}:{self.name}"


def check_name(name: str, what: str = "name") -> str:
    """Refuse a name that could address anything but one entry of one folder."""
    plain = _REFUSED.isdisjoint(name) and ".." not in name and not name.startswith("-")
    plain = plain and name.isprintable()  # no C1 control, bidi override, zero-width character
    plain = plain and name == name.strip()
    plain = plain and (len(name) <= _LONGEST // 4 or len(os.fsencode(name)) <= _LONGEST)
    if plain and name not in ("", "."):
        return name  # every name of a set comes through here: keep the common case cheap
    problem = None
    if not name or name in (".", ".."):
        problem = "is empty or a dot name"
    elif _BAD_CHARS & set(name) or ".." in name:
        problem = "contains '/', '\\', '..' or NUL"
    elif name.startswith("-"):
        problem = "starts with '-'"
    elif "," in name:  # `--only a,b` would name a and b (helper-38)
        problem = "contains ',', which separates the names of --only and --skip"
    elif any(ord(c) < 32 or ord(c) == 127 for c in name):
        problem = "contains a control character"
    elif not name.isprintable():
        problem = _unprintable(next(c for c in name if not c.isprintable()))
    elif name != name.strip():  # ` x` is shown as `x`, and `--only ' x'` named x
        problem = "starts or ends with a space, which a screen does not show"
    elif len(os.fsencode(name)) > _LONGEST:  # helper-38: linked, then no disable nor backup
        problem = (
            f"is longer than {_LONGEST} bytes: with its suffix, `.off` and a backup's "
            "`.bak.YYYYMMDD-HHMMSS-NN`, it passes the file system's limit of 255"
        )
    if problem:
        raise UsageError(f"{what} {_shown(name)} {problem}", "use a plain name like 'notify'")
    return name


def _shown(name: str) -> str:
    """A name in quotes, a byte the file system's encoding could not read as `\\xff`, as the
    screen shows a path (helper-92: `'a\\udcffb'` beside the path's `a\\xffb`)."""
    if not any(0xDC80 <= ord(c) <= 0xDCFF for c in name):
        return repr(name)
    return repr(os.fsencode(name).decode("utf-8", "backslashreplace")).replace("\\\\", "\\")


def _unprintable(c: str) -> str:
    """Why a character has no place in a name: it can change or hide what a screen shows."""
    import unicodedata

    code = f"U+{ord(c):04X}"
    if 0xDC80 <= ord(c) <= 0xDCFF:  # surrogateescape's: a byte, not a character (helper-92)
        return f"holds the byte 0x{ord(c) - 0xDC00:02X}, which is not UTF-8 text"
    if unicodedata.category(c) == "Cc":
        return f"contains the control character {code}, which can rewrite what a terminal shows"
    if unicodedata.bidirectional(c) in (
        "LRE",
        "RLE",
        "LRO",
        "RLO",
        "PDF",
        "LRI",
        "RLI",
        "FSI",
        "PDI",
    ):
        return f"contains the bidi control {code}, which reorders how the name is shown"
    return f"contains the invisible character {code}, which hides a difference between names"


def discover(
    root: Path, pi: PiLine = TODAY, kinds: tuple[Kind, ...] = KINDS
) -> tuple[Resource, ...]:
    """Every item the line `pi` would load from the set at root, checked for unique names and
    places (`ctx.pi_line()` says which line the pi found is); `kinds`: of these kinds only
    (another host's, which a broken extensions/ must not stop)."""
    from installer.sets import pirules

    real_root = str(root.resolve())
    # Read only when present: a conventional set pays one stat for being one.
    has_json = os.path.exists(f"{real_root}/package.json")
    manifest = pirules.read_manifest(real_root, pi) if has_json else None
    if has_json and manifest is None:  # helper-32: a typo made every item of the set stale
        from installer.ground.context import refuse_broken_pi_package

        refuse_broken_pi_package(Path(real_root, "package.json"), looked_for=False)
    found: list[Resource] = []
    for kind in kinds:
        key = FOLDER[kind]
        if manifest is not None:
            entries = pirules.manifest_list(manifest, key) or []
            items = pirules.manifest_items(entries, real_root, key)
            if kind == "extension":
                items = [_as_folder(f) for f in items]
            found.extend(_resource(real_root, kind, f, False, False) for f in items)
            continue
        folder = f"{real_root}/{key}"
        if not os.path.isdir(folder):
            continue
        if kind == "extension":
            _refuse_whole_folder(folder)
        items = pirules.folder_items(folder, key)
        # Resolved once per folder: below a real folder, a path without links is its own real.
        plain = os.path.realpath(folder) == folder
        found.extend(_resource(real_root, kind, f, True, plain) for f in items)
    _check_unique(found, real_root)
    return tuple(sorted(found))


def labels_here(env: Env, set_dir: Path | None) -> list[str]:
    """The labels of every item of the set ext would use here (set_dir, else EXT_SET, the cwd,
    the bundled set), sorted; none when there is no set to read (shell completion asks)."""
    from installer.ground.context import find_set
    from installer.host.pi import line_here

    try:
        root, _ = find_set(env, set_dir)
        return sorted(
            {r.label for r in discover(root, line_here(path_env=env.environ.get("PATH")))}
        )
    except (ExtError, OSError):
        return []


def _as_folder(f: Found) -> Found:
    """A manifest's `<folder>/index.ts` is the folder extension it already is, when pi would
    load exactly that file from the folder: then a link to the folder expresses it."""
    from installer.sets.pirules import extension_entries

    if f.layout != "file" or os.path.basename(f.path) not in ("index.ts", "index.js"):
        return f
    folder = os.path.dirname(f.path)
    if extension_entries(folder) != f.entries:
        return f
    return f._replace(path=folder, layout="dir")


def _refuse_whole_folder(folder: str) -> None:
    """extensions/index.ts makes pi load extensions/ as one extension: the others go silent."""
    from installer.sets.pirules import extension_entries

    own = extension_entries(folder)
    if own is None:
        return
    what = os.path.relpath(own[0], os.path.dirname(folder))
    raise UsageError(
        f"{what} makes pi load the whole extensions/ folder as one extension: every other "
        "extension of the set would silently stop loading",
        "rename it (extensions/<name>.ts) or move it into a folder (extensions/<name>/index.ts)",
    )


def _resource(root: str, kind: Kind, f: Found, inside_only: bool, plain: bool) -> Resource:
    """One item; inside_only: met in a kind folder, where a link out of the set is an error."""
    filename = f.path.rpartition("/")[2]
    name = filename
    if f.layout == "file":
        stem, dot, _suffix = filename.rpartition(".")
        name = stem if dot else filename
        if kind == "extension" and filename in ("index.ts", "index.js"):
            name = os.path.basename(os.path.dirname(f.path))  # a manifest's `<folder>/index.ts`
    try:
        check_name(name, _WHAT[kind])
    except UsageError as err:  # say which file: the name alone may be hard to find, or to type
        raise UsageError(err.message, f"rename {f.path} to a plain name like 'notify'") from None
    if filename.endswith(_PARKED_FILES):
        # helper-82: a folder `extensions/a.ts.off` took the place of a.ts's link switched off;
        # each install then relinked it one way or the other, and `disable a` was refused. A
        # folder item parks in `.off/`: `helper.off` takes no one's place (helper-83).
        raise UsageError(
            f"{_WHAT[kind]} {filename!r} ends with '.off', the name of a switched-off item's "
            f"link ({filename.removesuffix('.off')} off): ext and pi would take one for the other",
            f"rename {f.path} to a name without '.off'",
        )
    if plain and not f.linked and f.layout == "file":  # the common case, kept cheap
        rel = f.path[len(root) + 1 :]  # below a real folder of the set: no link, no ..
        return Resource(kind, name, filename, "file", f.path, f.path, f.entries, (rel,))
    declared = tuple(_rel(p, root) for p in f.entries)
    if plain and not f.linked:
        why = _unlinkable(root, kind, f, f.path, filename)
        return Resource(kind, name, filename, f.layout, f.path, f.path, f.entries, declared, why)
    real = os.path.realpath(f.path)
    why = _unlinkable(root, kind, f, real, filename)
    if inside_only and not _inside(real, root):
        raise ExtError(
            f"{kind} {os.path.relpath(f.path, root)!r} is a link that leads out of the set, "
            f"to {real}",
            "copy the file into the set instead of linking to it",
        )
    return Resource(kind, name, filename, f.layout, f.path, real, f.entries, declared, why)


def _unlinkable(root: str, kind: str, f: Found, real: str, filename: str) -> str:
    """Why a link in the agent dir would not make pi load exactly this item ("" if it would)."""
    if not _inside(real, root):
        return f"it lies outside the set ({real})"
    if kind == "extension" and f.layout == "file" and filename in ("index.ts", "index.js"):
        return f"as extensions/{filename} it would make pi load all of extensions/ as one extension"
    if kind == "extension" and f.layout == "file" and not filename.endswith((".ts", ".js")):
        return "pi loads only .ts and .js files from an agent dir's extensions/"
    if f.partial:
        return "the manifest leaves out some of its folder's entries; a link would load them all"
    if f.layout == "dir" and not all(_inside(p, f.path) for p in f.entries):
        return "its package.json names an entry outside its folder"
    return ""


def _rel(path: str, root: str) -> str:
    """path relative to root; most are built by joining onto root, so no need to compute."""
    if path.startswith(f"{root}/") and "/." not in path:
        return path[len(root) + 1 :]
    return os.path.relpath(path, root)


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def undeclared_kinds(root: Path, pi: PiLine = TODAY) -> tuple[str, ...]:
    """The settings keys whose conventional folder a pi package's manifest leaves out.

    pi loads none of them for a package entry given as a string, but falls back to the
    folder once the entry is an object with filters: register mode blocks them with `[]`.
    """
    from installer.sets import pirules

    real_root = str(root.resolve())
    if not os.path.exists(f"{real_root}/package.json"):
        return ()
    manifest = pirules.read_manifest(real_root, pi)
    if manifest is None:
        return ()
    return tuple(
        key
        for key in pirules.KEYS
        if not pirules.manifest_list(manifest, key) and os.path.isdir(f"{real_root}/{key}")
    )


def none_named(root: Path, pi: PiLine = TODAY) -> str | None:
    """Why a set with kind folders has no items: its package.json's `pi` manifest names none
    of them (on pi 0.73 `"pi": {}` names nothing), with the edit that names them; None when
    that is not why (helper-37: install and list said to check --set)."""
    kinds = undeclared_kinds(root, pi)
    if not kinds:
        return None
    folders = ", ".join(f"{k}/" for k in kinds)
    named = ", ".join(f'"{k}": ["./{k}"]' for k in kinds)
    return (
        f"package.json's `pi` manifest names none of {folders}, so pi loads none of it: add "
        f'{named} to "pi" in package.json'
    )


def loads_as_one_extension(root: Path, pi: PiLine = TODAY) -> bool:
    """pi takes a registered folder with no manifest and no kind folder for one extension.

    (`resolveLocalExtensionSource`: it then fails to import the folder itself.)
    """
    from installer.sets import pirules

    real_root = str(root.resolve())
    if any(os.path.isdir(f"{real_root}/{key}") for key in pirules.KEYS):
        return False
    return pirules.read_manifest(real_root, pi) is None


def folder_is_item(path: Path, kind: str) -> bool:
    """Whether pi would load this folder, met in a kind's folder, as one item of that kind."""
    if kind == "extension":
        from installer.sets.pirules import extension_entries

        return extension_entries(str(path)) is not None
    return kind == "skill" and (path / "SKILL.md").is_file()


class Broken(NamedTuple):
    """A link among a set's items that leads nowhere: pi skips it, and so does an install."""

    kind: Kind
    rel: str  # `extensions/notify.ts`
    path: str
    target: str | None  # where it points; None for a loop (the kernel's ELOOP)

    @property
    def why(self) -> str:
        if self.target is None:
            return f"{self.rel} in the set is a link that leads back to itself (a loop)"
        return f"{self.rel} in the set is a link to {self.target}, which does not exist"

    @property
    def fix(self) -> str:
        from installer.ground.shellword import shell_word

        if self.target is None:
            return f"remove the link, or point it at the item: rm {shell_word(Path(self.path))}"
        return f"restore its target, or remove the link: rm {shell_word(Path(self.path))}"

    def left_out(self, by: str) -> str:
        """An install's warning: `by` (pi, Claude Code) loads nothing from it either."""
        return f"{self.why}: not installed, {by} cannot load it ({self.fix})"


def broken_links(root: Path) -> list[Broken]:
    """The links in the set's kind folders (extensions/, skills/, …) whose target is missing
    or loops, by name: what neither pi nor an install can load."""
    import errno

    out = []
    for kind in KINDS:
        folder = FOLDER[kind]
        try:
            with os.scandir(root / folder) as it:
                links = sorted(e.name for e in it if e.is_symlink() and e.name[0] != ".")
        except OSError:
            continue
        for name in links:
            path = f"{root}/{folder}/{name}"
            try:
                os.stat(path)
                continue
            except OSError as exc:
                loops = exc.errno == errno.ELOOP
            try:
                target = None if loops else os.readlink(path)
            except OSError:  # gone since the listing
                continue
            out.append(Broken(kind, f"{folder}/{name}", path, target))
    return out


def links_round(folder: str, cap: int = 2000) -> list[str]:
    """The links inside `folder` that lead back to it or to a folder above it (`up -> ..`),
    relative to it: an agent that follows links while it looks for SKILL.md files walks them
    round and round (OpenCode hangs, or finds the skill at every turn); pi stops at a skill's
    folder. At most `cap` entries are looked at."""
    out: list[str] = []
    seen = 0
    for here, dirs, files in os.walk(folder):
        real_here = os.path.realpath(here)
        for name in (*dirs, *files):
            seen += 1
            path = os.path.join(here, name)
            if not os.path.islink(path):
                continue
            leads = os.path.realpath(path)
            if real_here == leads or real_here.startswith(leads.rstrip(os.sep) + os.sep):
                out.append(os.path.relpath(path, folder))
        if seen >= cap:
            break
    return sorted(out)


def _check_unique(found: list[Resource], root: str) -> None:
    """Two items of a kind with one name, or one place in the agent dir, cannot both be had."""
    _first_twin(found, root, lambda r: (r.kind, r.name), "are named {r.name!r}")
    # A file's place follows from its name; only a folder named like a file can take it.
    if any(r.layout == "dir" and "." in r.filename for r in found):
        # Link mode refuses an item it cannot link: its place in the agent dir is no one's.
        linkable = [r for r in found if not r.unlinkable]
        _first_twin(linkable, root, lambda r: (r.kind, r.filename), "would land on {r.dest}")


def _first_twin(found: list[Resource], root: str, key: Any, clash: str) -> None:
    seen: dict[tuple[str, str], Resource] = {}
    for r in found:
        other = seen.setdefault(key(r), r)
        if other is not r:
            a, b = (os.path.relpath(x.source, root) for x in (other, r))
            raise UsageError(
                f"two {r.kind}s {clash.format(r=r)}: {a} and {b}",
                "rename or remove one of them in the set",
            )


def select(
    resources: tuple[Resource, ...], only: list[str], skip: list[str]
) -> tuple[Resource, ...]:
    """Apply --only / --skip (--only wins); an unknown name is a usage error naming the closest
    (each of them, when more than one is typed wrong)."""
    guessed: list[Typo] = []
    for name in (*only, *skip):
        try:
            resolve_name(resources, name)
        except Typo as typo:
            guessed.append(typo)
    if guessed:
        first, *rest = guessed
        if rest:
            names = ", ".join(repr(t.typed) for t in guessed)
            pairs = tuple((t.typed, t.meant) for t in rest)
            raise Typo(f"the set has no items named {names}", first.typed, first.meant, True, pairs)
        raise first
    if only:
        return tuple(r for r in resources if _matches(r, only))
    return tuple(r for r in resources if not _matches(r, skip))


def selection_words(only: Sequence[str], skip: Sequence[str]) -> tuple[str, ...]:
    """A selection as a command line gives it (`--only a,b --skip c`), for a run's journal:
    link mode records it nowhere else."""
    given = (("--only", only), ("--skip", skip))
    return tuple(w for flag, names in given if names for w in (flag, ",".join(names)))


def selection_warnings(only: Sequence[str], skip: Sequence[str]) -> tuple[str, ...]:
    """What `select` does that the command line does not show: --skip beside --only."""
    return (
        ("--skip is not used: --only names what this install leaves in",) if only and skip else ()
    )


def split_label(name: str) -> tuple[str, str]:
    """(kind, bare name) of a label a person typed: `skill:review`, `notify`; a kind is the
    word before the first colon, and only one of KINDS (helper-80: `skill:a:b` was split at
    its last colon, and offered as `skill:b`): `a:b` is a bare name with a colon in it."""
    kind, colon, bare = name.partition(":")
    return (kind, bare) if colon and kind in KINDS else ("", name)


def nearest_kind(typed: str) -> str | None:
    """The kind a mistyped one means (`skills`, `Skill`), or None when none is near."""
    import difflib

    return next(iter(difflib.get_close_matches(typed.lower(), KINDS, n=1, cutoff=0.6)), None)


def resolve_name(resources: tuple[Resource, ...], name: str) -> list[Resource]:
    """The resources a user-given name means: `notify`, `notify.ts`, or `skill:review`."""
    import difflib

    check_name(split_label(name)[1])
    hits = [r for r in resources if _matches(r, [name])]
    if hits:
        return hits
    # The name alone is compared, among the kind given: a shared `skill:` made any two skill
    # names look alike (helper-75: `skill:nosuch` was offered `skill:helper`, with --yes).
    kind, bare = split_label(name)
    typed, colon, rest = name.partition(":")
    near = nearest_kind(typed) if colon and not kind else None
    if near is not None:  # `skills:review`: the kind is mistyped, not the name
        kind, bare = near, rest
    names = sorted({r.name for r in resources if not kind or r.kind == kind})
    close = difflib.get_close_matches(bare, names, n=1, cutoff=0.5)
    message = f"the set has no item named {name!r}"
    if close:
        meant = next(r for r in resources if r.name == close[0] and (not kind or r.kind == kind))
        raise Typo(message, name, f"{kind}:{meant.name}" if kind else meant.label, guess=True)
    raise UsageError(message, "run `ext list` to see the names")


def pi_skips(items: Iterable[Resource], line: PiLine) -> list[str]:
    """One line per skill of items that pi (of `line`) will skip though it is put in place or
    switched on, with why (installer/sets/piskill.py: its YAML rules are read only for a
    skill, a millisecond of every other install's start)."""
    skills = [r for r in items if r.kind == "skill"]
    if not skills:
        return []
    from installer.sets.piskill import warnings

    return warnings(skills, line)


def twin_warnings(
    resources: Sequence[Resource], only: Sequence[str], skip: Sequence[str]
) -> tuple[str, ...]:
    """An install's --only/--skip of a bare name that means items of two kinds (`uv`): what
    it takes in or out is both, said before the plan with the names that pick one."""
    said = []
    flag, names = ("--only", only) if only else ("--skip", skip)  # --only wins (select)
    for name in dict.fromkeys(n for n in names if ":" not in n):
        kinds = sorted({r.kind for r in resources if _matches(r, [name])})
        if len(kinds) > 1:
            what = " and ".join(f"{'an' if k[0] in 'aeiou' else 'a'} {k}" for k in kinds)
            picks = " or ".join(f"`{k}:{name}`" for k in kinds)
            said.append(f"{flag} {name} names {what}, both: {picks} names one")
    return tuple(said)


def twins(resources: Sequence[Resource], names: Iterable[str]) -> dict[Resource, str]:
    """For each bare name that means items of two kinds (`uv`: an extension and a skill), the
    hint each of them gets in the plan: the prefixed name that picks it alone."""
    hints: dict[Resource, str] = {}
    for name in names:
        if ":" in name:
            continue
        hits = [r for r in resources if _matches(r, [name])]
        if len({r.kind for r in hits}) < 2:
            continue
        for r in hits:
            others = " and ".join(sorted({h.kind for h in hits if h.kind != r.kind}))
            article = "an" if others[0] in "aeiou" else "a"
            hints[r] = (
                f"{name} is also {article} {others}: `{r.kind}:{r.name}` names this one alone"
            )
    return hints


def _matches(r: Resource, names: list[str]) -> bool:
    for name in names:
        kind, bare = split_label(name)
        if kind and kind != r.kind:
            continue
        if bare in (r.name, r.filename):
            return True
    return False
