"""The one call every command makes: the parsed values in; the verb's options built, its
context resolved, its result rendered, and the exit code out.

`installer.cli.grammar` names each command's verb and options type; the hand parser of the
everyday commands (`installer.cli.fast`) and the click app (`installer.cli.app`) both hand
their values to `call`, so the two ways in differ only in how argv became values. `call`
builds the options by field name (a new option is a line in the grammar and a field beside
its verb), and `installer.render` prints what the verb returns: nothing here prints.
What differs between commands is only the context a verb works on (`_CONTEXTS`) and, for a
few, what is said around it (`_AROUND`).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from importlib import import_module
from pathlib import Path

from installer import __version__
from installer.cli.grammar import BY_CALL, Command
from installer.cli.options import Globals
from installer.cli.run import context, names, notice, run
from installer.cli.typed import elsewhere_said, install_again, typed, where_said
from installer.ground.errors import AgentDirMissing, ExtError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, NoReturn

    Around = Callable[[Globals, Any, Any, Any, Any], int]


def call(name: str, g: Globals, args: dict[str, Any]) -> NoReturn:
    """Run the command the grammar calls `name` with the parsed values `args`."""
    if name == "version":
        version(g, **args)
    command = BY_CALL[name]
    run(g, lambda out: _call(command, g, out, args))


def options_of(command: Command, args: dict[str, Any]) -> Any:
    """The verb's options value, field by field from the parsed values: lists become tuples
    (`--only a,b` names split at commas), what was not given keeps the field's default."""
    takes = _load(command.takes)
    commas = {o.dest: o.flags[0] for o in command.options if o.commas}
    values: dict[str, Any] = {}
    for dest, given in args.items():
        value = given
        if dest in commas:
            value = tuple(names(given, commas[dest])) or None
        elif isinstance(given, list):
            value = tuple(given)
        if value is not None:
            values[dest] = value
    return takes(**values)


def _call(command: Command, g: Globals, out: Any, args: dict[str, Any]) -> int:
    served = _served(g, command)
    if served:
        return _serve(command, g, out, args, served)
    return _call_one(command, g, out, args)


# The commands a set's `[hosts] serve` runs in each agent it names, when no one dir is named.
# (doctor too: a set served to four agents was checked in pi's dir alone.)
_SERVES = frozenset({"install", "uninstall", "list_items", "undo", "doctor"})


def _served(g: Globals, command: Command) -> tuple[str, ...]:
    """The hosts the set's manifest serves, when this command goes to each: no --host,
    EXT_HOST, --agent-dir or EXT_AGENT_DIR names one place, and the manifest names more than
    pi."""
    import os

    if command.call not in _SERVES or g.host or g.agent_dir:
        return ()
    if os.environ.get("EXT_HOST") or os.environ.get("EXT_AGENT_DIR"):
        return ()
    from installer.ground.context import Env, find_set
    from installer.ground.manifest import load_manifest

    serves = load_manifest(find_set(Env.from_process(), g.set_dir)[0]).serves
    return serves if serves and serves != ("pi",) else ()


