"""The agent side: ext's files inside pi, the session records, disable guards."""
