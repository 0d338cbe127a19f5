"""The command line `python -m amunre.testing`: regenerate the golden playthroughs, check variants."""

from __future__ import annotations

from pathlib import Path

from amunre.core.errors import AmunreError
from amunre.loader.files import resolve_path
from amunre.testing.playthroughs import regenerate_playthroughs
from amunre.testing.suite import check_variant

#: What the command does, as its help says.
DESCRIPTION = ("Conformance checking for variant files: seeded games of each variant played under the "
               "conformance checker (amunre.testing), or the golden playthroughs written again.")


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog=".venv/bin/python -m amunre.testing", description=DESCRIPTION)
    parser.add_argument("--regenerate-playthroughs", metavar="DIR",
                        help="rewrite the golden playthrough of every shipped variant into DIR (of the "
                             "VARIANTS given only, when any is)")
    parser.add_argument("variants", nargs="*", help="variant ids or files to check (as `amunre check`), or to "
                        "record with --regenerate-playthroughs")
    args = parser.parse_args(argv)
    if args.regenerate_playthroughs:
        try:
            files = [resolve_path(ref) for ref in args.variants] if args.variants else None
        except AmunreError as exc:
            parser.exit(2, f"error: {exc}\n")
        for path in regenerate_playthroughs(Path(args.regenerate_playthroughs), files):
            print(f"wrote {path}")
        return 0
    for ref in args.variants:
        print(check_variant(ref).summary())
    if not args.regenerate_playthroughs and not args.variants:
        parser.print_help()
    return 0
