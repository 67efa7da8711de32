"""Imports a link cannot carry: where a pi that resolves from the link would not find them.

pi 0.73 hands jiti the path of the link in the agent dir, not the file it points at
(`loadExtensionModule` in its dist/core/extensions/loader.js; 1.x realpaths it first), and
jiti resolves from there. A link carries only what lies inside the item it links: a
relative import that leaves a folder extension (or any relative import of a file
extension), or a package found in a `node_modules` above the item (the set's root one),
is looked for beside the agent dir's `extensions/` and is not found. Which pi resolves from
where is `PiLine.imports_from`; this module says what a link would lose.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import NamedTuple

from installer.sets.scan_source import PI_SCOPES, scan_imports

SOURCE_SUFFIXES = (".ts", ".js", ".mts", ".mjs", ".cts", ".cjs", ".tsx", ".jsx")
_AS_TYPESCRIPT = {".js": ".ts", ".mjs": ".mts", ".cjs": ".cts", ".jsx": ".tsx"}
FILES_PER_EXTENSION = 200  # a folder with a vendored tree: its first files are enough
# pi's loader maps these onto its own copies (`getAliases`), whatever node_modules holds.
_ALIASED = frozenset(("typebox", "@sinclair/typebox"))
# Node's own modules: `require("events")` never reads a node_modules, even one that has it.
_BUILTINS = frozenset((
    "assert", "async_hooks", "buffer", "child_process", "cluster", "console", "constants",
    "crypto", "dgram", "diagnostics_channel", "dns", "domain", "events", "fs", "http", "http2",
    "https", "inspector", "module", "net", "os", "path", "perf_hooks", "process", "punycode",
    "querystring", "readline", "repl", "stream", "string_decoder", "sys", "test", "timers",
    "tls", "trace_events", "tty", "url", "util", "v8", "vm", "wasi", "worker_threads", "zlib",
))  # fmt: skip


class Escape(NamedTuple):
    """One import of an extension that its link would not resolve."""

    file: Path  # the importing file, in the set
    line: int
    module: str  # as written: `../../lib/util`, `some-pkg`
    found: Path  # where it is, seen from the set: the file, or the package's folder

    @property
    def relative(self) -> bool:
        return self.module.startswith(".")


def escapes(home: Path, entries: Iterable[Path], link_dir: Path) -> list[Escape]:
    """The imports of the extension at `home` (its file or folder) that a link to it made in
    `link_dir` would lose; the files pi loads are `entries`, what they import is followed."""
    folder = home if home.is_dir() else None
    found: list[Escape] = []
    for path in _reached(folder, [Path(e) for e in entries]):
        for spec, line in _value_imports(path):
            escape = _lost(spec, line, path, folder, link_dir)
            if escape is not None:
                found.append(escape)
    return found


def said(e: Escape, label: str, folder: bool, root: Path, more: int = 0) -> str:
    """`extensions/foo/index.ts:1 imports "../../lib/util" (outside foo's folder)`."""
    own = f"{label}'s folder" if folder else None
    if e.relative:
        where = f"outside {own}" if own else "a link to a file carries no other file"
    else:
        where = f"in {_shown(e.found.parent, root)}/, outside {own or label}"
    also = f", and {more} more" if more else ""
    return f'{_shown(e.file, root)}:{e.line} imports "{e.module}" ({where}{also})'


def _shown(path: Path, root: Path) -> str:
    """A path in the set relative to its root; elsewhere as it is (the renderer shows `~`)."""
    return path.relative_to(root).as_posix() if path.is_relative_to(root) else str(path)


def resolves_from(file: Path, module: str) -> Path | None:
    """Where `module`, imported by `file`, is found from the file's own place; None if not."""
    if module.startswith("."):
        return _file_of(Path(os.path.normpath(file.parent / module)), any_kind=True)
    if module.startswith("/") or _skipped(module):
        return None
    return _package_above(file.parent, package_name(module))


def _reached(folder: Path | None, entries: list[Path]) -> Iterator[Path]:
    """The entries, and the files inside `folder` their relative imports reach, once each."""
    queue, seen = list(entries), set(entries)
    while queue and len(seen) <= FILES_PER_EXTENSION:
        path = queue.pop(0)
        yield path
        if folder is None:
            continue
        for spec, _ in _value_imports(path):
            target = _inside(folder, path, spec)
            nxt = _file_of(target) if target is not None else None
            if nxt is not None and nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)


def _value_imports(path: Path) -> list[tuple[str, int]]:
    """(module, line) of each import that loads at run time (types and unused ones are erased)."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    typescript = path.suffix in (".ts", ".mts", ".cts", ".tsx")
    return [(r.module, r.line) for r in scan_imports(text, typescript=typescript) if r.loads_value]


def _lost(spec: str, line: int, path: Path, folder: Path | None, link_dir: Path) -> Escape | None:
    """The import as an Escape when the link would not resolve it; None when it would."""
    if spec.startswith("."):
        if folder is not None and _inside(folder, path, spec) is not None:
            return None
        where = resolves_from(path, spec)
        return Escape(path, line, spec, where) if where is not None else None
    where = resolves_from(path, spec)
    if where is None or (folder is not None and where.is_relative_to(folder)):
        return None  # not found at all is another fault (`npm install`); inside, it is carried
    if _package_above(link_dir, package_name(spec)) is not None:
        return None  # the agent dir's side has it too
    return Escape(path, line, spec, where)


def _inside(folder: Path, path: Path, spec: str) -> Path | None:
    """Where a relative import of `path` points, by name (as jiti sees it through the link),
    when that stays inside `folder`; None when it leaves it."""
    target = Path(os.path.normpath(path.parent / spec))
    return target if target.is_relative_to(folder) else None


def _file_of(target: Path, any_kind: bool = False) -> Path | None:
    """The file an import of `target` loads (`./a.js` may be `a.ts`), or None; `any_kind` also
    accepts what is not source (JSON, a folder with a package.json)."""
    stem, suffix = str(target), target.suffix
    tries = [stem, *(stem + s for s in SOURCE_SUFFIXES)]
    if suffix in _AS_TYPESCRIPT:
        tries.insert(1, stem[: -len(suffix)] + _AS_TYPESCRIPT[suffix])
    tries += [os.path.join(stem, f"index{s}") for s in SOURCE_SUFFIXES]
    if any_kind:
        tries += [stem + ".json", os.path.join(stem, "package.json")]
    return next((Path(t) for t in tries if os.path.isfile(t)), None)


def _package_above(start: Path, package: str) -> Path | None:
    """`<dir>/node_modules/<package>` for the nearest dir from `start` up, as Node looks."""
    for folder in (start, *start.parents):
        if folder.name == "node_modules":
            continue
        candidate = folder / "node_modules" / package
        if candidate.exists():
            return candidate
    return None


def _skipped(module: str) -> bool:
    """A builtin, or a module pi's loader supplies itself."""
    if module.startswith("node:") or module.split("/", 1)[0] in _BUILTINS:
        return True
    return package_name(module) in _ALIASED or module.partition("/")[0] in PI_SCOPES


def package_name(module: str) -> str:
    """`@scope/pkg/sub` -> `@scope/pkg`, `pkg/sub` -> `pkg`."""
    parts = module.split("/", maxsplit=2)
    return "/".join(parts[:2]) if module.startswith("@") else parts[0]
