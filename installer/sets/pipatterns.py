"""pi's path patterns: a manifest's globs, and the `!`/`+`/`-` patterns of manifests and filters.

As pi 0.73.1 applies them (`dist/core/package-manager.js`: `applyPatterns`,
`matchesAnyPattern`, `matchesAnyExactPattern`, `globSync` with `dot: false`), with
minimatch's defaults for the glob syntax.
"""

from __future__ import annotations

import functools
import os

from installer.sets.globmatch import Builder, Glob, Part, any_char, not_slash

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# How deep a walk goes below the folder it searches: pi has no limit, but a set this deep is
# a mistake (or a link loop), and Python's stack would end the walk (os.walk recurses, and so
# do pi's own walks in installer/sets/pirules.py) with a traceback.
MAX_DEPTH = 64


def is_override(pattern: str) -> bool:
    return pattern.startswith(("!", "+", "-"))


def apply_patterns(paths: list[str], patterns: list[str], base: str) -> set[str]:
    """applyPatterns: includes (all when none), `!` excludes, `+` forces in, `-` forces out."""
    includes = [p for p in patterns if not is_override(p)]
    excludes = [p[1:] for p in patterns if p.startswith("!")]
    force_in = [p[1:] for p in patterns if p.startswith("+")]
    force_out = [p[1:] for p in patterns if p.startswith("-")]
    result = [p for p in paths if not includes or _matches_any(p, includes, base)]
    result = [p for p in result if not _matches_any(p, excludes, base)]
    result += [p for p in paths if p not in result and _matches_exact(p, force_in, base)]
    return {p for p in result if not _matches_exact(p, force_out, base)}


def _skill_forms(path: str, base: str) -> tuple[str, str, str] | None:
    if os.path.basename(path) != "SKILL.md":
        return None
    parent = os.path.dirname(path)
    return os.path.relpath(parent, base), os.path.basename(parent), parent


def _matches_any(path: str, patterns: list[str], base: str) -> bool:
    """matchesAnyPattern: the path relative to base, its name, or its whole path."""
    forms = [os.path.relpath(path, base), os.path.basename(path), path]
    skill = _skill_forms(path, base)
    if skill is not None:
        forms.extend(skill)
    return any(minimatch(f, p) for p in patterns for f in forms)


def _matches_exact(path: str, patterns: list[str], base: str) -> bool:
    """matchesAnyExactPattern: `./` dropped, then equal to the relative or whole path."""
    forms = {os.path.relpath(path, base), path}
    skill = _skill_forms(path, base)
    if skill is not None:
        forms.update((skill[0], skill[2]))
    return any((p[2:] if p.startswith("./") else p) in forms for p in patterns)


def minimatch(path: str, pattern: str) -> bool:
    """minimatch with its defaults, for the patterns a manifest or a filter uses."""
    return _regex(pattern).fullmatch(path)


class _Expression:
    """A glob that cannot backtrack badly, as a regular expression (fast: ~0.3 µs a match)."""

    __slots__ = ("_fullmatch",)

    def __init__(self, expression: str) -> None:
        import re

        self._fullmatch = re.compile(expression).fullmatch

    def fullmatch(self, text: str) -> bool:
        return self._fullmatch(text) is not None


@functools.lru_cache(maxsize=512)  # a manifest's patterns, asked of each path (helper-59)
def _regex(pattern: str, gitignore: bool = False) -> Glob | _Expression:
    """minimatch's reading of a glob; gitignore's (no braces, dot names too) when asked."""
    if _tame(pattern):
        return _Expression(_expression(pattern, gitignore))
    b = Builder()
    return b.finish(_parts(b, pattern, gitignore))


def _tame(pattern: str) -> bool:
    """Whether the glob's expression cannot backtrack past polynomial time: at most one `*`
    within segments and one `**` segment, braces of plain words (helper-57: ten `*` in one
    segment took minutes as an expression). The others go to the state machine (~4 µs a
    match)."""
    segments = pattern.split("/")
    stars = sum(s.count("*") for s in segments if s != "**")
    return stars <= 1 and segments.count("**") <= 1 and not _starred_braces(pattern)


def _starred_braces(pattern: str) -> bool:
    """Whether a `{…}` of the glob holds a `*` or another `{`: `*.{ts,js}` is a choice of
    words, no repeat (helper-61: it took the state machine, 20x slower)."""
    i = pattern.find("{")
    while i != -1:
        end = pattern.find("}", i)
        if end == -1:
            return False
        if any(c in pattern[i + 1 : end] for c in "*{"):
            return True
        i = pattern.find("{", end)
    return False