def _serve(
    command: Command, g: Globals, out: Any, args: dict[str, Any], hosts: tuple[str, ...]
) -> int:
    """The command in each host the set serves, the shared folder's host first; a host whose
    dir does not exist is said and passed over (`--create` makes it). Under --json, one
    document: `{"changed", "dry_run", "hosts": {name: the command's document}}` (a writer's;
    `list` has `hosts` alone)."""
    from installer.ground.errors import AgentDirMissing, ExitCode
    from installer.hosts.table import HOSTS

    docs: dict[str, Any] = {}
    code = 0
    data = out.data
    # A host whose skill folder another served host reads (Codex CLI's ~/.agents/skills,
    # Claude Code's ~/.claude/skills) goes first: the hosts that read it then leave those
    # skills out of their own, in the plan as in the run.
    read = {f for h in hosts for f in HOSTS[h].also_reads}
    order = sorted(hosts, key=lambda h: not read & set(HOSTS[h].skill_folders()))
    # install: each host plans with what the hosts before it will link (`ahead`);
    # uninstall: no host is told to install again what goes from all (`along`).
    args = {**args, **dict.fromkeys(SERVED.get(command.call, ()), tuple(order))}
    _refuse_a_shared_dir(command, g, order)
    out.headed = True  # stdout says whose each result is, as a list's header does
    asked: list[str] = []
    passed: list[AgentDirMissing] = []  # the hosts whose dir does not exist
    served = len(order)
    if command.asks and not args.get("dry_run") and not out.json:
        # Every host planned before any is written (a host that cannot be planned stops
        # them all, nothing written), then one question, unless --yes.
        asked = order = _ask_once(command, g, out, args, order, passed)
        if not order:
            _none_there(command, passed, served)
            return 0
        args = {**args, "yes": True}
    for name in order:
        out.plan_shown = name in asked  # each host's plan is its own, and shown once
        if out.json:
            out.data = lambda doc, name=name: docs.__setitem__(name, doc)
        try:
            if command.call == "doctor":  # an agent with no dir here is passed over, as install
                context(g._replace(host=name))  # does: not an error of the served set's
            code = max(code, _call_one(command, g._replace(host=name), out, _of(args, name)))
        except AgentDirMissing as exc:
            passed.append(exc)
            if out.json:
                docs[name] = {"skipped": exc.message, "fix": exc.fix}
            else:
                out.warn(f"{exc.message}: passed over; {exc.fix}")
        finally:
            out.data = data
    if out.json:  # one document: each host's `skipped` says why, and the exit code says none ran
        out.data({**_served_head(command, args, docs), "hosts": docs})
        return ExitCode.NO_AGENT_DIR if _none_ran(passed, served) else code
    _none_there(command, passed, served)
    return code


def _none_ran(passed: list[Any], hosts: int) -> bool:
    """Whether every served agent's dir is missing (helper-90: a doctor of none exited 0)."""
    return bool(passed) and len(passed) == hosts


def _none_there(command: Command, passed: list[Any], hosts: int) -> None:
    """Exit 4, as for one agent's dir missing, when no served agent's dir exists (helper-89: a
    served install into none of them exited 0, which a script takes for done)."""
    from installer.ground.errors import AgentDirMissing

    if not _none_ran(passed, hosts):
        return
    verb = " ".join(command.path)  # helper-90: `list_items` was said
    if command.call == "install":
        fix = "make them with --create, or start each agent once (each fix above names its dir)"
    else:
        fix = "check the dirs named above ([target] and [hosts.NAME] agent_dir), or install first"
    raise AgentDirMissing(f"no agent dir the set serves exists: nothing to {verb}", fix)


def _served_head(command: Command, args: dict[str, Any], docs: dict[str, Any]) -> dict[str, Any]:
    """A served run's one JSON document, over its hosts' own: a writer's two flags, what
    automation reads; doctor's one verdict and one list of checks, each its host's."""
    head: dict[str, Any] = {}
    if command.asks:
        head["changed"] = any(d.get("changed") for d in docs.values())
        head["dry_run"] = bool(args.get("dry_run"))
    if command.call == "doctor":
        verdicts = [d["ok"] for d in docs.values() if "ok" in d]  # --list-checks: none
        if verdicts:  # helper-87: a list of checks said `"ok": false`
            head["ok"] = all(verdicts)
        head["checks"] = [
            {**c, "host": name} for name, d in docs.items() for c in d.get("checks", ())
        ]
    return head


def _refuse_a_shared_dir(command: Command, g: Globals, hosts: list[str]) -> None:
    """Two served agents in one dir, refused before a writer plans (helper-87: pi's links were
    written, then Claude Code's install in the same dir was refused: half a run, and `nothing
    was written` said of it). A dir that cannot be resolved is its host's run's to report."""
    import os

    if not command.asks:
        return
    from installer.ground.errors import UsageError
    from installer.hosts.dirs import host_title, own_dir_fix

    seen: dict[str, str] = {}
    for name in hosts:
        try:
            ctx = context(g._replace(host=name), create=True, dry_run=True)
        except ExtError:
            continue
        first = seen.setdefault(os.path.realpath(ctx.agent_dir), name)
        if first != name:
            raise UsageError(
                f"{host_title(first)} and {ctx.on.title} would share one agent dir, "
                f"{ctx.agent_dir} ({ctx.agent_dir_source}), and its record: nothing was written",
                own_dir_fix(ctx),
            )


