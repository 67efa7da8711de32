"""`ext --version`: ext's version and the host's, as a line or JSON.

Written straight to the streams: it runs before any Output exists (and from click's eager
callback too), and its one line is the same either way.
"""

from __future__ import annotations

import sys

from installer.ground.streams import write_stdout

TYPE_CHECKING = False
if TYPE_CHECKING:
    from installer.host.pi import HostInfo


def show(ext: str, host: HostInfo | None, as_json: bool) -> None:
    if host is not None and host.note:
        sys.stderr.write(f"warning: {host.note}\n")
    if as_json:
        import json

        data = {"ext": ext, "host": None if host is None else host.version}
        write_stdout(json.dumps(data) + "\n")
    else:
        pi = "pi not found" if host is None else f"pi {host.version or 'version unknown'}"
        write_stdout(f"ext {ext} ({pi})\n")
