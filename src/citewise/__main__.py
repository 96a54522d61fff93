"""``python -m citewise``: the command line (batch workers are started this way)."""

from citewise.cli import main

main()
