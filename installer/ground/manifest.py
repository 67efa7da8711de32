"""extset.toml -> a typed, validated Manifest.

Read with the standard library's tomllib, and only when installer.ground.manifest_cache does not
hold the file's table already; tomlkit is only for places where ext writes TOML back and
must keep comments.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType

from installer.ground.errors import UsageError
from installer.ground.jsondepth import MAX_NESTING  # settings.json and hook files too
from installer.ground.records import NamedTuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

MANIFEST_NAME = "extset.toml"
MODES = ("link", "register")
SWITCHES = ("rename", "pi")  # link mode's `ext disable`: a `.off` link, or pi config's `-path`
MAX_MANIFEST_BYTES = 1 << 20

_KNOWN: dict[str, tuple[str, ...]] = {
    "": ("set", "host", "target", "settings", "guards", "extensions", "updates", "hosts"),
    "set": ("name", "mode", "switch", "description"),
    "host": ("command", "tested"),
    "target": ("agent_dir",),
    "settings": ("seed", "retired", "renamed"),
    "updates": ("check",),
    "hosts.*": ("agent_dir", "tested"),
}
# The agents a `[hosts]` table may name (installer.hosts.table.HOSTS, which a test holds to this).
HOST_NAMES = ("pi", "claude", "codex", "opencode", "gemini")


class Guard(NamedTuple):
    """A reason to refuse `ext disable NAME`."""

    name: str
    process: str | None = None
    required_by: tuple[str, ...] = ()
    reason: str | None = None


class Manifest(NamedTuple):
    """What a set says about itself; every field has the default a set without a manifest gets."""

    path: Path | None
    name: str
    mode: str = "link"
    mode_said: bool = False  # `[set] mode` is written (else link mode is the default's)
    switch: str = "rename"
    host_command: str = "pi"
    host_tested: str | None = None
    agent_dir: Path | None = None
    seeds: Mapping[str, Any] = MappingProxyType({})
    retired: Mapping[str, str] = MappingProxyType({})
    renamed: Mapping[str, str] = MappingProxyType({})
    guards: Mapping[str, Guard] = MappingProxyType({})
    requires: Mapping[str, tuple[str, ...]] = MappingProxyType({})
    update_check: bool = True
    warnings: tuple[str, ...] = ()
    # `[hosts] serve`: the agents a plain `ext install` serves (none: pi, or --host's).
    serves: tuple[str, ...] = ()
    host_dirs: Mapping[str, Path] = MappingProxyType({})  # `[hosts.NAME] agent_dir`
    hosts_tested: Mapping[str, str] = MappingProxyType({})  # `[hosts.NAME] tested`


class _Reader:
    """Typed access to a parsed table, with errors that say what to write instead."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.warnings: list[str] = []

    def fail(self, where: str, problem: str, fix: str) -> UsageError:
        return UsageError(f"{self.path}: {where}: {problem}", fix)

    def table(self, data: Mapping[str, Any], key: str, where: str) -> dict[str, Any]:
        value = data.get(key, {})
        if not isinstance(value, dict):
            raise self.fail(where, f"must be a table, not {_kind(value)}", f"write [{where}]")
        return value

    def string(self, data: Mapping[str, Any], key: str, where: str) -> str | None:
        value = data.get(key)
        if value is None or isinstance(value, str):
            return value
        raise self.fail(
            f"[{where}] {key}", f"must be a string, not {_kind(value)}", f'write {key} = "…"'
        )

    def strings(self, data: Mapping[str, Any], key: str, where: str) -> tuple[str, ...]:
        value = data.get(key, [])
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return tuple(value)
        raise self.fail(
            f"[{where}] {key}",
            "must be a list of names",
            f'write {key} = ["name", …]',
        )

    def string_table(self, data: Mapping[str, Any], where: str) -> dict[str, str]:
        for key, value in data.items():
            if not isinstance(value, str):
                raise self.fail(
                    f"[{where}] {key}", f"must be a string, not {_kind(value)}", f'{key} = "…"'
                )
        return dict(data)

    def unknown(self, data: Mapping[str, Any], where: str, label: str | None = None) -> None:
        known = _KNOWN[where]
        where = label or where
        for key in data:
            if key not in known:
                import difflib

                hint = difflib.get_close_matches(key, known, n=1)
                also = f" (did you mean {hint[0]!r}?)" if hint else ""
                label = f"[{where}] {key}" if where else key
                self.warnings.append(f"{self.path.name}: unknown key {label} ignored{also}")


def _kind(value: object) -> str:
    return {bool: "a boolean", int: "a number", float: "a number", str: "a string"}.get(
        type(value), "a table" if isinstance(value, dict) else "a list"
    )


def default_manifest(root: Path) -> Manifest:
    """The manifest of a set folder that has no extset.toml."""
    return Manifest(path=None, name=root.name)


