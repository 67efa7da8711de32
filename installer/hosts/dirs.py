"""Which config dir of another host a command works on, in DESIGN.md's order for pi:
--agent-dir > EXT_AGENT_DIR > the host's own variable > the host's default.

The default is the host's own dir, not an isolated one as for pi: Claude Code, Codex CLI and
Gemini CLI keep the login in it, so a dir of ext's would mean logging in again (README,
"Other agents"). What ext writes there is links and its own `.extset/`, each shown in a plan
first and undone by `ext undo`.
"""

from __future__ import annotations

from pathlib import Path

from installer.ground.context import (
    Context,
    Env,
    _check_folder,
    _for_shell,
    _from_cwd,
    check_not_under_a_file,
    home_of,
    make_dir,
    without_dotdot,
)
from installer.ground.errors import AgentDirMissing, ExtError, Refused
from installer.ground.manifest import Manifest
from installer.hosts.profile import Host


def host_dir(env: Env, host: Host, read_var: bool = True) -> tuple[Path, str]:
    """The dir the host itself reads in this shell, and what named it: its variable, else
    its default (`read_var=False`: the default alone)."""
    home = home_of(env)
    value = env.environ.get(host.dir_var) if host.dir_var and read_var else None
    if value:
        # No `~` expanded, unlike pi's variable: these hosts take it as a folder named `~`.
        as_read = Path(value) if value.startswith("~") else Path(value).expanduser()
        # Joined onto the cwd here (a `~` kept): _from_cwd would expand it. No cwd (deleted
        # under a running script): left as it is, as _from_cwd leaves a relative path.
        named = _from_cwd(env, env.cwd / as_read if env.cwd else as_read, as_host=True)
        if not host.var_names_home:
            return named, host.dir_var or ""
        # GEMINI_CLI_HOME names the home `.gemini` is in; XDG_CONFIG_HOME the `opencode` one's.
        leaf = host.default_dir.rpartition("/")[2]
        return named / leaf, host.dir_var or ""
    default = host.default_dir
    if default.startswith("$XDG_CONFIG_HOME/"):
        default = "~/.config/" + default.removeprefix("$XDG_CONFIG_HOME/")
    return home / default.removeprefix("~/"), "default"


def _refuse_tilde(env: Env, host: Host, source: str) -> None:
    """A `~` left in the host's variable (quoted, the shell did not expand it): the host reads
    a folder named `~` in whatever folder it starts in, so ext would install where it never
    looks, or the host into a stray `./~`."""
    value = env.environ.get(source, "") if source == host.dir_var else ""
    if value.startswith("~"):
        from installer.ground.errors import UsageError

        rest = value[1:] if value == "~" or value.startswith("~/") else None
        meant = home_of(env) / rest.lstrip("/") if rest is not None else None
        if meant is not None and host.var_names_home:  # the home its folder is in
            meant = meant / host.default_dir.rpartition("/")[2]
        if meant is not None and meant == default_dir(env, host):
            # Set at the default, a variable can change what the host reads (Claude Code's
            # ~/.claude.json): `ext env` unsets it there, and so does this fix.
            fix = f"unset it: the default is that folder: unset {source}"
        elif rest is not None:
            fix = f'set it to the full path: export {source}="$HOME{rest}"'
        else:
            fix = f"set {source} to an absolute path"
        raise UsageError(
            f"{source} is {value!r}: {host.title} does not expand ~, so it would read a folder "
            "named `~` in the folder it starts in",
            fix,
        )


def default_dir(env: Env, host: Host) -> Path:
    """The host's dir when no variable moves it (`~/.claude`, `~/.config/opencode`)."""
    return host_dir(env, host, read_var=False)[0]


