"""`ext undo` and `ext history`: reverse the last completed apply, read back the journal."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from installer.engine import journal
from installer.engine.journal import JournalStep
from installer.engine.plan import Action, MarkUndone, Plan, Reverse
from installer.engine.result import PlanResult
from installer.engine.run import Confirm, Prepared, run_plan
from installer.engine.transaction import decode
from installer.ground.clock import when_run
from installer.ground.context import Context
from installer.ground.errors import Refused
from installer.ground.few import few
from installer.ground.records import NamedTuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from installer.engine.plan import Word


@dataclass(frozen=True)
class Reversal:
    """One journal step, seen against the disk now."""

    step: JournalStep
    # "done" (reverse it), "not-done" (the run never took it), "changed" (refuse),
    # "kept" (a folder it made that holds someone else's entries now: it stays)
    status: str
    why: str | None = None  # for "changed": what is in the way, when more is known than the step
    fix: str | None = None  # and the edit that clears it


def target_record(agent_dir: Path) -> journal.Record | None:
    """The run `ext undo` reverses: the newest one not yet undone, interrupted ones included."""
    return next(_targets(agent_dir), None)


def _targets(agent_dir: Path) -> Iterator[journal.Record]:
    """The runs undo would reverse one by one, newest first."""
    for rec in journal.records(agent_dir):
        if rec.command != "undo" and not rec.undone and rec.status != "rolled-back" and rec.steps:
            yield rec


class Undo(NamedTuple):
    """`ext undo`'s options, as installer.cli.grammar names them."""

    dry_run: bool = False
    yes: bool = False  # the front's: the confirm it hands in does not ask


class History(NamedTuple):
    """`ext history` takes no options."""


def undo(ctx: Context, options: Undo, confirm: Confirm) -> PlanResult:
    """Plan the reversal of the last apply, refuse if anything it touched changed since."""
    root = ctx.agent_dir

    def prepare() -> Prepared:
        rec = target_record(root)
        if rec is None:
            return Prepared(Plan("undo"))
        _refuse_a_run_in_progress(rec, root)
        seen = _statuses(root, _moved_here(_steps(rec), rec, root), cut_short=rec.status is None)
        changed = _cleaned(root, rec, [r for r in seen if r.status == "changed"])
        if changed:
            where = "; ".join(r.why or _expected(r.step) for r in changed)
            fixes = [r.fix for r in changed if r.fix]
            raise Refused(
                f"cannot undo `ext {rec.asked_as}` of {when_run(rec.started)}: changed since it "
                f"ran: {where}",
                "nothing was written; " + (_then_undo(fixes) if fixes else _FIX),
            )
        todo = [r.step for r in seen if r.status == "done"]
        detail = f"reverses `ext {rec.asked_as}` of {when_run(rec.started)}{_of_set(rec, ctx)}"
        actions = tuple(_action(s, detail if i == 0 else None, root) for i, s in enumerate(todo))
        if not actions:
            return Prepared(Plan("undo"))
        if any(s["op"] == "state" and not _sets_in(s.get("before")) for s in todo):
            actions += _copies_left(root, [a.path for a in actions])
        # Bookkeeping, never shown: the reversed run's journal marked, the set's copies purged.
        undone = Action("undone", str(rec.path), payload=MarkUndone(rec.path, ctx.env.now()))
        # Journaled for the set whose run it reverses (helper-62: run from another set's
        # folder, history said the undo was for that set).
        steps, dead_ends = (*actions, undone), _dead_ends(actions, root)
        of_set, set_of = rec.set_of is not None, rec.set_of
        return Prepared(Plan("undo", steps, dead_ends, of_set=of_set, undone_set=set_of))

    result = run_plan(ctx, prepare, confirm, options.dry_run)
    return result._replace(notes=(*result.notes, *_finished_before(root, result)))


