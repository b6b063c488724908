"""``python -m juju_radar``: the same as the ``radar`` command."""

import sys

from .cli import main

sys.exit(main())
