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
import re
from collections.abc import Iterable
from pathlib import Path

from installer.ground.records import NamedTuple
from installer.host.lines import SCOPES
from installer.sets.scan_source import scan_imports

SOURCE_SUFFIXES = (".ts", ".js", ".mts", ".mjs", ".cts", ".cjs", ".tsx", ".jsx")
_AS_TYPESCRIPT = {".js": ".ts", ".mjs": ".mts", ".cjs": ".cts", ".jsx": ".tsx"}
FILES_PER_EXTENSION = 200  # a folder with a vendored tree: its first files are enough
# Every module an import, export-from, import() or require() can name, read from the raw
# text (comments and strings too): a superset of what scan_imports finds, for a fast "no".
# Possessive: a gap never gives back what it took (a quote or `(` is none of it), so two gaps
# side by side do not try every split of a long run of blanks (helper-92: `//import` and
# 100,000 spaces held an install on pi 0.73 for minutes).
_GAP = r"(?:\s|/\*[\s\S]*?\*/|//[^\n]*)*+"
_CANDIDATE = re.compile(
    rf"(?:from|import|require){_GAP}\(?{_GAP}(?P<q>['\"`])(?P<spec>[^'\"\n]+?)(?P=q)"
)
_LOOK_AHEAD = 4_096  # the characters of a source the look-ahead reads (see _value_imports)
# pi's loader maps these onto its own copies (`getAliases`), whatever node_modules holds.
ALIASED = frozenset(("typebox", "@sinclair/typebox"))
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


def escapes(home: str | Path, entries: Iterable[str | Path], link_dir: Path) -> list[Escape]:
    """The imports of the extension at `home` (its file or folder) that a link to it made in
    `link_dir` would lose; the files pi loads are `entries`, what they import is followed."""
    folder = os.fspath(home) if os.path.isdir(home) else None
    queue = [os.fspath(e) for e in entries]
    seen = set(queue)
    found: list[Escape] = []
    while queue and len(seen) <= FILES_PER_EXTENSION:
        path = queue.pop(0)
        for spec, line in _value_imports(path):
            inside = _inside(folder, path, spec) if folder and spec.startswith(".") else None
            nxt = _file_of(inside) if inside is not None else None
            if nxt is not None and nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
            escape = _lost(spec, line, path, inside is not None, folder, link_dir)
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
        found = _file_of(os.path.normpath(os.path.join(file.parent, module)), any_kind=True)
        return Path(found) if found is not None else None
    if module.startswith("/") or _skipped(module):
        return None
    return package_above(file.parent, package_name(module))


def _value_imports(path: str) -> list[tuple[str, int]]:
    """(module, line) of each import that loads at run time (types and unused ones are erased);
    a file whose every module is one no link can lose is not lexed at all."""
    from installer.ground.readfile import read_text

    try:
        text = read_text(path, errors="replace")
    except OSError:
        return []
    # The look-ahead starts a gap at each keyword, and a gap of an unclosed `/*` runs to the
    # end each time (helper-93: `from/*` 8,000 times, 48 KB, took 5.5 s): past what a source
    # usually is, the lexer (linear) reads the file instead.
    quick = len(text) <= _LOOK_AHEAD
    if quick and not any(_may_be_lost(m.group("spec")) for m in _CANDIDATE.finditer(text)):
        return []
    typescript = path.endswith((".ts", ".mts", ".cts", ".tsx"))
    return [(r.module, r.line) for r in scan_imports(text, typescript=typescript) if r.loads_value]


def _may_be_lost(spec: str) -> bool:
    return spec.startswith(".") or not (spec.startswith("/") or _skipped(spec))


def _lost(
    spec: str, line: int, path: str, carried: bool, folder: str | None, link_dir: Path
) -> Escape | None:
    """The import as an Escape when the link would not resolve it; None when it would."""
    if carried:
        return None  # a relative import that stays inside the linked folder
    where = resolves_from(Path(path), spec)
    if where is None:
        return None  # not found from the set either: another fault (`npm install`, a typo)
    if spec.startswith("."):
        return Escape(Path(path), line, spec, where)
    if folder is not None and where.is_relative_to(folder):
        return None  # the folder's own node_modules: the link carries it
    if package_above(link_dir, package_name(spec)) is not None:
        return None  # the agent dir's side has it too
    return Escape(Path(path), line, spec, where)


def _inside(folder: str, path: str, spec: str) -> str | None:
    """Where a relative import of `path` points, by name (as jiti sees it through the link),
    when that stays inside `folder`; None when it leaves it."""
    target = os.path.normpath(os.path.join(os.path.dirname(path), spec))
    return target if target.startswith(folder + os.sep) else None


def _file_of(target: str, any_kind: bool = False) -> str | None:
    """The file an import of `target` loads (`./a.js` may be `a.ts`), or None; `any_kind` also
    accepts what is not source (JSON, a folder with a package.json)."""
    stem, suffix = os.path.splitext(target)
    tries = [target, *(target + s for s in SOURCE_SUFFIXES)]
    if suffix in _AS_TYPESCRIPT:
        tries.insert(1, stem + _AS_TYPESCRIPT[suffix])
    tries += [os.path.join(target, f"index{s}") for s in SOURCE_SUFFIXES]
    if any_kind:
        tries += [target + ".json", os.path.join(target, "package.json")]
    return next((t for t in tries if os.path.isfile(t)), None)


def package_above(start: Path, package: str) -> Path | None:
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
    return package_name(module) in ALIASED or module.partition("/")[0] in SCOPES


def package_name(module: str) -> str:
    """`@scope/pkg/sub` -> `@scope/pkg`, `pkg/sub` -> `pkg`."""
    parts = module.split("/", maxsplit=2)
    return "/".join(parts[:2]) if module.startswith("@") else parts[0]
