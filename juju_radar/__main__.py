"""``python -m juju_radar``: the same as the ``radar`` command."""

import sys

from juju_radar.editors.cli import main

sys.exit(main())
