"""A command line as the person typed it, and where a command works: the agent dir and where
it came from, the other dirs that hold the set, and this command for one of them; `ext
install` as the person would type it next."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from installer.cli.grammar import BY_CALL, Command
from installer.cli.options import Globals
from installer.cli.run import as_run


def where_said(
    g: Globals, out: Any, ctx: Any, command: Command, args: dict[str, Any], installing: bool = False
) -> tuple[str, ...]:
    """The agent dir and where it came from; and the other dirs the set is installed in, when
    it is not installed in this one, each with this command for that dir."""
    if g.quiet or out.json:
        return ()
    from installer.ground.installs import elsewhere
    from installer.render import where_lines

    others = elsewhere(ctx.set_root, ctx.agent_dir, ctx.on.name)
    return where_lines(ctx, others, lambda d: typed(g, command, args, d), installing)


def elsewhere_said(
    g: Globals, out: Any, ctx: Any, command: Command, args: dict[str, Any]
) -> tuple[str, ...]:
    """The other dirs the set is installed in when it is not in this one, each with this
    command for that dir (a reader's hint: the command shows the agent dir itself)."""
    if g.quiet or out.json:
        return ()
    from installer.ground.installs import elsewhere
    from installer.render import elsewhere_lines

    others = elsewhere(ctx.set_root, ctx.agent_dir, ctx.on.name)
    return elsewhere_lines(others, lambda d: typed(g, command, args, d))


def typed(
    g: Globals,
    command: Command,
    args: dict[str, Any],
    agent_dir: Path | None = None,
    ext: str = "ext",
) -> str:
    """This command line as typed (on `agent_dir` when one is given), ext named `ext`."""
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
    return " ".join(words)


def word(value: object) -> str:
    """A word of a shell command; a path under the home as `~/…`, which the shell expands."""
    import shlex

    from installer.render.ui import tilde

    text = tilde(value) if isinstance(value, Path) else str(value)
    if text.startswith("~/") and shlex.quote(text[2:]) == text[2:]:
        return text
    return shlex.quote(text)


def install_again(g: Globals) -> str:
    """`ext install` as the person would type it next: ext as run, the dir and host given."""
    return typed(g, BY_CALL["install"], {}, ext=as_run())
