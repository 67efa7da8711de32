"""How ext was installed, from facts on disk, and the command that upgrades it (the host's:
`installer.updates.hostmethod`)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

DIST = "extset"


@dataclass(frozen=True)
class InstallMethod:
    """A detected install method and the argv that upgrades it (None: none we can vouch for)."""

    name: str
    command: tuple[str, ...] | None = None
    detail: str = ""
    before: tuple[str, ...] | None = None  # run first: removing a package pi moved away from
    by_hand: str = ""  # with no command: what the person adds to theirs (a credential's index)

    @property
    def hint(self) -> str | None:
        """The command (after the one before it) as one shell-quoted line."""
        if self.command is None:
            return None
        steps = [self.before, self.command] if self.before else [self.command]
        return " && ".join(" ".join(map(_shell_word, step)) for step in steps)

    def to_json(self) -> dict[str, object]:
        """This method as plain JSON data."""
        return {"name": self.name, "command": self.hint, "detail": self.detail}


@dataclass(frozen=True)
class InstallFacts:
    """What detection looks at; tests build these from folders under tmp."""

    prefix: Path
    dist_info: Path | None
    python: str
    env: Mapping[str, str]
    base_prefix: Path | None = None
    stdlib: Path | None = None
    user_site: Path | None = None


def current_install_facts(dist: str = DIST) -> InstallFacts:
    """The facts of the running interpreter and ext's own dist-info (not for hot paths)."""
    import site
    import sys
    import sysconfig

    user_site = site.getusersitepackages() if site.ENABLE_USER_SITE else None
    return InstallFacts(
        prefix=Path(sys.prefix),
        dist_info=find_dist_info(dist),
        python=sys.executable,
        env=dict(os.environ),
        base_prefix=Path(sys.base_prefix),
        stdlib=Path(sysconfig.get_path("stdlib")),
        user_site=Path(user_site) if user_site else None,
    )


def find_dist_info(dist: str = DIST) -> Path | None:
    """The `.dist-info` folder of an installed distribution, if it has one."""
    from importlib import metadata

    try:
        found = metadata.distribution(dist)
    except metadata.PackageNotFoundError:
        return None
    for file in found.files or ():
        if file.name == "METADATA" and file.parent.name.endswith(".dist-info"):
            return Path(str(found.locate_file(file))).parent
    return None


def detect_install_method(facts: InstallFacts) -> InstallMethod:
    """ext's install method, in the issue's order: paths first, `INSTALLER` last."""
    direct = _direct_url(facts.dist_info)
    if direct.get("editable"):
        return _editable(direct)
    formula = homebrew_formula(facts.prefix, facts.env)
    if formula is not None:
        return InstallMethod("homebrew", ("brew", "upgrade", formula), "a Homebrew formula")
    if (facts.prefix / "pipx_metadata.json").is_file():
        return InstallMethod("pipx", ("pipx", "upgrade", DIST), "a pipx venv")
    if (facts.prefix / "uv-receipt.toml").is_file():
        return InstallMethod("uv-tool", ("uv", "tool", "upgrade", DIST), "a uv tool")
    if direct.get("url"):
        # `pip install -U extset` would quietly swap a git or folder install for the index build.
        return InstallMethod("direct-url", None, f"installed from {direct['url']}")
    return _by_installer(facts)


# The variables an index URL can come from, named in a hint in its place: `"$PIP_INDEX_URL"`.
_INDEX_VARIABLES = ("EXT_INDEX_URL", "PIP_INDEX_URL")


def with_index(method: InstallMethod, url: str, source: str = "") -> InstallMethod:
    """`method`'s upgrade asking `url`, the index the check asked (helper-40: the hint ran
    with pip's own index, which may hold another extset than the one announced), found in
    `source`. A hint is printed and cached, so a URL with a user name, password or query
    (a credential, helper-46, helper-49) is never in it: the variable it came from is, for
    the shell to expand; from a file, no hint, and why (helper-50: without the flag, uv asked
    PyPI, where another extset may be)."""
    from urllib.parse import urlsplit

    if method.command is None:
        return method
    parts = urlsplit(url)
    if parts.username or parts.password or parts.query:
        if source not in _INDEX_VARIABLES:  # the upgrade as installed would ask another index
            how = f"{_joined(method.command)} with --index-url and the index in "
            how += f"{source or 'its settings'} (it holds a credential, which ext does not print)"
            return replace(method, command=None, before=None, by_hand=how)
        url = f"${source}"
    cmd = list(method.command)
    if method.name in ("pip", "uv"):  # `… install [--user] -U extset`
        cmd[-1:-1] = ["--index-url", url]
    elif method.name == "pipx":
        cmd[-1:-1] = ["--pip-args", f"--index-url {url}"]
    elif method.name == "uv-tool":
        cmd[-1:-1] = ["--index-url", url]
    else:
        return method
    return replace(method, command=tuple(cmd))


