"""installer.ground.records.NamedTuple behaves as typing.NamedTuple, field types aside.

ext's NamedTuples are built without typing's check of each (string) annotation, which costs
a no-op install a quarter of its run; this pins what a class statement makes to what
typing would make of the same statement.
"""

from __future__ import annotations

import inspect
import re
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
    # One base in between: the methods every record shares, defined once (records says why).
    assert OURS.__mro__[2:] == TYPING.__mro__[1:] == (tuple, object)
    assert OURS.__mro__[1].__name__ == "_Record" and OURS.__mro__[1].__slots__ == ()
    assert OURS.__doc__ == TYPING.__doc__ and OURS.__qualname__ == TYPING.__qualname__
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


_POSITIONAL, _NONE = inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.empty


def _plain(base: Any) -> Any:
    class Pair(base):
        left: int
        right: int = 2

    class One(base):
        only: str

    class Empty(base):
        pass

    return Pair, One, Empty


@pytest.mark.parametrize("base", [records.NamedTuple, typing.NamedTuple])
def test_construction_and_its_errors_alike(base: Any) -> None:
    """Each class's `__new__` is one compiled per field count, renamed (records): it must
    take and refuse what collections' own takes and refuses, with the same messages."""
    import copy

    pair, one, empty = _plain(base)
    assert pair.__doc__ == "Pair(left, right)"
    takes = [(p.name, p.kind, p.default) for p in inspect.signature(pair).parameters.values()]
    assert takes == [("left", _POSITIONAL, _NONE), ("right", _POSITIONAL, 2)]
    assert pair(1) == pair(left=1) == pair(1, right=2) == (1, 2)
    assert one("x") == ("x",) and one(only="y").only == "y" and empty() == ()
    assert pair.__match_args__ == ("left", "right") and pair.left.__doc__ == (
        "Alias for field number 0"
    )
    assert copy.copy(pair(5)) == pair(5) and copy.deepcopy(one("d")) == one("d")
    for make, message in [
        (pair, "missing 1 required positional argument: 'left'"),
        (lambda: pair(1, 2, 3), "takes from 2 to 3 positional arguments but 4 were given"),
        (lambda: pair(1, other=3), "got an unexpected keyword argument 'other'"),
        (lambda: pair._make([1]), "Expected 2 arguments, got 1"),
        (lambda: pair(1)._replace(other=2), "Got unexpected field names: ['other']"),
    ]:
        with pytest.raises((TypeError, ValueError), match=re.escape(message)):
            make()
    with pytest.raises(ValueError, match="cannot start with an underscore"):

        class Under(base):
            _hidden: int
