"""A set's files as a hostile (or careless) repository commits them: a FIFO, a link to
/dev/zero, a sparse file of gigabytes, where ext reads a source, a manifest, a package.json
or an ignore file. helper-25's trial: ext hung on each FIFO, read /dev/zero until the machine
ran out of memory (`ext doctor` on a folder extension whose index.ts was one), and linked
that extension without a word, which then took pi down. Each ext run here is a process of
its own, bounded in time and memory: a hang or a runaway read fails the test, not the run."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import build_tree

EXT = Path(sys.executable).with_name("ext")
BOUND = 30  # seconds; each command here answers in well under one
MEMORY = 2 * 2**30  # bytes of address space: a read of /dev/zero would pass it at once


def _bounded() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def ext(set_root: Path, agent: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "EXT_NO_UPDATE_CHECK": "1", "NO_COLOR": "1"}
    return subprocess.run(
        [str(EXT), "--set", str(set_root), "--agent-dir", str(agent), *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=BOUND,
        preexec_fn=_bounded,  # sets the limit in the child, before exec
        stdin=subprocess.DEVNULL,
        check=False,
    )


def spoil(path: Path, how: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists() or path.is_symlink():
        path.unlink()
    if how == "fifo":
        os.mkfifo(path)
    elif how == "zero":
        path.symlink_to("/dev/zero")
    else:  # sparse: 40 MB of nothing, over the readers' cap
        with open(path, "wb") as f:
            f.truncate(40 * 2**20)


@pytest.fixture
def set_root(tmp_path: Path) -> Path:
    return build_tree(
        tmp_path / "set",
        {
            "extset.toml": '[set]\nname = "odd"\n',
            "extensions/fine.ts": "export default function fine() {}\n",
            "extensions/d/index.ts": "export default function d() {}\n",
        },
    )


@pytest.fixture
def agent(tmp_path: Path) -> Path:
    return build_tree(tmp_path / "agent", {"extensions/.keep": ""})


@pytest.mark.parametrize("mode", ["link", "register"])
@pytest.mark.parametrize(
    ("how", "where"),
    [
        ("fifo", "extensions/d/index.ts"),
        ("zero", "extensions/d/index.ts"),
        ("sparse", "extensions/d/index.ts"),
        ("sparse", "extensions/d.ts"),  # a top-level FIFO or device link is no item at all
    ],
)
def test_a_folder_extension_whose_entry_is_no_file_is_refused_and_doctor_answers(
    set_root: Path, agent: Path, how: str, mode: str, where: str
) -> None:
    """helper-57: a 2 GB sparse file was linked without a word, and pi's loader (doctor
    --deep) took 2.25 GB and failed; past 32 MiB, as a FIFO, it is refused."""
    if where == "extensions/d.ts":
        os.unlink(set_root / "extensions/d/index.ts")
        os.rmdir(set_root / "extensions/d")
    spoil(set_root / where, how)

    done = ext(set_root, agent, "install", "--yes", "--mode", mode)
    doctor = ext(set_root, agent, "doctor")

    assert done.returncode == 2, done.stdout + done.stderr
    assert "pi cannot load d (" in done.stderr and "nothing was changed" in done.stderr
    assert "--skip d" in done.stderr
    assert not os.path.lexists(agent / "extensions/fine.ts")  # nothing was changed
    assert "Traceback" not in doctor.stderr + doctor.stdout
    assert ext(set_root, agent, "install", "--yes", "--skip", "d", "--mode", mode).returncode == 0


@pytest.mark.parametrize("mode", ["link", "register"])
@pytest.mark.parametrize(
    ("how", "where", "label", "shown"),
    [
        ("sparse", "prompts/huge.md", "prompt:huge", "it is 40 MiB, over 32 MiB"),
        ("sparse", "themes/dark.json", "theme:dark", "it is 40 MiB, over 32 MiB"),
        ("sparse", "skills/s/SKILL.md", "skill:s", "SKILL.md is 40 MiB, over 32 MiB"),
    ],  # a FIFO SKILL.md makes no skill, to ext as to pi
)
def test_a_prompt_theme_or_skill_pi_reads_whole_is_refused_as_an_extension_is(
    set_root: Path, agent: Path, mode: str, how: str, where: str, label: str, shown: str
) -> None:
    """helper-63: a 400 MB prompt installed without a word and took each pi start to 1 GB; a
    3 GB one pi dropped with an error only `doctor --deep` showed."""
    spoil(set_root / where, how)

    done = ext(set_root, agent, "install", "--yes", "--mode", mode)

    assert done.returncode == 2, done.stdout + done.stderr
    assert f"pi cannot load {label} ({label}: {shown}): pi reads each whole" in done.stderr
    assert f"--skip {label}" in done.stderr
    assert not os.path.lexists(agent / "extensions/fine.ts")  # nothing was changed
    assert ext(set_root, agent, "install", "--yes", "--skip", label, "--mode", mode).returncode == 0


@pytest.mark.parametrize("mode", ["link", "register"])
def test_doctor_says_an_installed_prompt_that_grew_past_what_pi_reads(
    set_root: Path, agent: Path, mode: str
) -> None:
    build_tree(set_root, {"prompts/huge.md": "Say hello.\n"})
    assert ext(set_root, agent, "install", "--yes", "--mode", mode).returncode == 0
    spoil(set_root / "prompts/huge.md", "sparse")

    done = ext(set_root, agent, "--json", "doctor")

    rows = [r for r in json.loads(done.stdout)["checks"] if r["id"] == "items"]
    said = [r for r in rows if r["message"].startswith("pi cannot load prompt:huge")]
    assert done.returncode == 1, done.stderr
    assert [r["level"] for r in said] == ["error"], rows
    assert said[0]["message"].startswith("pi cannot load prompt:huge (it is 40 MiB, over 32 MiB)")
    assert "install --skip prompt:huge" in said[0]["fix"]
    # helper-64: once left out (the fix), or never installed, it is no error
    assert ext(set_root, agent, "install", "--yes", "--skip", "prompt:huge").returncode == 0
    again = ext(set_root, agent, "--json", "doctor")
    assert again.returncode == 0, again.stdout
    assert "pi cannot load" not in again.stdout


@pytest.mark.parametrize("how", ["fifo", "zero", "sparse"])
@pytest.mark.parametrize(
    "where",
    ["package.json", "extensions/.gitignore", "extensions/fine.ts", "extensions/d/package.json"],
)
def test_a_set_file_ext_reads_never_hangs_nor_runs_away(
    set_root: Path, agent: Path, where: str, how: str
) -> None:
    spoil(set_root / where, how)
    for args in (("list",), ("install", "--dry-run"), ("doctor",)):
        done = ext(set_root, agent, *args)
        assert "Traceback" not in done.stderr, (args, done.stderr)
        assert done.returncode in (0, 1, 2), (args, done.returncode, done.stderr)


@pytest.mark.parametrize("how", ["fifo", "zero", "sparse"])
def test_a_manifest_that_is_no_file_is_said_at_once(set_root: Path, agent: Path, how: str) -> None:
    spoil(set_root / "extset.toml", how)
    done = ext(set_root, agent, "list")
    assert done.returncode == 2, done.stderr
    said = "not a regular file" if how != "sparse" else "bigger than"
    assert f"extset.toml: cannot read: {said}" in done.stderr


@pytest.mark.parametrize("mode", ["link", "register"])
@pytest.mark.parametrize("name", ["ext-command.ts", "ext-sessions.ts"])
def test_an_extension_named_as_one_of_ext_s_own_files_is_refused(
    set_root: Path, agent: Path, mode: str, name: str
) -> None:
    """helper-57: a set's extensions/ext-command.ts took /ext's place in a shared agent dir,
    and ext backed its own link up as if it were the user's file."""
    (set_root / "extensions" / name).write_text("export default function fake() {}\n")
    label = name.removesuffix(".ts")

    done = ext(set_root, agent, "install", "--yes", "--mode", mode)

    assert done.returncode == 2, done.stdout + done.stderr
    assert "has the name of ext's" in done.stderr and "nothing was changed" in done.stderr
    assert f"--skip {label}" in done.stderr
    assert not os.path.lexists(agent / "extensions/fine.ts")
    skipped = ext(set_root, agent, "install", "--yes", "--skip", label, "--mode", mode)
    assert skipped.returncode == 0, skipped.stderr
    # helper-59: left out, the set's file took /ext's place all the same ("is taken by
    # something that is not ext's /ext command") and doctor's fix was refused again
    assert "is taken by something" not in skipped.stderr
    if name == "ext-command.ts":
        assert os.path.realpath(agent / "extensions" / name).startswith(str(agent / ".extset"))


