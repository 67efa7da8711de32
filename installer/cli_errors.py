"""Errors the CLI framework raises (usage, unknown option, bad value), in ext's one style.

typer and click print `Usage: …` and `Error: No such option …`; every other error of ext
is `error: …` with a `  fix: …` line. typer 0.2x raises its own copy of click's exceptions
(public as `typer.TyperException`; earlier typers raise click's): both have
`format_message()`, `exit_code`, `ctx`, and an unknown option its `option_name` and
`possibilities`, which is all that is read here.
"""

from __future__ import annotations

import re
import sys
from typing import Any

_DID_YOU_MEAN = re.compile(r"\s*\(?(Did you mean .*?|Possible options: .*?)\)?\s*$", re.DOTALL)


def describe(exc: Any) -> tuple[str, str]:
    """The one-line message and the fix for a click exception."""
    ctx = getattr(exc, "ctx", None)
    where = getattr(ctx, "command_path", None) or "ext"
    help_fix = f"see `{where} --help`"
    if getattr(exc, "option_name", None) and "no such option" in exc.format_message().lower():
        options = sorted(getattr(exc, "possibilities", None) or ())
        fix = f"did you mean {' or '.join(options)}?" if options else help_fix
        return f"{where}: no such option: {exc.option_name}", fix
    text = exc.format_message().strip()
    hint = _DID_YOU_MEAN.search(text)
    if hint is not None:
        text = text[: hint.start()].strip()
        suggestion = hint.group(1)
        suggestion = suggestion.replace("Possible options:", "did you mean")
        fix = suggestion[0].lower() + suggestion[1:]
        fix = fix if fix.endswith("?") else f"{fix}?"
    else:
        fix = help_fix
    text = text.rstrip(".")
    text = text[:1].lower() + text[1:]
    return f"{where}: {text}", fix


def render(exc: Any, as_json: bool) -> int:
    """Print a click exception as ext prints every error; the exit code (2 for usage)."""
    message, fix = describe(exc)
    code = int(getattr(exc, "exit_code", 2) or 2)
    if as_json:
        import json

        sys.stdout.write(json.dumps({"error": message, "fix": fix, "exit_code": code}) + "\n")
    else:
        sys.stderr.write(f"error: {message}\n  fix: {fix}\n")
    return code
