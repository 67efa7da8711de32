"""What `ext adopt` can take in: real files and folders of an agent dir that look like resources,
picked by name; and how one differs from the set's own (a unified diff)."""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path

from installer.ground import backups, trees
from installer.ground.errors import UsageError
from installer.ground.records import NamedTuple
from installer.links.scan import AgentState, Entry
from installer.sets.pirules import SUFFIXES
from installer.sets.resources import FOLDER, KINDS, check_name, folder_is_item, split_label

TYPE_CHECKING = False
if TYPE_CHECKING:
    from installer.sets.pirules import Layout
    from installer.sets.resources import Kind

MAX_DIFF_LINES = 200


@dataclass(frozen=True)
class Candidate:
    """A real file or folder in an agent dir's resource folder, not ext's."""

    kind: Kind
    name: str
    filename: str
    layout: Layout
    off: bool = False  # a file switched off by hand (`notify.ts.off`), adopted off

    @property
    def rel(self) -> str:
        """Where it is, relative to the agent dir (where its link goes)."""
        return f"{FOLDER[self.kind]}/{self.filename}"

    @property
    def in_set(self) -> str:
        """Where it goes in the set: its place, less a `.off` it was switched off by."""
        return self.rel.removesuffix(".off") if self.off else self.rel

    @property
    def label(self) -> str:
        return self.name if self.kind == "extension" else f"{self.kind}:{self.name}"


class NotAdopted(NamedTuple):
    """Why an entry that looks like a resource is not adopted, and the way on, if any."""

    why: str
    way: str | None = None

    @property
    def line(self) -> str:
        return f"{self.why}; {self.way}" if self.way else self.why


def candidates(agent: AgentState) -> tuple[list[Candidate], dict[Candidate, NotAdopted]]:
    """Every adoptable entry, and for each that looks like a resource and is not adopted (a
    link, or a name the set would refuse), why."""
    found: list[Candidate] = []
    links: dict[Candidate, NotAdopted] = {}
    for kind in KINDS:
        folder = FOLDER[kind]
        for name in sorted(agent.taken(folder)):
            rel = f"{folder}/{name}"
            entry = agent.entries.get(rel)
            if entry is None or name.startswith(".") or backups.parse(name) is not None:
                continue
            if name.endswith(".off"):  # switched off by hand: a file's, as ext's own is
                c = _switched_off(agent.agent_dir / rel, kind, name, entry)
            else:
                c = _classify(agent.agent_dir / rel, kind, name, entry)
            if c is None:
                continue
            refused = _refused(c)
            if refused is not None:  # adopted, it would stop every command on the set
                links[c] = NotAdopted(f"{rel}: {refused}", "rename it, then adopt it")
                continue
            if entry.kind == "link":
                if entry.owner == "foreign" and not _ext_own(agent.agent_dir, entry.target):
                    links[c] = _not_adopted(rel, entry, kind)
                continue
            found.append(c)
    return found, links


def _not_adopted(rel: str, entry: Entry, kind: Kind) -> NotAdopted:
    """Why a link is not adopted, and the way on (helper-75: a hand-written install.sh's
    links into ~/dotfiles had none): the folder above the resource folder it leads into is a
    set, or can be made one; a link that leads nowhere is said to."""
    said = f"{rel} is a link to {entry.target}"
    if not entry.exists or entry.real is None:
        return NotAdopted(f"{said}, which is gone: adopt takes only real files or folders")
    said += ": adopt takes only real files or folders"
    folder = Path(entry.real).parent
    root = folder.parent
    if folder.name != FOLDER[kind]:
        return NotAdopted(said)
    from installer.ground.shellword import shell_word

    here = shell_word(root)
    if (root / "extset.toml").is_file():
        return NotAdopted(said, f"it is an item of the set at {root}: ext --set {here} install")
    if not _may_be_a_set(root):
        return NotAdopted(said)
    way = f"its folder can be a set of its own: ext init {here} && ext --set {here} install"
    return NotAdopted(said, way)


def _may_be_a_set(root: Path) -> bool:
    """Whether a folder a link leads into may be offered as a set: not `/`, nor the home or
    above it, nor a hidden folder of the home's (helper-76: a skill linked from ~/.claude was
    told `ext init ~/.claude`; ~/.agents, ~/.codex, ~/.config/opencode alike)."""
    home = Path.home()
    if root == Path(root.anchor) or home.is_relative_to(root):
        return False
    inside = root.relative_to(home).parts if root.is_relative_to(home) else ()
    return not any(part.startswith(".") for part in inside)


def _refused(c: Candidate) -> str | None:
    """Why the set would refuse this name (helper-43: `adopt --all` took in `my, ext.ts`,
    and then every command on the set refused it); None for a name it takes."""
    try:
        check_name(c.name, f"{c.kind} name")
    except UsageError as exc:
        return exc.message
    return None


