"""sha256 of a few bytes, without OpenSSL's start-up.

`hashlib` loads `_hashlib`, which starts OpenSSL: ~3 ms of a fresh install, which hashes
one small agent file, on this machine 5-7 ms cold. CPython's own sha256 (`_sha2` from 3.12,
`_sha256` before) gives the same digest for the few kilobytes ext hashes on its everyday
paths; a build without it falls back to hashlib. Large files (trees.py) keep hashlib.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def _builtin() -> Any:
    try:
        from _sha2 import sha256  # type: ignore[import-not-found]  # CPython 3.12+
    except ImportError:
        try:
            from _sha256 import sha256  # type: ignore[import-not-found]  # CPython 3.11
        except ImportError:  # another interpreter, or a build without it
            from hashlib import sha256
    return sha256


_sha256 = _builtin()


def sha256_hex(data: bytes) -> str:
    """The lowercase hex sha256 of data, as hashlib.sha256(data).hexdigest() gives it."""
    return str(_sha256(data).hexdigest())
