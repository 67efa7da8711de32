"""The sample sessions in README.md and docs/ are the real output, so they cannot drift.

Each `console` block named in SAMPLES is run, command by command, in a fresh HOME that
holds a copy of this repository's set at `~/src/extset` (where README's tour runs), and its
output (stdout and stderr, in order) is held to the block's text. When a plan line or a
count changes (another extension in the bundled set, a new action), the only thing to
update is the sample text in the doc. In the sample text:

- a line that is just `…` stands for any number of lines, and `…` inside a line for any text;
- a backup stamp (`20261129-191712`) or a time (`2026-11-29T18:57:10`) stands for any;
- `~` is the sandbox's HOME.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import NamedTuple

import pytest

from tests.e2e.conftest import EXT, REPO


class Sample(NamedTuple):
    doc: str  # path under the repository
    first: str  # the block's first command line, as written after `$ `
    before: str = ""  # shell run first, unshown (what the prose says was done)


SAMPLES = (
    Sample("README.md", "ext install --dry-run"),
    Sample(
        "README.md",
        "echo '// my own' > ~/.local/share/extset/agent/extensions/notify.ts",
        "ext install --yes >/dev/null 2>&1 && rm ~/.local/share/extset/agent/extensions/notify.ts",
    ),
    Sample("README.md", "ext install --only nosuch"),
    Sample("README.md", "ext disable notify git-checkpoint --yes", "ext install --yes >/dev/null"),
    Sample(
        "README.md",
        "ext history",
        "ext install --skip session-timer --yes && ext disable notify git-checkpoint --yes"
        " && ext enable notify --yes",
    ),
    Sample(
        "README.md",
        "ext init ~/my-pi-set --yes",
        "mkdir -p ~/.pi/agent/extensions && echo '// mine' > ~/.pi/agent/extensions/notify.ts",
    ),
    Sample("README.md", "ext -q doctor", "ext install --yes && rm prompts/review.md"),
    Sample("docs/doctor.md", "ext doctor", "ext install --yes"),
    Sample(
        "docs/doctor.md",
        "ext --set ~/src/my-pi doctor --check host.scope",
        "mkdir -p ~/src/my-pi/extensions && cd ~/src/my-pi"
        " && printf '[set]\\nname = \"my-pi\"\\n' > extset.toml"
        ' && printf \'import { getAgentDir } from "@earendil-works/pi-coding-agent";\\n'
        "export default (pi) => { getAgentDir(); };\\n' > extensions/ssh.ts"
        " && ext install --yes",
    ),  # the pi on PATH is today's (1.x): the sample says what pi 1.x loads
    Sample("docs/init-adopt.md", "ext init ~/my-pi-set --yes"),
    Sample("README.md", "ext --host claude install --yes", "mkdir -p ~/.claude ~/.gemini"),
    Sample("README.md", "ext --host codex install --yes", "mkdir -p ~/.codex"),
    Sample(
        "README.md",
        "ext --host opencode install --yes",
        "mkdir -p ~/.codex ~/.config/opencode && ext --host codex install --yes >/dev/null 2>&1",
    ),
    Sample(
        "README.md",
        "head -4 ~/.gemini/commands/review.toml",
        "mkdir -p ~/.gemini && ext --host gemini install --yes >/dev/null 2>&1",
    ),
)
# Blocks no sandbox here can reproduce, each with why; every other block must be in SAMPLES.
UNHELD = {
    ("README.md", "ext --set ~/my-pi outdated"): "needs a package index and a registry",
    ("docs/doctor.md", "ext -q doctor"): "a set broken six ways at once",
    ("docs/doctor.md", "ext doctor --deep --check host.load"): "an extension of the other scope",
    ("docs/doctor.md", "ext doctor --deep --check loader"): "a set pi cannot load",
    ("docs/doctor.md", "ext doctor --json --check items --check settings.lock"): "/home/you",
    ("docs/init-adopt.md", None): "a plan line quoted alone, not a session",
}
DOCS = ("README.md", *(f"docs/{p.name}" for p in sorted((REPO / "docs").glob("*.md"))))
STAMP = re.compile(r"\d{8}-\d{6}|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d")


def blocks(text: str) -> list[list[str]]:
    """The `console` blocks of a markdown text, as lists of lines."""
    found = re.findall(r"^```console\n(.*?)^```", text, re.MULTILINE | re.DOTALL)
    return [block.splitlines() for block in found]


def sessions(lines: list[str]) -> list[tuple[str, list[str]]]:
    """A block as (command, expected output lines); a `# …` comment is not part of the command."""
    out: list[tuple[str, list[str]]] = []
    for line in lines:
        if line.startswith("$ "):
            out.append((line[2:].split("   #")[0].strip(), []))
        elif out:
            out[-1][1].append(line)
    while out and out[-1][1] and not out[-1][1][-1]:
        out[-1][1].pop()
    return [(cmd, _trim(expected)) for cmd, expected in out]


def _trim(lines: list[str]) -> list[str]:
    while lines and not lines[-1].strip():
        lines = lines[:-1]
    return lines


def the_block(sample: Sample) -> list[tuple[str, list[str]]]:
    text = (REPO / sample.doc).read_text(encoding="utf-8")
    for block in blocks(text):
        found = sessions(block)
        if found and found[0][0] == sample.first:
            return found
    raise AssertionError(f"{sample.doc} has no console block starting with $ {sample.first}")


def matches(expected: list[str], actual: list[str]) -> bool:
    """Line by line; a `…` line matches any run of lines, `…` in a line any text."""
    pattern = "".join(
        r"(?:[^\n]*\n)*?" if line.strip() == "…" else _line(line) + r"\n" for line in expected
    )
    return re.fullmatch(pattern, "".join(f"{a}\n" for a in actual)) is not None


def _line(line: str) -> str:
    parts = [re.escape(STAMP.sub("<stamp>", p)).replace("<stamp>", f"(?:{STAMP.pattern})")
             for p in line.split("…")]  # fmt: skip
    return "[^\n]*".join(parts)


def test_every_sample_is_held_or_says_why_not() -> None:
    held = {(s.doc, s.first) for s in SAMPLES}
    for doc in DOCS:
        for block in blocks((REPO / doc).read_text(encoding="utf-8")):
            found = sessions(block)
            key = (doc, found[0][0] if found else None)
            assert key in held or key in UNHELD, f"{doc}: a console block nothing holds: {key[1]}"


@pytest.fixture
def sandbox(e2e_env: dict[str, str], isolated_home: Path) -> tuple[Path, dict[str, str]]:
    """The repository's set at ~/src/extset; ext and pi on PATH; output unbuffered, in order."""
    checkout = isolated_home / "src" / "extset"
    checkout.mkdir(parents=True)
    shutil.copy2(REPO / "extset.toml", checkout / "extset.toml")
    for name in ("extensions", "skills", "prompts", "themes"):
        if (REPO / name).is_dir():
            shutil.copytree(REPO / name, checkout / name, symlinks=True)
    env = {**e2e_env, "PATH": f"{EXT.parent}{os.pathsep}{e2e_env['PATH']}"}
    env["PYTHONUNBUFFERED"] = "1"  # stdout and stderr interleaved as a terminal shows them
    return checkout, env


@pytest.mark.parametrize("sample", SAMPLES, ids=[s.first for s in SAMPLES])
def test_a_docs_sample_is_the_real_output(
    sample: Sample, sandbox: tuple[Path, dict[str, str]], isolated_home: Path
) -> None:
    checkout, env = sandbox
    cwd = checkout
    if sample.before:
        subprocess.run(
            ["bash", "-c", sample.before],
            cwd=cwd,
            env=env,
            check=True,
            timeout=120,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    for command, expected in the_block(sample):
        done = subprocess.run(
            ["bash", "-c", command],
            cwd=cwd,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=120,
            check=False,
            stdin=subprocess.DEVNULL,
        )
        home = str(isolated_home)
        actual = _trim([line.replace(home, "~").rstrip() for line in done.stdout.splitlines()])
        assert matches([e.rstrip() for e in expected], actual), (
            f"{sample.doc}: `$ {command}` printed:\n" + "\n".join(actual)
        )