def load_manifest(root: Path) -> Manifest:
    """Read `<root>/extset.toml`, or the defaults when the set has none.

    The parsed table of an unchanged file comes from installer.ground.manifest_cache; it is
    validated here all the same, so a cached manifest warns and fails as the file does.
    """
    from installer.ground import manifest_cache
    from installer.ground.readfile import NotReadable, read_bytes

    path = root / MANIFEST_NAME
    seen_at = time.time_ns()
    try:
        st = os.stat(path)
        data = manifest_cache.cached(path, st)
        if data is not None:
            return _validate(data, path)
        raw = read_bytes(path)
    except FileNotFoundError:
        return default_manifest(root)
    except NotReadable as exc:
        raise UsageError(f"{path}: cannot read: {exc.strerror}", "make it a regular file") from None
    except OSError as exc:
        raise UsageError(f"{path}: cannot read: {exc.strerror}", "check its permissions") from None
    data = _parse(raw, path)
    manifest_cache.remember(path, st, data, seen_at)
    return _validate(data, path)


def parse_manifest(raw: bytes, path: Path) -> Manifest:
    """Parse and validate manifest bytes; every problem is a UsageError (exit 2)."""
    return _validate(_parse(raw, path), path)


def _parse(raw: bytes, path: Path) -> dict[str, Any]:
    import tomllib  # only for a manifest the cache does not hold

    if len(raw) > MAX_MANIFEST_BYTES:
        raise UsageError(
            f"{path}: over {MAX_MANIFEST_BYTES >> 10} KiB", "a manifest is a few lines"
        )
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise UsageError(
            f"{path}: not UTF-8 (byte {exc.start})", "save the file as UTF-8"
        ) from None
    except tomllib.TOMLDecodeError as exc:
        where = "at that line" if "(at line" in str(exc) else "near the end of the file"
        raise UsageError(f"{path}: invalid TOML: {exc}", f"fix the TOML syntax {where}") from None
    except RecursionError:
        raise UsageError(f"{path}: nested too deeply", "flatten the nested arrays") from None
    if _too_deep(data):
        raise UsageError(
            f"{path}: tables or arrays nested more than {MAX_NESTING} levels deep",
            f"use keys with at most {MAX_NESTING - 1} dotted parts",
        )
    return data


