"""`python -m amunre` runs the command line."""

from amunre.cli import main

main()
