"""Shell completion, asked the way each shell's completion script asks ext.

bash is run for real: the script `_EXT_COMPLETE=bash_source ext` prints is sourced and its
function called as bash calls it on <TAB>. zsh and fish are not on every machine: their
scripts are read for the variables they set, and ext is run with exactly those.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.e2e.conftest import EXT, Run
from tests.helpers import build_tree

SET = {
    "extset.toml": '[set]\nname = "s"\n',
    "extensions/notify.ts": "export default function () {}\n",
    "extensions/nap.ts": "export default function () {}\n",
    "extensions/git/index.ts": "export default function () {}\n",
    "skills/review/SKILL.md": "---\nname: review\ndescription: r\n---\n",
}


@pytest.fixture
def set_dir(tmp_path: Path) -> Path:
    return build_tree(tmp_path / "set", SET)


def script(ext: Run, env: dict[str, str], shell: str) -> str:
    """What a user puts in the shell's start-up file, as click's protocol prints it."""
    done = ext(env={**env, "_EXT_COMPLETE": f"{shell}_source"})
    assert done.returncode == 0, done.stderr
    return done.stdout


def bash_complete(ext: Run, env: dict[str, str], cwd: Path, words: list[str]) -> list[str]:
    """Source ext's bash script, then do what bash does on <TAB> after `words`."""
    bash = shutil.which("bash")
    assert bash is not None
    quoted = " ".join(f"'{w}'" for w in words)
    program = (
        f"{script(ext, env, 'bash')}\n"
        f"COMP_WORDS=({quoted}); COMP_CWORD={len(words) - 1}\n"
        f"_ext_completion {EXT}\n"
        'printf "%s\\n" "${COMPREPLY[@]}"\n'
    )
    done = subprocess.run(
        [bash, "--norc", "--noprofile", "-c", program],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return [line for line in done.stdout.splitlines() if line]


def test_bash_completes_commands_options_and_the_sets_item_names(
    ext: Run, e2e_env: dict[str, str], set_dir: Path
) -> None:
    assert bash_complete(ext, e2e_env, set_dir, ["ext", "disa"]) == ["disable"]
    assert bash_complete(ext, e2e_env, set_dir, ["ext", "disable", "no"]) == ["notify"]
    assert bash_complete(ext, e2e_env, set_dir, ["ext", "enable", "n"]) == ["nap", "notify"]
    assert "--dry-run" in bash_complete(ext, e2e_env, set_dir, ["ext", "install", "--d"])
    assert bash_complete(ext, e2e_env, set_dir, ["ext", "install", "--mode", "r"]) == ["register"]
    # --only takes a comma-separated list: the next name after the comma, none twice.
    only = bash_complete(ext, e2e_env, set_dir, ["ext", "install", "--only", "notify,"])
    assert only == ["notify,git", "notify,nap", "notify,skill:review"]
    # Completing after --version answers names; it does not print the version.
    assert bash_complete(ext, e2e_env, set_dir, ["ext", "--version", "li"]) == ["list"]


def test_the_set_named_by_set_is_the_one_completed(
    ext: Run, e2e_env: dict[str, str], set_dir: Path, tmp_path: Path
) -> None:
    words = ["ext", "--set", str(set_dir), "disable", "g"]
    assert bash_complete(ext, e2e_env, tmp_path, words) == ["git"]


def test_outside_a_set_names_come_from_the_bundled_set_and_nothing_is_printed_on_error(
    ext: Run, e2e_env: dict[str, str], tmp_path: Path
) -> None:
    assert "notify" in bash_complete(ext, e2e_env, tmp_path, ["ext", "disable", ""])
    missing = ["ext", "--set", str(tmp_path / "nowhere"), "disable", ""]
    assert bash_complete(ext, e2e_env, tmp_path, missing) == []


def _asks(text: str, shell: str) -> str:
    """The mode a shell's completion script sets when it runs ext, which it must name."""
    modes = re.findall(r"_EXT_COMPLETE=([a-z_]+)", text)
    assert modes == [f"{shell}_complete"], text
    assert "COMP_WORDS=" in text and "COMP_CWORD=" in text, text  # the line, as the shell has it
    return modes[0]


def test_zsh_gets_the_item_names_as_its_script_asks(
    ext: Run, e2e_env: dict[str, str], set_dir: Path
) -> None:
    mode = _asks(script(ext, e2e_env, "zsh"), "zsh")
    # zsh passes the words so far and the index of the one under the cursor.
    env = {**e2e_env, "_EXT_COMPLETE": mode, "COMP_WORDS": "ext disable no", "COMP_CWORD": "2"}
    done = ext(cwd=set_dir, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["plain", "notify", "_"]


def test_fish_gets_the_item_names_as_its_script_asks(
    ext: Run, e2e_env: dict[str, str], set_dir: Path
) -> None:
    mode = _asks(script(ext, e2e_env, "fish"), "fish")
    # fish passes the line up to the cursor (commandline -cp) and the token under it (-t).
    env = {**e2e_env, "_EXT_COMPLETE": mode, "COMP_WORDS": "ext disable no", "COMP_CWORD": "no"}
    done = ext(cwd=set_dir, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["plain,notify"]


def test_bash_loads_what_install_completion_wrote(
    ext: Run, e2e_env: dict[str, str], isolated_home: Path
) -> None:
    """The line in ~/.bashrc sources the script ext owns: a new interactive bash completes ext."""
    bash = shutil.which("bash")
    assert bash is not None
    env = {**e2e_env, "SHELL": bash}
    done = ext("--install-completion", env=env)
    assert done.returncode == 0, done.stderr
    assert (isolated_home / ".bash_completions/ext.sh").is_file()
    shell = subprocess.run(
        [bash, "-i", "-c", "complete -p ext"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        stdin=subprocess.DEVNULL,
    )
    assert shell.stdout.strip() == "complete -o nosort -F _ext_completion ext", shell.stderr
    again = ext("--install-completion", env=env)
    assert again.returncode == 0 and "nothing written" in again.stderr


@pytest.mark.parametrize(
    ("shell", "script"), [("zsh", ".zfunc/_ext"), ("fish", ".config/fish/completions/ext.fish")]
)
def test_zsh_and_fish_get_the_script_their_shell_asks_with(
    ext: Run, e2e_env: dict[str, str], isolated_home: Path, shell: str, script: str
) -> None:
    """zsh and fish are not on every machine: the file ext wrote is read for what it asks."""
    done = ext("--install-completion", env={**e2e_env, "SHELL": f"/usr/bin/{shell}"})
    assert done.returncode == 0, done.stderr
    text = (isolated_home / script).read_text()
    assert _asks(text, shell) == f"{shell}_complete"
    if shell == "zsh":  # autoloaded from fpath or sourced, compdef is there
        assert text.startswith("#compdef ext\n") and "compinit" in text
