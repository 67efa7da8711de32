"""The manifest's limits at their edge: how deep it may nest, and a file that cannot be read."""

from __future__ import annotations

from pathlib import Path

import pytest

from installer.ground.errors import UsageError
from installer.ground.manifest import MAX_NESTING, load_manifest, parse_manifest

HEAD = "[set]\nname = 'x'\n"
PATH = Path("extset.toml")


def arrays(levels: int) -> bytes:
    """A [settings.seed] value nested `levels` arrays deep below the document's own 3 levels."""
    return f"{HEAD}[settings.seed]\nv = {'[' * levels}1{']' * levels}\n".encode()


def tables(parts: int) -> bytes:
    """A key of `parts` dotted parts at the top of the document: as many tables deep."""
    return f"{HEAD}{'.'.join(['k'] * parts)} = 1\n".encode()


def test_nesting_to_the_limit_is_read_one_more_is_refused() -> None:
    # the document is level 1, settings 2, seed 3, each array one more
    assert parse_manifest(arrays(MAX_NESTING - 3), PATH).name == "x"
    for too_deep in (arrays(MAX_NESTING - 2), tables(MAX_NESTING)):
        with pytest.raises(UsageError) as err:
            parse_manifest(too_deep, PATH)
        assert err.value.message == "extset.toml: tables or arrays nested more than 64 levels deep"
        assert err.value.fix == "use keys with at most 63 dotted parts"  # tables(63) is read


def test_tables_to_the_limit_are_read() -> None:
    assert parse_manifest(tables(MAX_NESTING - 1), PATH).name == "x"  # an unknown key: a warning


def test_a_manifest_that_cannot_be_read_says_why_and_where(tmp_path: Path) -> None:
    (tmp_path / "extset.toml").mkdir()  # a folder: never read, as a FIFO or a device is not
    with pytest.raises(UsageError) as err:
        load_manifest(tmp_path)
    assert err.value.message == (
        f"{tmp_path}/extset.toml: cannot read: not a regular file (a folder)"
    )
    assert err.value.fix == "make it a regular file"


def test_a_broken_manifest_on_disk_is_named_by_its_path(tmp_path: Path) -> None:
    (tmp_path / "extset.toml").write_text("[set\n")
    with pytest.raises(UsageError) as err:
        load_manifest(tmp_path)
    assert err.value.message.startswith(f"{tmp_path}/extset.toml: invalid TOML: ")
