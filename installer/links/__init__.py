"""The link engine: scan (read) -> plan (pure) -> apply (the only writer)."""