def _too_deep(data: dict[str, Any]) -> bool:
    """Whether anything nests deeper than MAX_NESTING; iterative, so no depth can crash it."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_NESTING:
            return True
        children = value.values() if isinstance(value, dict) else value
        stack.extend((v, depth + 1) for v in children if isinstance(v, (dict, list)))
    return False


def _validate(data: dict[str, Any], path: Path) -> Manifest:
    r = _Reader(path)
    r.unknown(data, "")
    set_ = r.table(data, "set", "set")
    host = r.table(data, "host", "host")
    target = r.table(data, "target", "target")
    settings = r.table(data, "settings", "settings")
    updates = r.table(data, "updates", "updates")
    for where, table in (("set", set_), ("host", host), ("target", target)):
        r.unknown(table, where)
    r.unknown(settings, "settings")
    r.unknown(updates, "updates")

    said_mode = r.string(set_, "mode", "set")
    mode = said_mode or "link"
    if mode not in MODES:
        raise r.fail("[set] mode", f"unknown mode {mode!r}", 'write mode = "link" or "register"')
    switch = r.string(set_, "switch", "set") or "rename"
    if switch not in SWITCHES:
        raise r.fail(
            "[set] switch",
            f"unknown switch {switch!r}",
            'write switch = "rename" (`.off` links) or "pi" (pi config\'s own -path)',
        )
    check = updates.get("check", True)
    if not isinstance(check, bool):
        raise r.fail("[updates] check", "must be true or false", "write check = false")
    agent_dir = r.string(target, "agent_dir", "target")
    tested = r.string(host, "tested", "host")
    if tested is not None:
        _check_range(r, tested)
    return Manifest(
        path=path,
        name=r.string(set_, "name", "set") or path.parent.name,
        mode=mode,
        mode_said=said_mode is not None,
        switch=switch,
        host_command=_host_command(r.string(host, "command", "host"), path.parent),
        host_tested=tested,
        agent_dir=_agent_dir(agent_dir, path.parent),
        seeds=_seeds(r, r.table(settings, "seed", "settings.seed")),
        retired=r.string_table(
            r.table(settings, "retired", "settings.retired"), "settings.retired"
        ),
        renamed=r.string_table(
            r.table(settings, "renamed", "settings.renamed"), "settings.renamed"
        ),
        guards=_guards(r, r.table(data, "guards", "guards")),
        requires=_requires(r, r.table(data, "extensions", "extensions")),
        update_check=check,
        **_hosts(r, r.table(data, "hosts", "hosts"), path.parent),
        warnings=tuple(r.warnings),
    )


def _hosts(r: _Reader, table: dict[str, Any], root: Path) -> dict[str, Any]:
    """`[hosts] serve = ["pi", "claude"]`, and `[hosts.claude] agent_dir`/`tested` per agent."""
    serves = r.strings(table, "serve", "hosts")
    for name in (*serves, *(k for k in table if k != "serve")):
        if name not in HOST_NAMES:
            import difflib

            close = difflib.get_close_matches(name, HOST_NAMES, n=1)
            hint = f"did you mean {close[0]!r}? " if close else ""
            raise r.fail(
                "[hosts]", f"no agent named {name!r}", f"{hint}ext knows {', '.join(HOST_NAMES)}"
            )
    if "pi" in table:
        raise r.fail(
            "[hosts.pi]",
            "pi's dir and tested range have their own tables",
            "write them as [target] agent_dir and [host] tested",
        )
    dirs: dict[str, Path] = {}
    tested: dict[str, str] = {}
    for name in table:
        if name == "serve":
            continue
        where = f"hosts.{name}"
        sub = r.table(table, name, where)
        r.unknown(sub, "hosts.*", where)
        folder = _agent_dir(r.string(sub, "agent_dir", where), root)
        if folder is not None:
            dirs[name] = folder
        rng = r.string(sub, "tested", where)
        if rng is not None:
            _check_range(r, rng, f"[{where}] tested")
            tested[name] = rng
    return {"serves": tuple(dict.fromkeys(serves)), "host_dirs": dirs, "hosts_tested": tested}


def _check_range(r: _Reader, tested: str, where: str = "[host] tested") -> None:
    """`[host] tested` is an npm version range (pi is an npm package), or the manifest fails."""
    from installer.host.versions import EXAMPLES, range_error

    why = range_error(tested)
    if why is not None:
        raise r.fail(where, f"{tested!r}: {why}", f"write an npm range, e.g. {EXAMPLES}")


def _host_command(value: str | None, root: Path) -> str:
    """A relative path is the set's own file, wherever ext runs (helper-65: `bin/pi` was looked
    up from the working folder, and from a cloned repository's ran its `bin/pi`); a bare
    name is looked up on PATH, `~/` is the home."""
    if not value:
        return "pi"
    # `~` and `~/` are the home, as pi reads its agent dir (installer.ground.home); `~x/pi`
    # is a folder named `~x` (helper-67)
    home = value == "~" or value.startswith("~/")
    if "/" in value and not home and not os.path.isabs(value):
        return str((root / value).absolute())
    return value


def _agent_dir(value: str | None, root: Path) -> Path | None:
    if not value:
        return None
    from installer.ground.home import expand_home

    return (root / expand_home(value)).absolute()


def _seeds(r: _Reader, table: dict[str, Any]) -> dict[str, Any]:
    """Seeds become JSON in settings.json: plain values only, and names without empty parts."""
    for key, value in _flat(table):
        if any(not part for part in key.split(".")):
            raise r.fail(f"[settings.seed] {key!r}", "has an empty part", 'write "a.b" = …')
        if not _json_value(value):
            raise r.fail(
                f"[settings.seed] {key}",
                f"{type(value).__name__} has no JSON form",
                "use a string, number, boolean, array or table",
            )
    return table


def _flat(table: dict[str, Any], prefix: str = "") -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    for key, value in table.items():
        name = f"{prefix}{key}"
        out.extend(
            _flat(value, f"{name}.") if isinstance(value, dict) and value else [(name, value)]
        )
    return out


def _json_value(value: Any) -> bool:
    if isinstance(value, float):
        return math.isfinite(value)  # JSON has no NaN or infinity
    if isinstance(value, (str, bool, int)):
        return True
    if isinstance(value, list):
        return all(_json_value(v) for v in value)
    if isinstance(value, dict):
        return all(_json_value(v) for v in value.values())
    return False


_GUARD_KEYS = ("process", "required_by", "reason")


def _guards(r: _Reader, table: dict[str, Any]) -> dict[str, Guard]:
    guards = {}
    for name, body in table.items():
        where = f"guards.{name}"
        if not isinstance(body, dict):
            raise r.fail(f"[{where}]", "must be a table", f'write [{where}] with reason = "…"')
        _warn_unknown(r, body, _GUARD_KEYS, where)
        guards[name] = Guard(
            name=name,
            process=r.string(body, "process", where),
            required_by=r.strings(body, "required_by", where),
            reason=r.string(body, "reason", where),
        )
    return guards


def _requires(r: _Reader, table: dict[str, Any]) -> dict[str, tuple[str, ...]]:
    out = {}
    for name, body in table.items():
        where = f"extensions.{name}"
        if not isinstance(body, dict):
            raise r.fail(f"[{where}]", "must be a table", f'write [{where}] requires = ["…"]')
        _warn_unknown(r, body, ("requires",), where)
        out[name] = r.strings(body, "requires", where)
    return out


def _warn_unknown(r: _Reader, body: Mapping[str, Any], known: tuple[str, ...], where: str) -> None:
    for key in body:
        if key not in known:
            r.warnings.append(f"{r.path.name}: unknown key [{where}] {key} ignored")
