"""`python -m happydayz`: the same as the `happydayz` command."""

import sys

from happydayz.cli import main

if __name__ == "__main__":
    sys.exit(main())