# What a served run hands each host's call beside its options: the hosts of the run, in order.
SERVED = {"install": ("ahead",), "uninstall": ("along",)}


def _of(args: dict[str, Any], host: str) -> dict[str, Any]:
    """A served command's arguments for one host: an install's `ahead`, the hosts of the run
    before this one (the order is the run's)."""
    if "ahead" not in args:
        return args
    order = args["ahead"]
    return {**args, "ahead": tuple(order[: order.index(host)])}


def _ask_once(
    command: Command,
    g: Globals,
    out: Any,
    args: dict[str, Any],
    order: list[str],
    passed: list[Any],
) -> list[str]:
    """Each host's plan, then one question for them all (none with --yes); the hosts that
    have a change to make.

    A host with nothing to do says so here and is not run again; declining writes nothing."""

    from installer.ground.errors import AgentDirMissing
    from installer.render import PlanShown

    shown = []
    out.collecting = True
    try:
        for name in order:
            out.plan_shown = False
            try:
                _call_one(command, g._replace(host=name), out, _of(args, name))
            except PlanShown:
                shown.append(name)
            except AgentDirMissing as exc:
                passed.append(exc)
                out.warn(f"{exc.message}: passed over; {exc.fix}")
    finally:
        out.collecting = False
    if shown and not args.get("yes"):
        out.ask("Apply these changes?", sys.stdin is not None and sys.stdin.isatty())
    return shown


def _call_one(command: Command, g: Globals, out: Any, args: dict[str, Any]) -> int:
    from installer.engine.result import PlanResult
    from installer.render import Prompt, render

    options = options_of(command, args)
    around = _AROUND.get(command.call)
    ctx = _context_of(command, g, options, args)
    verb = _load(command.verb)
    _say_if_it_writes(out, command, options)
    if around is not None:
        return around(g, out, ctx, options, verb)
    if not command.asks:
        reads = command.call in _READS_A_DIR  # the whole dir's: no set of it is the wrong one
        said = where_said(g, out, ctx, command, args, of_the_set=False) if reads else ()
        return render(out, verb(ctx, options), before=said)
    # undo reverses this dir's last run, whichever set it was: no set of the dir is the wrong
    # one, and the set elsewhere is a hint only when there was nothing here to undo.
    of_set = command.call != "undo"
    says = command.call in _SAY_WHERE
    said = where_said(g, out, ctx, command, args, of_the_set=of_set) if says else ()
    if command.call in _SAY_ONLY_WHERE:
        said = said[:1]
    first = said[:1] if command.call == "undo" else said
    prompt = Prompt(out, getattr(options, "yes", True), color=not g.no_color, before=first)
    try:
        result = verb(ctx, options, prompt)
    except ExtError:
        if len(first) > 1 and not prompt.said:  # an error about a set this dir does not hold
            prompt.say_before()  # (`no item named a`): where it is, first
        raise
    if command.call in _RECORDS and result.applied:
        _remember(ctx)
    if prompt.said:
        return render(out, result)
    nothing = isinstance(result, PlanResult) and result.plan.is_empty
    if nothing and not result.said:
        return render(out, result)
    return render(out, result, before=said if nothing else first)


def _context_of(command: Command, g: Globals, options: Any, args: dict[str, Any]) -> Any:
    """What the command works on; a missing dir's fix is the command that makes it, or where
    the set is instead; a dir of another host's install is refused to this host's writers."""
    try:
        ctx = _CONTEXTS.get(command.call, _agent)(g, options)
    except AgentDirMissing as exc:
        _refuse_a_missing_choice(g, command.call, exc)
        if exc.how is None:
            raise
        if command.call in _WORKS_ON_WHAT_IS_INSTALLED:  # nothing there: no install is the fix
            raise AgentDirMissing(exc.message, _check_the_path(g, command, args)) from None
        if command.call != "install":
            raise
        # The install that makes it is this one as typed (--mode, --only…), with --create.
        raise exc.with_command(typed(g, command, {**args, "create": True})) from None
    if command.call in _ONE_HOST:
        from installer.ground.installs import other_agents_only

        held = other_agents_only(ctx.agent_dir, ctx.on.name)
        if held:
            from installer.hosts.dirs import another_hosts_dir

            raise another_hosts_dir(ctx, held, command.call)
    return ctx


