"""`python -m amunre.testing`: see `amunre.testing.command`."""

from amunre.testing.command import main

if __name__ == "__main__":
    raise SystemExit(main())
