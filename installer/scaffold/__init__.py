"""Making a set and bringing items into it: the files `ext init` and `ext add` write, and
what `ext adopt` finds in an agent dir."""
