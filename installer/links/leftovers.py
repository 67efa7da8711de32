"""What the uninstall of the last set also takes, so the agent dir is left as ext found it.

ext's copies of its agent files (`.extset/agent/`, linked from `extensions/`), and the folders
ext made that the uninstall leaves empty: `extensions/.off`, `skills/.off`, a `.bak/` whose
backups were cleaned, and a resource
folder it made in a fresh agent dir. Each copy goes as a journaled file step (`ext undo` writes
it back); each folder as an `rmdir` (undo makes it again). The journal stays: undo needs it.
Whether ext made a folder is for its journals to say (installer.engine.made).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path

from installer.agent.recorder import FILES, copies_dir
from installer.engine.made import Made, made_here
from installer.engine.plan import Action, FileText
from installer.ground.errors import ExtError
from installer.sets.resources import FOLDER

COPIES = ".extset/agent"
_COPY = re.compile(
    "(" + "|".join(re.escape(f.source.removesuffix(".ts")) for f in FILES) + r")-[0-9a-f]{12}\.ts"
)


def candidates(folders: Iterable[str] = FOLDER.values()) -> tuple[str, ...]:
    """The folders ext may have made, the `.off` and `.bak` ones first (a folder's backups go
    in `.bak/`; an adopt's, once cleaned, leave it empty): a kind's folder empties only after.
    A host's folder in the home (Codex's `~/.agents/skills`) brings the folders above it that
    ext may have made on its way there (`~/.agents`), nearest first, the home itself never."""
    from installer.ground.backups import FOLDER as BACKUPS

    folders = tuple(folders)
    above = [p for f in folders if os.path.isabs(f) for p in _below_home(Path(f))]
    inner = (f"{kind}/{sub}" for kind in folders for sub in (".off", BACKUPS))
    return (*inner, *folders, *dict.fromkeys(above))


def _below_home(folder: Path) -> list[str]:
    home = Path(os.path.expanduser("~"))
    if not folder.is_relative_to(home):
        return []
    return [str(p) for p in folder.parents if p != home and p.is_relative_to(home)]


def what_ext_made(
    agent_dir: Path, folders: Iterable[str] = FOLDER.values(), keys: Iterable[str] = ()
) -> Made:
    """Which of the candidate folders ext made here, whether it added settings.json's packages
    or made the file, and (`keys`) which top-level patterns of it ext added (`folders`: the
    host's, pi's by default)."""
    return made_here(agent_dir, candidates(folders), agent_dir / "settings.json", keys)


def plan_leftovers(
    agent_dir: Path, removed: Iterable[str], made: Made, folders: Iterable[str] = FOLDER.values()
) -> tuple[Action, ...]:
    """The copies and the folders ext made that go once `removed` (paths) are gone."""
    copies = _copies(agent_dir)
    gone = {*removed, *(a.path for a in copies)}
    if copies and _empty_after(agent_dir, COPIES, gone):
        copies += (Action("rmdir", COPIES, detail="ext's copies of its agent files"),)
        gone.add(COPIES)
    emptied = []
    for folder in candidates(folders):
        if folder in made.folders and _empty_after(agent_dir, folder, gone):
            emptied.append(Action("rmdir", folder, detail="made by ext, empty now"))
            gone.add(folder)
    return copies + tuple(emptied)


def is_copy(path: Path) -> bool:
    """Whether path is one of ext's agent-file copies: `<agent>/.extset/agent/<stem>-<sha>.ts`."""
    folder = path.parent
    return (
        folder.name == "agent"
        and folder.parent.name == ".extset"
        and bool(_COPY.fullmatch(path.name))
    )


def _copies(agent_dir: Path) -> tuple[Action, ...]:
    """ext's own copies in `.extset/agent/`, each removed as the text it holds (undo's)."""
    from installer.ground import own

    folder = copies_dir(agent_dir)
    try:
        names = sorted(e.name for e in os.scandir(folder) if e.is_file(follow_symlinks=False))
    except OSError:
        return ()
    out = []
    for name in names:
        if not _COPY.fullmatch(name):
            continue
        try:
            text = own.read_text(folder / name)
        except (OSError, UnicodeDecodeError, ExtError):
            continue  # not a copy ext could journal back: it stays
        if text is not None:
            rel = f"{COPIES}/{name}"
            out.append(Action("unlink", rel, detail="ext's copy", payload=FileText(text, None)))
    return tuple(out)


def _empty_after(agent_dir: Path, folder: str, gone: set[str]) -> bool:
    """Whether a real folder holds nothing once `gone` (paths under the agent dir) are removed."""
    path = agent_dir / folder
    if path.is_symlink() or not path.is_dir():
        return False
    try:
        names = os.listdir(path)
    except OSError:
        return False
    return all(f"{folder}/{name}" in gone for name in names)
