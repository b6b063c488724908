"""The editors' tools: the ``radar`` command line, import, site files, synthetic archives."""
