"""A command line as the person typed it, and where a command works: the agent dir and where
it came from, the other dirs that hold the set, and this command for one of them; `ext
install` as the person would type it next."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from installer.cli.grammar import BY_CALL, Command
from installer.cli.options import Globals
from installer.cli.run import as_run

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from installer.ground.installs import Placed


def where_said(
    g: Globals,
    out: Any,
    ctx: Any,
    command: Command,
    args: dict[str, Any],
    installing: bool = False,
    of_the_set: bool = True,
) -> tuple[str, ...]:
    """The agent dir and where it came from; and the other dirs the set is installed in, when
    it is not installed in this one, each with this command for that dir; and (`of_the_set`:
    a command about the set, not the whole dir) the sets this dir holds instead."""
    if g.quiet or (out.json and installing):
        return ()
    from installer.render import elsewhere_lines, where_lines

    found = _placed(ctx)
    if out.json:  # no heading (the document names the dir); a command aimed at the wrong dir
        # is said on stderr, as every message of a --json run is (helper-42: it was lost)
        said = elsewhere_lines(found.others, _there(g, ctx, command, args))
        return (*said, *_instead(g, ctx, command, args, found)) if of_the_set else said
    said = where_lines(ctx, found.others, _there(g, ctx, command, args), installing)
    # An install adds a set to a dir that holds others: no wrong folder to point out, unless
    # the set is ext's bundled one, taken for want of a set in or above the working folder
    # (helper-77: run from /tmp, it planned five extensions nobody chose beside the user's set).
    if (installing and ctx.set_source != "bundled") or not of_the_set:
        return said
    return (*said, *_instead(g, ctx, command, args, found))


def elsewhere_said(
    g: Globals,
    out: Any,
    ctx: Any,
    command: Command,
    args: dict[str, Any],
    passed: tuple[str, ...] = (),
) -> tuple[str, ...]:
    """The other dirs the set is installed in when it is not in this one, each with this
    command for that dir (a reader's hint: the command shows the agent dir itself);
    `passed`: the words after `--` that go to the host (launch's)."""
    if g.quiet:
        return ()
    from installer.render import elsewhere_lines

    found = _placed(ctx)
    return (
        *elsewhere_lines(found.others, _there(g, ctx, command, args, passed)),
        *_instead(g, ctx, command, args, found, passed),
    )


def _there(
    g: Globals, ctx: Any, command: Command, args: dict[str, Any], passed: tuple[str, ...] = ()
) -> Callable[[Path], str]:
    """The command to run in another dir that holds the set: this one, unless it names an item
    the set lacks (run from the wrong set's folder), which would fail there too: then `list`."""
    names = _named_items(command, args)
    if names and not _holds(ctx.set_root, names):
        return lambda d: typed(g, BY_CALL["list_items"], {}, d)
    return lambda d: typed(g, command, _asking(args), d, passed=passed)


_THIS_DIR_ONLY = frozenset({"yes", "only", "skip", "mode", "create", "reseed"})


def _asking(args: dict[str, Any]) -> dict[str, Any]:
    """The command for another dir, without what decides this run's dir alone: it asks
    before it writes there (no `--yes`: that dir's plan was not seen; helper-29), and does
    not bring this run's selection and mode there (an install's `--only`, `--skip`, `--mode`
    would replace that dir's; helper-32)."""
    return {k: v for k, v in args.items() if k not in _THIS_DIR_ONLY}


def _placed(ctx: Any) -> Any:
    from installer.ground.installs import placed

    return placed(ctx.set_root, ctx.manifest.name, ctx.agent_dir, ctx.on.name)


def _instead(
    g: Globals,
    ctx: Any,
    command: Command,
    args: dict[str, Any],
    found: Placed,
    passed: tuple[str, ...] = (),
) -> tuple[str, ...]:
    """The sets the agent dir holds when it does not hold this one (the right dir, run from
    another set's folder), each with this command for it; for a set that lacks an item the
    command names (this set's, by another name), that set's `list` instead, unless this set
    is installed in another dir, whose command is said above (helper-62: beside it, `list`
    of another set read as a second, unrelated way)."""
    from installer.render import instead_lines

    names = _named_items(command, args)
    held = found.held
    if found.others and names:
        held = [r for r in held if _holds(Path(r.root), names)]
    # The dir by name: resolved for that set, a default could be another dir ([target]).
    here = ctx.agent_dir

    def again(root: Path) -> str:
        if names and not _holds(root, names):
            return typed(g._replace(set_dir=root), BY_CALL["list_items"], {}, here)
        return typed(g._replace(set_dir=root), command, _asking(args), here, passed=passed)

    from installer.ground.context import this_set

    said = instead_lines(held, again, this_set(ctx.set_source))
    listing = command is BY_CALL["list_items"]
    moved = any(not os.path.isdir(r.root) for r in held)  # this set may be that one, moved
    if listing and not (found.here or found.others or moved) and ctx.set_source != "bundled":
        # helper-81: from a set just made, `list` pointed at the set the dir held (the bundled
        # one), or at nothing (helper-84); this folder's set, installed nowhere, may be meant
        # This set's own install resolves this very dir: named only as it was given (helper-89:
        # `--agent-dir <the isolated dir>`, not made yet, was refused where `ext install` makes it).
        install = typed(g, BY_CALL["install"], {})
        nowhere = f"this set is installed in no {ctx.on.title} agent dir yet"  # (helper-83)
        said = (*said, f"{nowhere}; to put it here: {install}")
    return (*said, *another_agents_said(ctx))


def another_agents_said(ctx: Any) -> tuple[str, ...]:
    """A dir that holds other agents' installs of ext alone, read for this one (helper-87:
    `list` offered an enable there, and doctor an install, both refused)."""
    from installer.ground.installs import other_agents_only

    held = other_agents_only(ctx.agent_dir, ctx.on.name)
    if not held:
        return ()
    from installer.hosts.dirs import another_agents  # the words, only when they are said

    return (another_agents(held, ctx.on),)


def _named_items(command: Command, args: dict[str, Any]) -> list[str]:
    """The items the command line names (`disable notify`, `toggle --on a,b`)."""
    dests = [a.dest for a in command.arguments if a.complete == "items"]
    dests += [o.dest for o in command.options if o.complete == "items"]
    return [n for dest in dests for n in args.get(dest) or ()]


def _holds(root: Path, names: list[str]) -> bool:
    """Whether the set at root has an item by each of these names."""
    from installer.ground.errors import ExtError
    from installer.sets.resources import discover, resolve_name

    try:
        found = discover(root)
        return all(resolve_name(found, n) for n in names)
    except ExtError:
        return False


def typed(
    g: Globals,
    command: Command,
    args: dict[str, Any],
    agent_dir: Path | None = None,
    ext: str = "ext",
    passed: tuple[str, ...] = (),
) -> str:
    """This command line as typed (on `agent_dir` when one is given), ext named `ext`;
    `passed`: the words after `--`, the host's."""
    from installer.ground.shellword import shell_word as word

    words = [ext, *(("--set", word(g.set_dir)) if g.set_dir else ())]
    where = agent_dir if agent_dir is not None else g.agent_dir
    words += [*(("--host", g.host) if g.host else ())]
    words += [*(("--agent-dir", word(where)) if where is not None else ())]
    words += command.path
    for o in command.options:
        value = args.get(o.dest)
        if o.kind == "flag" and value:
            words.append(o.flags[0])
        elif o.kind != "flag" and value:
            many = isinstance(value, (list, tuple))
            words += [o.flags[0], ",".join(map(str, value)) if many else word(value)]
    for a in command.arguments:
        value = args.get(a.dest)
        words += [word(v) for v in value] if isinstance(value, (list, tuple)) else []
    words += ["--", *map(word, passed)] if passed else []
    return " ".join(words)


def install_again(g: Globals) -> str:
    """`ext install` as the person would type it next: ext as run, the dir and host given."""
    return typed(g, BY_CALL["install"], {}, ext=as_run())
