"""`python -m shipcheck`: the same as the `shipcheck` command."""

import sys

try:
    from shipcheck.cli import main
except KeyboardInterrupt:  # a Ctrl-C while the command line loads: no traceback either
    sys.stderr.write("shipcheck: interrupted\n")
    sys.exit(130)

main()
