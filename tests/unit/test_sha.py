"""installer.ground.sha: CPython's own sha256, digest for digest hashlib's."""

from __future__ import annotations

import hashlib
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from installer.ground import sha


@given(st.binary(max_size=20_000))
def test_the_digest_is_hashlibs(data: bytes) -> None:
    assert sha.sha256_hex(data) == hashlib.sha256(data).hexdigest()


def test_cpython_uses_its_builtin_module_not_openssls() -> None:
    """The point of the module: no `_hashlib` (OpenSSL) behind the digest."""
    builtin = "_sha2" if sys.version_info >= (3, 12) else "_sha256"
    assert sha._sha256.__module__ == builtin


def test_without_the_builtin_it_falls_back_to_hashlib(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "_sha2", None)  # an import of it raises ImportError
    monkeypatch.setitem(sys.modules, "_sha256", None)
    fallback = sha._builtin()
    assert fallback is hashlib.sha256
    assert fallback(b"abc").hexdigest() == hashlib.sha256(b"abc").hexdigest()
