"""Each `--json` document has the keys README.md's "JSON" section says it has: the section is
read, its shapes parsed, and each held to what the command prints (in-process, on a set and
an agent dir of the test's own). A key the command prints that the README does not name, or
a key the README promises (without `?`) that the command leaves out, fails the test."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from installer.cli.app import app
from tests.helpers import build_tree

README = Path(__file__).resolve().parents[2] / "README.md"
DEAD = "http://127.0.0.1:9/"  # nothing listens: a check asks and gets no answer at once
SET = {
    # A guard, and a skill an install leaves out: list then prints `guard`, `left_out` and
    # `note`, keys the README marks as optional, which an empty run would never check.
    "extset.toml": '[set]\nname = "tools"\n\n[guards.notify]\nreason = "keeps pings"\n',
    "extensions/notify.ts": "export default function notify() {}\n",
    "skills/review/SKILL.md": "---\ndescription: reviews a change\n---\n# review\n",
}


class Shape:
    """A documented object: its keys, those marked optional (`?`), and each key's own shape
    where it is an object or a list of objects."""

    def __init__(self) -> None:
        self.keys: dict[str, Shape | None] = {}
        self.optional: set[str] = set()


def parse(text: str) -> Shape:
    """The README's pseudo-JSON, `{"a", "b"?, "c": [{"d"}], "e": {"f"}}`: keys, `?`, nesting;
    any other value (`…`, a word) is left unread."""
    shape, rest = _object(text.strip())
    assert not rest.strip(" ;"), f"left unread: {rest!r}"
    return shape


def _object(text: str) -> tuple[Shape, str]:
    assert text.startswith("{"), text
    shape, text = Shape(), text[1:].lstrip()
    while not text.startswith("}"):
        found = re.match(r'"([a-z_]+)"(\?)?\s*', text)
        assert found, f"a key expected at {text[:40]!r}"
        key, text = found.group(1), text[found.end() :]
        shape.keys[key] = None
        if found.group(2):
            shape.optional.add(key)
        if text.startswith(":"):
            text = text[1:].lstrip()
            nested = text.removeprefix("[").lstrip()
            if nested.startswith("{"):
                shape.keys[key], text = _object(nested)
                text = text.lstrip().removeprefix("]").lstrip()
            else:  # a value left unread: up to the next key or the end of this object
                end = re.search(r",|}", text)
                assert end, text
                text = text[end.start() :]
        text = text.lstrip().removeprefix(",").lstrip()
    return shape, text[1:]


def documented(lead: str, first_key: str = "") -> Shape:
    """The shape the README's JSON bullet starting with `lead` gives first (or the first
    whose first key is `first_key`: a nested object the bullet gives in its prose)."""
    section = README.read_text(encoding="utf-8").split("\n## JSON\n", 1)[1].split("\n## ", 1)[0]
    bullets = re.split(r"\n- ", section)
    (bullet,) = [b for b in bullets if b.startswith(lead)]
    code = re.search(rf'`(\{{"{first_key}.*?\}})`', " ".join(bullet.split()))
    assert code, bullet
    return parse(code.group(1))


def held(doc: Any, shape: Shape, where: str = "") -> list[str]:
    """How `doc` strays from `shape`, keys both ways, into objects and lists of objects."""
    if isinstance(doc, list):
        return [p for d in doc for p in held(d, shape, where + "[]")]
    assert isinstance(doc, dict), (where, doc)
    out = [f"{where}.{k}: printed, not in README" for k in doc if k not in shape.keys]
    out += [
        f"{where}.{k}: in README, not printed"
        for k in shape.keys
        if k not in doc and k not in shape.optional
    ]
    for key, inner in shape.keys.items():
        if inner is not None and doc.get(key) is not None:
            out += held(doc[key], inner, f"{where}.{key}")
    return out


def test_the_readers_parse_what_they_say() -> None:
    shape = parse('{"a", "b"?, "c": [{"d", "e"?}], "f": {"g"}, "h": str}')
    assert list(shape.keys) == ["a", "b", "c", "f", "h"] and shape.optional == {"b"}
    assert held({"a": 1, "c": [{"d": 1}], "f": {"g": 2}, "h": "x"}, shape) == []
    assert held({"a": 1, "c": [{"x": 1}], "f": {"g": 2}, "h": "x"}, shape) == [
        ".c[].x: printed, not in README",
        ".c[].d: in README, not printed",
    ]


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    root = build_tree(tmp_path / "set", dict(SET))
    agent = tmp_path / "agent"
    for var, value in (
        ("EXT_NO_UPDATE_CHECK", "1"),
        ("EXT_INDEX_URL", DEAD),
        ("EXT_NPM_REGISTRY", DEAD),
    ):
        monkeypatch.setenv(var, value)

    def run(*args: str) -> Any:
        argv = ["--json", "--set", str(root), "--agent-dir", str(agent), *args]
        result = CliRunner().invoke(app, argv)
        return json.loads(result.stdout)

    return run


@pytest.mark.parametrize(
    ("lead", "args"),
    [
        ("install/uninstall", ("install", "--create", "--yes")),
        ("`ext list --json`", ("list",)),
        ("`ext doctor --json`", ("doctor",)),
        ("`ext update --check --json`", ("update", "--check")),
        ("errors", ("enable", "nosuch", "--yes")),
    ],
)
def test_each_document_has_the_keys_the_readme_gives(
    lead: str, args: tuple[str, ...], run: Any
) -> None:
    if args[0] != "install":
        run("install", "--create", "--yes", "--skip", "skill:review")
    doc = run(*args)
    assert held(doc, documented(lead)) == []
    if args == ("list",):  # the optional keys this set makes list print: checked, not skipped
        keys = {k for item in doc["items"] for k in item}
        assert {"guard", "left_out", "note"} <= keys, keys
        guard = documented(lead, first_key="process")
        assert [p for i in doc["items"] if "guard" in i for p in held(i["guard"], guard)] == []
