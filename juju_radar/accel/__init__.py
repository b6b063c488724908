"""Accelerations: every mechanism of the build that reaches past a dependency's public
API (a private or final name, a replaced handler, a pickled object of another package,
another tool's file format). Each is listed in ``register.REGISTER`` with what it
replaces, why upstream makes it necessary, when it can go, and what it saves; each runs
only on the versions it was written for, its module imported only then
(``guard``). Without them (``RADAR_ACCEL=0``) the build is Sphinx's own, with the same
output."""
