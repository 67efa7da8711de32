"""Edges of pi's patterns: dot names, `**` inside a path, classes, braces, ignore-file lines."""

from __future__ import annotations

from pathlib import Path

import pytest

from installer.sets.pipatterns import Ignore, apply_patterns, minimatch

ROOT = "/set"
FILES = ["/set/extensions/a.ts", "/set/extensions/b.ts", "/set/skills/col/one/SKILL.md"]


@pytest.mark.parametrize(
    ("path", "pattern", "hit"),
    [
        (".a.ts", "*.ts", False),  # a star that starts the pattern skips dot names too
        ("a.b.ts", "a*.ts", True),  # inside a name a star takes dots
        ("extensions/sub/c.ts", "extensions/**", True),
        ("extensions/.d/c.ts", "extensions/**", False),
        ("a.js", "{a,b}.{ts,js}", True),
        ("x}a", "x}{a,b}", True),
        ("axc", "[ab]x[cd]", True),
        ("axb", "a[!]]b", True),
        ("axb", "a[^]]b", True),
        ("axb", "a[^a]b", True),
        ("aab", "a[^a]b", False),
        ("x!y", "x[!ab]y", True),
        ("xay", "x[!ab]y", False),
        ("X", "[ab]", False),
        ("b", "[a-c]", True),
        ("a5b", "a[\\d]b", False),  # a class holds no regex escapes
    ],
)
def test_minimatch_edges(path: str, pattern: str, hit: bool) -> None:
    assert minimatch(path, pattern) is hit


def test_a_force_include_alone_is_no_include_pattern() -> None:
    assert apply_patterns(FILES, ["+extensions/a.ts"], ROOT) == set(FILES)


def test_a_skill_is_matched_by_its_folder_relative_to_the_base() -> None:
    assert apply_patterns(FILES, ["!skills/col/*"], ROOT) == set(FILES[:2])


@pytest.mark.parametrize(
    ("lines", "path", "is_dir", "ignored"),
    [
        (["*.md"], ".hidden.md", False, True),  # gitignore's star takes dot names
        (["a\\*"], "a*", False, True),
        (["a\\*"], "a*b", False, False),
        (["a\\b"], "ab", False, True),
        (["#x.md"], "#x.md", False, False),  # a comment, not a rule
        (["\\!x.md"], "!x.md", False, True),
        (["x\\ "], "x ", False, True),  # an escaped trailing space stays
        (["x.md\r"], "x.md", False, True),  # a CR left by a CRLF file goes
        (["logX"], "log", False, False),
        (["build"], "build/x.js", False, True),  # a rule for a name covers what is in it
    ],
)
def test_ignore_file_line_edges(lines: list[str], path: str, is_dir: bool, ignored: bool) -> None:
    ig = Ignore()
    ig.add_lines(lines)
    assert ig.ignores(path, is_dir) is ignored


def test_a_line_ending_in_a_backslash_is_read_without_error() -> None:
    ig = Ignore()
    ig.add_lines(["a\\"])
    assert ig.ignores("a", False) is False


def test_a_trailing_tab_stays_part_of_an_ignore_rule_as_in_pi() -> None:
    # pi's ignore package (7.0.17) reads "x.md<TAB>" as a rule for a name ending in a tab, so
    # pi still loads x.md; ext's rstrip("\t\r") takes the line for x.md and reads it as ignored.
    ig = Ignore()
    ig.add_lines(["x.md\t"])
    assert ig.ignores("x.md", False) is False


def test_more_ignore_rules_than_ext_reads_are_refused_before_they_are_made(tmp_path: Path) -> None:
    """helper-92: 800,000 lines of `zzN*q*r` in a set's .gitignore took ext list 31 s and
    10.7 GB; the walk stops at the rule past MOST_RULES, naming the file."""
    from installer.ground.errors import UsageError
    from installer.sets.pipatterns import MOST_RULES

    (tmp_path / ".gitignore").write_text("".join(f"zz{i}*q*r\n" for i in range(MOST_RULES + 5)))
    ig = Ignore()
    with pytest.raises(UsageError) as refused:
        ig.add(str(tmp_path), str(tmp_path), {".gitignore"})
    assert refused.value.message == (
        f"{tmp_path}/.gitignore: more ignore rules than ext reads in one folder of the set "
        "(10,000, with those of the folders above it)"
    )
    assert len(ig.rules) == MOST_RULES