# helper-92: a long run of blanks on one line held ext for seconds to half an hour in four
# readers of a set's files, each a regular expression trying every split of the run. Each is
# asked in a child, so that the old behaviour fails at the timeout rather than holds the run.
_GAP = " " * 200_000
_READERS = {
    "a SKILL.md key line": (
        "from installer.sets.piskill import refusal\n"
        "p = f'{d}/SKILL.md'\n"
        "open(p, 'w').write('---\\nname: a\\ndescription: d\\nk: a' + GAP + 'b\\n---\\n')\n"
        "assert refusal(p) is None\n"
    ),
    "a key line of the YAML the other agents read": (
        "from installer.sets.yamltext import faults, text_of\n"
        "head = 'description: d\\nk' + GAP + 'x\\n'\n"
        "assert text_of(head, 'description') == 'd' and faults(head) == []\n"
    ),
    "an extension's imports on pi 0.73": (
        "from installer.sets.link_imports import escapes\n"
        "p = f'{d}/slow.ts'\n"
        "open(p, 'w').write('//import' + GAP + 'x\\n')\n"
        "assert escapes(p, [p], Path(d)) == []\n"
    ),
    "a string that ends in a lone backslash": (
        "from installer.sets.scan_source import scan_imports\n"
        "assert scan_imports('\"' + '\\\\\"' * (len(GAP) // 2) + '\\\\') == []\n"
    ),
}


