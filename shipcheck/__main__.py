"""`python -m shipcheck`: the same as the `shipcheck` command."""

from shipcheck.cli import main

main()
