"""Resolve the set, its manifest and the agent dir into one Context, in DESIGN.md's order."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Mapping
from pathlib import Path

from installer.ground.clock import Moment
from installer.ground.errors import AgentDirMissing, ExtError, UsageError
from installer.ground.home import expand_home
from installer.ground.manifest import MANIFEST_NAME, Manifest, load_manifest
from installer.ground.records import NamedTuple
from installer.ground.userdirs import user_dir

TYPE_CHECKING = False
if TYPE_CHECKING:
    from installer.ground.clock import When
    from installer.host.lines import PiLine
    from installer.hosts.profile import Host

RESOURCE_DIRS = ("extensions", "skills", "prompts", "themes")
PI_FOLDERS = RESOURCE_DIRS  # where pi reads each kind (installer.sets.resources.FOLDER)


def _cwd() -> Path | None:
    """The working folder, or None when it was deleted under us (automation does that)."""
    try:
        return Path.cwd()
    except FileNotFoundError:
        return None


_HERE = Path("<cwd>")  # Env's default: the process's working folder, read when it is made


class Env:
    """What a command may ask of the outside world; tests replace it."""

    def __init__(
        self,
        environ: Mapping[str, str] | None = None,
        cwd: Path | None = _HERE,
        stdin_tty: bool = False,
        stdout_tty: bool = False,
        stderr_tty: bool = False,
    ) -> None:
        self.environ: Mapping[str, str] = dict(os.environ) if environ is None else environ
        self.cwd = _cwd() if cwd is _HERE else cwd
        self.stdin_tty, self.stdout_tty, self.stderr_tty = stdin_tty, stdout_tty, stderr_tty

    @staticmethod
    def from_process() -> Env:
        return Env(
            environ=dict(os.environ),
            cwd=_cwd(),
            stdin_tty=sys.stdin is not None and sys.stdin.isatty(),
            stdout_tty=sys.stdout is not None and sys.stdout.isatty(),
            stderr_tty=sys.stderr is not None and sys.stderr.isatty(),
        )

    def now(self) -> When:
        return Moment(time.time_ns())


class Context(NamedTuple):
    """The set, its manifest and the agent dir one command works on."""

    set_root: Path
    manifest: Manifest
    agent_dir: Path
    # "--agent-dir", "EXT_AGENT_DIR", "PI_CODING_AGENT_DIR", "[target] agent_dir", "isolated"
    agent_dir_source: str
    set_source: str  # "--set", "EXT_SET", "cwd", "bundled"
    env: Env
    host: Host | None = None  # None: pi, the first host (installer.hosts.table.PI)

    @property
    def on(self) -> Host:
        """The host this command works on: pi unless --host (or EXT_HOST) named another."""
        if self.host is not None:
            return self.host
        from installer.hosts.table import PI

        return PI

    @property
    def folders(self) -> tuple[str, ...]:
        """The folders of the agent dir the link engine scans and writes in, for this host."""
        if self.host is None or self.host.is_pi:
            return PI_FOLDERS
        return self.host.folders(home_of(self.env))

    def pi_line(self) -> PiLine:
        """The line of the pi this set runs on (what the set's resources are read by): from
        its package.json, never started; today's line when there is no pi."""
        from installer.host.pi import line_here

        return line_here(self.manifest.host_command, self.env.environ.get("PATH"))


def resolve(
    env: Env,
    set_dir: Path | None = None,
    agent_dir: Path | None = None,
    create: bool = False,
    host: str | None = None,
    dry_run: bool = False,
) -> Context:
    """Build the Context: set, then manifest, then agent dir (which may come from the manifest).

    `host`: the --host flag's value; EXT_HOST when it is absent; pi when neither names one.
    `create` makes a named agent dir that does not exist; with `dry_run` it is not made (a dry
    run writes nothing): the plan is for it empty.
    """
    keep_made()  # a folder made by an earlier run in this process is that run's
    root, set_source = find_set(env, set_dir)
    require_utf8(root, "the set's folder")
    manifest = load_manifest(root)
    named_set = root if set_source == "--set" else None
    chosen = _host(env, host)
    making = create and not dry_run
    if chosen is not None:
        from installer.hosts.dirs import find_host_dir

        found = find_host_dir(env, chosen, agent_dir, making, named_set, manifest, create)
        target, target_source = found
        require_utf8(target, f"{chosen.title}'s dir")
        return Context(root, manifest, target, target_source, set_source, env, chosen)
    target, target_source = find_agent_dir(env, manifest, agent_dir, making, named_set, create)
    require_utf8(target, "the agent dir")
    return Context(root, manifest, target, target_source, set_source, env)


def require_utf8(path: Path, what: str) -> None:
    """A path with bytes that are not UTF-8 cannot be written into ext's records or a host's
    settings (JSON), nor read back by a host (Node takes paths as UTF-8): said, not half-done."""
    try:
        str(path).encode("utf-8")
    except UnicodeEncodeError:
        unmake()  # what `--create` made for it
        raise UsageError(
            f"the path of {what}, {path}, is not UTF-8: ext's records and the agent's own "
            "settings cannot hold it",
            "rename it (or the folder above it that has the byte) to a UTF-8 name",
        ) from None


def _host(env: Env, flag: str | None) -> Host | None:
    """The host --host or EXT_HOST names, or None for pi (whose dir rules are below)."""
    named, source = (flag, "--host") if flag else (env.environ.get("EXT_HOST"), "EXT_HOST")
    if not named:
        return None
    from installer.hosts.table import host_named

    found = host_named(named, source)
    return None if found.is_pi else found


def home_of(env: Env) -> Path:
    """HOME as the Env has it (what a host expands `~` from)."""
    return Path(env.environ.get("HOME") or str(Path.home()))


def here(env: Env) -> Path:
    """The working folder, or a usage error when it was deleted under us."""
    if env.cwd is None:
        raise UsageError(
            "the current folder no longer exists",
            "cd into a folder, or name one on the command line",
        )
    return env.cwd


def _from_cwd(env: Env, path: Path, as_host: bool = False) -> Path:
    """A user-given path, relative to the Env's cwd (the process's, unless a test replaced it),
    without its `..` parts: `--agent-dir ../agent` typed in a set's folder was kept as
    `<set>/../agent`, in the /ext link's target and in ext's record of the dirs it installed
    into, which both broke once the set's folder moved. `as_host`: a host's own variable
    (PI_CODING_AGENT_DIR), which the host joins onto as written, taking `..` lexically: ext
    names the dir the host reads."""
    path = expand_home(path, str(home_of(env)))
    path = path if env.cwd is None else env.cwd / path
    if not path.is_absolute():
        return path
    return Path(os.path.normpath(path)) if as_host else without_dotdot(path)


def without_dotdot(path: Path) -> Path:
    """An absolute path without `..` parts, naming what the kernel would: after a link, `..`
    goes up from where the link leads (the path so far is resolved); after a folder, the two
    cancel out. Links elsewhere stay as written (a dotfiles link the user chose, say)."""
    if ".." not in path.parts:
        return path
    out = Path(path.anchor)
    for part in path.parts[1:]:
        if part != "..":
            out = out / part
            continue
        if out.is_symlink():
            out = Path(os.path.realpath(out))  # a loop stays a path, as the kernel's ELOOP
        out = out.parent
    return out


def find_set(env: Env, explicit: Path | None) -> tuple[Path, str]:
    """--set > EXT_SET > nearest extset.toml above the cwd > nearest pi package > bundled."""
    if explicit is not None:
        return _check_set(env, _from_cwd(env, explicit), "--set"), "--set"
    if env.environ.get("EXT_SET"):
        named = _from_cwd(env, Path(env.environ["EXT_SET"]))
        return _check_set(env, named, "EXT_SET"), "EXT_SET"
    if env.cwd is not None:
        above = (env.cwd, *env.cwd.parents)
        for folder in above:
            if (folder / MANIFEST_NAME).is_file():
                _refuse_a_linked_manifest(env, folder)
                return folder.resolve(), "cwd"
        # A pi package is a set without an extset.toml; asked only when no manifest is above,
        # so a folder extension's own package.json inside a set never takes the set's place.
        for folder in above:
            if (folder / "package.json").is_file():
                if _pi_package(folder):
                    return folder.resolve(), "cwd"
                refuse_broken_pi_package(folder / "package.json")
    return bundled_set(env), "bundled"


def _refuse_a_linked_manifest(env: Env, folder: Path) -> None:
    """An extset.toml here that is a link to another folder's: a link farm (GNU Stow, dotbot)
    put the set's files here, in the agent dir most often (helper-41: `ext list` there took the
    agent dir for the set, and its fix would have copied the set's files into it)."""
    manifest = folder / MANIFEST_NAME
    if not manifest.is_symlink():
        return
    real = Path(os.path.realpath(manifest)).parent
    if real == folder.resolve():
        return
    set_at = _for_shell(env, real)
    raise UsageError(
        f"{manifest} is a link to {real / MANIFEST_NAME}: the set is {real}, not {folder}",
        f"run ext there (cd {set_at}), or pass --set {set_at}; a link farm such as GNU Stow "
        f"links {MANIFEST_NAME} too unless told to leave it out (.stow-local-ignore)",
    )


def refuse_broken_pi_package(path: Path, looked_for: bool = True) -> None:
    """A package.json that is not JSON but names a `pi` key: pi reads no manifest from it,
    yet it is likely the set meant here; going on to the bundled set would be silent. Of a
    set found otherwise (`looked_for` False: extset.toml, --set), ext could tell none of its
    items: every link would read as stale (helper-32)."""

    from installer.ground.readfile import read_text

    try:
        text = read_text(str(path))  # a FIFO or /dev/zero there is no JSON: never waited on
    except (OSError, UnicodeDecodeError):
        return
    from installer.ground.jsondepth import loads, refused_deep, too_deep
    from installer.sets.pirules import NAMES_PI

    names_pi = NAMES_PI.search(text) is not None
    if too_deep(text) and names_pi:
        raise UsageError(*refused_deep(path))
    try:
        loads(text, parse_constant=_js_rejects)  # NaN, Infinity: JSON.parse throws
    except ValueError as exc:
        if names_pi:
            raise UsageError(
                f'{path} is not valid JSON ({exc}), and it names a "pi" key: pi reads no '
                "manifest from it, so ext cannot tell this pi package's items",
                "fix its JSON, or name the set with --set" if looked_for else "fix its JSON",
            ) from None


def _js_rejects(word: str) -> object:
    raise ValueError(f"{word} is not JSON")


def _check_set(env: Env, path: Path, source: str) -> Path:
    path = expand_home(path, str(home_of(env)))
    if (path / MANIFEST_NAME).is_file():  # --set and EXT_SET too (helper-43)
        _refuse_a_linked_manifest(env, path)
    if not path.is_dir():
        raise UsageError(f"{source}: {path} is not a folder", "name the folder that holds the set")
    real = path.resolve()
    agent = _agent_dir_above(env, real)
    if agent == real and not (path / MANIFEST_NAME).is_file():
        # Its extensions/ made it look like a set: pi's ~/.pi/agent, say.
        raise UsageError(f"{path} is an agent dir, not a set: {_INTO_IT}", _YOUR_SET)
    if not _is_set(path):
        not_a_set = (
            f"{path} is not a set: it has no {MANIFEST_NAME}, no extensions/ folder "
            "and no package.json with a pi manifest"
        )
        if agent is not None:  # `--set .` in ~/.pi/agent/extensions: not a set's folder
            raise UsageError(
                f"{path} is in the agent dir {agent}, not a set: {_INTO_IT}", _YOUR_SET
            )
        # `--set .` typed in the set's extensions/ (or a skill's folder): the set is above.
        above = _set_above(real)
        if above is not None:
            named = _for_shell(env, above)
            as_typed = f"--set {named}" if source == "--set" else f"{source}={named}"
            raise UsageError(
                f"{path} is not a set but a folder inside the set {above}",
                f"point {source} at that folder: {as_typed}",
            )
        init = f"ext init {_for_shell(env, path)}"
        raise UsageError(not_a_set, f"create one with `{init}`, or point --set at your set")
    return path.resolve()


_INTO_IT = "ext installs from a set into it"
_YOUR_SET = "point --set at your set's folder (the one with your extensions/, skills/…)"


def _is_set(path: Path) -> bool:
    """A set's folder: its manifest, a pi package's package.json, or a resource folder."""
    if (path / MANIFEST_NAME).is_file() or _pi_package(path):
        return True
    return any((path / d).is_dir() for d in RESOURCE_DIRS)


def _agent_dir_above(env: Env, path: Path) -> Path | None:
    """The agent dir a folder is in: the one pi reads here, ext's isolated one, or one where
    ext keeps its records (`.extset/`); None when it is in none."""
    known = {os.path.realpath(pi_agent_dir(env)), os.path.realpath(data_dir(env) / "agent")}
    for folder in (path, *path.parents):
        if str(folder) in known or (folder / ".extset").is_dir():
            return folder
    return None


def _set_above(path: Path) -> Path | None:
    """The set a folder is inside: the nearest folder above with a manifest or a pi package;
    or, for the path of a resource folder (extensions/, skills/…) or of one item in it, the
    folder that holds it, unless it holds a settings.json: an agent dir ext does not know of
    (those it knows, _agent_dir_above has said before this is asked)."""
    for inner, folder in zip((path, *path.parents), path.parents, strict=False):
        if (folder / MANIFEST_NAME).is_file() or _pi_package(folder):
            return folder
        near = inner in (path, path.parent)
        if near and inner.name in RESOURCE_DIRS and not (folder / "settings.json").exists():
            return folder
    return None


def _pi_package(path: Path) -> bool:
    """A folder with a package.json that has a `pi` key is a set too (on pi 1.x a key with
    no resource field means the conventional folders: a pi package all the same)."""
    from installer.sets.pirules import read_pi_key

    return read_pi_key(str(path)) is not None


def bundled_set(env: Env, checkout: Path | None = None, prefix: Path | None = None) -> Path:
    """The set that ships with ext; copied out of site-packages so links outlive upgrades.

    In a checkout (an editable install) it is the checkout itself; from a wheel it is the
    copy under `<prefix>/share/extset/bundled`, which an upgrade replaces.
    """
    checkout = checkout or ext_checkout()
    if (checkout / MANIFEST_NAME).is_file() and (checkout / "extensions").is_dir():
        return checkout
    shipped = (prefix or Path(sys.prefix)) / "share" / "extset" / "bundled"
    if not (shipped / "extensions").is_dir():
        raise UsageError(
            "no set found: not in a set folder, and this install of ext has no bundled set",
            "pass --set DIR, set EXT_SET, or cd into a folder with an extset.toml",
        )
    from installer.ground.bundled_copy import stable_copy

    return stable_copy(shipped, data_dir(env) / "bundled")


def ext_checkout() -> Path:
    """The folder ext's own code is in: a checkout's root (an editable install), whose set is
    the bundled one; site-packages for a wheel."""
    return Path(__file__).resolve().parents[2]


def data_dir(env: Env) -> Path:
    """ext's own data folder (platformdirs' user data path for "extset")."""
    return user_dir("data")


def find_agent_dir(
    env: Env,
    manifest: Manifest,
    explicit: Path | None,
    create: bool,
    named_set: Path | None = None,
    missing_ok: bool = False,
) -> tuple[Path, str]:
    """--agent-dir > EXT_AGENT_DIR > PI_CODING_AGENT_DIR (the dir pi itself will read)
    > [target] agent_dir > the isolated default (made on demand).

    `named_set` is the set given with --set, for a fix that names the same set again;
    `missing_ok`: a named dir that does not exist is no error (a dry run of --create).
    """
    isolated = data_dir(env) / "agent"
    named: list[tuple[Path | None, str]] = [
        (explicit, "--agent-dir"),
        (_env_path(env, "EXT_AGENT_DIR"), "EXT_AGENT_DIR"),
        (_env_path(env, PI_AGENT_DIR_VAR, home_tilde=True), PI_AGENT_DIR_VAR),
        (manifest.agent_dir, "[target] agent_dir"),
    ]
    for given, source in named:
        if given is None:
            continue
        # Relative to the Env's cwd, not the process's: the Env is what tests replace.
        path = _from_cwd(env, given, as_host=source == PI_AGENT_DIR_VAR)
        if source == PI_AGENT_DIR_VAR and same_path(path, isolated):
            break  # `eval "$(ext env)"` named the isolated dir: still ext's, made on demand
        typed = given if env.cwd is None else env.cwd / expand_home(given, str(home_of(env)))
        checked = _check_named(env, path, source, create, named_set, missing_ok, typed)
        return checked, source
    _check_folder(isolated, "the isolated agent dir")
    return isolated, "isolated"


PI_AGENT_DIR_VAR = "PI_CODING_AGENT_DIR"  # host.AGENT_DIR_VAR, without importing host here
ISOLATED = "ext's isolated default"  # the isolated dir's source, said (`from isolated` read odd)


def from_where(source: str) -> str:
    """Where an agent dir came from, as its line says it: `from --agent-dir`, or the isolated
    default as that (the words, not `from isolated`)."""
    return ISOLATED if source in ("isolated", ISOLATED) else f"from {source}"


def this_set(set_source: str | None) -> str:
    """How "this one" is said beside a set an agent dir holds instead: ext's bundled set, when
    ext took it for want of a set in or above the working folder (helper-78, helper-80)."""
    if set_source == "bundled":
        return "ext's bundled set, taken as no set is in or above this folder"
    return "this one"


def pi_agent_dir(env: Env) -> Path:
    """The agent dir pi itself reads in this shell: PI_CODING_AGENT_DIR, else ~/.pi/agent."""
    named = _env_path(env, PI_AGENT_DIR_VAR, home_tilde=True)
    if named is not None:
        return _from_cwd(env, named, as_host=True)
    return Path(env.environ.get("HOME") or str(Path.home()), ".pi", "agent")


def _env_path(env: Env, name: str, home_tilde: bool = False) -> Path | None:
    """The path an environment variable names; pi expands only `~` and `~/` (from HOME)."""
    value = env.environ.get(name)
    if not value:
        return None
    if home_tilde and (value == "~" or value.startswith("~/")):
        home = env.environ.get("HOME") or str(Path.home())
        return Path(home + value[1:])
    return Path(value)


# The folders this run made for an agent dir (`install --create`), the deepest first: a run
# that then writes nothing (declined, refused, rolled back) takes them back (`unmake`).
_MADE: list[Path] = []


def make_dir(path: Path) -> None:
    """Make an agent dir and its missing parents, noting each for `unmake`."""
    missing = []
    at = path
    while not os.path.lexists(at) and at != at.parent:
        missing.append(at)
        at = at.parent
    path.mkdir(parents=True)
    _MADE.extend(missing)


def made_by_this_run(path: Path) -> bool:
    """Whether this run made the folder, for an agent dir (`install --create`)."""
    return path in _MADE


def unmake() -> None:
    """Remove the folders this run made for its agent dir, those still empty."""
    try:
        for folder in _MADE:
            os.rmdir(folder)
    except OSError:
        pass  # something is in it: not ours to remove
    _MADE.clear()


def keep_made() -> None:
    """The run wrote in the folders it made: they stay."""
    _MADE.clear()


def same_path(a: Path, b: Path) -> bool:
    """Whether two paths name one place once every link is resolved."""
    return os.path.realpath(a) == os.path.realpath(b)


def _check_named(
    env: Env,
    path: Path,
    source: str,
    create: bool,
    named_set: Path | None,
    missing_ok: bool = False,
    typed: Path | None = None,
) -> Path:
    _check_folder(path, f"agent dir {path} ({source})", source)  # a dangling link: not missing
    _check_own_folder(env, path, source, typed or path)
    check_not_under_a_file(path, source)
    if not path.exists() and create:
        try:
            make_dir(path)
        except OSError as exc:
            raise ExtError(
                f"cannot create agent dir {path}: {exc.strerror}", "create it yourself, then retry"
            ) from None
    if not path.exists() and not missing_ok:
        raise AgentDirMissing(
            f"agent dir {path} ({source}) does not exist",
            how=_missing_fix(env, path, source),
            command=_create(env, path, source, named_set),
            chosen=(source, str(path)),
        )
    return path


def _check_own_folder(env: Env, path: Path, source: str, typed: Path) -> None:
    """Refuse an agent dir that cannot be one: the home folder, the root, the kernel's
    folders (helper-57: a set's `[target] agent_dir = "~"` spread extensions/, skills/ and
    settings.json into the home; "/proc/self/cwd" named wherever ext ran)."""
    real = os.path.realpath(path)
    home = os.path.realpath(env.environ.get("HOME") or str(Path.home()))
    text = str(typed)  # as given, `..` and all: `link/..` is above where the link leads
    what = None
    if real in (home, "/"):
        what = "your home folder" if real == home else "the root folder"
    elif _through_kernel(text) or _kernel(real):
        what = "a folder of the kernel's"
    if what is None:
        return
    raise _not_an_agent_dir(path, source, what)


def refuse_a_sets_folder(ctx: Context) -> None:
    """An install into a folder that holds an extset.toml: a set's, never an agent dir
    (helper-81: `--agent-dir ~/my-set` put another set's links, settings.json and .extset/
    into that set, and every command run there then failed on them). Said by install alone,
    any host's (helper-84: `--host claude` went round a refusal made where the dir is
    resolved): uninstall and undo of a dir an older ext wrote into stay open (helper-83)."""
    if os.path.isfile(os.path.join(ctx.agent_dir, MANIFEST_NAME)):
        what = f"a set's folder (it holds {MANIFEST_NAME})"
        raise _not_an_agent_dir(ctx.agent_dir, ctx.agent_dir_source, what)


def _not_an_agent_dir(path: Path, source: str, what: str) -> UsageError:
    return UsageError(
        f"agent dir {path} ({source}) is {what}: an agent dir is a folder of its own, which "
        "ext fills with extensions/, skills/, settings.json",
        "name the agent's own folder (pi reads ~/.pi/agent), or leave the setting out: ext "
        "then takes the next in its order (--agent-dir, EXT_AGENT_DIR, PI_CODING_AGENT_DIR, "
        "[target] agent_dir, its isolated agent dir)",
    )


def _kernel(path: str) -> bool:
    """Whether a path is in the kernel's folders (/dev/shm is a file system like another)."""
    shm = "/dev/shm/"  # noqa: S108 (a name compared, not a file made)
    return f"{path}/".startswith(("/proc/", "/sys/", "/dev/")) and not f"{path}/".startswith(shm)


def _through_kernel(path: str) -> bool:
    """Whether the path, resolved one link at a time, passes through the kernel's folders:
    realpath follows `/proc/self/cwd` to the folder ext runs in (helper-59: a link to it
    in a set named that folder as the agent dir)."""
    # not normalised: `link/..` is the folder above where the link leads (helper-61)
    whole = path if os.path.isabs(path) else os.path.join(os.getcwd(), path)
    todo = whole.split("/")[1:]
    at, hops = "/", 0
    while todo:
        part = todo.pop(0)
        if part in ("", "."):
            continue
        if part == "..":
            at = os.path.dirname(at)
            continue
        here = os.path.join(at, part)
        if os.path.islink(here) and hops < 40:  # past 40, a loop: other checks say so
            if _kernel(here):  # /proc/self, /proc/self/cwd: the kernel's own links
                return True
            hops += 1
            target = os.readlink(here)
            if os.path.isabs(target):
                at = "/"
            todo = list(Path(target).parts[1 if os.path.isabs(target) else 0 :]) + todo
            continue
        at = here
    return _kernel(at)


def _create(env: Env, path: Path, source: str, named_set: Path | None) -> str:
    """The install that makes a missing agent dir, naming it (and the set) as this run did: a
    plain `ext install --create` after `ext --agent-dir X install` would install elsewhere."""
    flags = f"--set {_for_shell(env, named_set)} " if named_set is not None else ""
    flags += f"--agent-dir {_for_shell(env, path)} " if source == "--agent-dir" else ""
    return f"ext {flags}install --create"


def _missing_fix(env: Env, path: Path, source: str) -> str:
    """How to make a missing agent dir: the install that makes it (`{command}`), or pi, which
    makes the dir it reads (PI_CODING_AGENT_DIR, else ~/.pi/agent) at start."""
    home = env.environ.get("HOME") or str(Path.home())
    if source == PI_AGENT_DIR_VAR or same_path(path, Path(home, ".pi", "agent")):
        return "start pi once so it creates it, or run `{command}`"
    typed = _for_shell(env, path).replace("{", "{{").replace("}", "}}")
    return f"run `{{command}}`, or start pi once with PI_CODING_AGENT_DIR={typed} so it creates it"


def _for_shell(env: Env, path: Path) -> str:
    """A path to paste into a shell: `~/…` under HOME, quoted where it needs to be."""
    from installer.ground.shellword import shell_word

    return shell_word(path, env.environ.get("HOME") or "")


def _elsewhere(source: str) -> str:
    """How to name another agent dir where `source` named this one (helper-77: a variable's
    was fixed with --agent-dir, which the person had not typed)."""
    if source.isupper():  # a variable: PI_CODING_AGENT_DIR, EXT_AGENT_DIR, CODEX_HOME…
        return f"point {source} at a folder, or unset it"
    return f"point {source if source.startswith(('--', '[')) else '--agent-dir'} at a folder"


def check_not_under_a_file(path: Path, source: str, what: str | None = None) -> None:
    """A missing agent dir below a file can never be made: say so, not `--create`, which
    then failed with "Not a directory" (helper-77)."""
    if path.exists():
        return
    above = next((p for p in path.parents if os.path.lexists(p)), None)
    if above is not None and not above.is_dir():
        raise AgentDirMissing(
            f"{what or f'agent dir {path} ({source})'} cannot be made: {above} is a file",
            _elsewhere(source),
        )


def _check_folder(path: Path, what: str, source: str = "--agent-dir") -> None:
    if path.exists() and not path.is_dir():
        raise AgentDirMissing(f"{what} is a file, not a folder", _elsewhere(source))
    if path.is_symlink() and not path.exists():
        raise ExtError(f"{what} is a dangling symlink", f"remove it or fix its target: {path}")
