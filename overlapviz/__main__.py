"""``python -m overlapviz``: the same as the ``overlapviz`` command."""

import sys

from overlapviz.commands.main import main

if __name__ == "__main__":
    sys.exit(main())
