"""Where update checks ask: ext's index and the host's registry, from the user's configuration only.

No index or registry host is written in this code: an unconfigured check reports
"no index configured" rather than guess one.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from installer.updates.paths import atomic_write, read_user_config_said, user_config_path

DIST = "extset"


@dataclass(frozen=True)
class UpdateConfig:
    """The resolved update settings; `*_source` names where each value came from."""

    index: str | None = None  # the index's base: its URL without a trailing `/simple`
    index_source: str | None = None
    # The URL as configured, pip's index-url: the root of its Simple API (PEP 503), which a
    # base does not always name (`…/simple` stripped from it). None: the base is that root.
    index_url: str | None = None
    registry: str | None = None
    registry_source: str | None = None
    # ~/.npmrc's `//host/path/:_authToken` lines, as npm keeps them (never printed): the
    # token of the registry asked is sent with the question, as npm sends it.
    tokens: tuple[tuple[str, str], ...] = field(default=(), repr=False)
    check: bool = True
    # What in the user's config file was passed over, and why: said, never silently used
    # as if absent (helper-40: `index = 5` fell back to pip's index without a word).
    warnings: tuple[str, ...] = ()

    def token_for(self, registry: str) -> str | None:
        """The _authToken npm would send to `registry`: the longest `//host/path/` of the
        .npmrc that the registry's URL (without its scheme) starts with."""
        _, _, rest = registry.partition("://")
        here = f"//{rest.rstrip('/')}/"
        found = [(len(k), t) for k, t in self.tokens if here.startswith(k.rstrip("/") + "/")]
        return max(found)[1] if found else None


def write_user_option(key: str, value: str | bool, path: Path | None = None) -> Path:
    """Set `[updates] <key>` in the user's config file, keeping its comments and layout."""
    import tomlkit

    from installer.ground.errors import ExtError

    path = path or user_config_path()
    try:
        doc = (
            tomlkit.parse(path.read_text(encoding="utf-8")) if path.exists() else tomlkit.document()
        )
    except (OSError, UnicodeDecodeError, tomlkit.exceptions.ParseError) as exc:
        raise ExtError(f"cannot read {path}: {exc}", fix=f"fix or remove {path}") from exc
    table = doc.get("updates")
    if table is None:
        table = tomlkit.table()
        doc["updates"] = table
    table[key] = value
    atomic_write(path, tomlkit.dumps(doc))
    return path


def load_config(
    env: Mapping[str, str] | None = None,
    *,
    config_path: Path | None = None,
    pip_files: Sequence[Path] | None = None,
    npmrc: Path | None = None,
    package: str | None = None,
) -> UpdateConfig:
    """Resolve the index (EXT_INDEX_URL > config.toml > pip) and the host's npm registry."""
    env = os.environ if env is None else env
    table, unread = read_user_config_said(config_path)
    said = [f"{unread}: its [updates] settings are not used"] if unread else []
    for key, kind in (("index", str), ("check", bool)):
        if key in table and not isinstance(table[key], kind):
            want = "a string (an index URL)" if kind is str else "true or false"
            said.append(f"[updates] {key} in {config_path or user_config_path()} is not {want}: "
                        "it is not used")  # fmt: skip
    index, index_source = _first(
        (env.get("EXT_INDEX_URL"), "EXT_INDEX_URL"),
        (_str(table.get("index")), "config.toml [updates] index"),
        *_pip_index(env, pip_files),
    )
    registry, registry_source = _first(
        (env.get("EXT_NPM_REGISTRY"), "EXT_NPM_REGISTRY"),
        (env.get("npm_config_registry") or env.get("NPM_CONFIG_REGISTRY"), "npm_config_registry"),
        *_npmrc_registry(env, npmrc, package),
    )
    return UpdateConfig(
        index=strip_simple(index) if index else None,
        index_source=index_source,
        index_url=index.strip().rstrip("/") if index else None,
        registry=registry.rstrip("/") if registry else None,
        registry_source=registry_source,
        tokens=_npmrc_tokens(env, npmrc),
        check=table.get("check") is not False,
        warnings=tuple(said),
    )


def strip_simple(url: str) -> str:
    """The base of an index URL: a trailing `/simple` or `/simple/` removed."""
    url = url.strip().rstrip("/")
    return url.removesuffix("/simple").rstrip("/")


def index_json_url(base: str, dist: str = DIST) -> str:
    """The JSON API address of `dist` on an index base."""
    return f"{strip_simple(base)}/pypi/{dist}/json"