def _ext_own(agent_dir: Path, target: str | None) -> bool:
    """A link to one of ext's copies of its agent files (/ext's command, the recorder): ext's,
    not the person's, so not a link to name."""
    from installer.links.leftovers import is_copy

    return target is not None and is_copy(agent_dir / target)


def _switched_off(path: Path, kind: Kind, name: str, entry: Entry) -> Candidate | None:
    """A file `<name>.off` (pi passes it over: off, by pi's rule and install.sh's) that is
    a resource with the `.off` taken away; a folder so named is not (pi loads `foo.off/`)."""
    if entry.to_dir:
        return None
    c = _classify(path, kind, name.removesuffix(".off"), entry)
    return Candidate(c.kind, c.name, name, c.layout, off=True) if c is not None else None


def _classify(path: Path, kind: Kind, name: str, entry: Entry) -> Candidate | None:
    if entry.to_dir:
        if not folder_is_item(path, kind):
            return None
        return Candidate(kind, name, name, "dir")
    # The same file shapes pi takes from a set (folders: resources.folder_is_item).
    stem, dot, suffix = name.rpartition(".")
    if not dot or not stem or f".{suffix}" not in SUFFIXES[FOLDER[kind]]:
        return None
    return Candidate(kind, stem, name, "file")


def pick(
    found: list[Candidate],
    names: list[str],
    every: bool,
    links: dict[Candidate, NotAdopted] | None = None,
) -> list[Candidate]:
    """The candidates named (`notify`, `notify.ts`, `skill:review`), or all of them; a name of
    one of `links` (what is not adopted, by label) is refused with its line."""
    if every:
        return found
    chosen: list[Candidate] = []
    for raw in names:
        kind, bare = split_label(raw)
        check_name(bare)
        hits = [c for c in found if _named(c, kind, bare) and c not in chosen]
        why = [n for c, n in (links or {}).items() if _named(c, kind, bare)]
        if not hits and why:
            listed = "adopt what is yours (`ext adopt --all --dry-run` lists it)"
            raise UsageError(why[0].why, why[0].way or listed)
        if not hits:
            labels = sorted({c.label for c in found})
            close = difflib.get_close_matches(raw, labels, n=1, cutoff=0.5)
            fix = f"did you mean {close[0]!r}?" if close else _listing(labels)
            raise UsageError(f"the agent dir has no file or folder of yours named {raw!r}", fix)
        chosen.extend(hits)
    return chosen


def _named(c: Candidate, kind: str, bare: str) -> bool:
    """Whether a name typed (`kind:bare`, the kind optional) names `c`."""
    return (not kind or kind == c.kind) and bare in (c.name, c.filename)


def _listing(labels: list[str]) -> str:
    if not labels:
        return "there is nothing to adopt there (links are not adopted)"
    return f"adoptable: {', '.join(labels)}"


def diff(ours: Path, theirs: Path, label: str, agent_label: str | None = None) -> str:
    """The set's version against the agent dir's, as a unified diff (folders file by file);
    `agent_label`: the agent dir's name for it, where it differs (`todo.ts.off`)."""
    lines: list[str] = []
    if ours.is_dir() != theirs.is_dir():
        lines.append(f"{label}: a {_layout(ours)} in the set, a {_layout(theirs)} in the agent dir")
    elif not ours.is_dir():
        lines.extend(_file_diff(ours, theirs, f"set/{label}", f"agent/{agent_label or label}"))
    else:
        a = {rel: (k, v) for rel, k, v in trees.entries(ours)}
        b = {rel: (k, v) for rel, k, v in trees.entries(theirs)}
        for rel in sorted(set(a) | set(b)):
            if rel not in b:
                lines.append(f"only in the set: {label}/{rel}")
            elif rel not in a:
                lines.append(f"only in the agent dir: {label}/{rel}")
            elif a[rel] != b[rel]:
                sa, sb = f"set/{label}/{rel}", f"agent/{label}/{rel}"
                lines.extend(_file_diff(ours / rel, theirs / rel, sa, sb))
    if len(lines) > MAX_DIFF_LINES:
        lines = [*lines[:MAX_DIFF_LINES], f"… {len(lines) - MAX_DIFF_LINES} more lines"]
    return "\n".join(lines)


def _layout(path: Path) -> str:
    return "folder" if path.is_dir() else "file"


def _file_diff(a: Path, b: Path, name_a: str, name_b: str) -> list[str]:
    if a.is_symlink() or b.is_symlink() or not (a.is_file() and b.is_file()):
        return [f"{name_a} and {name_b} differ (not both plain files)"]
    try:
        text_a = a.read_bytes().decode("utf-8").splitlines()
        text_b = b.read_bytes().decode("utf-8").splitlines()
    except UnicodeDecodeError:
        return [f"binary files {name_a} and {name_b} differ"]
    return list(difflib.unified_diff(text_a, text_b, name_a, name_b, lineterm=""))