def _joined(command: tuple[str, ...]) -> str:
    """A command as one shell line, in backquotes."""
    return f"`{' '.join(map(_shell_word, command))}`"


def _shell_word(word: str) -> str:
    """A word of a hint as the shell reads it: quoted, but for the variable with_index puts
    in place of an index URL, which the shell is to expand (`"$PIP_INDEX_URL"`)."""
    import shlex

    if any(word in (f"${name}", f"--index-url ${name}") for name in _INDEX_VARIABLES):
        return f'"{word}"'
    return shlex.quote(word)


def _by_installer(facts: InstallFacts) -> InstallMethod:
    installer = _read(facts.dist_info, "INSTALLER")
    if installer == "uv":
        cmd = ("uv", "pip", "install", "--python", facts.python, "-U", DIST)
        return InstallMethod("uv", cmd, "uv pip")
    if installer != "pip":
        what = f"installed by {installer}" if installer else "install method not detected"
        return InstallMethod("unknown", None, what)
    if _externally_managed(facts):
        return InstallMethod("externally-managed", None, "an externally managed Python")
    user = _is_under(facts.dist_info, facts.user_site)
    cmd = (facts.python, "-m", "pip", "install", *(("--user",) if user else ()), "-U", DIST)
    return InstallMethod("pip", cmd, "pip --user" if user else "pip")


def _editable(direct: Mapping[str, str]) -> InstallMethod:
    checkout = Path(direct["path"]) if direct.get("path") else None
    if checkout is not None and _in_git_checkout(checkout):
        return InstallMethod(
            "editable", ("git", "-C", str(checkout), "pull"), f"editable {checkout}"
        )
    return InstallMethod("editable", None, f"editable {direct.get('path') or direct.get('url')}")


def _direct_url(dist_info: Path | None) -> dict[str, str]:
    """PEP 610 facts flattened: url, path (for file URLs), editable ("1" or absent)."""
    import json

    text = _read(dist_info, "direct_url.json")
    if text is None:
        return {}
    try:
        data = json.loads(text)
    except ValueError:
        return {}
    url = data.get("url") if isinstance(data, dict) else None
    if not isinstance(url, str):
        return {}
    out = {"url": url}
    dir_info = data.get("dir_info")
    if isinstance(dir_info, dict) and dir_info.get("editable") is True:
        out["editable"] = "1"
    if url.startswith("file://"):
        from urllib.parse import urlparse
        from urllib.request import url2pathname

        out["path"] = url2pathname(urlparse(url).path)
    return out


def _externally_managed(facts: InstallFacts) -> bool:
    # pip honours the marker only outside a virtual environment.
    in_venv = facts.base_prefix is not None and facts.base_prefix != facts.prefix
    return (
        not in_venv and facts.stdlib is not None and (facts.stdlib / "EXTERNALLY-MANAGED").is_file()
    )


def homebrew_formula(path: Path, env: Mapping[str, str]) -> str | None:
    """The formula whose keg holds `path` (`<brew>/Cellar/<formula>/<version>/…`), else None."""
    parts = path.parts
    if "Cellar" not in parts:
        return None
    i = len(parts) - 1 - parts[::-1].index("Cellar")
    if i + 1 >= len(parts):
        return None
    root = Path(*parts[:i])
    text = str(path)
    brew_prefix = env.get("HOMEBREW_PREFIX")
    if (
        (brew_prefix and Path(brew_prefix) == root)
        or "/homebrew/" in text
        or "/.linuxbrew/" in text
        or (root / "bin" / "brew").exists()
    ):
        return parts[i + 1]
    return None


def set_hint(set_dir: Path) -> str:
    """The commands that bring a set checkout up to date and install what changed."""
    import shlex

    return f"{shlex.join(['git', '-C', str(set_dir), 'pull'])} && ext install"


def _read(folder: Path | None, name: str) -> str | None:
    if folder is None:
        return None
    try:
        return (folder / name).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return None


def _in_git_checkout(path: Path) -> bool:
    return any((p / ".git").exists() for p in (path, *path.parents))


def _is_under(path: Path | None, root: Path | None) -> bool:
    if path is None or root is None:
        return False
    try:
        return path.resolve().is_relative_to(root.resolve())
    except OSError:
        return False
