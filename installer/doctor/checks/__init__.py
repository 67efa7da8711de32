"""doctor's checks, one function each, grouped by what they look at."""