@pytest.mark.parametrize("reader", sorted(_READERS))
def test_a_long_run_of_blanks_is_read_in_linear_time(reader: str, tmp_path: Path) -> None:
    code = f"from pathlib import Path\nd = {str(tmp_path)!r}\nGAP = ' ' * {len(_GAP)}\n"
    done = subprocess.run(
        [sys.executable, "-c", code + _READERS[reader]],
        capture_output=True, text=True, timeout=30, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]


def test_a_prompt_or_skill_whose_frontmatter_nests_past_what_pi_affords_is_refused(
    tmp_path: Path,
) -> None:
    """helper-92: a prompt of 15 MB of `[` in its frontmatter was installed without a word and
    ran pi out of memory at every start (pi nests about 1 kB a level:
    tests/e2e/test_pi_facts.py). Past NESTS, such a prompt or skill is refused as a FIFO is;
    the same brackets in its body, or with no line to end a frontmatter, which pi does not
    parse, are not (helper-93: the BOM and the open one were judged the other way)."""
    from installer.sets.modes import NESTS

    deep = "---\ndescription: x\nk: " + "[" * (NESTS + 1) + "]" * (NESTS + 1) + "\n---\nHi.\n"
    body = "---\ndescription: x\n---\n" + "[" * (NESTS + 1) + "\n"
    set_root = build_tree(
        tmp_path / "set",
        {
            "extset.toml": '[set]\nname = "s"\n',
            "prompts/deep.md": deep,
            "prompts/bom.md": "\ufeff" + deep.replace("\n", "\r\n"),  # pi 1.x drops the BOM
            "prompts/body.md": body,
            "prompts/open.md": "---\n\n" + "{" * (NESTS + 1) + "\n",  # no end: no frontmatter
            "skills/tall/SKILL.md": deep.replace("description: x", "name: tall\ndescription: x"),
        },
    )
    done = ext(set_root, tmp_path / "agent", "install", "--create", "--yes")
    assert done.returncode == 2, done.stderr
    assert (
        "pi cannot load prompt:bom, prompt:deep, skill:tall (prompt:bom: it has a frontmatter"
        in (done.stderr)
    )
    assert "body" not in done.stderr and "open" not in done.stderr
    assert not (tmp_path / "agent").exists()


def test_an_unclosed_block_comment_after_each_keyword_is_read_in_linear_time(
    tmp_path: Path,
) -> None:
    """helper-93: `from/*` 8,000 times (48 KB) took 5.5 s of a pi 0.73 install's look for
    lost imports, a 1 MB file some 40 minutes: each keyword's gap ran to the end."""
    code = (
        "from pathlib import Path\n"
        "from installer.sets.link_imports import escapes\n"
        f"p = {str(tmp_path / 'a.ts')!r}\n"
        "open(p, 'w').write('from/*' * 200_000)\n"
        "assert escapes(p, [p], Path(p).parent) == []\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=30, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
