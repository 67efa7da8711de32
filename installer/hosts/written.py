"""The files ext writes into a host (Gemini CLI's TOML commands): planned, classified, removed.

A written file is ext's while its text is what ext wrote: the state record keeps the sha256 of
each (`written`: the item's path -> the hash), in either form (`x.toml`, switched off as
`x.toml.off`). A file whose text is neither that nor what ext would write now is the user's:
backed up before ext writes its own (install), left where it is (uninstall).
"""

from __future__ import annotations

import errno
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from installer.engine.plan import Action, FileText
from installer.ground.backups import Namer
from installer.ground.records import NamedTuple

if TYPE_CHECKING:
    from installer.ground.context import Context
    from installer.links.scan import AgentState
    from installer.links.states import Item
    from installer.sets.resources import Resource

KEY = "written"  # the state record's extra key
MAX_BYTES = 1 << 20  # a command is a few lines; a bigger file there is not one ext wrote


def sha(text: str) -> str:
    from installer.ground.sha import sha256_hex  # a no-op compares texts and hashes nothing

    return sha256_hex(text.encode("utf-8"))


class Wanted(NamedTuple):
    """What ext would write for an item now, or why it cannot."""

    text: str | None
    why_not: str | None = None


def rewrite_command(ctx: Context) -> str:
    """The command that writes a set's files into this dir again, as a written file's header
    says it (helper-80: `ext --host gemini install`, pasted, wrote into ~/.gemini from the set
    of the folder it ran in, whatever set and dir had written the file)."""
    from installer.ground.shellword import shell_word

    where = f"--set {shell_word(ctx.set_root)} --agent-dir {shell_word(ctx.agent_dir)}"
    return f"ext --host {ctx.on.name} {where} install"


def wanted(r: Resource, rewrite: str) -> Wanted:
    """The text ext writes for `r` in its host's format, from the set's file as it is now;
    `rewrite` is the command its header names."""
    from installer.ground.readfile import read_text
    from installer.hosts.toml_commands import Unwritable, command_text

    try:
        source = read_text(r.source, cap=MAX_BYTES)
    except OSError as exc:
        if exc.errno == errno.EFBIG:
            return Wanted(None, f"{r.source} is over {MAX_BYTES >> 10} KiB")
        return Wanted(None, f"cannot read {r.source}: {exc.strerror or exc}")
    except UnicodeDecodeError as exc:
        return Wanted(None, f"cannot read {r.source}: {exc}")
    try:
        return Wanted(command_text(r, source, rewrite))
    except Unwritable as why:
        return Wanted(None, str(why))


def read_real(path: Path) -> str | None:
    """A real file's text (never through a link); None for anything else or unreadable."""
    from installer.ground.readfile import read_bytes

    try:
        return read_bytes(path, MAX_BYTES, follow=False).decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def mine(text: str | None, r: Resource, hashes: Mapping[str, str], now: str | None) -> bool:
    """Whether the text at one of r's places is ext's: what it would write (no hash needed,
    the no-op's case), or what it recorded."""
    if text is None:
        return False
    return (now is not None and same(text, now)) or sha(text) == hashes.get(r.dest)


def same(text: str, now: str) -> bool:
    """Whether a file of ext's says what ext would write now, its header aside: the header
    names the command that writes it again, which an older ext, or the same dir spelt another
    way, words otherwise (helper-83: each such file was rewritten, and listed as stale)."""
    return text == now or _body(text) == _body(now)


def _body(text: str) -> str:
    lines = text.split("\n")
    n = 0
    while n < len(lines) and lines[n].startswith("#"):
        n += 1
    return "\n".join(lines[n:])


class WrittenPlan(NamedTuple):
    actions: tuple[Action, ...]
    texts: dict[str, str]  # each item's path -> its text after the run (the record's hashes)
    warnings: tuple[str, ...]

    def hashes(self) -> dict[str, str]:
        """What the state record keeps: hashed only when a run writes it."""
        return {path: sha(text) for path, text in sorted(self.texts.items())}


