"""`NamedTuple`, as typing declares it, made without checking its annotations at import.

ext's values are NamedTuples declared under `from __future__ import annotations`, so every
field's type is a string, and `typing.NamedTuple` turns each into a `ForwardRef`, which
compiles it: ~40 µs a field, and a no-op install defines some 300 fields in 66 classes, a
quarter of its run. Nothing reads those types back at run time (mypy reads the source).

So modules take `NamedTuple` from here. mypy sees typing's own (the name is re-exported for
it); at run time it is the same class statement, built as typing builds it (one
`collections.namedtuple`, then the class body's methods, properties and docstring, the
names typing refuses refused alike), with `__annotations__` left as the strings they are.
tests/unit/test_records.py holds the two to the same behaviour.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__all__ = ["NamedTuple"]

if TYPE_CHECKING:
    from typing import NamedTuple
else:
    import collections

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

    class _RecordType(type):
        def __new__(cls, typename: str, bases: tuple[type, ...], ns: dict[str, Any]) -> type:
            if not bases:  # NamedTuple itself, below
                return super().__new__(cls, typename, bases, ns)
            if bases != (NamedTuple,):
                raise TypeError("can only inherit from a NamedTuple type")
            types = ns.get("__annotations__", {})
            with_default: list[str] = []
            for name in types:
                if name in ns:
                    with_default.append(name)
                elif with_default:
                    many = "s" if len(with_default) > 1 else ""
                    raise TypeError(
                        f"Non-default namedtuple field {name} cannot follow default field{many} "
                        + ", ".join(with_default)
                    )
            made = collections.namedtuple(
                typename,
                list(types),
                defaults=[ns[n] for n in with_default],
                module=ns["__module__"],
            )
            made.__annotations__ = dict(types)
            for key, value in ns.items():
                if key in _PROHIBITED:
                    raise AttributeError("Cannot overwrite NamedTuple attribute " + key)
                if key not in _SPECIAL and key not in made._fields:
                    setattr(made, key, value)
            return made

    class NamedTuple(metaclass=_RecordType):
        """The base of a class statement, as `typing.NamedTuple` is."""
