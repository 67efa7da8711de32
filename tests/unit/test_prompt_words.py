"""What the y/N prompt says when the answer is no, and when there is no one to ask."""

from __future__ import annotations

import io
import json

import pytest

from installer.ground.errors import ExitCode, Refused
from installer.render.ui import Output


def _asked(answer: str, *, as_json: bool = False, tty: bool = True) -> tuple[Refused, str, str]:
    stdout, stderr = io.StringIO(), io.StringIO()
    out = Output(json=as_json, stdout=stdout, stderr=stderr)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("sys.stdin", io.StringIO(answer))
        with pytest.raises(Refused) as caught:
            out.ask("Apply these changes?", stdin_tty=tty)
    out.error(caught.value)
    return caught.value, stdout.getvalue(), stderr.getvalue()


@pytest.mark.parametrize("answer", ["n\n", "\n", "maybe\n", ""])
def test_a_no_is_the_persons_choice_not_an_error(answer: str) -> None:
    refused, stdout, stderr = _asked(answer)
    assert refused.exit_code == ExitCode.REFUSED
    assert stdout == ""
    assert stderr == "Apply these changes? [y/N] declined; nothing was written\n"


def test_a_no_in_json_is_still_data_with_its_exit_code() -> None:
    _, stdout, _ = _asked("n\n", as_json=True)
    body = json.loads(stdout)
    assert body == {"error": "declined; nothing was written", "exit_code": 3}


def test_no_terminal_is_an_error_whose_fix_says_what_to_run() -> None:
    refused, _, stderr = _asked("", tty=False)
    assert refused.exit_code == ExitCode.REFUSED
    assert stderr.splitlines() == [
        "error: nothing was written: there is no terminal to ask on",
        "  fix: run the command again with --yes",
    ]
