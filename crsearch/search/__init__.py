"""Ranked search over one release: the index (schema, build, backends), the
query, the ranking stages and the tables they read."""