# The writers of an agent dir that say which (and from where) before their plan; install says
# it in `_install`, the others of `asks` work on a set folder or on consent's store.
_SAY_WHERE = frozenset({"uninstall", "enable", "disable", "toggle", "undo", "adopt"})
# Of those, the ones that say the dir alone: adopt brings the set into it, so the set's
# other dirs, or the sets this one holds, are no wrong folder to point out.
_SAY_ONLY_WHERE = frozenset({"adopt"})


# The writers of one host's install, which a dir holding another host's alone refuses (undo
# too: it would reverse the other's last run; adopt: it installs).
_ONE_HOST = frozenset({"install", "uninstall", "enable", "disable", "toggle", "undo", "adopt"})


# The readers of an agent dir whose output does not name it (list's table does).
_READS_A_DIR = frozenset({"history"})


# The writers after which ext's user state says again which sets the agent dir holds (install
# too, in `_install`; adopt installs the set where it found the files): the hint `where_said`
# gives. Outside the verb's transaction, since a write of it that fails costs only that hint
# and leaves nothing to roll back.
_RECORDS = frozenset({"uninstall", "undo", "adopt"})


def _refuse_a_missing_choice(g: Globals, verb: str, exc: AgentDirMissing) -> None:
    """A found set's own agent dir that does not exist: refused as launch and env refuse such
    a set's choices, before a fix that would install (and so trust) it (helper-66)."""
    if verb not in ("launch", "env"):
        return
    from installer.ground.context import Env, find_set
    from installer.host.set_command import refuse_a_missing_choice
    from installer.hosts.table import HOSTS

    try:
        root, source = find_set(Env.from_process(), g.set_dir)
    except ExtError:
        return
    where = exc.chosen[0]  # "[target] agent_dir" (pi's) or "[hosts.NAME] agent_dir"
    host = where.removeprefix("[hosts.").partition("]")[0] if "hosts." in where else "pi"
    title = HOSTS[host].title if host in HOSTS else "the agent"
    refuse_a_missing_choice(root, source, exc.chosen, verb, title)


def _say_if_it_writes(out: Any, command: Command, options: Any) -> None:
    """A reader gone is said of a run that may write (Output.writes), not of a listing or a
    dry run, and a replay of it says the same (helper-62, helper-64)."""
    out.writes = command.asks and not getattr(options, "dry_run", False)
    if not out.writes:
        from installer.ground.replay import reads_only

        reads_only()


def _makes(ctx: Any, options: Any) -> tuple[str, ...]:
    """The word on a dir `--create` makes for the install: this run made it before its plan,
    or its dry run would (helper-89: a run said it only in a dry run)."""
    import os

    from installer.ground.context import made_by_this_run

    if options.create and (
        made_by_this_run(ctx.agent_dir) or (options.dry_run and not os.path.isdir(ctx.agent_dir))
    ):
        return ("it does not exist yet: the install makes it (--create)",)
    return ()


def _remember(ctx: Any) -> None:
    from installer.ground.installs import sync

    sync(ctx.agent_dir)


def _load(where: str) -> Any:
    """`install:Install` -> installer.commands.install.Install."""
    module, _, name = where.partition(":")
    return getattr(import_module(f"installer.commands.{module}"), name)


# The contexts verbs work on: the agent dir's (the default), or what a command needs instead.


# The commands whose fix for a missing dir is the dirs that hold the set, never an install.
_WORKS_ON_WHAT_IS_INSTALLED = frozenset(
    {"uninstall", "undo", "enable", "disable", "toggle", "list_items", "history"}
)


