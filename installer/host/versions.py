"""Versions and version ranges, in npm's grammar (pi is an npm package): ext's one version type.

The rules are npm's own, through node-semver (`nodesemver`, a port of npm's semver
library): `^`, `~`, `x`, hyphen ranges, `||`, and which prereleases a range admits.
Importing it costs ~25 ms, a third of a no-op `ext install`, whose drift check asks the
same two questions on every run (is `[host] tested` a range? where is this pi against
it?). Each answer is kept in ext's cache dir by the range's text, so the library loads
once per new range or new pi version, not per command. Reading a version out of a host's
package.json or `--version` output is a pattern match here, without the library.
"""

from __future__ import annotations

import time
from pathlib import Path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Literal

    from nodesemver import SemVer as Version

    Where = Literal["in", "older", "newer", "between"]

SCHEMA = 2  # 2: a list of versions with commas is told to use `||` (1 said spaces)
_KEEP_RANGES = 32
_KEEP_VERSIONS = 32
EXAMPLES = '">=1.6.0 <1.7.0", "~1.6.0" or "~0.73.0 || ~1.6.0"'


# ---- versions ---------------------------------------------------------------

# What a host reports as its version, read without the library (on `ext --version`'s path).
# Patterns are strings, compiled by re's own cache on first use: compiling them at import
# would cost every command a few milliseconds for nothing.
_SHAPE = (
    r"v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+[0-9A-Za-z.-]+)?"
)
_IN_TEXT = (
    r"(?<![\w.])v?(\d+\.\d+\.\d+"
    r"(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?(?:\+[0-9A-Za-z.-]+)?)(?![\w.])"
)


def looks_like_version(text: str) -> bool:
    """`0.73.1`, `v1.2.3-rc.1`, `0.73`: text a package.json may give as its version (a shape
    check only; ordering is parse_version's)."""
    import re

    return re.fullmatch(_SHAPE, text.strip()) is not None


def version_in(text: str) -> str | None:
    """The first `1.2.3[-pre][+build]` standing alone in a command's output (`v` dropped)."""
    import re

    match = re.search(_IN_TEXT, text)
    return match.group(1) if match else None


def parse_version(text: object) -> Version | None:
    """A strict semver version (`1.2.3`, `v1.2.3-rc.1+b`); None for anything else.

    A version that is not semver (`2024.1`, `0.73`) has no order npm would agree on,
    so it is ignored rather than guessed at.
    """
    if not isinstance(text, str):
        return None
    import nodesemver

    try:
        return nodesemver.make_semver(text.strip(), loose=False)
    except (ValueError, TypeError):
        return None


def newer(latest: str | None, current: str | None) -> bool | None:
    """True when `latest` is newer than `current`; None when either is not semver."""
    have, new = parse_version(current), parse_version(latest)
    if have is None or new is None:
        return None
    return bool(new.compare(have) > 0)


def newest_in(versions: list[str], wanted: str) -> str | None:
    """The newest of `versions` that `wanted` admits, by npm's rules; None when none does."""
    import nodesemver

    good = [v for v in versions if parse_version(v) is not None]
    try:
        best = nodesemver.max_satisfying(good, _spaced(wanted), loose=False)
    except (ValueError, TypeError):
        return None
    return str(best) if best else None


# ---- ranges -----------------------------------------------------------------


def range_error(text: str) -> str | None:
    """Why `text` is not an npm version range; None when it is one."""
    memo = _load()
    entry = memo.get(text)
    if entry is not None and "error" in entry:
        error = entry["error"]
        return error if isinstance(error, str) else None
    error = _range_error(text)
    _remember(memo, text, error=error)
    return error


# JavaScript's `\s` (and what its trim() drops), not Python's white space: `\x1f` and `\x85` are
# none of it, a BOM is (helper-93).
_JS_SPACE = "[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+"


_PY_ONLY_SPACE = frozenset("\x1c\x1d\x1e\x1f\x85")


