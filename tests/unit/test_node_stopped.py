"""What Node said as it stopped, as doctor and the loader's failure say it."""

from __future__ import annotations

from installer.host.node import why_node_stopped

OUT_OF_MEMORY = """
<--- Last few GCs --->

[4242:0x5d1c000]    33801 ms: Mark-Compact 4041.1 (4130.6) -> 4030.2 (4133.1) MB

FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory
----- Native stack trace -----

 1: 0xb8d0a3 node::OOMErrorHandler(char const*, v8::OOMDetails const&) [node]
 8: 0x1cfd6e1  [node]
10: 0x7f11b3eacaf6
"""


def test_node_out_of_memory_is_said_as_that_not_as_a_frame_of_its_stack() -> None:
    """helper-92: doctor said pi stopped with `10: 0x7f11b3eacaf6`, the last line Node wrote."""
    assert why_node_stopped(OUT_OF_MEMORY) == (
        "FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory"
    )


def test_an_uncaught_error_is_said_by_its_error_line_not_nodes_version() -> None:
    said = "file:///x.js:1\nthrow e\n^\n\nError: EROFS: read-only file system, open '/a'\n"
    assert why_node_stopped(said + "\nNode.js v22.23.5\n") == (
        "Error: EROFS: read-only file system, open '/a'"
    )
    assert why_node_stopped("warming up\n 3: 0xabc [node]\n") == "warming up"
    assert why_node_stopped("") == ""


def test_v8s_own_fatal_error_is_said_before_its_native_stack() -> None:
    said = "#\n# Fatal error in , line 0\n# Fatal JavaScript invalid size error 169220804\n#\n"
    assert why_node_stopped(said + "----- Native stack trace -----\n 1: 0x1 [node]\n") == (
        "# Fatal error in , line 0"
    )
