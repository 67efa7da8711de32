"""`NamedTuple`, as typing declares it, made without checking its annotations at import.

ext's values are NamedTuples declared under `from __future__ import annotations`, so every
field's type is a string, and `typing.NamedTuple` turns each into a `ForwardRef`, which
compiles it: ~40 µs a field, and a no-op install defines some 300 fields in 66 classes, a
quarter of its run. Nothing reads those types back at run time (mypy reads the source).

Nor is each class a `collections.namedtuple`: that compiles a `__new__` of its own (an
`eval`) and puts a dozen methods in every class, ~120 µs a class here, 8 ms of a fresh
install. Here the methods every record shares (`_make`, `_replace`, `_asdict`, `__repr__`,
`__getnewargs__`) are those of one base, `_Record`, written as collections writes them, and
each class's `__new__` is the one compiled for its number of fields, with the fields' names
given to its arguments (`CodeType.replace`): ~20 µs a class.

So modules take `NamedTuple` from here. mypy sees typing's own (the name is re-exported for
it); at run time it is the same class statement, built as typing builds it (the fields, their
defaults, the class body's methods, properties and docstring, the names typing refuses
refused alike), with `__annotations__` left as the strings they are.
tests/unit/test_records.py holds the two to the same behaviour.
"""

from __future__ import annotations

__all__ = ["NamedTuple"]

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, NamedTuple
else:
    from types import FunctionType

    try:
        from _collections import _tuplegetter  # collections.namedtuple's own field getter
    except ImportError:  # another Python: a property over itemgetter, as collections falls back
        from operator import itemgetter

        def _tuplegetter(index: int, doc: str) -> Any:
            return property(itemgetter(index), doc=doc)

    # typing's own lists (3.11-3.13): a class body may not set the first, and does not copy
    # the second onto the class.
    _PROHIBITED = frozenset(
        {
            "__new__",
            "__init__",
            "__slots__",
            "__getnewargs__",
            "_fields",
            "_field_defaults",
            "_make",
            "_replace",
            "_asdict",
            "_source",
        }
    )
    _SPECIAL = frozenset({"__module__", "__name__", "__annotations__"})
    _tuple_new = tuple.__new__
    _NEW: dict[int, Any] = {}  # a `__new__` per number of fields, compiled once

    def _new(typename: str, fields: tuple[str, ...], defaults: tuple[Any, ...]) -> Any:
        """collections.namedtuple's `__new__` for these fields, without compiling it again."""
        count = len(fields)
        code = _NEW.get(count)
        if code is None:
            args = ", ".join(f"_{i}" for i in range(count))
            source = f"lambda _cls, {args}: _tuple_new(_cls, ({args}{',' if count == 1 else ''}))"
            code = _NEW[count] = eval(source, {"_tuple_new": _tuple_new}).__code__  # noqa: S307
        code = code.replace(co_varnames=("_cls", *fields), co_name="__new__")
        made = FunctionType(code, {"_tuple_new": _tuple_new}, "__new__", defaults or None)
        made.__qualname__ = f"{typename}.__new__"
        made.__doc__ = f"Create new instance of {typename}({', '.join(fields)})"
        return made

    class _Record(tuple):  # type: ignore[type-arg]
        """What every record shares, as collections.namedtuple writes it for each class."""

        __slots__ = ()
        _fields = ()  # no annotation: typing.get_type_hints would count it a field

        @classmethod
        def _make(cls, iterable: Any) -> Any:
            result = _tuple_new(cls, iterable)
            if len(result) != len(cls._fields):
                raise TypeError(f"Expected {len(cls._fields)} arguments, got {len(result)}")
            return result

        def _replace(self, /, **kwds: Any) -> Any:
            result = self._make(map(kwds.pop, self._fields, self))
            if kwds:
                raise ValueError(f"Got unexpected field names: {list(kwds)!r}")
            return result

        def __repr__(self) -> str:
            pairs = zip(self._fields, self, strict=True)
            shown = ", ".join(f"{name}={value!r}" for name, value in pairs)
            return f"{self.__class__.__name__}({shown})"

        def _asdict(self) -> dict[str, Any]:
            return dict(zip(self._fields, self, strict=True))

        def __getnewargs__(self) -> tuple[Any, ...]:
            return tuple(self)

    class _RecordType(type):
        def __new__(cls, typename: str, bases: tuple[type, ...], ns: dict[str, Any]) -> type:
            if not bases:  # NamedTuple itself, below
                return super().__new__(cls, typename, bases, ns)
            if bases != (NamedTuple,):
                raise TypeError("can only inherit from a NamedTuple type")
            types = ns.get("__annotations__", {})
            fields = tuple(types)
            with_default: list[str] = []
            for name in fields:
                if name.startswith("_"):
                    raise ValueError(f"Field names cannot start with an underscore: {name!r}")
                if name in ns:
                    with_default.append(name)
                elif with_default:
                    many = "s" if len(with_default) > 1 else ""
                    raise TypeError(
                        f"Non-default namedtuple field {name} cannot follow default field{many} "
                        + ", ".join(with_default)
                    )
            defaults = tuple(ns[n] for n in with_default)
            body: dict[str, Any] = {
                "__doc__": f"{typename}({', '.join(fields)})",
                "__slots__": (),
                "_fields": fields,
                "_field_defaults": dict(zip(with_default, defaults, strict=True)),
                "__new__": _new(typename, fields, defaults),
                "__match_args__": fields,
                "__module__": ns["__module__"],
                "__annotations__": dict(types),
            }
            for index, name in enumerate(fields):
                body[name] = _tuplegetter(index, f"Alias for field number {index}")
            for key, value in ns.items():
                if key in _PROHIBITED:
                    raise AttributeError("Cannot overwrite NamedTuple attribute " + key)
                if key not in _SPECIAL and key not in types:
                    body[key] = value  # the docstring too, over the default one above
            return type(typename, (_Record,), body)

    class NamedTuple(metaclass=_RecordType):
        """The base of a class statement, as `typing.NamedTuple` is."""