def _expression(pattern: str, gitignore: bool = False) -> str:
    """The glob as a regular expression: the language `_parts` builds as states
    (tests/fs/test_globmatch.py holds the two to the same answers)."""
    import re

    nodot = "" if gitignore else r"(?!\.)"
    out = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if pattern.startswith("**/", i):
            out.append(rf"(?:{nodot}[^/]*/)*")
            i += 3
            continue
        if pattern.startswith("**", i):
            out.append(rf"(?:{nodot}[^/]*(?:/{nodot}[^/]*)*)?")
            i += 2
            continue
        if c == "*":
            at_start = i == 0 or pattern[i - 1] == "/"
            out.append(rf"{nodot}[^/]*" if at_start else r"[^/]*")
        elif c == "?":
            out.append(r"[^/]")
        elif c == "\\" and gitignore and i + 1 < len(pattern):
            out.append(re.escape(pattern[i + 1]))
            i += 2
            continue
        elif c == "{" and "}" in pattern[i:] and not gitignore:
            end = pattern.index("}", i)
            alts = pattern[i + 1 : end].split(",")
            out.append("(?:" + "|".join(_expression(a) for a in alts) + ")")
            i = end + 1
            continue
        elif c == "[" and "]" in pattern[_class_start(pattern, i) :]:
            end = pattern.index("]", _class_start(pattern, i))  # a leading `]` is literal
            out.append(_class(pattern[i + 1 : end]))
            i = end + 1
            continue
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)


def _parts(b: Builder, pattern: str, gitignore: bool) -> Part:
    """The glob as states: `*` is `[^/]*`, not at a dot at a segment's start (minimatch's
    `dot: false`; gitignore's reading matches dot names too), `**/` any folders, `**` any
    path, `?` one character but `/`, `{a,b}` either, `[…]` a class, `\\x` (gitignore) x."""
    import re

    def no_dot() -> list[Part]:
        return [] if gitignore else [b.no_dot()]

    def name() -> Part:  # `{nodot}[^/]*`
        return b.seq([*no_dot(), b.many(b.char(not_slash))])

    out: list[Part] = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if pattern.startswith("**/", i):  # `(?:{nodot}[^/]*/)*`
            out.append(b.many(b.seq([name(), b.char("/".__eq__)])))
            i += 3
            continue
        if pattern.startswith("**", i):  # `(?:{nodot}[^/]*(?:/{nodot}[^/]*)*)?`
            more = b.many(b.seq([b.char("/".__eq__), name()]))
            out.append(b.maybe(b.seq([name(), more])))
            i += 2
            continue
        if c == "*":
            at_start = i == 0 or pattern[i - 1] == "/"
            out.append(name() if at_start else b.many(b.char(not_slash)))
        elif c == "?":
            out.append(b.char(not_slash))
        elif c == "\\" and gitignore and i + 1 < len(pattern):
            out.append(b.char(pattern[i + 1].__eq__))
            i += 2
            continue
        elif c == "{" and "}" in pattern[i:] and not gitignore:
            end = pattern.index("}", i)
            alts = pattern[i + 1 : end].split(",")
            out.append(b.either([_parts(b, a, gitignore) for a in alts]))
            i = end + 1
            continue
        elif c == "[" and "]" in pattern[_class_start(pattern, i) :]:
            end = pattern.index("]", _class_start(pattern, i))  # a leading `]` is literal
            one = re.compile(_class(pattern[i + 1 : end]))  # one character: no backtracking
            out.append(b.char(_member(one)))
            i = end + 1
            continue
        else:
            out.append(b.char(c.__eq__))
        i += 1
    return b.seq(out)


def _member(one: Any) -> Any:
    """Whether a character is of the class `one` (a compiled one-character expression)."""

    def ok(ch: str) -> bool:
        return one.fullmatch(ch) is not None

    return ok


def _class_start(pattern: str, i: int) -> int:
    """Where to look for the `]` closing the class opened at i: past a leading `!` and `]`."""
    j = i + 1
    if pattern[j : j + 1] in ("!", "^"):
        j += 1
    return j + 1 if pattern[j : j + 1] == "]" else j


def _class(body: str) -> str:
    """A glob character class as a regex one: `!` or `^` negates, the rest literal but ranges."""
    negate = body[:1] in ("!", "^")
    inner = body[1:] if negate else body
    escaped = "".join(c if c == "-" else ("\\" + c if c in "\\]^[" else c) for c in inner)
    return f"[{'^' if negate else ''}{escaped}]" if escaped else "(?!)"


def glob(pattern: str, root: str) -> list[str]:
    """globSync(pattern, {cwd: root, dot: false}): the files and folders it matches.

    The walk starts below the pattern's literal folders (`src/` of `./src/*.ts`, or `../x/`),
    so a package's node_modules is not read for a glob that does not reach into it.
    """
    parts = pattern.split("/")
    fixed = 0
    while fixed < len(parts) - 1 and not any(c in parts[fixed] for c in "*?[{"):
        fixed += 1
    base = os.path.normpath(os.path.join(root, *parts[:fixed]))
    rest = "/".join(parts[fixed:])
    if not rest or not os.path.isdir(base):
        return []
    regex = _regex(rest)
    out = []
    for folder, dirs, files in os.walk(base):
        rel = os.path.relpath(folder, base)
        prefix = "" if rel == "." else f"{rel}/"
        if prefix.count("/") >= MAX_DEPTH and dirs:
            raise _too_deep(base, prefix)
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        names = (*dirs, *sorted(files))
        if "**" not in rest and prefix.count("/") >= rest.count("/"):
            dirs[:] = []  # what lies deeper, the pattern cannot reach
        for name in names:
            if not name.startswith(".") and regex.fullmatch(prefix + name):
                out.append(f"{base}/{prefix}{name}")
    return sorted(out)