def _check_the_path(g: Globals, command: Command, args: dict[str, Any]) -> str:
    """The fix for a named agent dir that does not exist, for a command that works on what is
    installed: the dirs that hold the set, with this command for each, else the path checked."""
    from installer.ground.context import Env, find_set
    from installer.ground.installs import holding
    from installer.render.ui import tilde

    nothing = "a dir that does not exist holds nothing: check its path"
    try:
        set_root, _ = find_set(Env.from_process(), g.set_dir)
    except ExtError:
        return nothing
    dirs = [d for d, host in holding(set_root) if host == (g.host or "pi")]
    if not dirs:
        return f"{nothing} (ext has installed this set in no other dir)"
    return "check its path; the set is installed in " + "; in ".join(
        f"{tilde(d)}: `{typed(g, command, args, d)}`" for d in dirs
    )


def _agent(g: Globals, options: Any) -> Any:
    """The set and the agent dir, resolved in the README's order (`--create` may make it)."""
    create = getattr(options, "create", False)
    return context(g, create=create, dry_run=getattr(options, "dry_run", False))


def _bench_here(g: Globals, options: Any) -> Any:
    """`ext init`: the current folder, the installed pi, git, and the agent dir pi reads."""
    from installer.ground.context import Env, here, pi_agent_dir
    from installer.ground.which import which
    from installer.scaffold.creation import Bench

    env = Env.from_process()
    return Bench(here(env), _find_host, which("git"), pi_agent_dir(env))


def _bench_of_set(g: Globals, options: Any) -> Any:
    """`ext add`: the user's own set (never the bundled one) and the installed pi."""
    from installer.scaffold.creation import Bench

    return Bench(_own_set(g), _find_host, install=_install_next(g))


def _install_next(g: Globals) -> str:
    """The install that links what `ext add` made: as typed, but on the one dir that holds the
    set when none is named and `ext install` alone would go to the isolated dir."""
    from installer.cli.run import as_run
    from installer.ground.installs import placed

    again = install_again(g)
    try:
        ctx = context(g)
    except ExtError:  # no dir there yet: `ext install` says what to do
        return again
    if ctx.agent_dir_source != "isolated":  # a dir named (flag, variable, [target]): that one
        return again
    others = placed(ctx.set_root, ctx.manifest.name, ctx.agent_dir).others
    if len(others) != 1:
        return again
    return typed(g, BY_CALL["install"], {}, others[0], ext=as_run())


def _adoption(g: Globals, options: Any) -> Any:
    """`ext adopt`: the user's own set, and the agent dir of --from (else --agent-dir)."""
    from installer.ground.context import Env, resolve
    from installer.ground.errors import AgentDirMissing, UsageError

    from_dir = options.from_dir
    if from_dir is not None and g.agent_dir is not None and from_dir != g.agent_dir:
        raise UsageError("--from and --agent-dir name different folders", "give one of them")
    _own_set(g)
    try:
        ctx = resolve(Env.from_process(), g.set_dir, from_dir or g.agent_dir)
    except AgentDirMissing as exc:
        # Adopt reads the dir: the flag typed is named, and creating an empty one is no fix.
        raise AgentDirMissing(*_nothing_to_adopt(exc, from_dir)) from None
    # The dir is said as it was typed: `agent dir ~/.pi/agent (from --from)`.
    return ctx._replace(agent_dir_source="--from") if from_dir is not None else ctx


def _nothing_to_adopt(exc: Any, from_dir: Path | None) -> tuple[str, str]:
    """Adopt's words for a missing agent dir: the flag as typed, and where else to look."""
    from installer.render.ui import tilde

    if from_dir is not None:
        from installer.ground.home import expand_home

        shown = tilde(expand_home(from_dir).absolute())
        message = f"{shown} (--from) does not exist: there is nothing to adopt there"
    else:
        message = f"{exc.message}: there is nothing to adopt there"
    pi_dir = _pi_dir()
    if pi_dir is not None:  # where pi reads, which holds what was placed by hand
        from installer.ground.shellword import shell_word

        fix = f"pi's agent dir is {tilde(pi_dir)}: ext adopt --all --from {shell_word(pi_dir)}"
        return message, fix
    where = "ext adopt --all --from DIR"
    return message, f"name the agent dir that holds the extensions you placed by hand: {where}"


