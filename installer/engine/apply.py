"""What each action of a plan does to the disk: one table, word -> transaction operation.

The executor (installer/engine/executor.py) gets the plan, not a closure: what a plan shows
is what is applied, by construction. Actions in a row that one operation takes together are
applied as one batch (`BATCHED`): a thousand links are one journal write, every settings
line of a plan is one write of settings.json. Payloads (installer/engine/plan.py) carry what a line
does not show: the merged settings change, the state record's update, an agent file's copy.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from installer.engine.plan import (
    Action,
    AgentCopy,
    Discard,
    FileText,
    MarkUndone,
    Payload,
    Plan,
    Reverse,
    SettingsWrite,
    StateWrite,
    StoreWrite,
)
from installer.engine.transaction import Transaction

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TypeVar

    from installer.engine.plan import Word

    P = TypeVar(
        "P",
        SettingsWrite,
        StateWrite,
        AgentCopy,
        StoreWrite,
        Reverse,
        MarkUndone,
        Discard,
        FileText,
    )

Apply = Callable[[Transaction, Sequence[Action]], None]


def check_payloads(plan: Plan) -> None:
    """Refuse, before anything is written, a plan the table cannot carry out as shown."""
    for a in plan.writes:
        kind = PAYLOAD.get(a.action)
        if kind is not None and not isinstance(a.payload, kind):
            raise ValueError(f"a {a.action} action for {a.path} lacks its {kind.__name__}")
        carried = a.action == "approve" and not isinstance(a.payload, StoreWrite)
        if carried and not any(b.action == "record" for b in plan.writes):
            raise ValueError(f"the approval of {a.path} has no state record to be written in")


def apply_plan(plan: Plan, tx: Transaction) -> None:
    """Carry out every write of the plan, in order, batch by batch (see `batches`)."""
    for word, run in batches(plan.writes):
        APPLY[word](tx, run)


def batches(actions: Sequence[Action]) -> list[tuple[Word, list[Action]]]:
    """The actions as runs the table applies at once: links in a row are one run; the lines
    that carry one settings change are one write, taken where the last of them stands (or
    before everything, when marked `first`); any other action is a run of its own."""
    last = {id(a.payload): i for i, a in enumerate(actions) if _settings_line(a)}
    lines: dict[int, list[Action]] = {}
    out: list[tuple[Word, list[Action]]] = []
    first: list[tuple[Word, list[Action]]] = []
    for i, a in enumerate(actions):
        if _settings_line(a):
            group = lines.setdefault(id(a.payload), [])
            group.append(a)
            if last[id(a.payload)] == i:
                (first if _first(a) else out).append((group[0].action, group))
        elif out and a.action == "link" and out[-1][0] == "link":
            out[-1][1].append(a)
        else:
            out.append((a.action, [a]))
    return first + out


def _settings_line(a: Action) -> bool:
    return a.action in SETTINGS and isinstance(a.payload, SettingsWrite)


def _first(a: Action) -> bool:
    return isinstance(a.payload, SettingsWrite) and a.payload.first


def need(a: Action, kind: type[P]) -> P:
    """The action's payload, which must be of this kind."""
    if not isinstance(a.payload, kind):
        raise ValueError(f"a {a.action} action for {a.path} lacks its {kind.__name__}")
    return a.payload


def _target(a: Action) -> str:
    if a.target is None:
        raise ValueError(f"a {a.action} action for {a.path} lacks its target")
    return a.target


def _each(op: Callable[[Transaction, Action], None]) -> Apply:
    def run(tx: Transaction, actions: Sequence[Action]) -> None:
        for a in actions:
            op(tx, a)

    return run


def _copy_first(tx: Transaction, a: Action) -> None:
    """An agent file's copy is written before its link points at it; one this run wrote goes
    if the run rolls back (helper-42: a failed first install left it in `.extset/agent/`)."""
    if isinstance(a.payload, AgentCopy):
        from installer.agent.recorder import write_copy

        if write_copy(a.payload.path, a.payload.content):
            tx.wrote_copy(a.payload.path)


def _links(tx: Transaction, actions: Sequence[Action]) -> None:
    for a in actions:
        _copy_first(tx, a)
    tx.symlinks([(a.path, _target(a)) for a in actions])


def _relink(tx: Transaction, a: Action) -> None:
    _copy_first(tx, a)
    tx.relink(a.path, _target(a))


def _settings(tx: Transaction, actions: Sequence[Action]) -> None:
    """Every settings line of a run carries the same change: one write under pi's lock."""
    write = need(actions[0], SettingsWrite)
    tx.settings(tx.root / actions[0].path, write.change, write.remove_empty)


