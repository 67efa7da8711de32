"""The globs of a set's manifest and ignore files, matched in linear time (helper-57: a
60-byte `.gitignore` line held `ext list` past 20 s): the same language as the regular
expressions ext used before, which the conformance suite held to pi's loader."""

from __future__ import annotations

import re
import time
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from installer.sets.globmatch import Builder, Glob
from installer.sets.pipatterns import (
    _class,
    _class_start,
    _expression,
    _parts,
    _regex,
    _rule,
    _tame,
    apply_patterns,
    minimatch,
)
from tests.helpers import build_tree


def oracle(pattern: str, gitignore: bool = False) -> re.Pattern[str]:
    """The translation ext used before (installer/sets/pipatterns.py at 9b60e50), kept here
    as it was: the reference both the state machine and today's `_expression` must match
    (helper-61: an oracle that called the product's own code could not fail)."""
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
            out.append("(?:" + "|".join(oracle(a).pattern for a in alts) + ")")
            i = end + 1
            continue
        elif c == "[" and "]" in pattern[_class_start(pattern, i) :]:
            end = pattern.index("]", _class_start(pattern, i))
            out.append(_class(pattern[i + 1 : end]))
            i = end + 1
            continue
        else:
            out.append(re.escape(c))
        i += 1
    return re.compile("".join(out))


def states(pattern: str, gitignore: bool = False) -> Glob:
    """The state machine of the glob, whatever `_regex` would pick for it."""
    b = Builder()
    return b.finish(_parts(b, pattern, gitignore))


def oracle_rule(body: str, dirs_only: bool) -> re.Pattern[str]:
    regex = oracle(body, gitignore=True).pattern
    if "/" not in body:
        regex = f"(?:.*/)?{regex}"
    return re.compile(f"{regex}(?:/.*)?" if not dirs_only else regex)


PIECES = ["*", "**", "**/", "?", "a", "b", ".", "/", "[ab]", "[!a]", "{a,.b}", "\\*", "-"]
patterns = st.lists(st.sampled_from(PIECES), max_size=6).map("".join)
paths = st.text(alphabet="ab./*\n", max_size=10)


@settings(max_examples=3000, deadline=None)
@given(patterns, paths, st.booleans())
def test_the_matcher_agrees_with_the_expression_it_replaces(
    pattern: str, path: str, gitignore: bool
) -> None:
    expected = bool(oracle(pattern, gitignore).fullmatch(path))
    assert states(pattern, gitignore).fullmatch(path) == expected, (pattern, path, gitignore)
    assert bool(re.fullmatch(_expression(pattern, gitignore), path)) == expected, pattern
    assert _regex(pattern, gitignore).fullmatch(path) == expected, (pattern, path, gitignore)


@settings(max_examples=2000, deadline=None)
@given(patterns, paths)
def test_an_ignore_rule_agrees_with_the_expression_it_replaces(pattern: str, path: str) -> None:
    rule = _rule(pattern, "")
    if rule is None:
        return
    _negated, dirs_only, glob = rule
    body = pattern.removeprefix("\\!").removeprefix("!").removeprefix("/").rstrip("/")
    body = re.sub(r"(?<!\\) +$", "", body)
    assert glob.fullmatch(path) == bool(oracle_rule(body, dirs_only).fullmatch(path)), (
        pattern,
        path,
    )


def test_globs_that_backtrack_without_end_as_expressions_take_no_time(tmp_path: Path) -> None:
    assert not _tame("*a" * 12 + "*b") and not _tame("**/" * 30 + "b")
    assert _tame("*.log") and _tame("**/*.ts") and _tame("node_modules")
    long_name = "a" * 250
    started = time.monotonic()
    assert not minimatch(long_name, "*a" * 12 + "*b")
    assert not _regex("**/" * 30 + "b").fullmatch("a/" * 60 + "c")
    rule = _rule("*a" * 12 + "*b", "")
    assert rule is not None and not rule[2].fullmatch(f"{'x/' * 40}{long_name}")
    assert time.monotonic() - started < 2


def test_a_set_whose_ignore_file_would_backtrack_lists_at_once(tmp_path: Path) -> None:
    """helper-57's set: 40 folders deep, a 48-character name, `*a*a…*b` in prompts/.gitignore."""
    from installer.sets.pirules import folder_items

    deep = "/".join(["aaaaaaaaaa"] * 40)
    root = build_tree(
        tmp_path / "set",
        {"prompts/.gitignore": "*a" * 10 + "*b\n", f"prompts/{deep}/{'a' * 48}.md": "x"},
    )
    started = time.monotonic()

    found = folder_items(str(root / "prompts"), "prompts")

    assert time.monotonic() - started < 3
    assert len(found) == 1


def test_a_wild_glob_over_thousands_of_varied_names_stays_fast_and_small() -> None:
    """helper-59: `p/` + `**/` x50 + `*.md` over 3,000 names of 40 CJK characters took 6 s
    and 1 GB: the steps were keyed on two characters, each a set of states of its own."""
    import random
    import tracemalloc

    pick = random.Random(59)
    glob = _regex("p/" + "**/" * 50 + "*.md")
    names = [
        "p/" + "".join(chr(0x4E00 + pick.randrange(2000)) for _ in range(40)) + ".md"
        for _ in range(3000)
    ]
    tracemalloc.start()
    started = time.monotonic()
    assert all(glob.fullmatch(n) for n in names)
    assert time.monotonic() - started < 5
    assert tracemalloc.get_traced_memory()[1] < 200 * 2**20
    tracemalloc.stop()


def test_a_manifest_s_patterns_over_thousands_of_paths_take_no_time() -> None:
    """helper-59: minimatch built the state machine on every call (~100 us each): three
    patterns over 2,000 paths took 2 s."""
    paths = [f"/set/src/a{i}/doc{i}.md" for i in range(2000)]
    started = time.monotonic()
    kept = apply_patterns(paths, ["src/**/*.md", "!**/draft-*.md", "!**/*.test.*"], "/set")
    assert len(kept) == 2000 and time.monotonic() - started < 0.5
    assert _tame("**/*.{ts,js}") and not _tame("{*a,b}*c*d")
