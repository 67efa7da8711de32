"""Read what is on disk in an agent dir's resource folders, one scandir per folder."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Mapping
from pathlib import Path
from types import MappingProxyType

from installer.ground.context import PI_FOLDERS
from installer.ground.errors import ExtError
from installer.ground.records import NamedTuple
from installer.sets.resources import FOLDER, Resource

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Literal

    # Whose a link is: ext's for this set, for an older root of it ("moved"), for another set ext
    # installed here ("other", by the state record), or nobody ext knows ("foreign").
    Owner = Literal["ours", "moved", "other", "foreign"]


PARKED = (".off", ".bak")


class Entry(NamedTuple):
    """One entry of an agent dir folder; links are never followed except to classify them."""

    kind: Literal["link", "file", "dir"]
    target: str | None = None  # a link's target as written
    real: str | None = None  # where a link leads, fully resolved (exists or not)
    exists: bool = True  # for links: whether the target exists
    to_dir: bool = False  # a dir, or a link that leads to one
    owner: Owner | None = None  # links only
    root: str | None = None  # the set root (current or older) an owned link leads into


class AgentState(NamedTuple):
    """Every entry of the resource folders (and their `.off/`), and the names in each folder."""

    agent_dir: Path
    entries: Mapping[str, Entry]
    names: Mapping[str, frozenset[str]]

    def taken(self, folder: str) -> frozenset[str]:
        return self.names.get(folder, frozenset())


def check_folders(
    agent_dir: Path, set_root: Path | None = None, folders: Iterable[str] = PI_FOLDERS
) -> None:
    """Refuse resource folders (or their `.off/`, `.bak/`) that are links, files or the set's own.

    Every write would land somewhere else: in the set itself, or outside the agent dir.
    `folders`: the host's (pi's unless --host names another; absolute for a HOME folder).
    """
    own = [set_root.resolve() / f for f in FOLDER.values()] if set_root is not None else []
    _check_folder(agent_dir / ".extset")  # ext's lock, journal and state live there
    from installer.ground.own import check_bookkeeping

    check_bookkeeping(agent_dir)
    for folder in folders:
        for sub in (folder, *(f"{folder}/{p}" for p in PARKED)):
            _check_folder(agent_dir / sub, own)
        real = (agent_dir / folder).resolve()
        if any(real.is_relative_to(d) for d in own):
            from installer.ground.errors import UsageError

            # helper-77: "A/extensions is inside the set (A/extensions)", exit 1, said one
            # path twice and read as a failure rolled back; it is a dir that cannot be one
            raise UsageError(
                f"the agent dir {agent_dir} would put its {folder}/ in the set {set_root} "
                f"(as {real}): ext would write into the set",
                # whichever named it: not --agent-dir alone (a variable may have)
                "point what named this agent dir (--agent-dir, EXT_AGENT_DIR, "
                "PI_CODING_AGENT_DIR or [target] agent_dir) at a folder outside the set's "
                "resource folders",
            )


def _check_folder(path: Path, own: Iterable[Path] = ()) -> None:
    if path.is_symlink():
        where = os.readlink(path)
        real = Path(os.path.realpath(path))
        into_set = any(real == d or real.is_relative_to(d) for d in own)
        fix = real_folder_fix(path, "run ext again", into_set)
        raise ExtError(f"{path} is a symlink (to {where}); ext never writes through it", fix)
    if path.exists() and not path.is_dir():
        from installer.ground.shellword import aside

        raise ExtError(f"{path} is a file, not a folder", aside(path))


def real_folder_fix(path: Path, then: str, into_set: bool = False) -> str:
    """Replace a linked folder with a real one, and keep what the link led to: removing the
    link alone would leave the agent without the files kept there (a dotfiles folder). Into
    the set (a hand-made install's link), an empty folder: copying the set in would only have
    ext back up every copy on the next run."""
    from installer.ground.shellword import shell_word

    if into_set:
        here = shell_word(path)
        return f"replace it with a real folder: rm {here} && mkdir {here}, then {then}"
    here, there = shell_word(path), shell_word(Path(os.path.realpath(path)))
    return (
        f"make it a real folder holding the same files: rm {here} && mkdir {here} && "
        f"cp -a {there}/. {here}/, then {then}"
    )


def scan(
    agent_dir: Path,
    set_root: Path,
    old_roots: Iterable[Path] = (),
    known: Mapping[str, bool] = MappingProxyType({}),
    other_sets: Iterable[Path] = (),
    folders: Iterable[str] = PI_FOLDERS,
) -> AgentState:
    """Classify every entry of the agent dir's resource folders against the set's roots.

    `known` maps real paths the caller has just seen to whether each is a folder (the set's
    resources, from `seen`): a link leading there is not stat'ed again. `folders`: the host's
    (`Context.folders`), pi's by default.
    """
    folders = tuple(folders)
    check_folders(agent_dir, set_root, folders)
    labelled: list[tuple[str, Owner]] = [(str(set_root.resolve()), "ours")]
    labelled += [(str(r), "moved") for r in old_roots]
    labelled += [(str(r), "other") for r in other_sets]
    # The agent dir is no set's, even inside a set's folder (`--agent-dir ./try` from the
    # set's own): a link into it (to ext's /ext copy) is nobody's, as it is anywhere else.
    labelled.append((str(agent_dir.resolve()), "foreign"))
    roots = [(root, label, root + os.sep) for root, label in labelled]  # (root, owner, prefix)
    entries: dict[str, Entry] = {}
    names: dict[str, frozenset[str]] = {}
    heads: dict[str, str] = {}  # a link's folder -> its realpath, shared by the whole scan
    for folder in folders:
        for sub in (folder, *(f"{folder}/{p}" for p in PARKED)):
            found = _scan_folder(agent_dir / sub, roots, heads, known)
            names[sub] = frozenset(found)
            if not sub.endswith(".bak"):
                entries.update({f"{sub}/{name}": e for name, e in found.items()})
    return AgentState(agent_dir, entries, names)


def _scan_folder(
    folder: Path,
    roots: list[tuple[str, Owner, str]],
    heads: dict[str, str],
    known: Mapping[str, bool],
) -> dict[str, Entry]:
    try:
        with os.scandir(folder) as it:
            listing = list(it)
    except (FileNotFoundError, NotADirectoryError):
        return {}
    except PermissionError:
        from installer.ground.shellword import shell_word

        raise ExtError(
            f"cannot read {folder}",
            f"give yourself read access: chmod u+rx {shell_word(Path(folder))}",
        ) from None
    where = str(folder)
    return {e.name: _entry(e, where, roots, heads, known) for e in listing}


def _entry(
    e: os.DirEntry[str],
    folder: str,
    roots: list[tuple[str, Owner, str]],
    heads: dict[str, str],
    known: Mapping[str, bool],
) -> Entry:
    if not e.is_symlink():
        is_dir = e.is_dir(follow_symlinks=False)
        return Entry("dir" if is_dir else "file", to_dir=is_dir)
    target = os.readlink(e.path)
    where = target if target.startswith("/") else os.path.join(folder, target)
    if where in known:  # a real path the caller just saw: its own realpath, and there
        real, exists, to_dir = where, True, known[where]
    else:
        real, exists, to_dir = _follow(where, heads, known)
    owner: Owner = "foreign"
    root = None
    # The deepest root wins: a set kept inside another set's folder owns its own links.
    for candidate, label, inside in roots:
        if (real == candidate or real.startswith(inside)) and len(candidate) > len(root or ""):
            owner, root = label, candidate
    return Entry("link", target, real, exists, to_dir, owner, None if owner == "foreign" else root)


def _follow(path: str, heads: dict[str, str], known: Mapping[str, bool]) -> tuple[str, bool, bool]:
    """os.path.realpath(path), whether it exists, whether it is a folder.

    A set's links lead into a few folders: each is resolved once (memo in `heads`) and
    the last step costs one lstat, where realpath alone lstats every component of each link;
    none when the caller already knows the path.
    """
    head, _, tail = path.rpartition("/")  # os.path.split, for the plain paths ext writes
    if "//" in path or tail in ("", ".", "..") or not head:
        real = os.path.realpath(path)
        return real, os.path.exists(real), os.path.isdir(real)
    if head not in heads:
        heads[head] = os.path.realpath(head)
    candidate = f"{heads[head]}/{tail}" if heads[head] != "/" else f"/{tail}"
    if candidate in known:
        return candidate, True, known[candidate]
    try:
        st = os.lstat(candidate)
    except OSError:
        return candidate, False, False
    if stat.S_ISLNK(st.st_mode):  # a link to a link: let realpath walk the rest
        real = os.path.realpath(candidate)
        return real, os.path.exists(real), os.path.isdir(real)
    return candidate, True, stat.S_ISDIR(st.st_mode)


def seen(resources: Iterable[Resource]) -> dict[str, bool]:
    """The real paths of a set's resources, as `known` for `scan`: whether each is a folder."""
    return {r.real: r.layout == "dir" for r in resources if r.real}
