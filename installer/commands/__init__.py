"""One module per verb: each is `(ctx, options) -> Result` (with a prompt when it writes),
its options a NamedTuple declared beside it; installer.render prints the result."""
