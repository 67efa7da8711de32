"""The agents ext installs into, as data: pi (the first host, with its own layer in
installer/host/) and the agents that read a set's skills and prompt templates beside it.

`installer.hosts.table` holds one row per host; nothing outside it names a host's folders.
`installer.hosts.judges` runs each host's own binary to say what it loaded.
"""
