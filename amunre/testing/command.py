"""The command line `python -m amunre.testing`: regenerate the golden playthroughs, check variants."""

from __future__ import annotations

from pathlib import Path

from amunre.testing.playthroughs import regenerate_playthroughs
from amunre.testing.suite import check_variant


def main(argv: list[str] | None = None) -> int:
    import argparse

    from amunre import testing  # its docstring's first line describes the command

    parser = argparse.ArgumentParser(prog=".venv/bin/python -m amunre.testing", description=testing.__doc__.split("\n\n")[0])
    parser.add_argument("--regenerate-playthroughs", metavar="DIR",
                        help="rewrite the golden playthrough of every shipped variant into DIR")
    parser.add_argument("variants", nargs="*", help="variant ids or files to check (as `amunre check`)")
    args = parser.parse_args(argv)
    if args.regenerate_playthroughs:
        for path in regenerate_playthroughs(Path(args.regenerate_playthroughs)):
            print(f"wrote {path}")
    for ref in args.variants:
        print(check_variant(ref).summary())
    if not args.regenerate_playthroughs and not args.variants:
        parser.print_help()
    return 0
