"""What every ``radar`` command returns: 0 done, 1 problems found, 2 a wrong command."""

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE = 0, 1, 2