def find_host_dir(
    env: Env,
    host: Host,
    explicit: Path | None,
    create: bool,
    named_set: Path | None = None,
    manifest: Manifest | None = None,
    missing_ok: bool = False,
) -> tuple[Path, str]:
    """--agent-dir > EXT_AGENT_DIR > the host's own variable > the manifest's `[hosts.NAME]
    agent_dir` > its default; a dir that does not exist is exit 4 with the fix (start the host
    once, or --create)."""
    in_manifest = manifest.host_dirs.get(host.name) if manifest is not None else None
    if explicit is not None:
        path, source = _from_cwd(env, explicit), "--agent-dir"
    elif env.environ.get("EXT_AGENT_DIR"):
        path, source = _from_cwd(env, Path(env.environ["EXT_AGENT_DIR"])), "EXT_AGENT_DIR"
    else:
        path, source = host_dir(env, host)
        if source == "default" and in_manifest is not None:
            # Said without its `..`s, as [target] agent_dir is (helper-87: `~/s/../cl`).
            path, source = without_dotdot(in_manifest), f"[hosts.{host.name}] agent_dir"
        _refuse_tilde(env, host, source)
    what = f"{host.title}'s dir {path} ({source})"
    _check_folder(path, what, source)  # the fix names what chose it (helper-78: CODEX_HOME)
    check_not_under_a_file(path, source, what)
    if not path.exists() and create:
        try:
            make_dir(path)
        except OSError as exc:
            raise ExtError(
                f"cannot create {what}: {exc.strerror}", "create it yourself, then retry"
            ) from None
    if not path.exists() and not missing_ok:  # a dry run of --create: the plan is for it empty
        typed = _for_shell(env, path)
        flags = f"--set {_for_shell(env, named_set)} " if named_set is not None else ""
        flags += f"--host {host.name} "
        flags += f"--agent-dir {typed} " if source == "--agent-dir" else ""
        raise AgentDirMissing(
            f"{what} does not exist",
            how=f"start {host.title} once so it makes it, or run `{{command}}`",
            command=f"ext {flags}install --create",
            chosen=(source, str(path)),
        )
    return path, source


def another_hosts_dir(ctx: Context, held: frozenset[str], verb: str) -> Refused:
    """The refusal of a dir whose installs of ext are other hosts' alone (`held`) to this
    host's `verb`: one agent dir, one host. helper-86: with EXT_AGENT_DIR set for pi, a Claude
    Code install went into pi's dir, took pi's link of a skill for its own, wrote its record
    over pi's, and its uninstall took pi's links, `/ext` and record with it. A dir that holds
    this host's too (made before this check) is left as it was, so it can be uninstalled."""
    theirs = _titles(held)
    title = ctx.on.title
    where = f"{ctx.agent_dir} ({ctx.agent_dir_source})"
    if verb in ("install", "adopt"):
        what = (
            f"{where} holds ext's install for {theirs}: one for {title} would share its folders "
            f"and its record, and its uninstall would take {theirs}'s items with it"
        )
    else:  # a command on what is installed: there is nothing of this host's there
        what = f"{where} holds ext's install for {theirs}, none for {title}: nothing to {verb}"
    return Refused(f"{what}; nothing was written", own_dir_fix(ctx, verb))


def own_dir_fix(ctx: Context, verb: str = "install") -> str:
    """The host's own dir, by what named this one: given one to install into, named to work on
    what is installed there, or to check it (doctor)."""
    title = ctx.on.title
    if verb in ("install", "adopt"):
        lead = f"give {title} a dir of its own"
    else:
        lead = f"check {title}'s own dir" if verb == "check" else f"run it on {title}'s own dir"
    source = ctx.agent_dir_source
    if source == "EXT_AGENT_DIR":
        return f"{lead}: unset EXT_AGENT_DIR (every agent's commands read it), or --agent-dir DIR"
    if source.startswith(("[hosts.", "[target]")):
        return f"{lead}: change {source} in the set's extset.toml"
    if source.isupper():  # the agent's own variable (helper-88): the agent reads it too
        return f"{lead}: change or unset {source} ({title} reads it too)"
    return f"{lead}: --agent-dir DIR"


def host_title(name: str) -> str:
    """A host's title by the name a state record gives it; one this ext does not know (a newer
    ext's) by that name (helper-87: it was said as a `--host` typed wrong)."""
    from installer.hosts.table import HOSTS

    host = HOSTS.get(name)
    return host.title if host is not None else f"{name!r} (an agent this ext does not know)"


def _titles(held: frozenset[str]) -> str:
    return " and ".join(host_title(name) for name in sorted(held))


def another_agents(held: frozenset[str], host: Host) -> str:
    """What to say of a dir that holds the installs of ext of other agents (`held`) alone,
    read for `host` (list, launch, env, doctor)."""
    theirs = _titles(held)
    return (
        f"this dir holds ext's install for {theirs}, none for {host.title}: what is in place "
        f"here is {theirs}'s, and {host.title}'s installs and switches here are refused"
    )