def registry_json_url(registry: str, package: str) -> str:
    """A package's document on an npm-style registry; a scope's `/` is escaped as npm does."""
    return f"{registry.rstrip('/')}/{package.replace('/', '%2f')}"


def pip_config_files(
    env: Mapping[str, str],
    home: Path,
    *,
    system: Sequence[Path] = (Path("/etc"),),
    prefix: Path | None = None,
) -> tuple[Path, ...]:
    """pip's config files, lowest precedence first, as pip reads them for `pip install`."""
    xdg_dirs = env.get("XDG_CONFIG_DIRS", "/etc/xdg").split(os.pathsep)
    files = [Path(d) / "pip" / "pip.conf" for d in xdg_dirs if d]
    files += [d / "pip.conf" for d in system]
    env_file = env.get("PIP_CONFIG_FILE")
    if not (env_file and Path(env_file).exists()):
        # pip skips the user's files when PIP_CONFIG_FILE names an existing file.
        xdg_home = Path(env.get("XDG_CONFIG_HOME") or home / ".config")
        files += [home / ".pip" / "pip.conf", xdg_home / "pip" / "pip.conf"]
        if sys.platform == "darwin":
            files.append(home / "Library" / "Application Support" / "pip" / "pip.conf")
    if prefix is not None:
        files.append(prefix / "pip.conf")
    if env_file and env_file != os.devnull:
        files.append(Path(env_file))
    return tuple(files)


def _pip_index(
    env: Mapping[str, str], files: Sequence[Path] | None
) -> list[tuple[str | None, str]]:
    if files is None:
        home = Path(env.get("HOME") or Path.home())
        files = pip_config_files(env, home, prefix=Path(sys.prefix))
    found: tuple[str | None, str] = (None, "")
    for file in files:
        value = _pip_conf_value(file)
        if value:
            found = (value, str(file))
    return [(env.get("PIP_INDEX_URL"), "PIP_INDEX_URL"), found]


def _pip_conf_value(file: Path) -> str | None:
    import configparser

    parser = configparser.RawConfigParser()
    try:
        parser.read(file, encoding="utf-8")
    except (configparser.Error, UnicodeDecodeError):
        return None
    value = None
    for section in ("global", "install"):  # [install] overrides [global] for `pip install`
        for key in ("index-url", "index_url"):
            if parser.has_option(section, key):
                value = parser.get(section, key).strip() or value
    return value


def _npmrc_registry(
    env: Mapping[str, str], npmrc: Path | None, package: str | None
) -> list[tuple[str | None, str]]:
    npmrc = _npmrc_path(env, npmrc)
    values = _read_npmrc(npmrc)
    scope = package.split("/")[0] if package and package.startswith("@") else None
    source = str(npmrc)
    return [
        (values.get(f"{scope}:registry") if scope else None, source),
        (values.get("registry"), source),
    ]


def _npmrc_path(env: Mapping[str, str], npmrc: Path | None) -> Path:
    if npmrc is not None:
        return npmrc
    user = env.get("npm_config_userconfig") or env.get("NPM_CONFIG_USERCONFIG")
    return Path(user) if user else Path(env.get("HOME") or Path.home()) / ".npmrc"


def _npmrc_tokens(env: Mapping[str, str], npmrc: Path | None) -> tuple[tuple[str, str], ...]:
    """Each `//host/path/:_authToken=…` of the user's .npmrc, `${VAR}` filled from env."""
    out = []
    for key, value in _read_npmrc(_npmrc_path(env, npmrc)).items():
        if key.startswith("//") and key.endswith(":_authToken"):
            filled = re.sub(r"\$\{([^}]+)\}", lambda m: env.get(m.group(1), ""), value)
            out.append((key.removesuffix(":_authToken"), filled))
    return tuple(out)


def _read_npmrc(path: Path) -> dict[str, str]:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return {}
    out: dict[str, str] = {}
    for raw in lines:
        line = raw.strip()
        if not line or line[0] in "#;" or "=" not in line:
            continue
        key, _, value = line.partition("=")
        out[key.strip()] = value.strip().strip("\"'")
    return out


def _first(*candidates: tuple[str | None, str]) -> tuple[str | None, str | None]:
    for value, source in candidates:
        if value and value.strip():
            return value.strip(), source
    return None, None


def _str(value: object) -> str | None:
    return value if isinstance(value, str) else None
