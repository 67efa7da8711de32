"""Plain option values without pydantic: typer coerces each value through a pydantic
TypeAdapter, built on first use, and importing pydantic costs more than typer itself.

ext's options are flags, text, paths and lists of text; click has already parsed
them, so they need no validation library. Anything else goes to typer's own way.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

_PLAIN = (bool, str, Path, list[str])


def use_plain_coercion() -> None:
    """Route ext's plain option types around typer's pydantic adapters (no-op on older typer)."""
    try:
        import typer.core as typer_core
        from typer._coercion import RuntimeParam, resolve_type_descriptor
        from typer._coercion import build_runtime_param as full
        from typer._param_types import coerce_cli_path
    except ImportError:  # a typer that coerces through click: nothing to avoid
        return

    @dataclass(frozen=True)
    class Plain(RuntimeParam):
        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            kind = self.annotation
            if kind is bool and isinstance(value, bool):
                return value
            if kind is str and isinstance(value, str):
                return value
            if kind is Path and isinstance(value, str):
                info = self.parameter_info
                return coerce_cli_path(Path(value), info, path_type=Path, param=param, ctx=ctx)
            if kind == list[str] and all(isinstance(v, str) for v in value):
                return list(value)
            slow = full(resolve_type_descriptor(kind, self.parameter_info))
            return slow._coerce_value(value, param, ctx)

    def build(descriptor: Any) -> Any:
        info = descriptor.parameter_info
        plain = descriptor.annotation in _PLAIN and descriptor.file_annotation is None
        if plain and info.parser is None and getattr(info, "click_type", None) is None:
            return Plain(parameter_info=info, annotation=descriptor.annotation)
        return full(descriptor)

    typer_core.build_runtime_param = build  # type: ignore[attr-defined]
