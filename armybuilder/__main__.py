"""Allow `python -m armybuilder`."""

import sys

from armybuilder.cli import main

sys.exit(main())