def _finished_before(root: Path, result: PlanResult) -> tuple[str, ...]:
    """A run that finished an interrupted one reverses alone: the interrupted run's steps stay
    on disk until the next undo (helper-29 found a dir half undone, said nowhere)."""
    if not (result.applied or result.dry_run) or result.plan.is_empty:
        return ()
    ahead = _targets(root)
    if result.dry_run:  # the one this dry run would reverse is still first
        next(ahead, None)
    rec = next(ahead, None)
    if rec is None or rec.status != "finished-by-next-run":
        return ()
    return (
        f"`ext {rec.command}` of {when_run(rec.started)}, cut short and finished by the run this "
        f"{'would reverse' if result.dry_run else 'reversed'}, is still in place: "
        "`ext undo` again takes it back",
    )


def _sets_in(record: str | None) -> bool:
    """Whether a journaled state record (before a step) held any set."""
    import json

    try:
        return bool(record and json.loads(decode(record) or "{}").get("sets"))
    except (ValueError, AttributeError):
        return True  # unreadable: ext cannot tell, so it keeps what a set may use


def _copies_left(root: Path, gone: list[str]) -> tuple[Action, ...]:
    """ext's copies of its agent files, which an install writes beside its journal: a dir the
    undo leaves with no set keeps none, as an uninstall of its last set keeps none."""
    from installer.engine.made import Made
    from installer.links.leftovers import plan_leftovers

    return plan_leftovers(root, gone, Made(frozenset(), packages_key=False), folders=())


def _of_set(rec: journal.Record, ctx: Context) -> str:
    """The set the reversed run was for: undo reverses the dir's last run, whichever set."""
    if rec.set_of is None:  # an older ext's journal does not say
        return ""
    name, root = rec.set_of
    if root == str(ctx.set_root):
        return f" for {name}"
    if name == ctx.manifest.name and not os.path.isdir(root):  # this set, moved since
        return f" for {name}, at {root} then"
    return f" for {name} at {root}, not this set"


def _refuse_a_run_in_progress(rec: journal.Record, root: Path) -> None:
    """An unfinished journal whose ext still runs is a run at work, not one that was killed:
    what it did is not complete, and judging it now would race it."""
    pid = journal.running(rec.path) if rec.status is None else None
    if pid is not None:
        raise Refused(
            f"`ext {rec.command}` (pid {pid}, started {when_run(rec.started)}) is still at work on "
            f"{root}; nothing was written",
            "wait for it to finish, then run `ext undo` again",
        )


_FIX = "put each path back to what ext left there (named above), or undo by hand"
# How the fixes of other commands end: undo asks for itself to be run again instead.
_AGAIN = (", then run the command again", ", then run `ext undo` again")


def _then_undo(fixes: list[str]) -> str:
    """The fixes of the refused steps as one sentence, ending with running `ext undo` again."""
    parts = []
    for fix in fixes:
        part = fix.rstrip(".")
        for tail in _AGAIN:
            part = part.removesuffix(tail)
        parts.append(part[:1].lower() + part[1:])
    return "; ".join(parts) + ", then run `ext undo` again"


Node = tuple[str, str | None] | None  # ("link", target) | ("dir", None) | ("file", None) | absent