def _too_deep(base: str, rel: str) -> Exception:
    from installer.ground.errors import UsageError

    shown = rel if len(rel) <= 80 else f"{rel[:40]}…{rel[-30:]}"
    return UsageError(
        f"{base}: folders nest deeper than {MAX_DEPTH} levels ({shown})",
        f"flatten {base}, or narrow the pattern in package.json's pi key",
    )


IGNORE_FILES = (".gitignore", ".ignore", ".fdignore")
# The ignore rules ext reads in one walk (a kind's folder, or a folder item's): each is a
# matcher of a few kB, and 800,000 lines of `zzN*q*r` (10 MB, under the 32 MiB a file may
# hold) took ext list 31 s and 10.7 GB (helper-92). A real project's files hold hundreds.
MOST_RULES = 10_000


class Ignore:
    """The ignore rules pi gathers while it walks a folder (`addIgnoreRules` + the `ignore`
    package): each folder's .gitignore, .ignore and .fdignore, its patterns prefixed with the
    folder's path from where the walk began; the last rule that matches decides."""

    def __init__(self) -> None:
        self.rules: list[tuple[bool, bool, Any]] = []  # (negated, folders only, regex)

    def add(self, folder: str, root: str, names: Any) -> None:
        """Read the ignore files among names (the folder's listing), if any."""
        if not any(n in names for n in IGNORE_FILES):
            return
        rel = os.path.relpath(folder, root)
        prefix = "" if rel == "." else f"{rel}/"
        for name in IGNORE_FILES:
            if name not in names:
                continue
            from installer.ground.readfile import read_text  # rare: only with an ignore file

            try:
                lines = read_text(f"{folder}/{name}").splitlines()
            except (OSError, ValueError):
                continue
            self.add_lines(lines, prefix, f"{folder}/{name}")

    def add_lines(self, lines: list[str], prefix: str = "", source: str = "") -> None:
        """Rules from the lines of one ignore file (`source`) whose folder is `prefix` below
        the root; refused past MOST_RULES, before the next is made."""
        for line in lines:
            rule = _rule(line, prefix)
            if rule is None:
                continue
            if len(self.rules) == MOST_RULES:
                from installer.ground.errors import UsageError

                raise UsageError(
                    f"{source or 'an ignore file'}: more ignore rules than ext reads in one "
                    f"folder of the set ({MOST_RULES:,}, with those of the folders above it)",
                    "keep the set's .gitignore, .ignore and .fdignore files to the rules it needs",
                )
            self.rules.append(rule)

    def ignores(self, rel: str, is_dir: bool) -> bool:
        """Whether the path (relative to where the walk began) is ignored."""
        ignored = False
        for negated, dirs_only, regex in self.rules:
            if (is_dir or not dirs_only) and ignored == negated and regex.fullmatch(rel):
                ignored = not negated
        return ignored


def _rule(line: str, prefix: str) -> tuple[bool, bool, Any] | None:
    """prefixIgnorePattern, then the `ignore` package's reading of the line."""
    import re

    trimmed = line.strip()
    if not trimmed or (trimmed.startswith("#") and not trimmed.startswith("\\#")):
        return None
    pattern = re.sub(r"(?<!\\) +$", "", line.rstrip("\r"))  # unescaped trailing spaces go
    negated = pattern.startswith("!")
    if negated or pattern.startswith("\\!"):
        pattern = pattern[1:]
    pattern = prefix + pattern.removeprefix("/")
    dirs_only = pattern.endswith("/")
    body = pattern.rstrip("/")
    if not body:
        return None
    if _tame(body):  # the expression the states below stand for
        regex = _expression(body, gitignore=True)
        regex = regex if "/" in body else f"(?:.*/)?{regex}"
        return negated, dirs_only, _Expression(regex if dirs_only else f"{regex}(?:/.*)?")
    b = Builder()
    parts = [_parts(b, body, gitignore=True)]
    if "/" not in body:  # no slash: a name at any depth: `(?:.*/)?`
        parts.insert(0, b.maybe(b.seq([b.many(b.char(any_char)), b.char("/".__eq__)])))
    if not dirs_only:  # a folder's rule also covers what is in it: `(?:/.*)?`
        parts.append(b.maybe(b.seq([b.char("/".__eq__), b.many(b.char(any_char))])))
    return negated, dirs_only, b.finish(b.seq(parts))
