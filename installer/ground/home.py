"""`~` in a path as pi reads it: `~` and `~/…` are the home (HOME), nothing else.

pi expands its agent dir (PI_CODING_AGENT_DIR) with Node's rule (`normalizePath`): `~` and a
leading `~/`; `~alice` is a folder named so. Python's `expanduser` takes `~alice` as alice's home,
and raises when there is no such user: a typed `--agent-dir '~nouser'` ended ext with a traceback
(helper-38). ext reads every path it is given by this one rule.
"""

from __future__ import annotations

import os
from pathlib import Path


def expand_home(path: str | Path, home: str | None = None) -> Path:
    """`path` with a leading `~` or `~/` replaced by `home` (default $HOME); else as it is."""
    text = os.fspath(path)
    if text != "~" and not text.startswith("~/"):
        return Path(text)
    base = home if home is not None else os.environ.get("HOME") or os.path.expanduser("~")
    # Joined as Node's path.join does (`~//x` is the home's x, never /x); `..` is left to the
    # caller, which takes it as the kernel or the host does.
    return Path(f"{base}/{text[2:]}") if text != "~" else Path(base)