def _pi_dir() -> Path | None:
    """The agent dir pi reads (PI_CODING_AGENT_DIR, else ~/.pi/agent), when it is there and
    not one ext installs into (after `eval "$(ext env)"` the variable names ext's own)."""
    from installer.ground.context import PI_AGENT_DIR_VAR, Env, pi_agent_dir

    env = Env.from_process()
    unset = Env({k: v for k, v in env.environ.items() if k != PI_AGENT_DIR_VAR}, env.cwd)
    for found in (pi_agent_dir(env), pi_agent_dir(unset)):  # the variable's, else pi's default
        if found.is_dir() and not (found / ".extset" / "state.json").exists():
            return found
    return None


def _doctor(g: Globals, options: Any) -> Any:
    """`ext doctor`: the set and agent dir as given; doctor resolves them and reports why not."""
    from installer.commands.doctor import Where
    from installer.ground.context import Env

    return Where(Env.from_process(), g.set_dir, g.agent_dir, g.debug, g.host)


def _find_host() -> Any:
    """The installed pi (for --version, and the package templates import from); None when
    not found or broken."""
    from installer.host.pi import find_host

    try:
        return find_host()
    except Exception:  # a broken pi only costs the templates their `paths`
        return None


def _own_set(g: Globals) -> Path:
    """The set `ext add` and `ext adopt` write into: never the bundled one."""
    from installer.ground.context import Env, find_set
    from installer.ground.errors import UsageError

    root, source = find_set(Env.from_process(), g.set_dir)
    if source == "bundled":
        raise UsageError(
            "no set of yours here: not inside a folder with an extset.toml",
            "cd into your set, pass --set DIR, or start one with `ext init DIR`",
        )
    return root


def _checking(g: Globals, options: Any) -> Any:
    """`ext update --check`, `ext outdated`: ext, pi and the set are checked, not an install,
    so an agent dir that does not exist is no error (as a dry run of `--create` takes it)."""
    return context(g, create=True, dry_run=True)


_CONTEXTS: dict[str, Callable[[Globals, Any], Any]] = {
    "init": _bench_here,
    "add": _bench_of_set,
    "adopt": _adoption,
    "doctor": _doctor,
    "update": _checking,
    "outdated": _checking,
}

# What a few commands say around their verb: where an install goes, the update notice.


def _install(g: Globals, out: Any, ctx: Any, options: Any, verb: Any) -> int:
    """Where the install goes (before its plan), the update notice and how pi finds it after."""
    import os

    from installer.ground.replay import stop as stop_recording
    from installer.ground.state import state_path
    from installer.render import Prompt, render, warn

    if not options.dry_run and not os.path.lexists(state_path(ctx.agent_dir)):
        # ext has not installed here: this run writes, and a replay could never stand for it.
        stop_recording("a first install into an agent dir")
    if not options.dry_run and ctx.on.is_pi:
        warn(out, _move_old_consent_store(ctx))
    from installer.ground.context import keep_made, unmake

    said = where_said(g, out, ctx, BY_CALL["install"], _install_args(options), installing=True)
    makes = _makes(ctx, options) if said and not out.headed else ()  # (served: the heading)
    prompt = Prompt(out, options.yes, before=(*said, *makes))

    try:
        result = verb(ctx, options, prompt)
    except BaseException as exc:  # declined or refused: a dir --create made goes too (one a
        unmake()  # run rolled back holds its journal now, and stays)
        if isinstance(exc, ExtError) and len(said) > 1 and not prompt.said:
            prompt.before = said  # refused before its plan: the set's other dirs, first
            prompt.say_before()
        raise
    keep_made()
    if not result.dry_run:  # a no-op too: an install made before ext kept that record
        _remember(ctx)
    # A plan says where before it; so does a dry run's, and a no-op among the agents a set
    # serves (its `nothing to do` is one of several).
    shown = result.dry_run and not result.plan.is_empty
    before = prompt.before if not prompt.said and (shown or out.headed) else ()
    after = notice(g, ctx)
    if result.applied and not g.quiet and ctx.on.is_pi and not _pi_reads(ctx):
        # `ext` in these commands is made the one run, with this run's --agent-dir.
        after += ('pi reads it with: eval "$(ext env)"   (or run `ext launch`)',)
    return render(out, result, before, after)


