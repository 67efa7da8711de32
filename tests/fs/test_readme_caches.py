"""README names the caches the everyday path keeps, and that deleting each is safe."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from installer.ground import manifest_cache
from installer.host import cache, versions

README = Path(__file__).resolve().parents[2] / "README.md"


def node_cache_path() -> Path:
    return cache.cache_path(cache.NODE)


@pytest.mark.parametrize(
    "path_of", [manifest_cache.cache_path, versions.memo_path, node_cache_path]
)
def test_each_cache_of_the_everyday_path_is_named_with_what_deleting_it_does(
    path_of: object, isolated_home: Path
) -> None:
    path = path_of()  # type: ignore[operator]
    shown = f"~/{path.relative_to(isolated_home)}"
    text = " ".join(README.read_text(encoding="utf-8").split())
    at = text.find(f"`{shown}`")
    assert at >= 0, f"README does not name {shown}"
    sentence_end = re.search(r"\.(\s|$)", text[at:])
    around = text[at : at + (sentence_end.end() if sentence_end else 400) + 200]
    assert "delet" in around and "safe" in around