def _record(tx: Transaction, a: Action) -> None:
    from installer.ground.state import load_state, render_state

    state = need(a, StateWrite).update(load_state(tx.root))
    # No set left (the last uninstall): no record either, as the agent dir was before ext;
    # the journal keeps the one there was, for undo.
    tx.state(render_state(state) if state.sets else None)


def _store(tx: Transaction, a: Action) -> None:
    write = need(a, StoreWrite)
    write.done(tx.store(write.change))


def _restore(tx: Transaction, a: Action) -> None:
    """Undo's `restore`: a journaled file back to its earlier text, or a renamed entry back."""
    if isinstance(a.payload, Reverse):
        tx.reverse(a.payload.step)
    else:
        tx.rename(a.path, _target(a))


def _unlink(tx: Transaction, a: Action) -> None:
    """A link of ext's removed; undo's copy taken back out of the set, by its journal step;
    a backup of an adoption deleted (`adopt --clean-backups`)."""
    if isinstance(a.payload, Reverse):
        tx.reverse(a.payload.step)
    elif isinstance(a.payload, Discard):
        tx.discard(a.path)
    elif isinstance(a.payload, FileText):  # the old approvals store moved, a host's command
        write = a.payload
        tx.restore_file(tx.root / a.path, write.expected, write.text, private=not write.shared)
    else:
        tx.unlink(a.path)


def _approve(tx: Transaction, a: Action) -> None:
    """`consent approve`: the approvals store changed. A set's hooks, approved by installing
    it, are held by the state record's `hooks` entry, which the plan's `record` action
    writes (`check_payloads` makes sure there is one)."""
    if isinstance(a.payload, StoreWrite):
        _store(tx, a)


def _undone(tx: Transaction, a: Action) -> None:
    """`ext undo`'s last act: the reversed run's journal says so (the copies its reversal took
    back out of the set are deleted once all went well: Transaction.purge)."""
    from installer.engine import journal

    mark = need(a, MarkUndone)
    journal.mark_undone(mark.journal, mark.at)


def _create(tx: Transaction, a: Action) -> None:
    """A file of ext's written where there was none, or rewritten from the text it holds: the
    approvals store (moved from where an earlier ext kept it, in a folder made 0700), a host's
    command ext writes (Gemini CLI's TOML)."""
    write = need(a, FileText)
    folder = a.path.rpartition("/")[0] or "."
    tx.mkdirs(folder)  # a host's commands/ folder, made as a link's would be
    if write.folders:
        import os

        os.chmod(tx.root / folder, 0o700)
    tx.restore_file(tx.root / a.path, write.expected, write.text, private=not write.shared)


def _rmdir(tx: Transaction, a: Action) -> None:
    """A folder ext emptied, removed if nothing else is in it (ext's own empty strays first)."""
    if isinstance(a.payload, FileText):
        for name in a.payload.strays:
            (tx.root / a.path / name).unlink(missing_ok=True)
    tx.rmdir(a.path)


def _made(tx: Transaction, a: Action) -> None:
    """A folder made; undo's, from the rmdir step it takes back (the folder's mode too)."""
    if isinstance(a.payload, Reverse):
        tx.reverse(a.payload.step)
    else:
        tx.mkdirs(a.path)


def _moved(tx: Transaction, a: Action) -> None:
    """backup, enable, disable: an entry renamed (a backup to its name, a switch to `.off`)."""
    tx.rename(a.path, a.backup if a.action == "backup" and a.backup else _target(a))


def _copy(tx: Transaction, a: Action) -> None:
    tx.copy(a.path, Path(_target(a)))


# The settings.json lines: each is a part of the plan's one merged change.
SETTINGS: frozenset[Word] = frozenset(
    {"seed", "register", "unregister", "filter", "migrate", "retire"}
)
# Words whose payload the action must carry (checked before anything is written).
PAYLOAD: Mapping[Word, type[Payload]] = {
    **dict.fromkeys(SETTINGS, SettingsWrite),
    "record": StateWrite,
    "claim": StateWrite,
    "revoke": StoreWrite,
    "undone": MarkUndone,
    "create": FileText,
}

# word -> the operation that carries out a run of such actions
APPLY: Mapping[Word, Apply] = {
    "link": _links,
    "relink": _each(_relink),
    "backup": _each(_moved),
    "enable": _each(_moved),
    "disable": _each(_moved),
    "prune": _each(_unlink),
    "unlink": _each(_unlink),
    **dict.fromkeys(SETTINGS, _settings),
    "approve": _each(_approve),
    "revoke": _each(_store),
    "record": _each(_record),
    # Register mode: a filter of ext's (an install's --skip) is the user's switch from now on,
    # as ext's record says; settings.json keeps it as it is.
    "claim": _each(_record),
    "undone": _each(_undone),
    "restore": _each(_restore),
    "rmdir": _each(_rmdir),
    "create": _each(_create),
    "mkdir": _each(_made),
    "copy": _each(_copy),
}
