"""``python -m venue ...``: the same as the ``venue`` command (venue.cli)."""

import sys

from venue.cli import main

sys.exit(main())
