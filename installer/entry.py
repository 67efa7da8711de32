"""The console script: the everyday commands straight to their handlers, the rest to typer."""

from __future__ import annotations

import sys


def main() -> None:
    """`ext`: hand-parsed when argv is an everyday command's plain form (see installer.argv)."""
    from installer.argv import parse

    call = parse(sys.argv[1:])
    if call is None:
        from installer.cli import main as parse_with_typer

        parse_with_typer()
        return
    from installer import handlers
    from installer.runner import G

    for key, value in call.globals.items():
        setattr(G, key, value)
    if call.command == "--version":
        handlers.version(**call.args)
    elif call.command == "list":
        handlers.list_items()
    else:
        getattr(handlers, call.command)(**call.args)


if __name__ == "__main__":
    main()