def _pi_reads(ctx: Any) -> bool:
    """Whether pi started in this shell reads the agent dir (PI_CODING_AGENT_DIR names it, or
    it is ~/.pi/agent)."""
    from installer.ground.context import pi_agent_dir, same_path

    return same_path(pi_agent_dir(ctx.env), ctx.agent_dir)


def _install_args(options: Any) -> dict[str, Any]:
    """install's options as parsed values (`typed`'s words), minus those for this dir only."""
    return {k: v for k, v in options._asdict().items() if k not in ("create", "dry_run")}


def _move_old_consent_store(ctx: Any) -> tuple[str, ...]:
    """An upgrade's first install moves the approvals out of `hooks/`, where pi warns at start.

    Before the install, so that `ext undo` takes back the install first. One lstat when there
    is nothing to move.
    """
    import os

    if not os.path.lexists(os.path.join(ctx.agent_dir, "hooks", "project-approvals.json")):
        return ()  # consent.legacy.legacy_store, without importing consent on every install
    from installer.commands.consent import moved

    return moved(ctx)


def _launch(g: Globals, out: Any, ctx: Any, options: Any, verb: Any) -> NoReturn:
    """The warnings and the notice, then pi in place of this process; pi says the warnings
    again as its own notices, as its screen wipes what was printed before it."""
    import os

    from installer.commands.launch import Exec, HostExec
    from installer.render import render

    found: Exec | HostExec = verb(ctx, options)
    elsewhere = elsewhere_said(g, out, ctx, BY_CALL["launch"], {}, passed=options.args)
    found = found._replace(warnings=(*found.warnings, *elsewhere))
    render(out, found, after=notice(g, ctx))
    if isinstance(found, Exec) and found.warnings and found.wait:
        # helper-47: into a dir without the set (so without /ext to say them again as pi's
        # notice) the warnings went with pi's first screen; in a terminal, ext waits first.
        out.press_enter("start pi", "pi was not started")
    found.start(ctx.agent_dir, os.environ)


def _env(g: Globals, out: Any, ctx: Any, options: Any, verb: Any) -> int:
    """`ext env`: the lines a shell evals (stdout); first, on stderr, a dir that holds another
    agent's install alone (helper-87: `--host claude env` in pi's dir exported it unsaid)."""
    from installer.cli.typed import another_agents_said
    from installer.render import render

    said = () if g.quiet else another_agents_said(ctx)
    return render(out, verb(ctx, options), before=said)


def _with_notice(g: Globals, out: Any, ctx: Any, options: Any, verb: Any) -> int:
    """`ext list`: the update notice and where else the set is installed, then the table."""
    from installer.render import render

    result = verb(ctx, options)
    args = options._asdict()
    said = elsewhere_said(g, out, ctx, BY_CALL["list_items"], args)
    return render(out, result, before=(*notice(g, ctx), *said))


def _consent(g: Globals, out: Any, ctx: Any, options: Any, verb: Any) -> int:
    """`ext consent …`: first move a store an earlier ext left where pi warns about it."""
    from installer.commands.consent import moved
    from installer.render import Prompt, render, warn

    dry_run = getattr(options, "dry_run", False)
    warn(out, moved(ctx, dry_run))
    if not hasattr(options, "yes"):
        return render(out, verb(ctx, options))
    return render(out, verb(ctx, options, Prompt(out, options.yes)))


_AROUND: dict[str, Around] = {
    "env": _env,
    "install": _install,
    "launch": _launch,
    "list_items": _with_notice,
    "consent_check": _consent,
    "consent_approve": _consent,
    "consent_revoke": _consent,
    "consent_list": _consent,
}


def version(g: Globals, as_json: bool) -> NoReturn:
    """`ext --version`: ext's version and the host's; a broken host never breaks it."""
    from installer.render.version import show

    show(__version__, _find_host(), as_json)
    raise SystemExit(0)
