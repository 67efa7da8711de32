"""installer.ground.records.NamedTuple behaves as typing.NamedTuple, field types aside.

ext's NamedTuples are built without typing's check of each (string) annotation, which costs
a no-op install a quarter of its run; this pins what a class statement makes to what
typing would make of the same statement.
"""

from __future__ import annotations

import typing
from typing import Any

import pytest

from installer.ground import records


def _declare(base: Any) -> Any:
    class Item(base):
        """An item."""

        kind: str
        name: str
        tags: tuple[str, ...] = ()
        note: str | None = None

        @property
        def label(self) -> str:
            return f"{self.kind}:{self.name}"

        def renamed(self, name: str) -> Item:
            return self._replace(name=name)

        @classmethod
        def of(cls, kind: str) -> Item:
            return cls(kind, kind)

    return Item


OURS, TYPING = _declare(records.NamedTuple), _declare(typing.NamedTuple)


def test_the_class_is_typings_in_all_but_the_annotations() -> None:
    assert OURS.__mro__[1:] == TYPING.__mro__[1:] == (tuple, object)
    assert OURS._fields == TYPING._fields
    assert OURS._field_defaults == TYPING._field_defaults
    assert OURS.__doc__ == TYPING.__doc__ == "An item."
    assert OURS.__module__ == TYPING.__module__
    assert list(OURS.__annotations__) == list(TYPING.__annotations__)
    assert OURS.__annotations__["note"] == "str | None"  # as written: no ForwardRef made


def test_values_behave_alike() -> None:
    for cls in (OURS, TYPING):
        item = cls("skill", "a", note="n")
        assert item == ("skill", "a", (), "n")
        assert repr(item) == "Item(kind='skill', name='a', tags=(), note='n')"
        assert item.label == "skill:a"
        assert item.renamed("b") == cls("skill", "b", (), "n")
        assert cls.of("x") == cls("x", "x")
        assert item._asdict() == {"kind": "skill", "name": "a", "tags": (), "note": "n"}
        assert cls._make(["p", "q", ("t",), None]).tags == ("t",)
        assert hash(item) == hash(("skill", "a", (), "n"))
        with pytest.raises(AttributeError):
            item.kind = "other"  # type: ignore[misc]
    assert typing.get_type_hints(OURS) == typing.get_type_hints(TYPING)


@pytest.mark.parametrize("base", [records.NamedTuple, typing.NamedTuple])
def test_the_same_declarations_are_refused(base: Any) -> None:
    with pytest.raises(TypeError, match="Non-default namedtuple field b cannot follow"):

        class Bad(base):
            a: int = 0
            b: int

    with pytest.raises(AttributeError, match="Cannot overwrite NamedTuple attribute _replace"):

        class Clash(base):
            a: int

            def _replace(self) -> None: ...
