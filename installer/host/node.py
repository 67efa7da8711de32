"""The Node that runs pi, its version, and whether it meets pi's `engines.node`.

pi's bin starts `#!/usr/bin/env node`: a shell runs it with the first node on PATH, and
pi 1.x on a Node older than its `engines.node` dies in its own stack trace (a SyntaxError
about `enableCompileCache`). ext finds that Node the way the shell will, reads its version
(a process start, so it is kept per binary like pi's own `--version`, installer/host/cache.py)
and holds it against the range pi's package.json names (else the table's, lines.py).
"""

from __future__ import annotations

import os
from pathlib import Path

from installer.ground.records import NamedTuple
from installer.host.lines import LINES, install_spec, line_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from installer.ground.errors import ExtError
    from installer.host.pi import HostInfo
    from installer.host.versions import Where

NODE_TIMEOUT = 3.0  # `node --version` answers in tens of ms; a hung shim must not cost much
CANNOT: tuple[Where, ...] = ("older", "between")  # `newer` than a range with a top may still run


class Node(NamedTuple):
    """A Node binary for pi, and how it was chosen."""

    path: Path
    how: str
    runs_pi: bool = True  # the one pi's own first line starts; False: a stand-in for the loader


class Fit(NamedTuple):
    """The Node that would run pi against the Node pi needs."""

    node: Node | None  # the Node pi's first line starts; None: pi names none, or it is not there
    version: str | None  # its version (`22.23.5`); None when unknown
    needs: str | None  # pi's engines.node; None when neither pi nor the table says
    source: str  # where `needs` comes from: "its package.json", "ext's table of pi lines"
    side: Where | None  # where `version` stands against `needs`; None when either is unknown
    # What pi's first line runs when it is not there: "node from PATH" (none on PATH), or the
    # path it names; "" when nothing is missing.
    missing: str = ""

    @property
    def cannot_run(self) -> bool:
        return bool(self.missing) or self.side in CANNOT


# ---- finding pi's Node -------------------------------------------------------


def why_node_stopped(output: str) -> str:
    """What Node said as it stopped: its fatal error (`FATAL ERROR: Reached heap limit
    Allocation failed - JavaScript heap out of memory`), else the error it printed (`Error:
    EROFS: read-only file system, open …`), else its last line that is neither the `Node.js
    v22.23.5` it ends an uncaught error with nor the native stack it prints after a fatal one
    (helper-92: doctor said pi stopped with `10: 0x7f11b3eacaf6`); V8's own fatal errors
    (`# Fatal error in …`) first too (helper-93)."""
    import re

    lines = [ln.strip() for ln in output.splitlines() if ln.strip()]
    said = next((ln for ln in lines if ln.startswith(("FATAL ERROR:", "# Fatal"))), None)
    said = said or next((ln for ln in lines if re.match(r"[A-Za-z]*Error\b.*?:", ln)), None)
    if said is not None:
        return said
    frame = re.compile(r"\d+: 0x[0-9a-f]+\b|-+ Native stack trace -+$")
    return next(
        (ln for ln in reversed(lines) if not ln.startswith("Node.js v") and not frame.match(ln)),
        "",
    )


def find_node(host: HostInfo, path_env: str | None, as_a_shell: bool = False) -> Node | None:
    """The Node that runs pi: the one its first line starts, else a stand-in for the loader.

    `#!/usr/bin/env node` is the first node on `path_env`; a first line naming node by path
    is that file. For a pi that names no node (a wrapper script) or whose node is missing,
    node on PATH, then node beside the pi binary (an nvm or a tarball bin/), stand in.
    """
    named = _node_named(host.resolved)
    if named is not None:
        kind, program = named
        if kind == "env":
            on_path = _which(program, path_env, as_a_shell)
            if on_path is not None:
                how = f"{program} on PATH, as {host.command}'s `#!/usr/bin/env {program}` finds it"
                return Node(on_path, how)
        elif os.access(program, os.X_OK):
            return Node(Path(program), f"the node named by {host.command}'s first line")
    on_path = _which("node", path_env, as_a_shell)
    if on_path is not None:
        return Node(on_path, "node on PATH", runs_pi=False)
    beside = host.path.parent / "node"
    if os.access(beside, os.X_OK):
        return Node(beside, f"the node beside {host.path}", runs_pi=False)
    return None


def _which(program: str, path_env: str | None, as_a_shell: bool = False) -> Path | None:
    from installer.ground.which import which

    found = which(program, path=path_env, as_a_shell=as_a_shell)
    # a relative hit (`./node`, as_a_shell) made absolute: run by name, the check's own
    # child would look it up again on another PATH (helper-80)
    return Path(os.path.abspath(found)) if found is not None else None


def _node_named(script: Path) -> tuple[str, str] | None:
    """("env", "node") for `#!/usr/bin/env [-S] [VAR=x] node …`, ("path", "/opt/bin/node") for
    a node named by path; None for a first line that names no node (or no `#!` at all)."""
    try:
        with open(script, "rb") as f:
            first = f.readline(256).decode("utf-8", "replace")
    except OSError:
        return None
    if not first.startswith("#!"):
        return None
    words = first[2:].split()
    if not words:
        return None
    if Path(words[0]).name == "env":
        rest = [w for w in words[1:] if not w.startswith("-") and "=" not in w]
        return ("env", rest[0]) if rest and rest[0].startswith("node") else None
    return ("path", words[0]) if Path(words[0]).name.startswith("node") else None


# ---- its version, remembered -------------------------------------------------


