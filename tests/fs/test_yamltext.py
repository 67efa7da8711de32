"""A frontmatter key's text, as ext reads it, against pi's own `yaml` package (each real pi's
copy, run by Node): every form a person writes, and hypothesis's texts in each of them."""

from __future__ import annotations

import json
import random
import subprocess
from typing import Any

import pytest

from installer.sets.yamltext import text_of
from tests.pis import RealPi

# Node reads each frontmatter with pi's yaml package: the key's string, "other" when the
# value is not a string, "error" when YAML refuses the document.
JUDGE = """
const YAML = require(process.argv[1]);
const cases = JSON.parse(require("fs").readFileSync(0, "utf8"));
const out = cases.map(([head, key]) => {
  try {
    const doc = YAML.parse(head);
    const value = doc && typeof doc === "object" ? doc[key] : undefined;
    return typeof value === "string" ? {kind: "string", value} : {kind: "other"};
  } catch (e) { return {kind: "error"}; }
});
process.stdout.write(JSON.stringify(out));
"""

FIXED = [
    'description: "Review the \\"staged\\" changes"',
    "description: 'it''s fine'",
    "description: >\n  Folded\n  text.\n\n  A second paragraph.\nname: x",
    "description: >-\n  no final\n  break\n",
    "description: |\n  line one\n  line two\n",
    "description: |-\n  kept\n    indented\n  as is\n",
    "description: plain text # a comment",
    "description:\n  on the next line\n  and the one after",
    "description: a\n  b\n\n  c",
    'description: "two\n  lines"',
    'description: "joined\\\n  here"',
    'description: "fm\\u001b]0;title\\x07 and \\t tab"',
    "description: 'single\n\n  with an empty line'",
    "name: x\ndescription: after another key\n",
    "description: !!str 42",
    "description: ''",
    'description: ""',
    "description: >\n  a\n    more indented\n  b\n",
    "description: |+\n  kept\n\n",  # review: a `+` block keeps its trailing breaks
    'description: "an escaped tab\\\t\n  then more"',  # and a line keeps an escaped tab
    "description: |\n  a\n     \n  b\n",  # spaces past a literal block's indent are text
    "description: &a an anchored text\nother: *a\n",  # the anchor names it (each agent loads it)
    "description: &q 'quoted, anchored'",
    "description: &blk |\n  a block\n",
    "description: &below\n  on the next line\n",
    '"description": a quoted key\n',  # the key is description (helper-84)
    "'description': a single-quoted key\n",
]


def judged(pi: RealPi, cases: list[tuple[str, str]]) -> list[dict[str, Any]]:
    yaml = pi.bin.parents[1] / "yaml"
    done = subprocess.run(
        ["node", "-e", JUDGE, str(yaml)],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        env={"PATH": pi.path()},
        timeout=60,
        check=True,
    )
    answers: list[dict[str, Any]] = json.loads(done.stdout)
    return answers


def agree(pi: RealPi, heads: list[str], must_answer: bool) -> None:
    cases = [(head, "description") for head in heads]
    for head, answer in zip(heads, judged(pi, cases), strict=True):
        mine = text_of(head, "description")
        # A frontmatter YAML refuses is not judged here: the host loads nothing of that file
        # (for pi, installer.sets.piskill says so); a value that is not text neither.
        if answer["kind"] == "string":
            assert mine == answer["value"] or (mine is None and not must_answer), head


def test_each_form_reads_as_pis_yaml_reads_it(real_pi: RealPi) -> None:
    agree(real_pi, FIXED, must_answer=True)
    assert [j["kind"] for j in judged(real_pi, [(h, "description") for h in FIXED])].count(
        "string"
    ) == len(FIXED)  # every fixed form is text to YAML: none passes by being skipped


# Pieces a description is made of, the ones YAML treats specially among them.
_PIECES = ["'", '"', "\\", "#", " #", ": ", ":", " ", "\t", "\\n", "\\u00e9", "- ", "-", "&", "*"]
_PIECES += ["!", "|", ">", "[", "]", "{", "}", ",", "?", "%", "@", "`", "0", "1.5", "true", "~"]
_PIECES += ["plain", "Wörter", "日本語", "😀", "\u2028", "x y", "  ", "a\\", "\\\\"]


def random_heads(seed: int, count: int) -> list[str]:
    """`count` frontmatters whose description is random text in one of YAML's five forms:
    double- and single-quoted, literal and folded blocks, plain; over one to four lines."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        words = [
            "".join(rng.choice(_PIECES) for _ in range(rng.randint(1, 5)))
            for _ in range(rng.randint(1, 4))
        ]
        style = rng.choice(["double", "single", "literal", "folded", "plain"])
        if style == "double":
            value = (
                '"' + "\n  ".join(w.replace("\\", "\\\\").replace('"', '\\"') for w in words) + '"'
            )
        elif style == "single":
            value = "'" + "\n  ".join(w.replace("'", "''") for w in words) + "'"
        elif style in ("literal", "folded"):
            lines = [w.replace("\t", " ").strip() or "x" for w in words]
            head = ("|" if style == "literal" else ">") + rng.choice(["", "-"])
            value = head + "\n" + "\n".join(f"  {line}" for line in lines)
        else:
            value = "\n  ".join(words)
        out.append(f"name: probe\ndescription: {value}\nother: 1\n")
    return out


def test_any_text_in_any_form_reads_as_pis_yaml_reads_it(real_pi: RealPi) -> None:
    """Seeded, not hypothesis: one Node start judges the whole batch (hypothesis's examples
    would each start one); a failure names the frontmatter."""
    agree(real_pi, random_heads(31, 3000), must_answer=False)


NOT_STRINGS = ["null", "~", "true", "False", "1.5", "42", "-7", "0x1F", ".inf", ".NaN", "1e3", ""]


def test_a_plain_value_the_core_schema_reads_as_no_string_is_none(real_pi: RealPi) -> None:
    """Review (helper-22): `name: null` named a skill `null` where pi, finding no string,
    names it by its folder; `description: true` counted as a description."""
    heads = [f"description: {value}\n" for value in NOT_STRINGS]
    answers = judged(real_pi, [(head, "description") for head in heads])
    assert {a["kind"] for a in answers} == {"other"}  # what pi's yaml makes of each: no string
    assert [text_of(head, "description") for head in heads] == [None] * len(heads)
    quoted = [text_of(f"description: '{value}'\n", "description") for value in NOT_STRINGS]
    assert quoted == NOT_STRINGS  # quoted, each is text


def test_a_value_that_is_not_text_is_none() -> None:
    assert text_of("description:\n  - a\n  - b", "description") is None
    assert text_of("description:\n  key: value", "description") is None
    assert text_of("description: [a, b]", "description") is None
    assert text_of("name: x", "description") is None
    assert text_of('description: "never closed', "description") is None
    assert text_of('description: "\\ud800 half a pair"', "description") is None
    assert text_of('description: "\\U00110000"', "description") is None


@pytest.mark.parametrize(
    ("head", "null"),
    [
        ("name: x\n", True),  # absent
        ("description:\n", True),
        ("description: ~\n", True),
        ("description: null # later\n", True),
        ("description: # a comment\n  # and another\n", True),
        ("description: NULL\n", True),
        ('description: ""\n', False),  # blank text is text
        ("description: 42\n", False),
        ("description:\n  below\n", False),
        ("description: nullish\n", False),
    ],
)
def test_a_key_is_null_as_yaml_reads_it(head: str, null: bool) -> None:
    """What ext tells apart from "no text": an agent refuses a null description (helper-78)."""
    from installer.sets.yamltext import is_null

    assert is_null(head, "description") is null
