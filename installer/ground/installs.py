"""Where ext has installed each set: the agent dirs, in ext's own user state (not in a set).

`<user state dir>/extset/installs.json` maps an agent dir to the set roots its state record
listed when ext last installed or uninstalled there. It points the way: a command whose
agent dir does not hold the set names the dirs that do, each checked against its own state
record first, so an entry gone stale misleads no one. And it is what ext trusts: `launch`
and `env` let a set found from the working folder choose the host or its dir only if this
record (which no set writes) has it installed somewhere (installer.host.set_command). Only
install, uninstall and undo write it; a missing or unreadable file reads as empty, and one
that cannot be written costs the hint and that trust (naming the set with --set still works).
"""

from __future__ import annotations

from pathlib import Path

from installer.ground.cachefile import read_table, write_table
from installer.ground.records import NamedTuple
from installer.ground.state import SetRecord, load_state

SCHEMA = 1


def record_path() -> Path:
    from installer.ground.userdirs import user_dir

    return user_dir("state") / "installs.json"


def sync(agent_dir: Path) -> None:
    """Make the record say what agent_dir's state record says now; written only on a change."""
    path = record_path()
    table = read_table(path, SCHEMA, "agent_dirs")
    roots = sorted(s.root for s in load_state(agent_dir).sets)
    key = str(agent_dir)
    # The same dir by another name (reached through a link): this run's name stands for it.
    this = _identity(agent_dir)
    twins = [k for k in table if k != key and this is not None and _identity(Path(k)) == this]
    if _roots(table.get(key)) == roots and not twins:
        return
    for twin in twins:
        del table[twin]
    if roots:
        table[key] = {"sets": roots}
    else:
        table.pop(key, None)
    write_table(path, SCHEMA, "agent_dirs", table)


def _identity(folder: Path) -> tuple[int, int] | None:
    """What makes two names one folder (its device and inode); None for no folder."""
    import os

    try:
        st = os.stat(folder)
    except OSError:
        return None
    return (st.st_dev, st.st_ino)


class Placed(NamedTuple):
    """Where else to look when agent_dir does not hold the set: the other dirs of this host
    that do, and the sets of this host agent_dir holds instead."""

    others: list[Path]
    held: list[SetRecord]
    here: bool = True  # whether agent_dir holds the set


# Said of a set an agent dir holds whose folder is gone: a command naming it would fail.
MOVED = (
    "that folder is gone; if you moved the set, run this again with `--set` naming its new "
    "folder, and the agent dir as here (an install so relinks it)"
)


def placed(set_root: Path, name: str | None, agent_dir: Path, host: str = "pi") -> Placed:
    """The other dirs of this host that hold this set, by their own state records, when
    agent_dir does not (a host's install records its name, none for pi, so a Gemini CLI dir is
    never offered for Claude Code); and the sets of this host agent_dir holds when it does not
    hold this one (`name`: a moved set's older place counts as this one): the right dir, run
    from another set's folder. One read of agent_dir's record for both."""
    state = load_state(agent_dir)
    # Here at an older root too (the set's folder moved): its items read as stale here, and
    # saying "not installed here but in …" beside them was a contradiction.
    record = state.record_of(set_root, name) if name else state.for_root(set_root)
    found = holding(set_root, agent_dir, name) if record is None else []
    others = [d for d, named in found if named == host]
    if name is None or record is not None:
        return Placed(others, [], record is not None or name is None)
    held = [s for s in state.sets if str(s.extra.get("host", "pi")) == host]
    return Placed(others, held, False)


def holding(
    set_root: Path, but: Path | None = None, name: str | None = None
) -> list[tuple[Path, str]]:
    """Every agent dir but `but` that holds this set by its own state record, with the host
    its install names ("pi" when none), in the record's order (`name`: at a root the set was
    moved from too, as that dir's install takes it)."""
    table = read_table(record_path(), SCHEMA, "agent_dirs")
    found = []
    seen = {_identity(but)} - {None} if but is not None else set()  # each folder once
    for key, row in table.items():
        other = Path(key)
        roots = _roots(row)
        if other == but or not (str(set_root) in roots or (name and _any_gone(roots))):
            continue
        identity = _identity(other)
        if identity in seen:
            continue
        state = load_state(other)
        record = state.record_of(set_root, name) if name else state.for_root(set_root)
        if record is not None:
            seen.add(identity)
            found.append((other, str(record.extra.get("host", "pi"))))
    return found


def _any_gone(roots: list[str]) -> bool:
    """Whether a set's recorded folder is gone: a set that moved may have been there."""
    return any(not Path(root).is_dir() for root in roots)


def _roots(row: object) -> list[str]:
    sets = row.get("sets") if isinstance(row, dict) else None
    return sorted(r for r in sets if isinstance(r, str)) if isinstance(sets, list) else []


def other_agents_only(agent_dir: Path, host: str) -> frozenset[str]:
    """The hosts whose installs of ext the dir holds, by its state record ("pi" for a record
    without one: pi's are unnamed), when none of them is `host`'s; else nothing. One agent
    dir, one host: such a dir is refused to `host`'s writers and said to its readers."""
    held = frozenset(str(s.extra.get("host", "pi")) for s in load_state(agent_dir).sets)
    return frozenset() if host in held else held