def _spaced(text: str) -> str:
    """A range with each run of white space made one space, as npm reads it first
    (`range.trim().split(/\\s+/).join(' ')` in node-semver's Range): nodesemver parses a run
    of spaces after an operator in n**4 time (helper-92: `>=` and 1,000 spaces in a set's
    `[host] tested` held every command for half an hour)."""
    import re

    return re.sub(_JS_SPACE, " ", text).strip(" ")


# A version, or a range of one (`1.6`, `1.x`, `^1.6.0`, `~0.73`), with no comparison of its own.
_ONE_VERSION = r"[~^]?v?\d+(?:\.(?:\d+|[xX*])){0,2}"


def _range_error(text: str) -> str | None:
    import re

    import nodesemver

    if "," in text:
        parts = [p.strip() for p in text.split(",") if p.strip()]
        if all(re.fullmatch(_ONE_VERSION, p) for p in parts):  # `1.6, 1.7`: either of them
            either = " || ".join(parts)
            return f"npm ranges separate alternatives with ||, not commas: write {either!r}"
        spaced = " ".join(parts)  # `>=1.6, <1.7`: both at once
        return f"npm ranges separate comparators with spaces, not commas: write {spaced!r}"
    if _PY_ONLY_SPACE.intersection(text):  # Python's \s, nodesemver's, takes them; JS's not
        return "not a version range in npm's grammar"
    try:
        if nodesemver.valid_range(_spaced(text), loose=False) is not None:
            return None
    except (ValueError, TypeError):
        pass
    return "not a version range in npm's grammar"


def where(version: str | None, wanted: str | None) -> Where | None:
    """Where `version` stands against the range `wanted`: in it, older or newer than all of
    it, or between its parts (or a prerelease the range leaves out, as npm does); None when
    either is missing or cannot be read.
    """
    if not version or wanted is None:
        return None
    memo = _load()
    entry = memo.get(wanted, {})
    seen = entry.get("at")
    if isinstance(seen, dict) and seen.get(version) in ("in", "older", "newer", "between"):
        return seen[version]  # type: ignore[no-any-return]
    error = entry["error"] if "error" in entry else _range_error(wanted)
    if error is not None:
        _remember(memo, wanted, error=str(error))
        return None
    found = _where(version, wanted)
    if found is not None:
        _remember(memo, wanted, error=None, at=(version, found))
    return found


def _where(version: str, wanted: str) -> Where | None:
    """`where` for a range known to be valid."""
    import nodesemver

    parsed = parse_version(version)
    if parsed is None:
        return None
    text = str(parsed.version)
    # Not include_prerelease: in nodesemver 0.9.1 it makes every prerelease compare equal to
    # its release (npm orders 1.0.0-rc.1 before 1.0.0); npm's default rule is the one kept.
    if nodesemver.satisfies(text, _spaced(wanted), loose=False):
        return "in"
    # nodesemver's ltr/outside (0.9.1) call its comparisons without their `loose` argument
    # and raise; the side is read from the range's comparator sets instead.
    alternatives = nodesemver.make_range(_spaced(wanted), loose=False).set
    if all(_fails(parsed, group, (">", ">=")) for group in alternatives):
        return "older"
    if all(_fails(parsed, group, ("<", "<=")) for group in alternatives):
        return "newer"
    return "between"


def reaches(low: str, high: str | None, wanted: str) -> bool | None:
    """Whether a version from `low` to `high` (both in; None: no end) is in the range `wanted`,
    by the bounds of each of its parts (helper-91: `0.72.0 || 2.0.0` is neither above nor
    below pi's 1.x releases, and has none of them); None when either cannot be read.
    Prereleases are not told apart: the releases of pi's lines are what is asked about.
    Kept in the memo beside `where`'s answers (a span is no version: `0.74.0..1.6.0`)."""
    memo = _load()
    span = f"{low}..{high or ''}"
    seen = memo.get(wanted, {}).get("at")
    if isinstance(seen, dict) and seen.get(span) in ("yes", "no"):
        return bool(seen[span] == "yes")
    if range_error(wanted) is not None:
        return None
    found = _reaches(low, high, wanted)
    if found is not None:
        _remember(memo, wanted, at=(span, "yes" if found else "no"))
    return found


