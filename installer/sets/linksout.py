"""Links inside a skill's folder that lead out of the set: an agent reading the skill's files
reads what they lead to, a path no plan shows (helper-82: `reference.md ->
~/.aws/credentials`, which the skill told the agent to read). A link at the top of a kind
folder is refused elsewhere (installer.sets.resources); these are said, by install and
doctor, with where each leads."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from installer.ground.records import NamedTuple
from installer.ground.shellword import shell_word
from installer.sets.resources import Resource

LOOKED_AT = 5000  # entries of one skill's folder looked at, at most; past that it is said


class LinkOut(NamedTuple):
    """A link inside a skill's folder that leads out of the set; or (`real` empty) a folder
    too big to look through whole."""

    rel: str  # from the set's root
    real: str
    is_dir: bool
    rm: str  # the command that removes it

    def said(self) -> str:
        """The link, where it leads, and what an agent reading the skill then reads."""
        if not self.real:
            return (
                f"{self.rel} holds over {LOOKED_AT:,} entries: only the first were looked at "
                "for links out of the set"
            )
        what = "what it holds" if self.is_dir else "that file"
        return (
            f"{self.rel} is a link out of the set, to {shell_word(Path(self.real))}: an agent "
            f"that reads the skill's files reads {what}"
        )


def links_out(root: Path, found: Iterable[Resource]) -> list[LinkOut]:
    """Each link in a skill's folder (dot folders and node_modules too: an agent reads them as
    well) whose target is outside the set, a link through a link inside the set included (a
    folder it leads to is looked through, once). No link out of the set is followed."""
    top = os.path.realpath(root)
    out: list[LinkOut] = []
    for r in found:
        if r.kind == "skill" and r.layout == "dir" and _inside(r.real, top):
            out += _looked_through(root, top, r.source)
    return out


def _looked_through(root: Path, top: str, folder: str) -> list[LinkOut]:
    out: list[LinkOut] = []
    seen = {os.path.realpath(folder)}
    todo, looked = [folder], 0
    while todo:
        here = todo.pop()
        try:
            entries = sorted(os.scandir(here), key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            looked += 1
            if looked > LOOKED_AT:
                return [*sorted(out), LinkOut(os.path.relpath(folder, root), "", False, "")]
            real = os.path.realpath(entry.path) if entry.is_symlink() else None
            if real is not None and not _inside(real, top):
                rel = os.path.relpath(entry.path, root)
                rm = f"rm {shell_word(Path(entry.path))}"
                out.append(LinkOut(rel, real, os.path.isdir(entry.path), rm))
                continue
            inner = real or entry.path
            if _is_dir(entry) and inner not in seen:  # a link inside the set: through it, once
                seen.add(inner)
                todo.append(entry.path)
    return sorted(out)


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def _inside(path: str, top: str) -> bool:
    return path == top or path.startswith(f"{top}/")
