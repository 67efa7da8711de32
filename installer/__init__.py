"""extset: install a set of coding-agent extensions into an agent dir."""

__version__ = "0.1.0"
