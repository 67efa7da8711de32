"""Hook consent: canonical hook configs, their sha256, and the approvals store.

Layers, each a small module: `canonical` (RFC 8785 bytes and the hash),
`config` (a project's hook sources), `hooks` (the commands they would run),
`record` and `store` (the approvals file), `preview` and `results` (what the
commands return), `commands` (what the CLI calls), `sethooks` (a set's hooks).
The store's format is a contract with the agent side: docs/consent.md.
"""
