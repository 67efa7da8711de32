"""A prompt template as a Gemini CLI command: arguments mapped, what TOML cannot mean refused,
and every text written reads back as itself."""

from __future__ import annotations

import json
import tomllib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from installer.hosts.toml_commands import Unwritable, command_text, split_frontmatter, toml_name
from installer.sets.resources import Resource

R = Resource("prompt", "fix", "fix.toml", "file", "/set/prompts/fix.md")


def read(text: str) -> dict[str, str]:
    return tomllib.loads(command_text(R, text, "ext --host gemini install"))


def test_all_of_the_arguments_become_args() -> None:
    assert read("Fix $ARGUMENTS, then $@ and ${@}.\n")["prompt"] == (
        "Fix {{args}}, then {{args}} and {{args}}.\n"
    )


def test_the_description_comes_from_the_frontmatter_unquoted() -> None:
    got = read('---\ndescription: "Fix: it"\nargument-hint: "[x]"\n---\nBody\n')
    assert got == {"description": "Fix: it", "prompt": "Body\n"}


def test_no_frontmatter_no_description() -> None:
    assert read("Just do it\n") == {"prompt": "Just do it\n"}


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ("Fix $1\n", "it uses $1"),
        ("Fix ${1:-all}\n", "it uses ${1"),
        ("Fix ${@:2}\n", "it uses ${@:"),
        ("Run !{rm -rf ~}\n", "runs a shell command"),
        ("Read @{secrets.txt}\n", "reads a file"),
        ("Use {{args}}\n", "Gemini CLI's own placeholder"),
    ],
)
def test_what_gemini_would_read_otherwise_is_refused_with_why(body: str, said: str) -> None:
    with pytest.raises(Unwritable, match=None) as err:
        command_text(R, body, "ext --host gemini install")
    assert said in str(err.value)


def test_a_frontmatter_that_never_closes_is_body() -> None:
    assert split_frontmatter("---\nno end\n") == ("", "---\nno end\n")


def test_the_file_is_named_as_gemini_names_the_command() -> None:
    assert toml_name("review.md") == "review.toml"
    assert toml_name("README") == "README.toml"


_SAFE = st.text(
    st.characters(blacklist_categories=("Cs",), blacklist_characters="$!@{"), max_size=200
)


@given(
    body=_SAFE, description=st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=40)
)
def test_any_text_reads_back_from_the_toml_as_itself(body: str, description: str) -> None:
    # Written as a YAML double-quoted scalar (JSON's strings are): the frontmatter says it.
    head = f"---\ndescription: {json.dumps(description)}\n---\n" if description else ""
    got = read(head + body)
    assert got["prompt"] == body.strip("\n") + "\n"
    assert got.get("description") == (description or None)
