"""Run with ``python -m tripeaks``."""

import sys

from tripeaks.cli.main import main

sys.exit(main())
