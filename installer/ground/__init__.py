"""The ground: errors, the files ext owns (atomic writes, backups, state), the context."""
