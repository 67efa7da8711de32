"""The host: finding pi, its version, its own loader, the tested range."""