def node_version(node: Path, *, fresh: bool = False, timeout: float = NODE_TIMEOUT) -> str | None:
    """`node --version` without its `v`, asked once per binary identity; None when it says none."""
    return _version(node, fresh, timeout)[0]


def _version(node: Path, fresh: bool, timeout: float) -> tuple[str | None, bool]:
    """The version, and whether it is a remembered answer rather than one asked just now."""
    from installer.host import cache

    try:
        resolved = node.resolve(strict=True)
    except (OSError, RuntimeError):
        resolved = node
    ident = cache.identity(resolved)
    cached = None if fresh else cache.lookup(ident, name=cache.NODE)
    if cached is not None:
        return cached.version, True
    version = _ask(node, timeout)
    cache.remember(ident, version, name=cache.NODE)
    return version, False


def _ask(node: Path, timeout: float) -> str | None:
    from installer.host.pi import _run  # one way to run a child with a timeout and a killed group
    from installer.host.versions import version_in

    try:
        out = _run([str(node), "--version"], None, timeout)
    except OSError:
        return None
    return None if out.timed_out else version_in(out.stdout)


# ---- what pi needs, and the verdict ------------------------------------------


def needs(host: HostInfo) -> tuple[str | None, str]:
    """pi's `engines.node` from its own package.json, else its line's in the table; and whence."""
    from installer.host.pi import package_dir, package_json

    folder = package_dir(host)
    if folder is not None:
        try:
            data = package_json(folder)
        except (OSError, ValueError):
            data = None
        engines = data.get("engines") if isinstance(data, dict) else None
        wanted = engines.get("node") if isinstance(engines, dict) else None
        if isinstance(wanted, str) and wanted.strip():
            return wanted.strip(), "its package.json"
    if host.version is None and host.package is None:
        return None, "nothing"  # which pi it is is unknown: no line to ask
    return line_of(host.version, host.package).node, "ext's table of pi lines"


def fit(
    host: HostInfo,
    path_env: str | None,
    *,
    fresh: bool = False,
    timeout: float = NODE_TIMEOUT,
    as_a_shell: bool = False,
) -> Fit:
    """The Node `host`'s first line would start on `path_env`, held against what pi needs;
    `as_a_shell`: with the user's PATH as it is (`ext launch`), relative entries too, not
    the PATH of a check's child."""
    node = find_node(host, path_env, as_a_shell)
    if node is None or not node.runs_pi:
        wanted, source = needs(host)
        return Fit(None, None, wanted, source, None, _missing(host))
    return judge(host, node, fresh=fresh, timeout=timeout)


def _missing(host: HostInfo) -> str:
    """What pi's first line runs, said for a node that is not there; "" for a pi naming none."""
    named = _node_named(host.resolved)
    if named is None:
        return ""
    kind, program = named
    return f"{program} from PATH" if kind == "env" else program


def judge(host: HostInfo, node: Node, *, fresh: bool = False, timeout: float = NODE_TIMEOUT) -> Fit:
    """`node`'s version held against what `host` needs (`fit` without the looking).

    A remembered version that fails the range is asked again before it is believed: a
    version manager's shim is one binary for every Node it switches between, and refusing
    on a stale answer would be worse than one more `node --version`.
    """
    from installer.host.versions import where

    wanted, source = needs(host)
    version, remembered = _version(node.path, fresh, timeout)
    side = where(version, wanted)
    if side in CANNOT and remembered:
        version, _ = _version(node.path, True, timeout)
        side = where(version, wanted)
    return Fit(node, version, wanted, source, side)


def refusal(host: HostInfo, found: Fit, tested: str | None = None) -> ExtError | None:
    """Why this Node cannot run pi, and the fix (`ext launch` and doctor say it); else None.
    `tested`: the set's [host] tested range, which an older pi offered instead must be in."""
    from installer.ground.errors import ExtError

    if not found.cannot_run:
        return None
    pi = f"{host.command} {host.version}" if host.version else host.command
    need = _wanted(found.needs)
    if found.node is None:
        needed = f" (it needs {need})" if found.needs else ""
        return ExtError(
            f"{pi} cannot start: its first line runs {found.missing}, which is not there{needed}",
            f"install {need} and put it on PATH",
        )
    fix = f"install {need} and put it first on PATH"
    return ExtError(
        f"{pi} cannot run on Node {found.version} ({found.node.path}): it needs {need} "
        f"(engines.node in {found.source})",
        fix + _older_pi(host, found.version, tested),
    )


def _wanted(needs: str | None) -> str:
    """`>=22.19.0` -> `Node 22.19.0 or newer`; another range as npm writes it."""
    import re

    if needs is None:
        return "Node"
    match = re.fullmatch(r">=\s*v?(\d+(?:\.\d+)*)", needs)
    return f"Node {match.group(1)} or newer" if match else f"a Node that meets {needs!r}"


def _older_pi(host: HostInfo, version: str | None, tested: str | None = None) -> str:
    """`; or …`: the newest older line of pi that runs on this Node, and how to switch to it;
    none outside the set's tested range (switching would only trade this for a drift)."""
    from installer.host.versions import where

    own = line_of(host.version, host.package)
    older = LINES[: LINES.index(own)]
    others = [line for line in older if where(version, line.node) == "in"]
    others = [line for line in others if tested is None or where(line.tested, tested) == "in"]
    if not others:
        return ""
    from installer.host.npmroot import npm_command

    line = others[-1]
    steps = npm_command("install", install_spec(line), host.resolved, host.package)
    if host.package and host.package != line.package:
        remove = npm_command("uninstall", host.package, host.resolved, host.package)
        steps = f"{remove} && {steps}"
    return f"; or keep Node {version} and switch to pi {line.tested}, which runs on it: {steps}"
