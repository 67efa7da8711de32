"""A glob, matched in time linear in the path: no pattern a set writes can hold ext up.

The globs of a manifest's `pi` key and of a set's ignore files were turned into Python
regular expressions (`*` as `[^/]*`, `**/` as `(?:[^/]*/)*`), which backtrack: a 60-byte
`.gitignore` line `*a*a*a*a*a*a*a*a*a*a*b` held `ext list` past 20 s on one long file name
(helper-57). Here the same expression is built as a set of states (Thompson's construction)
and a path is read once, every state followed at each character; the steps between sets of
states are remembered per glob (at most _REMEMBERED), so a path of characters met before
costs a dictionary look-up per character.

The language is exactly the expression ext used before, which the conformance suite holds to
pi's loader: `tests/fs/test_globmatch.py` keeps that expression and checks the two agree.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise

Char = Callable[[str], bool]
_NONE: frozenset[int] = frozenset()  # before the first character: the start's table
_REMEMBERED = 20_000  # steps remembered per glob (a set of states and a character each)


def not_slash(c: str) -> bool:
    return c != "/"


def any_char(c: str) -> bool:
    return c != "\n"  # a regular expression's `.`


class Glob:
    """One glob's states: edges on a character, free edges (some only when the next
    character is not a dot: minimatch's `(?!\\.)`), a start and an accepting state."""

    def __init__(self) -> None:
        self.edges: list[list[tuple[Char, int]]] = []
        self.free: list[list[tuple[int, bool]]] = []  # (to, only when no dot comes next)
        self.start = self.accept = 0
        # per set of states: the next one for a character (and the next, where it counts)
        self._steps: dict[frozenset[int], dict[str, frozenset[int]]] = {}
        self._sets: dict[frozenset[int], frozenset[int]] = {}  # each set of states, once
        self._remembered = 0  # steps remembered, across all sets of states
        self._dotted = False  # whether a free edge looks ahead (set by Builder.finish)

    def state(self) -> int:
        self.edges.append([])
        self.free.append([])
        return len(self.edges) - 1

    def fullmatch(self, text: str) -> bool:
        """Whether the glob matches the whole of text."""
        dotted = self._dotted
        steps = self._steps
        if self._remembered > _REMEMBERED:  # a set of many long names: start over
            steps.clear()
            self._sets.clear()
            self._remembered = 0
        first = "." if dotted and text[:1] == "." else ""  # the start, closed
        now = steps.get(_NONE, {}).get(first) or self._step(_NONE, "", first == ".")
        for i, c in enumerate(text):
            # the character, and whether a dot comes next where a guard asks (helper-59: two
            # characters as the key grew a table per pair of characters met)
            key = c + "." if dotted and text[i + 1 : i + 2] == "." else c
            table = steps.get(now)
            step = table.get(key) if table is not None else None
            if step is None:
                step = self._step(now, c, key != c)
            if not step:
                return False
            now = step
        return self.accept in now

    def _step(self, now: frozenset[int], c: str, dot_next: bool) -> frozenset[int]:
        """The states after reading c from `now` (from nothing: the start), closed over free
        edges with a dot next or not; remembered, each set of states kept once."""
        moved = {t for s in now for ok, t in self.edges[s] if ok(c)} if c else {self.start}
        closed = frozenset(self._closure(moved, "." if dot_next else ""))
        step = self._sets.setdefault(closed, closed)
        self._steps.setdefault(now, {})[c + "." if dot_next and self._dotted else c] = step
        self._remembered += 1
        return step

    def _closure(self, states: set[int], ahead: str) -> set[int]:
        """The states reached by free edges, a dot-guarded one only when `ahead` is no dot."""
        seen = set(states)
        todo = list(states)
        while todo:
            for to, no_dot in self.free[todo.pop()]:
                if to not in seen and not (no_dot and ahead == "."):
                    seen.add(to)
                    todo.append(to)
        return seen


Part = tuple[int, int]  # a fragment: its first and last state


class Builder:
    """Thompson's construction of the expressions pipatterns' globs stand for."""

    def __init__(self) -> None:
        self.g = Glob()

    def char(self, ok: Char) -> Part:
        s, e = self.g.state(), self.g.state()
        self.g.edges[s].append((ok, e))
        return s, e

    def no_dot(self) -> Part:
        s, e = self.g.state(), self.g.state()
        self.g.free[s].append((e, True))
        return s, e

    def empty(self) -> Part:
        s = self.g.state()
        return s, s

    def seq(self, parts: list[Part]) -> Part:
        if not parts:
            return self.empty()
        for (_, end), (start, _) in pairwise(parts):
            self.g.free[end].append((start, False))
        return parts[0][0], parts[-1][1]

    def many(self, part: Part) -> Part:
        """`(?:part)*`"""
        s, e = self.g.state(), self.g.state()
        self.g.free[s] += [(part[0], False), (e, False)]
        self.g.free[part[1]] += [(part[0], False), (e, False)]
        return s, e

    def maybe(self, part: Part) -> Part:
        """`(?:part)?`"""
        s, e = self.g.state(), self.g.state()
        self.g.free[s] += [(part[0], False), (e, False)]
        self.g.free[part[1]].append((e, False))
        return s, e

    def either(self, parts: list[Part]) -> Part:
        s, e = self.g.state(), self.g.state()
        for start, end in parts:
            self.g.free[s].append((start, False))
            self.g.free[end].append((e, False))
        return s, e

    def finish(self, part: Part) -> Glob:
        self.g.start, self.g.accept = part
        self.g._dotted = any(guard for out in self.g.free for _, guard in out)
        return self.g