class _View:
    """The agent dir as it will be once the later steps are reversed: disk plus an overlay."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.overlay: dict[str, Node] = {}

    def node(self, rel: str) -> Node:
        if rel in self.overlay:
            return self.overlay[rel]
        path = self.root / rel
        if path.is_symlink():
            return ("link", os.readlink(path))
        if path.is_dir():
            return ("dir", None)
        return ("file", None) if path.exists() else None

    def holds_others(self, rel: str) -> bool:
        """Whether a folder will still hold anything once the later steps are reversed."""
        try:
            names = os.listdir(self.root / rel)
        except OSError:
            names = []
        if any(self.overlay.get(f"{rel}/{name}", ("?", None)) is not None for name in names):
            return True
        inside = f"{rel}/"
        return any(v is not None for k, v in self.overlay.items() if k.startswith(inside))

    def reverse(self, s: JournalStep) -> None:
        op, rel = s["op"], s.get("path", "")
        if op in ("symlink", "mkdir"):
            self.overlay[rel] = None
        elif op == "unlink":
            self.overlay[rel] = ("link", s["target"])
        elif op == "relink":
            self.overlay[rel] = ("link", s["old"])
        elif op == "rename":
            self.overlay[rel], self.overlay[s["to"]] = self.node(s["to"]), None
        elif op == "rmdir":
            self.overlay[rel] = ("dir", None)
        elif op == "copy":
            self.overlay[s["file"]] = None
        elif op == "file":  # a file ext wrote: gone once reversed, unless it was there before
            path = Path(s["file"])
            key = str(path.relative_to(self.root)) if path.is_relative_to(self.root) else str(path)
            self.overlay[key] = None if s.get("before") is None else ("file", None)


def _steps(rec: journal.Record) -> list[JournalStep]:
    """The steps to judge: a settings intent only when the run may have died in its write.

    `Transaction.settings` journals the intent, merges, then journals the write it made, if
    any, as the very next step: that write stands for the intent. An intent with a step after
    it, or the last step of a run that closed itself ("ok"), is a merge that changed nothing.
    Only the last step of a run that was killed (closed later by the next run, or never) may
    be a write that was made but not journaled.
    """
    out = []
    for i, s in enumerate(rec.steps):
        if s["op"] == "settings" and (i + 1 < len(rec.steps) or rec.status == "ok"):
            continue
        out.append(s)
    return out


def _moved_here(steps: list[JournalStep], rec: journal.Record, root: Path) -> list[JournalStep]:
    """The steps with the absolute paths they put something back at (settings.json, ext's own
    copies and the links to them) moved to where the dir is now. A dir moved since the run
    (`mv ~/agent-a ~/agent-b`) was undone at its old place: ext's copy written there, the
    /ext link aimed at it."""
    then = rec.moved_from(root)
    if then is None:
        return steps
    out: list[Any] = []  # each a step still, its places moved
    for s in steps:
        step: dict[str, Any] = dict(s)
        for key in _PLACES.get(s["op"], ("file",)):
            if isinstance(step.get(key), str):
                step[key] = journal.moved(step[key], then, root)
        out.append(step)
    return out


# The keys of a step that name where something is put back. Not a link's target that the
# disk holds as the run made it (symlink's, relink's new one): that is compared as it is.
_PLACES: dict[str, tuple[str, ...]] = {
    "unlink": ("target",),
    "relink": ("old",),
}


def _statuses(root: Path, steps: list[JournalStep], cut_short: bool = False) -> list[Reversal]:
    """Each step's status, newest first, judged as if the steps after it were already reversed.

    In a journal cut short, a link step whose path holds anything but its link was never
    taken: ext journals a run of links in one write before it makes them (a kill leaves the
    rest journaled), and a link is only ever made where nothing is. Whatever is there now is
    someone else's, and there is nothing of ext's to take back.
    """
    view = _View(root)
    out = []
    for s in reversed(steps):
        if s["op"] == "write":
            out.append(_settings_status(s))
            continue
        if s["op"] == "file" and os.path.islink(s["file"]):
            out.append(_linked_store(s))
            continue
        status = _status(view, s)
        if cut_short and s["op"] == "symlink" and status == "changed":
            status = "not-done"
        if status == "done":
            view.reverse(s)
        elif status == "not-done" and s["op"] == "rename":
            _put_back_already(out, s, view.node(s["path"]))
        elif status == "changed" and s["op"] == "rename":
            out.append(_taken_again(root, view, s))
            continue
        out.append(Reversal(s, status))
    return out


def _cleaned(root: Path, rec: journal.Record, changed: list[Reversal]) -> list[Reversal]:
    """The backups of an adopt that `ext adopt --clean-backups` deleted since: said as that,
    with the copy that puts each back from the set (helper-41: undo blamed a change of the
    person's and said 'undo by hand'). The refusal stays: the README says so."""
    cleaned = next(
        (r for r in journal.records(root) if r.command == "clean-backups" and r.path > rec.path),
        None,
    )
    if cleaned is None:
        return changed
    from installer.ground import backups
    from installer.ground.shellword import shell_word

    copies = {s["from"]: s["file"] for s in rec.steps if s["op"] == "copy"}
    out = []
    for r in changed:
        s = r.step
        gone = s["op"] == "rename" and not os.path.lexists(root / s["to"])
        if not gone or backups.parse(Path(s["to"]).name) is None or s["path"] not in copies:
            out.append(r)
            continue
        why = (
            f"{s['to']} was deleted by `ext adopt --clean-backups` of {when_run(cleaned.started)}: "
            f"the set's copy, {copies[s['path']]}, is the original now"
        )
        back = f"cp -a {shell_word(Path(copies[s['path']]))} {shell_word(root / s['to'])}"
        out.append(Reversal(s, "changed", why, f"to undo the adopt, put it back: {back}"))
    return out


def _taken_again(root: Path, view: _View, s: JournalStep) -> Reversal:
    """A rename whose destination still holds what it moved, while its source is taken again
    (another installer made the link anew: helper-41, dotbot after `ext disable`): what is in
    the way is the source, named with the command that clears it."""
    there = view.node(s["path"])
    if there is None or not _as_moved(view.node(s["to"]), s):
        return Reversal(s, "changed")
    from installer.ground.shellword import shell_word

    path = shell_word(root / s["path"])
    what = f"a link to {there[1]}" if there[0] == "link" else f"a {there[0]}"
    why = f"{s['path']} is taken again, by {what} (ext had moved what was there to {s['to']})"
    from installer.ground.shellword import aside

    fix = f"rm {path}" if there[0] == "link" else aside(root / s["path"])
    return Reversal(s, "changed", why, fix)


def _put_back_already(newer: list[Reversal], rename: JournalStep, there: Node) -> None:
    """A backup's rename found undone, what it moved back in place: the link the run then
    made there is gone, so it is undone too, not changed. An undo killed part-way got that
    far (the run linked after the rename; an undo takes back the link, then the rename)."""
    if not _as_moved(there, rename):
        return
    for i, r in enumerate(newer):
        if r.status == "changed" and r.step["op"] == "symlink" and r.step["path"] == rename["path"]:
            newer[i] = Reversal(r.step, "not-done")


def _status(view: _View, s: JournalStep) -> str:
    """Whether a journaled step is on disk now ("done"), never happened, or was changed since."""
    if s["op"] == "state":
        return "done"  # ext's own bookkeeping: always put back
    if s["op"] == "settings":  # killed while writing: untouched, or not ours to judge
        return "not-done" if _text_of(Path(s["file"])) == decode(s.get("before")) else "changed"
    if s["op"] in ("write", "file"):
        return _file_status(Path(s["file"]), decode(s.get("before")), decode(s.get("after")))
    if s["op"] == "copy":
        return _copy_status(view, s)
    if s["op"] == "mkdir" and view.holds_others(s["path"]):
        return "kept"
    node = view.node(s["path"])
    link = node[1] if node and node[0] == "link" else None
    moved = "to" in s and _as_moved(view.node(s["to"]), s)
    # op -> (the disk as the step left it, the disk as it was before the step)
    seen = {
        "symlink": (link == s.get("target"), node is None),
        "unlink": (node is None, link == s.get("target")),
        "relink": (link == s.get("target"), link == s.get("old")),
        "rename": (moved and node is None, node is not None and not moved),
        "mkdir": (node == ("dir", None), node is None),
        "rmdir": (node is None, node == ("dir", None)),
    }
    done, not_done = seen.get(s["op"], (False, False))
    return _pick(done, not_done)


def _as_moved(node: Node, s: JournalStep) -> bool:
    """Whether what a rename's destination holds is what the rename moved there (a journal of
    an older ext names neither: anything there counts)."""
    if node is None:
        return False
    if "target" in s:
        return node == ("link", s["target"])
    return "kind" not in s or node[0] == s["kind"]


def _settings_status(s: JournalStep) -> Reversal:
    """A settings write is undone by a merge: only a key changed again since is in the way."""
    from installer.ground.errors import ExtError
    from installer.settings.merge import revert_text

    now = _text_of(Path(s["file"]))
    before, after = decode(s.get("before")), decode(s.get("after"))
    if now == before:
        return Reversal(s, "not-done")
    try:
        reverted = revert_text(before, after, now)
    except ExtError as err:
        return Reversal(s, "changed", f"{s['file']}: {err.message}", err.fix)
    if reverted.conflicts:
        why = f"{s['file']}: " + "; ".join(c.describe() for c in reverted.conflicts)
        return Reversal(s, "changed", why, "; ".join(c.fix() for c in reverted.conflicts))
    return Reversal(s, "done")


def _linked_store(s: JournalStep) -> Reversal:
    """An approvals store ext wrote is never a link: one there now is not ext's to write
    through or remove (a dangling one would read as "no file" and be written through)."""
    link = s["file"]
    why = f"{link} is a symlink now (to {os.readlink(link)}), not the file ext left there"
    from installer.ground.shellword import shell_word

    fix = f"remove the link (rm {shell_word(Path(link))}: only the link goes)"
    return Reversal(s, "changed", why, fix)


def _copy_status(view: _View, s: JournalStep) -> str:
    """A copy `ext adopt` made in the set: reversible only while it is exactly as copied."""
    from installer.ground import trees

    if view.node(s["file"]) is None:
        return "not-done"
    return "done" if trees.matches(Path(s["file"]), s["entries"]) else "changed"


def _pick(done: bool, not_done: bool) -> str:
    return "done" if done else "not-done" if not_done else "changed"


def _file_status(path: Path, before: str | None, after: str | None) -> str:
    now = _text_of(path)
    return _pick(now == after, now == before)


def _text_of(path: Path) -> str | None:
    try:
        return Path(os.path.realpath(path)).read_bytes().decode("utf-8")  # bytes: CRLF kept
    except FileNotFoundError:
        return None


_EXPECTED = {
    "symlink": "{path} (ext left a link to {target})",
    "relink": "{path} (ext left a link to {target})",
    "rename": "{to} (ext moved {path} there{moved})",
    "unlink": "{path} (ext removed a link there)",
    "copy": "{file} (ext copied it into the set from {from})",
    "write": "{file} (as ext wrote it)",
    "file": "{file} (as ext wrote it)",
    "settings": "{file} (a run was killed while writing it: compare it with what you expect)",
}


def _expected(s: JournalStep) -> str:
    """What ext left at a step's place, which is no longer there."""
    fields = {"path": None, "target": None, "to": None, "file": None, "from": None, **s}
    fields["moved"] = f", a link to {s['target']}" if s["op"] == "rename" and "target" in s else ""
    return _EXPECTED.get(s["op"], "{path}").format(**fields)


def _settings_what(s: JournalStep) -> str:
    """What taking back a settings write does: the file ext made goes, the one it removed
    comes back, else ext's keys go back as they were."""
    if s.get("before") is None:
        return "ext made it: it goes, unless someone added to it since (that stays)"
    if s.get("after") is None:
        return "ext removed it: it comes back as it was"
    return "ext's keys as they were (others' kept)"


def _state_what(s: JournalStep) -> str:
    return "its earlier record" if s.get("before") else "no record (there was none before)"


def _file_what(file: str) -> str:
    """What a private file of ext's held: the approvals store, or an agent file's copy."""
    from installer.links.leftovers import is_copy

    if is_copy(Path(file)):
        return "ext's copy, as it was"
    if "approvals" in Path(file).name:  # the consent store, or where an older ext kept it
        return "its earlier approvals"
    return "its earlier text"


def _action(s: JournalStep, detail: str | None, root: Path) -> Action:
    op = s["op"]
    file = _shown(str(s.get("file")), root)
    names: dict[str, tuple[Word, Any, Any]] = {
        "symlink": ("unlink", s.get("path"), None),
        "unlink": ("link", s.get("path"), s.get("target")),
        "relink": ("relink", s.get("path"), s.get("old")),
        "rename": ("restore", s.get("to"), s.get("path")),
        "mkdir": ("rmdir", s.get("path"), None),
        "rmdir": ("mkdir", s.get("path"), None),
        "write": ("restore", "settings.json", _settings_what(s)),
        "file": ("restore", file, _file_what(str(s.get("file")))),
        "state": ("restore", ".extset/state.json", _state_what(s)),
        "copy": ("unlink", file, None),
    }
    action, path, target = names[op]
    # What the line does not show (a file's earlier text, a copy's entries) is in the step:
    # the table takes such a step back by it (Transaction.reverse).
    payload = Reverse(s) if op in _BY_STEP else None
    return Action(action, str(path), target=target, detail=detail, payload=payload)


def _dead_ends(actions: tuple[Action, ...], root: Path) -> tuple[str, ...]:
    """The links the undo puts back that lead nowhere now: the run it reverses relinked them
    from a folder that is gone (the set moved: helper-39). Faithful, and said before it."""
    # What this very plan puts back (ext's copy of an agent file, in `.extset/`) is not gone
    # (helper-48: undo of an uninstall warned of /ext's copy, which it restores).
    back = {str(root / a.path) for a in actions if a.action == "restore"}
    dead = [
        a
        for a in actions
        if a.action in ("link", "relink")
        and a.target
        and not os.path.exists(root / a.target)
        and str(root / a.target) not in back
    ]
    if not dead:
        return ()
    gone = Path(root / str(dead[0].target))
    while not os.path.exists(gone.parent) and gone.parent != gone:
        gone = gone.parent  # the folder that went: the set's older location, most often
    paths = few([a.path for a in dead])
    return (
        f"{paths}: put back as links into {gone}, which no longer exists: pi will not load "
        "them until `ext install` links them from where the set is now",
    )


def _shown(file: str, root: Path) -> str:
    """A file a step names (absolute): under the agent dir as the plan's other paths are
    shown, relative to it; elsewhere (an older ext's store) as it is (the renderer shortens
    a path under the home with `~`)."""
    path = Path(file)
    return str(path.relative_to(root)) if path.is_relative_to(root) else file


_BY_STEP = frozenset({"write", "file", "state", "copy", "rmdir"})  # rmdir: the folder's mode


class Journals(NamedTuple):
    """`ext history`'s result: one row per journal of the agent dir, newest first."""

    agent_dir: Path
    rows: tuple[dict[str, Any], ...]

    def to_json(self) -> dict[str, Any]:
        return {"agent_dir": str(self.agent_dir), "history": list(self.rows)}


def history(ctx: Context, options: History) -> Journals:
    """Every journal of the agent dir, newest first."""
    rows = tuple(
        {
            "journal": rec.name,
            "command": rec.command,
            "asked": list(rec.asked),
            "started": rec.started,
            "status": rec.status or "interrupted",
            "steps": len(rec.steps),
            "undone": rec.undone,
            "set": rec.set_of[0] if rec.set_of else None,
        }
        for rec in journal.records(ctx.agent_dir)
    )
    return Journals(ctx.agent_dir, rows)
