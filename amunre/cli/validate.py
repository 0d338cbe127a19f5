"""`amunre validate FILE...`: check variant files and report every problem of each.

Each file is loaded as `amunre run` would load it (`extends`, board, every rule module's
own check). A valid file prints `FILE: ok`, then any warning (`FILE:LINE: key.path: warning:
...`: a parameter its module does not read under the variant's rulings, `amunre.loader.unread`);
an invalid one every problem, each as `FILE:LINE: key.path: what is wrong (what was expected)`.
Warnings do not change the exit code. The exit code is 0 when every
file is valid and 1 otherwise (stderr then says how many are not); `--json` prints the same report as data
(`schemas/validate-report.schema.json`).
"""

from __future__ import annotations

import re
import sys

import click

from amunre.cli.common import dump_json, literal, many_variants, set_option
from amunre.core.errors import AmunreError, VariantError
from amunre.loader import load_variant

_LINE = re.compile(r"^(?P<file>.*?):(?P<line>\d+): (?P<path>[^:]*?): (?P<message>.*?)(?: \((?P<expected>[^()]*)\))?$")


def _structured(exc: VariantError) -> list[dict]:
    """The problems of a VariantError as data: the loader's own records, else its lines read back."""
    details = getattr(exc, "details", None)
    if details:
        return [p.to_dict() for p in details]
    out = []
    for text in exc.problems:
        match = _LINE.match(text)
        if match:
            out.append({"file": match["file"], "line": int(match["line"]), "path": match["path"],
                        "message": match["message"], "expected": match["expected"]})
        else:
            out.append({"file": None, "line": None, "path": "", "message": text, "expected": None})
    return out


def validate_one(ref: str, overrides=()) -> tuple[dict, list[str]]:
    """({file, valid, problems}, the report's lines) for one file or id; never raises for a bad file."""
    shown = ref if ref.strip() else repr(ref)  # an empty argument still shows as something
    try:
        variant = load_variant(ref, tuple(overrides))
    except VariantError as exc:
        return {"file": ref, "valid": False, "problems": _structured(exc)}, list(exc.problems)
    except AmunreError as exc:  # not a variant file at all: missing, a directory, an unknown id
        problem = {"file": ref, "line": None, "path": "", "message": str(exc), "expected": None}
        return {"file": ref, "valid": False, "problems": [problem]}, [f"{shown}: {exc}"]
    # any other exception is a bug in the loader: it is not a problem of the file, and ends
    # as an internal error (amunre.cli: exit code 3, the traceback to report)
    # a valid file may still set what its module does not read under its rulings: a warning each
    warnings = list(variant.warnings)
    return ({"file": ref, "valid": True, "problems": [], "warnings": [w.to_dict() for w in warnings]},
            [f"{ref}: ok"] + [w.text for w in warnings])


@click.command("validate")
@many_variants("files", metavar="FILE...")
@click.option("--json", "as_json", is_flag=True,
              help="Print the report as JSON: a list of {file, valid, problems} (schemas/validate-report.schema.json).")
@set_option("Check every FILE with this key changed (KEY=VALUE, repeatable), as `amunre run --set` would.")
def command(files, as_json, overrides):
    """Check variant files (or shipped ids) and report every problem of each, with its line.

    Exits 0 when every file is valid, 1 otherwise."""
    results = [validate_one(ref, overrides) for ref in files]
    reports = [report for report, _ in results]
    if as_json:
        click.echo(dump_json(reports))
    else:
        for report, lines in results:
            # the loader's own lines: exactly what `amunre run` would print
            for line in lines:
                click.echo(literal(line))
            if not report["valid"]:
                count = len(report["problems"])
                shown = report["file"] if report["file"].strip() else repr(report["file"])
                click.echo(literal(f"{shown}: {count} problem{'s' if count != 1 else ''}"))
    invalid = sum(not r["valid"] for r in reports)
    if invalid:  # why the exit code is 1, on stderr: stdout stays the report (one JSON document)
        click.echo(f"{invalid} of {len(reports)} file{'s' if len(reports) != 1 else ''} not valid", err=True)
    sys.exit(1 if invalid else 0)
