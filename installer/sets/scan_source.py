"""Static scanners of an extension's TypeScript/JavaScript source: imports and flags.

Not a parser: a small lexer blanks comments and finds string literals, so that
`// import x from "y"` or `"registerFlag('x')"` inside a string count for nothing,
then regular expressions read the few statement shapes that matter.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from functools import lru_cache

from installer.host.lines import LINES, SCOPES, PiLine


@dataclass(frozen=True, slots=True)
class ImportRef:
    """One module an extension imports: where, what, and whether it survives transpiling."""

    line: int
    module: str
    type_only: bool  # `import type …`, or braces holding only `type X` names
    kind: str  # "import", "export" (`export … from`), "dynamic" (`import()`), "require"
    unused: bool = False  # TypeScript: no binding is used, so the transpiler drops it

    @property
    def loads_value(self) -> bool:
        """True when the module is really loaded at run time."""
        return not (self.type_only or self.unused)


@dataclass(frozen=True, slots=True)
class ScopeDrift:
    """A value import from a pi scope that some line of pi cannot load."""

    line: int
    module: str
    replacement: str  # the same module under a scope every line loads
    fails_here: bool  # the pi found cannot load it (else only another line cannot)
    fails_on: tuple[str, ...]  # the names of the lines that cannot load it: ("0.73",)

    @property
    def fix(self) -> str:
        """What to change, in one line."""
        return (
            f'import from "{self.replacement}" instead of "{self.module}"'
            " (or use `import type` if only types are needed)"
        )


@dataclass(frozen=True, slots=True)
class FlagRef:
    """A `registerFlag("name", …)` call."""

    line: int
    flag: str


_Q = r"""(?P<q>['"])(?P<spec>[^'"\n]+)(?P=q)"""
_NAMES = r"\{[\w$\s,]*\}"


def _word(word: str, before: str = r"[\w$.]") -> str:
    """`word` as a whole word not reached through a property (`a.import`); literal first, so
    the regex engine can jump from one occurrence to the next (5x faster than a lookbehind)."""
    return rf"{word}(?<!{before}{word})(?![\w$])"


_IMPORT = re.compile(
    _word("import") + r"\s*(?:(?P<type>type)(?:\s*(?=[{*])|\s+(?!from\b)))?"
    r"(?P<clause>(?:[\w$]+\s*(?:,\s*)?)?(?:" + _NAMES + r"|\*\s*as\s+[\w$]+)?)"
    r"\s*from\s*" + _Q
)
_EXPORT = re.compile(
    _word("export") + r"\s*(?:(?P<type>type)\s*)?"
    r"(?P<clause>\*(?:\s*as\s+[\w$]+)?|" + _NAMES + r")\s*from\s*" + _Q
)
_BARE_IMPORT = re.compile(_word("import") + r"\s*" + _Q)
_CALL = re.compile(
    rf"(?P<fn>{_word('import')}|{_word('require')})"
    r"\s*\(\s*(?P<q>['\"`])(?P<spec>[^'\"`\n$]+)(?P=q)\s*\)"
)
_FLAG = re.compile(
    _word("registerFlag", r"[\w$]") + r"\s*\(\s*(?P<q>['\"`])(?P<spec>[^'\"`\n$]+)(?P=q)"
)
_REGEX_AFTER = set("(,=:[!&|?{};+-*%<>~^")
_REGEX_AFTER_WORDS = {"return", "typeof", "case", "do", "else", "in", "of", "new", "delete",
                      "void", "throw", "yield", "await"}  # fmt: skip


# ---- the lexer --------------------------------------------------------------


_SPECIAL = re.compile(r"[/'\"`{}]")  # the only characters where the lexer's state can change
# A string runs to its quote or its line's end, a lone backslash at the file's end included:
# one that matched nothing there was tried again from each quote before it (helper-92: a
# file of `\"` pairs ending in `\`, 120 KB, took doctor 28 s).
_STRING = {
    q: re.compile(q + r"(?:[^" + q + r"\\\n]|\\[\s\S])*+\\?(?:" + q + r"|$)", re.M) for q in "'\""
}
_TEMPLATE_TEXT = re.compile(r"(?:[^`\\$]|\\[\s\S]|\$(?!\{))*")
_REGEX_LITERAL = re.compile(r"/(?:[^/\\\[\n]|\\.|\[(?:[^\]\\\n]|\\.)*\])+/[A-Za-z]*")
_NOT_NEWLINE = re.compile(r"[^\n]")


class _Lexed:
    """Source with comments blanked (offsets and lines kept) and the spans of its literals."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.literals: list[tuple[int, int]] = []  # [start, end) of strings, templates, regexes
        self._comments: list[tuple[int, int]] = []
        self._templates: list[int] = []  # brace depth at which each open `${` closes
        self._depth = 0
        i, n, in_template = 0, len(source), False
        while i < n:
            if in_template:
                i, in_template = self._template(i), False
                continue
            special = _SPECIAL.search(source, i)
            i, in_template = self._step(special.start()) if special else (n, False)
        self.code = _blank(source, self._comments)
        self._starts = [s for s, _ in self.literals]
        self._lines = [m.start() for m in re.finditer("\n", source)]

    def line_of(self, offset: int) -> int:
        """1-based line number of an offset."""
        return bisect.bisect_left(self._lines, offset) + 1

    def in_literal(self, offset: int) -> bool:
        """True when the offset lies inside a string, template text or regex literal."""
        i = bisect.bisect_right(self._starts, offset) - 1
        return i >= 0 and self.literals[i][0] < offset < self.literals[i][1]

    def _step(self, i: int) -> tuple[int, bool]:
        """Consume the special character at `i`; the new offset, and whether a template opened."""
        src, c = self.source, self.source[i]
        if src.startswith(("//", "/*"), i):
            j = src.find("\n", i) if src[i + 1] == "/" else src.find("*/", i + 2) + 2
            end = len(src) if j < 2 else j  # an unclosed /* runs to the end
            self._comments.append((i, end))
            return end, False
        literal = _STRING[c].match(src, i) if c in "'\"" else None
        if c == "/" and self._regex_allowed(i):
            literal = _REGEX_LITERAL.match(src, i)
        if literal:
            self.literals.append(literal.span())
            return literal.end(), False
        if c == "`":
            return i + 1, True
        if c == "{":
            self._depth += 1
        elif c == "}":
            self._depth -= 1
            if self._templates and self._templates[-1] == self._depth:
                self._templates.pop()
                return i + 1, True  # back in the template's text
        return i + 1, False

    def _template(self, i: int) -> int:
        """Consume template text from `i` up to its closing backtick or the next `${`."""
        src = self.source
        j = _TEMPLATE_TEXT.match(src, i).end()  # type: ignore[union-attr]  # `*` always matches
        self.literals.append((i - 1, j))
        if src.startswith("${", j):
            self._templates.append(self._depth)
            self._depth += 1
            return j + 2
        return j + 1

    def _regex_allowed(self, i: int) -> bool:
        """Whether a `/` here starts a regex literal rather than a division."""
        src, k = self.source, i - 1
        comments = len(self._comments)
        while k >= 0 and (src[k].isspace() or (comments and k < self._comments[comments - 1][1])):
            if not src[k].isspace():  # inside the comment just before: step over it
                k = self._comments[comments - 1][0]
                comments -= 1
            k -= 1
        if k < 0 or src[k] in _REGEX_AFTER:
            return True
        word = re.search(r"([\w$]+)$", src[max(0, k - 19) : k + 1])
        return word is not None and word.group(1) in _REGEX_AFTER_WORDS


@lru_cache(maxsize=8)  # doctor scans each file for imports, then for flags
def _lexed(source: str) -> _Lexed:
    return _Lexed(source)


def _blank(source: str, spans: list[tuple[int, int]]) -> str:
    """`source` with every span turned to spaces, newlines kept so lines still count."""
    parts, last = [], 0
    for start, end in spans:
        span = source[start:end]
        parts += [
            source[last:start],
            _NOT_NEWLINE.sub(" ", span) if "\n" in span else " " * len(span),
        ]
        last = end
    return "".join([*parts, source[last:]])


# ---- the scanners -----------------------------------------------------------


def scan_imports(source: str, *, typescript: bool = True) -> list[ImportRef]:
    """Every module the source imports, exports from, `import()`s or `require()`s, in order.

    `typescript` says whether the file is transpiled as TypeScript (`.ts`), which drops
    an import none of whose names is used; JavaScript keeps every import.
    """
    lexed = _lexed(source)
    found: list[tuple[int, ImportRef, tuple[str, ...]]] = []
    statements: list[tuple[int, int]] = []
    for match in _IMPORT.finditer(lexed.code):
        clause = match.group("clause").strip()
        if not clause or lexed.in_literal(match.start()):
            continue
        names, all_typed = _bindings(clause)
        type_only = bool(match.group("type")) or (all_typed and not names)
        ref = ImportRef(lexed.line_of(match.start()), match.group("spec"), type_only, "import")
        found.append((match.start(), ref, names))
        statements.append(match.span())
    for match in _EXPORT.finditer(lexed.code):
        if lexed.in_literal(match.start()):
            continue
        names, all_typed = _bindings(match.group("clause"))
        type_only = bool(match.group("type")) or (all_typed and not names)
        ref = ImportRef(lexed.line_of(match.start()), match.group("spec"), type_only, "export")
        found.append((match.start(), ref, ()))
        statements.append(match.span())
    for pattern, kind in ((_BARE_IMPORT, "import"), (_CALL, "")):
        for match in pattern.finditer(lexed.code):
            if lexed.in_literal(match.start()):
                continue
            fn = match.groupdict().get("fn")
            kind_here = kind or ("dynamic" if fn == "import" else "require")
            ref = ImportRef(lexed.line_of(match.start()), match.group("spec"), False, kind_here)
            found.append((match.start(), ref, ()))
    found.sort(key=lambda item: item[0])
    if not typescript:
        return [ref for _, ref, _ in found]
    body = _without(lexed, statements)
    return [
        ImportRef(ref.line, ref.module, ref.type_only, ref.kind, unused=True)
        if names and not ref.type_only and not any(_used(body, name) for name in names)
        else ref
        for _, ref, names in found
    ]


def _bindings(clause: str) -> tuple[tuple[str, ...], bool]:
    """The value names a clause binds, and whether its braces hold only `type` names."""
    names: list[str] = []
    braces = re.search(r"\{([^}]*)\}", clause)
    outside = clause[: braces.start()] + clause[braces.end() :] if braces else clause
    star = re.search(r"\*\s*as\s+([\w$]+)", outside)
    if star:
        names.append(star.group(1))
        outside = outside[: star.start()]
    names += [n for n in re.findall(r"[\w$]+", outside) if n != "*"]
    typed = values = 0
    for element in braces.group(1).split(",") if braces else ():
        words = element.split()
        if words and words[0] == "type" and len(words) in (2, 4):
            typed += 1  # `type A` or `type A as B`: erased
        elif words:
            values += 1
            names.append(words[-1])
    # `import {} from "x"` has no type names: it is kept, and loads the module.
    return tuple(names), typed > 0 and values == 0


def _without(lexed: _Lexed, spans: list[tuple[int, int]]) -> str:
    """The code with literals and the given spans blanked: what is left to use names in."""
    merged: list[tuple[int, int]] = []
    for start, end in sorted([*lexed.literals, *spans]):
        if merged and start < merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return _blank(lexed.code, merged)


def _used(body: str, name: str) -> bool:
    """Whether `name` occurs in `body` other than as a property (`obj.name`)."""
    for match in re.finditer(r"(?<![\w$])" + re.escape(name) + r"(?![\w$])", body):
        before = body[max(0, match.start() - 3) : match.start()]
        if not before.endswith(".") or before == "...":
            return True
    return False


def scope_drift(
    imports: list[ImportRef], pi: PiLine, lines: tuple[PiLine, ...] = LINES
) -> list[ScopeDrift]:
    """Value imports from a pi scope that `pi` (the line found) or another line cannot load.

    `typebox` and `@sinclair/typebox` (with `/compile`, `/value`) are given to extensions by
    every line alike (the aliases in dist/core/extensions/loader.js): nothing to say of them.
    """
    drift = []
    for ref in imports:
        scope, _, rest = ref.module.partition("/")
        if scope not in SCOPES or not rest.startswith("pi-") or not ref.loads_value:
            continue
        fails_on = tuple(line.name for line in lines if scope not in line.scopes)
        if fails_on:
            fix = portable(ref.module, pi, lines)
            drift.append(ScopeDrift(ref.line, ref.module, fix, scope not in pi.scopes, fails_on))
    return drift


def portable(module: str, pi: PiLine, lines: tuple[PiLine, ...] = LINES) -> str:
    """`module` under the scope every line of pi loads (the old one: 1.x maps it onto its own
    modules), else under the one `pi` loads."""
    _, _, rest = module.partition("/")
    everywhere = [s for s in SCOPES if all(s in line.scopes for line in lines)]
    return f"{(everywhere or list(pi.scopes))[0]}/{rest}"


def registered_flags(source: str) -> list[FlagRef]:
    """Every `registerFlag("name", …)` call outside comments and strings."""
    lexed = _lexed(source)
    return [
        FlagRef(lexed.line_of(match.start()), match.group("spec"))
        for match in _FLAG.finditer(lexed.code)
        if not lexed.in_literal(match.start())
    ]
