"""``python -m juju_radar.accel.sphinxbuild``: sphinx-build that leaves its objects to the OS
and reports an exception as one line naming the file (``crash``).

After a build the interpreter's exit would collect and free every object the build made,
one by one: 6.5 s of a 1,000-issue build. Frozen objects are never collected, so the
process ends as soon as the build does, with sphinx-build's exit status.
"""

import gc
import sys
from pathlib import Path

from sphinx.cmd.build import main

from juju_radar.accel.frozen_objects import defer_collection_until_reading
from juju_radar.accel.guard import load
from juju_radar.accel.register import (
    EXIT_WITHOUT_COLLECTION,
    FROZEN_OBJECTS,
    report_crashes_as_one_line,
)


def source_dir(argv: list[str]) -> Path:
    """sphinx-build's SOURCEDIR: the next to last argument."""
    positional = [argument for argument in argv if not argument.startswith("-")]
    return Path(argv[-2]).resolve() if len(positional) >= 2 else Path.cwd()


if __name__ == "__main__":
    report_crashes_as_one_line(source_dir(sys.argv[1:]))
    if load(FROZEN_OBJECTS) is not None:
        defer_collection_until_reading()
    status = main(sys.argv[1:])
    if load(EXIT_WITHOUT_COLLECTION) is not None:
        gc.freeze()
    sys.exit(status)