def _reaches(low: str, high: str | None, wanted: str) -> bool | None:
    """`reaches` for a range known to be valid."""
    import nodesemver

    start, end = parse_version(low), parse_version(high) if high is not None else None
    if start is None or (high is not None and end is None):
        return None
    for group in nodesemver.make_range(_spaced(wanted), loose=False).set:
        bottom, top = start, (end, False)  # the part's span within ours; top: (bound, open)
        for comparator in group:
            op, bound = getattr(comparator, "operator", None), getattr(comparator, "semver", None)
            if bound is None or not getattr(bound, "version", None):
                continue  # `*`: no bound
            if op in ("", "=", ">", ">="):  # a release above `>x` is x's next patch at least
                low_bound = _next_release(bound) if op == ">" else bound
                bottom = low_bound if low_bound.compare(bottom) > 0 else bottom
            if op in ("", "=", "<", "<=") and _tighter(bound, op == "<", top):
                top = (bound, op == "<")
        if top[0] is None:
            return True
        side = bottom.compare(top[0])
        if side < 0 or (side == 0 and not top[1]):
            return True
    return False


def _next_release(version: Version) -> Version:
    """The first release above `version`: its next patch (a prerelease's own release)."""
    import nodesemver

    patch = version.patch if version.prerelease else version.patch + 1
    return nodesemver.make_semver(f"{version.major}.{version.minor}.{patch}", loose=False)


def _tighter(bound: Version, open_: bool, top: tuple[Version | None, bool]) -> bool:
    """Whether an upper bound is below `top` (None: no upper bound yet)."""
    if top[0] is None:
        return True
    side = bound.compare(top[0])
    return side < 0 or (side == 0 and open_ and not top[1])


def _fails(version: Version, group: list[object], ops: tuple[str, ...]) -> bool:
    """True when `version` is outside one of the group's bounds on that side."""
    import nodesemver

    for comparator in group:
        op = getattr(comparator, "operator", "")
        bound = getattr(comparator, "semver", None)
        if op in ops and bound is not None and not nodesemver.cmp(version, op, bound, False):
            return True
        if op in ("", "=") and bound is not None and getattr(bound, "version", None):
            # an exact version: below it is older, above it newer
            side = version.compare(bound)
            if (side < 0 and ">" in ops) or (side > 0 and "<" in ops):
                return True
    return False


# ---- the memo ---------------------------------------------------------------

Memo = dict[str, dict[str, object]]


def memo_path() -> Path:
    """`<user cache dir>/extset/ranges.json`."""
    from installer.ground.userdirs import user_dir

    return user_dir("cache") / "ranges.json"


def _load() -> Memo:
    from installer.ground.cachefile import read_table

    return read_table(memo_path(), SCHEMA, "ranges")


def _remember(
    memo: Memo,
    text: str,
    *,
    error: str | Literal[False] | None = False,
    at: tuple[str, str] | None = None,
) -> None:
    """Add one answer for `text` and write the memo; a memo that cannot be written only
    costs speed."""
    from installer.ground.cachefile import write_table

    entry = dict(memo.pop(text, {}))
    if error is not False:
        entry["error"] = error
    if at is not None:
        old = entry.get("at")
        versions = dict(old) if isinstance(old, dict) else {}
        versions.pop(at[0], None)
        versions[at[0]] = at[1]
        entry["at"] = dict(list(versions.items())[-_KEEP_VERSIONS:])
    entry["used"] = time.time()
    memo[text] = entry  # last is newest
    kept = dict(list(memo.items())[-_KEEP_RANGES:])
    write_table(memo_path(), SCHEMA, "ranges", kept)
