"""Run with ``python -m tripeaks``."""

import sys

from tripeaks.cli import main

sys.exit(main())
