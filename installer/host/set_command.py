"""Whether ext may run the host command a set names: not before the set is installed here;
nor, for `launch` and `env`, let a set it found by itself choose the host or its dir.

Inspecting a set (`install --dry-run`, `list`, `doctor`) must not run its code. The one
place ext would is the host binary: `<bin> --version` when no package.json says the
version, an offline start with `doctor --deep`. So a binary the set names is run only once
the set is installed in this agent dir (installing is trusting it), or with `--trust-set`.
"""

from __future__ import annotations

import os
from pathlib import Path

from installer.ground.home import expand_home

TYPE_CHECKING = False
if TYPE_CHECKING:
    from installer.ground.context import Context


def ext_s_own(root: Path) -> bool:
    """Whether the set is the one ext ships, found by walking up in ext's own checkout (its
    `.cache` holds the pi the README puts on PATH: helper-66); trusting ext is trusting it,
    as `untrusted_root` has it for the bundled set."""
    from installer.ground.context import ext_checkout

    return os.path.realpath(root) == str(ext_checkout())


def untrusted_root(
    set_root: Path | None,
    agent_dir: Path | None,
    trusted: bool = False,
    source: str | None = None,
    agent_source: str = "",
) -> Path | None:
    """The set root whose paths must not run here; None once the set is installed or trusted.

    Installed means ext's state record lists this very root: a record of another root with
    the same name (a moved set) does not count, as a name is whatever a set says it is. The
    bundled set (`source` "bundled") is ext's own: trusting ext is trusting it (a checkout of
    ext holds the pi its tests run, in `.cache/`).
    """
    if trusted or set_root is None or source == "bundled" or ext_s_own(set_root):
        return None
    if agent_source.startswith("["):  # a dir the set chose: its record is the set's to forge,
        from installer.ground.installs import holding  # ext's own record counts (helper-71)

        return None if holding(set_root) else set_root
    if agent_dir is not None:
        from installer.ground.state import load_state

        if load_state(agent_dir).for_root(set_root) is not None:
            return None
    return set_root


def names_set_path(command: str, found: str, set_root: Path) -> bool:
    """True when running `found` (what PATH made of `command`) would run a path the set named.

    A command with a `/` is a path the set chose, wherever it points: a relative one is
    looked up from the cwd, which is the set when ext found it by walking up. A bare name
    is the user's own program, unless PATH found it through a relative entry (the cwd's
    again) or inside the set.
    """
    if "/" in os.fspath(expand_home(command)) or not os.path.isabs(found):
        return True
    root = os.path.realpath(set_root)
    return any(
        os.path.commonpath([root, where]) == root
        for where in (os.path.abspath(found), os.path.realpath(found))
    )


def set_chooses(command: str, found: str, set_root: Path, path_env: str | None = None) -> bool:
    """True when running `found` for the set's `command` runs what the set chose: any command
    but pi itself (a path; or a bare name such as `cargo` or `make`, which read the folder
    they run in: helper-65, helper-66), pi as PATH finds it inside the set or through a
    relative entry (`names_set_path`), or the node its `#!/usr/bin/env node` would find so
    (helper-68)."""
    if command != "pi" or names_set_path(command, found, set_root):
        return True
    from installer.ground.which import which

    node = which("node", path=path_env)
    return node is not None and names_set_path("node", node, set_root)


def withheld_note(command: str, said: str = "not run: ") -> str:
    """What is said instead of running the host command a set chose, and how to run it
    (`said`: what goes first; a check already says "not checked: ": helper-70)."""
    return (
        f"{said}{command} is what the set runs, and the set is not installed here "
        "(--trust-set runs it; so does every command once the set is installed)"
    )


# Why a set's checkout is not asked of its upstream: git reads the repository's own config,
# which can name commands to run (`remote.origin.uploadpack`, `core.sshCommand`: helper-69).
SET_WITHHELD = (
    "not checked: ext has not installed this set, and git would read its repository's "
    "config, which can run commands; it is checked once the set is installed (or with "
    "--trust-set)"
)


