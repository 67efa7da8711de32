"""pi's pattern rules (applyPatterns, minimatch, globSync) over literal paths: no disk."""

from __future__ import annotations

import pytest

from installer.sets.pipatterns import Ignore, apply_patterns, minimatch

ROOT = "/set"
FILES = [
    "/set/extensions/a.ts",
    "/set/extensions/b.ts",
    "/set/extensions/sub/c.ts",
    "/set/skills/col/one/SKILL.md",
    "/set/skills/solo.md",
]


@pytest.mark.parametrize(
    ("path", "pattern", "hit"),
    [
        ("extensions/a.ts", "extensions/*.ts", True),
        ("extensions/sub/c.ts", "extensions/*.ts", False),  # * stays in one folder
        ("extensions/sub/c.ts", "extensions/**/*.ts", True),
        ("extensions/a.ts", "extensions/**/*.ts", True),  # ** may be no folder at all
        ("extensions/.hidden.ts", "extensions/*.ts", False),  # no dot files by default
        ("extensions/a.ts", "./extensions/a.ts", False),  # minimatch keeps `./` (glob drops it)
        ("x/.d/y.ts", "x/**/y.ts", False),  # ** does not enter dot folders
        ("extensions/a.ts", "extensions/{a,b}.ts", True),
        ("extensions/c.ts", "extensions/{a,b}.ts", False),
        ("extensions/a.ts", "extensions/[ab].ts", True),
        ("extensions/c.ts", "extensions/[!ab].ts", True),
        ("extensions/a.ts", "extensions/?.ts", True),
        ("a.ts", "*.ts", True),
        ("a+b.ts", "a+b.ts", True),  # regex characters are literal
        ("skills/col/one", "**/sub/**", False),
    ],
)
def test_minimatch(path: str, pattern: str, hit: bool) -> None:
    assert minimatch(path, pattern) is hit


def test_no_patterns_enable_everything() -> None:
    assert apply_patterns(FILES, [], ROOT) == set(FILES)


def test_plain_patterns_include_only_what_they_match() -> None:
    assert apply_patterns(FILES, ["extensions/*.ts"], ROOT) == set(FILES[:2])


def test_an_exclusion_matches_the_relative_path_the_name_or_the_whole_path() -> None:
    assert "/set/extensions/a.ts" not in apply_patterns(FILES, ["!extensions/a.ts"], ROOT)
    assert "/set/extensions/a.ts" not in apply_patterns(FILES, ["!a.ts"], ROOT)
    assert "/set/extensions/a.ts" not in apply_patterns(FILES, ["!/set/extensions/a.ts"], ROOT)
    assert apply_patterns(FILES, ["!**/sub/**"], ROOT) == set(FILES) - {FILES[2]}


def test_a_skill_is_also_matched_by_its_folder() -> None:
    skill = "/set/skills/col/one/SKILL.md"
    assert skill not in apply_patterns(FILES, ["!one"], ROOT)
    assert skill not in apply_patterns(FILES, ["-skills/col/one"], ROOT)
    assert skill not in apply_patterns(FILES, ["-skills/col/one/SKILL.md"], ROOT)


def test_force_include_beats_exclude_and_force_exclude_beats_both() -> None:
    got = apply_patterns(FILES, ["!extensions/*.ts", "+extensions/a.ts"], ROOT)
    assert "/set/extensions/a.ts" in got and "/set/extensions/b.ts" not in got
    got = apply_patterns(FILES, ["+extensions/a.ts", "-extensions/a.ts"], ROOT)
    assert "/set/extensions/a.ts" not in got


def test_force_patterns_are_exact_not_globs() -> None:
    assert apply_patterns(FILES, ["-extensions/*.ts"], ROOT) == set(FILES)
    assert "/set/extensions/a.ts" not in apply_patterns(FILES, ["-./extensions/a.ts"], ROOT)


@pytest.mark.parametrize(
    ("path", "pattern", "hit"),
    [
        ("a]b", "a[]]b", True),  # a leading `]` is part of the class
        ("a]b", "a[!]]b", False),
        ("a^b", "a[\\^]b", True),
        ("a-b", "a[x-]b", True),
        ("a.b", "a[.]b", True),
        ("axb", "a[.]b", False),
    ],
)
def test_character_classes_never_crash(path: str, pattern: str, hit: bool) -> None:
    assert minimatch(path, pattern) is hit


@pytest.mark.parametrize(
    ("lines", "path", "is_dir", "ignored"),
    [
        (["*.js"], "a.js", False, True),
        (["*.js"], "sub/a.js", False, True),
        (["build/"], "build", True, True),
        (["build/"], "build", False, False),
        (["/top.md"], "sub/top.md", False, True),  # pi drops the `/` before `ignore` sees it
        (["sub/x.md"], "a/sub/x.md", False, False),
        (["*.md", "!keep.md"], "keep.md", False, False),
        (["a/**/b.md"], "a/x/y/b.md", False, True),
        (["\\#x.md"], "#x.md", False, True),
        (["# comment", ""], "x.md", False, False),
        (["x.md   "], "x.md", False, True),
        (["{a,b}.md"], "a.md", False, False),  # no braces in gitignore
        (["x.md"], "sub/x.md", False, True),
    ],
)
def test_ignore_files_read_as_pi_and_its_ignore_package_do(
    lines: list[str], path: str, is_dir: bool, ignored: bool
) -> None:
    ig = Ignore()
    ig.add_lines(lines)
    assert ig.ignores(path, is_dir) is ignored


def test_a_subfolder_s_ignore_file_applies_below_it_only() -> None:
    ig = Ignore()
    ig.add_lines(["x.md"], "sub/")
    assert ig.ignores("sub/x.md", False)
    assert not ig.ignores("x.md", False) and not ig.ignores("sub/deeper/x.md", False)
