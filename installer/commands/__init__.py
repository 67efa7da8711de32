"""One module per verb: each takes a Context and returns a result for the renderer."""
