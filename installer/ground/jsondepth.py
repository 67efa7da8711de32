"""How deep a JSON text nests, found by a scan: Python's json module recurses, and a file of a
thousand `[` (a set's package.json, helper-79) ended `ext list` in a RecursionError."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

MAX_NESTING = 64  # arrays and objects one inside another: no manifest or settings file nears it


def too_deep(text: str, limit: int = MAX_NESTING) -> bool:
    """Whether JSON text nests arrays or objects deeper than limit (a scan: no depth crashes it)."""
    depth = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                return True
        elif char in "]}":
            depth -= 1
    return False


def loads(text: str, **options: Any) -> Any:
    """`json.loads(text, **options)`, or ValueError when the text nests deeper than
    MAX_NESTING (scanned first: the parser would recurse into it)."""
    import json

    if too_deep(text):
        raise ValueError(f"arrays or objects nested more than {MAX_NESTING} levels deep")
    return json.loads(text, **options)


def refused_deep(path: object) -> tuple[str, str]:
    """The message and fix of a JSON file of a set that nests deeper than ext reads."""
    return (
        f"{path} nests arrays or objects more than {MAX_NESTING} levels deep: ext does not "
        "read it (pi would), so it cannot tell what pi takes from it",
        'flatten it: a package.json\'s "pi" manifest needs two levels',
    )