def plan_written(
    agent: AgentState,
    items: Iterable[Resource],
    chosen: frozenset[tuple[str, str]],
    hashes: Mapping[str, str],
    names: Namer,
    host: str,
    rewrite: str,
) -> WrittenPlan:
    """Write each chosen item (new, or rewritten when the set's file changed); remove ext's
    file of an item the selection leaves out (unless off: then it stays off)."""
    root = agent.agent_dir
    actions: list[Action] = []
    kept: dict[str, str] = {}
    warnings: list[str] = []
    for r in items:
        on = read_real(root / r.dest) if r.dest in agent.entries else None
        off = read_real(root / r.disabled_dest) if r.disabled_dest in agent.entries else None
        want = wanted(r, rewrite) if (r.kind, r.filename) in chosen else Wanted(None)
        on_mine, off_mine = mine(on, r, hashes, want.text), mine(off, r, hashes, want.text)
        if (r.kind, r.filename) not in chosen:
            if on_mine and not off_mine:
                actions.append(_remove(r.dest, on, "not selected: --only/--skip leave it out"))
            elif off_mine and off is not None:
                kept[r.dest] = off
                actions.append(Action("skip", r.disabled_dest, detail="off already"))
            continue
        if want.text is None:
            warnings.append(f"{r.label}: not written for {host}: {want.why_not}")
            if on_mine:
                actions.append(_remove(r.dest, on, "the set's template cannot be written now"))
            else:  # counted as skipped, as an item the host has no place for is
                actions.append(
                    Action("skip", r.dest, detail=f"not written for {host}: its warning says why")
                )
            continue
        there = off if off_mine and not on_mine else on if on_mine else None
        # the text the record keeps: what stays, when only its header differs
        kept[r.dest] = there if there is not None and same(there, want.text) else want.text
        if off_mine and not on_mine:  # switched off: install never switches it on
            actions.append(_write(r.disabled_dest, off, want.text, "disabled"))
        elif on_mine:
            actions.append(_write(r.dest, on, want.text))
        else:
            entry = agent.entries.get(r.dest)
            if entry is not None:
                folder, _, filename = r.dest.rpartition("/")
                backup = names.pick(folder, filename, entry.to_dir)
                what = (
                    "a folder" if entry.to_dir else ("a link" if entry.kind == "link" else "a file")
                )
                actions.append(Action("backup", r.dest, backup=backup, detail=what))
            actions.append(_write(r.dest, None, want.text))
    gone = _orphans(agent, {r.dest for r in items}, hashes, "its template is gone from the set")
    return WrittenPlan((*actions, *gone), kept, tuple(warnings))


def _orphans(
    agent: AgentState, known: set[str], hashes: Mapping[str, str], why: str
) -> list[Action]:
    """ext's files (either form) of an item the set no longer has: the record's hashes name
    them (helper-33: a dropped prompt's TOML stayed, loaded by Gemini CLI and listed nowhere);
    a file the user changed since is theirs and stays."""
    out = []
    for path, digest in sorted(hashes.items()):
        if path in known:
            continue
        for place in (path, f"{path}.off"):
            if place in agent.entries:
                text = read_real(agent.agent_dir / place)
                if text is not None and sha(text) == digest:
                    out.append(_remove(place, text, why))
    return out


def _write(path: str, there: str | None, text: str, note: str = "") -> Action:
    """Keep ext's file as it is, or write it (new, or rewritten: the set's file changed)."""
    if there is not None and same(there, text):
        return Action("keep", path, detail=note or None)
    why = "written" if there is None else "rewritten: the set's template changed"
    detail = f"{why}{'; ' + note if note else ''}"
    return Action("create", path, detail=detail, payload=FileText(there, text, shared=True))


def _remove(path: str, text: str | None, why: str) -> Action:
    return Action("unlink", path, detail=why, payload=FileText(text, None, shared=True))


def plan_unwrite(
    agent: AgentState, items: Iterable[Resource], hashes: Mapping[str, str]
) -> list[Action]:
    """Uninstall: ext's files go (either form), an item's the set dropped since too; a file
    the user changed stays."""
    items = tuple(items)
    out = _orphans(agent, {r.dest for r in items}, hashes, "ext wrote it")
    for r in items:
        for path in (r.dest, r.disabled_dest):
            if path in agent.entries:
                text = read_real(agent.agent_dir / path)
                if text is not None and sha(text) == hashes.get(r.dest):
                    out.append(_remove(path, text, "ext wrote it"))
    return out


def classify_written(
    agent: AgentState, r: Resource, hashes: Mapping[str, str], rewrite: str
) -> Item:
    """`ext list`'s state of a written item: ext's file on or off, or what is in the way."""
    from installer.links.states import Item

    now: str | None = None
    for path, state in ((r.dest, "enabled"), (r.disabled_dest, "disabled")):
        if path not in agent.entries:
            continue
        text = read_real(agent.agent_dir / path)
        if text is None:
            continue
        now = now if now is not None else wanted(r, rewrite).text
        if mine(text, r, hashes, now):  # what it recorded, or what it would write now
            if now is not None and not same(text, now):
                return Item(
                    r, "stale", path, "the set's template changed; `ext install` rewrites it"
                )
            return Item(r, state, path)  # type: ignore[arg-type]
    entry = agent.entries.get(r.dest)
    if entry is None:
        return Item(r, "not-installed", r.dest)
    return Item(r, "conflict", r.dest, "a file of yours is in the way; `ext install` backs it up")


def recorded(agent_dir: Path, set_root: Path, name: str) -> dict[str, str]:
    """The hashes the state record keeps for the set's written files."""
    from installer.ground.state import load_state

    record = load_state(agent_dir).record_of(set_root, name)
    found = record.extra.get(KEY) if record is not None else None
    return {str(k): str(v) for k, v in found.items()} if isinstance(found, dict) else {}
