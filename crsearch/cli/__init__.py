"""The ``crsearch`` command line: thin commands over ``crsearch.Rules``."""