def set_trusted(
    set_root: Path | None,
    set_source: str | None,
    agent_dir: Path | None,
    agent_source: str,
    trusted: bool = False,
) -> bool:
    """Whether anything trusts the set: --trust-set, being ext's own, or an install, by ext's
    own record (which no set writes) or by the agent dir's state record when the set did not
    choose that dir (`untrusted_root`). The one answer launch, env, doctor and the update
    checks ask."""
    from installer.ground.installs import holding

    root = untrusted_root(set_root, agent_dir, trusted, set_source, agent_source)
    return root is None or bool(holding(root))


def refuse_strange_set(ctx: Context, verb: str) -> None:
    """Refuse to let a set ext found by itself choose what the host runs or loads.

    A set found by walking up from the working folder (a repository just cloned, say) that
    ext has never installed chooses nothing for `launch` and `env` (helper-63: `ext launch`
    there ran the folder's own `bin/pi`, and its `[target] agent_dir` had pi load the
    folder's extensions, no consent asked; helper-65: `[host] command = "make"` ran its
    Makefile, `[hosts.claude] agent_dir` pointed Claude Code at its hooks). Naming the set
    (`--set`, `EXT_SET`) or installing it is trusting it; an agent dir the set chose proves
    nothing by its own state record.
    """
    if ctx.set_source != "cwd" or ext_s_own(ctx.set_root):
        return
    risks = _program_risks(ctx) if verb == "launch" else []
    if ctx.agent_dir_source.startswith("["):  # [target] or [hosts.NAME] agent_dir
        risks.append(f"its {ctx.agent_dir_source} would have {ctx.on.title} load {ctx.agent_dir}")
    if not risks:
        return
    if set_trusted(ctx.set_root, ctx.set_source, ctx.agent_dir, ctx.agent_dir_source):
        return
    raise _refusal(ctx.set_root, risks, verb)


def refuse_a_missing_choice(
    set_root: Path, set_source: str, chosen: tuple[str, str], verb: str, title: str
) -> None:
    """The same refusal when the agent dir such a set chose does not exist yet: its fix would
    be an install with `--create`, trusting the set before the risk was said (helper-66).
    `title`: the agent's, as a person reads it."""
    source, path = chosen
    if set_source != "cwd" or not source.startswith("["):
        return
    if not set_trusted(set_root, set_source, None, source):
        risk = f"its {source} would have {title} load {path}"
        raise _refusal(set_root, [risk], verb, missing=True)


def _refusal(set_root: Path, risks: list[str], verb: str, missing: bool = False) -> Exception:
    from installer.ground.errors import Refused
    from installer.ground.shellword import shell_word

    root = shell_word(set_root)
    if missing:  # naming it would fail on the dir (exit 4): the install makes it (helper-70)
        fix = f"if you trust that set, install it, which makes that dir: `ext --set {root} "
        fix += "install --create`; else run ext from a folder outside it"
    else:
        fix = (
            f"if you trust that set, name it: `ext --set {root} {verb}` (or install it first: "
            f"`ext --set {root} install`); else run ext from a folder outside it"
        )
    return Refused(
        f"not using the set found in or above the working folder, {set_root}: ext never "
        f"installed it, and {' and '.join(risks)}",
        fix,
    )


def _program_risks(ctx: Context) -> list[str]:
    """What `launch` would run that the set chose: pi's `[host] command` other than pi itself
    (a path, or a bare name such as `make`, which reads the folder it runs in), or the host's
    binary as PATH finds it here when that is inside the set or through a relative entry."""
    from installer.ground.which import which

    command = ctx.manifest.host_command if ctx.on.is_pi else ctx.on.binary
    if ctx.on.is_pi and command != "pi":
        return [f"its [host] command {command} would run"]
    path = ctx.env.environ.get("PATH")
    # pi's `#!/usr/bin/env node` runs the node PATH finds: from the set too (helper-66); so do
    # Gemini CLI's and Codex's (helper-68). ext itself looks the binary up in PATH's absolute
    # entries only; the session it starts has the user's PATH as it is, relative entries too.
    programs = ((command, False), ("node", True))
    return [
        f"the {name} PATH finds here, {found}, is the set's own (inside it, or found through "
        "a relative PATH entry)"
        for name, as_a_shell in programs
        if (found := which(name, path=path, as_a_shell=as_a_shell)) is not None
        and names_set_path(name, found, ctx.set_root)
    ]
