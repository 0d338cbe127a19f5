"""`amunre score`: score a position file with a variant's own scoring rules."""

from __future__ import annotations

import click
from rich.table import Table
from rich.text import Text

from amunre.cli.common import dump_json, literal, make_console, one_variant, set_option, variant_arg
from amunre.core.errors import AmunreError
from amunre.core.words import item_label
from amunre.planning.position import (
    answer_policies,
    position_from_data,
    position_variant,
    read_position_raw,
    score_position,
)


def score_table(variant, sheet) -> Table:
    """One row per scoring item (sub-items indented below it), one column per player."""
    points = variant.term("points")
    kingdom = variant.term("final_scoring") if sheet.final else variant.term("scoring")
    table = Table(title=Text(f"{variant.edition.name}: {kingdom}"))  # file text: never markup
    table.add_column("item")
    for name in sheet.names:
        table.add_column(Text(name), justify="right")
    if any(sheet.before):
        table.add_row(Text(f"{points} before"), *(str(b) for b in sheet.before), style="dim")
        table.add_section()
    for item in sheet.items:
        table.add_row(Text(item.name), *(str(v) for v in item.points))
        if len(item.details) > 1 or (item.details and any(item.details.values())):
            for sub, values in item.details.items():
                if any(values):
                    table.add_row(Text(f"  {item_label(variant, sub)}"), *(str(v) for v in values), style="dim")
    table.add_section()
    table.add_row(Text(f"{points} this {kingdom}"), *(str(sheet.gained(p)) for p in range(len(sheet.names))))
    table.add_row("total", *(str(t) for t in sheet.totals), style="bold")
    return table


def parse_answers(variant, given: tuple[str, ...]) -> dict[str, str]:
    """`--answer KIND=POLICY` options as a dict, checked against the variant's decisions."""
    offered = answer_policies(variant)
    listed = "; ".join(f"{kind}={'|'.join(policies)}" for kind, policies in sorted(offered.items())) or "none"
    answers: dict[str, str] = {}
    for text in given:
        kind, sep, policy = (part.strip() for part in text.partition("="))
        if not sep or not kind or not policy:
            raise AmunreError(f"--answer {text!r} is not KIND=POLICY (expected one of: {listed})")
        if kind not in offered:
            raise AmunreError(f"--answer {text!r}: no scoring decision {kind!r} of {variant.id} takes a policy "
                              f"(expected one of: {listed})")
        if policy not in offered[kind]:
            raise AmunreError(f"--answer {text!r}: {kind!r} has no policy {policy!r} "
                              f"(expected one of: {', '.join(offered[kind])})")
        if kind in answers:
            raise AmunreError(f"--answer gives {kind!r} twice ({answers[kind]!r} and {policy!r}): expected one policy")
        answers[kind] = policy
    return answers


@click.command("score")
@click.argument("position", type=click.Path(dir_okay=False))
@one_variant(required=False, help_text="Variant id or variant TOML file, the same as the VARIANT argument "
             "(default: the shipped variant the position's `variant` names, else classic2003; a position never names "
             "a file).")
@click.option("--final/--no-final", default=None,
              help="Add the final scoring (gold ranking), as at the end of the last kingdom, or not. Default: what "
                   "the position's `scoring` key says (`final` or `kingdom`), else the kingdom's scoring only.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document instead of a table.")
@click.option("--answer", "answers", multiple=True, metavar="KIND=POLICY",
              help="How a scoring rule's decision is answered: a decision kind and one of the policies its "
                   "module offers (repeatable; otherwise each takes its first policy; a wrong one lists them).")
@set_option()
def command(position, variant_name, final, as_json, answers, overrides):
    """Score the holdings in a POSITION file (TOML or JSON) and show each player's points per item."""
    data, lines = read_position_raw(position, argument="POSITION")
    if variant_name is None:  # the position names a shipped id, never a file to read
        variant_name = position_variant(data, str(position), lines)
    variant = variant_arg(variant_name, overrides)
    named = data.get("variant")
    if isinstance(named, str) and named != variant.id:
        # allowed (a house rule scoring an edition's position), but easy to do by mistake
        click.echo(literal(f"note: {position} was written for {named}; scoring it with the rules of "
                           f"{variant.id} as --variant asks"), err=True)
    pos = position_from_data(data, variant, source=str(position), lines=lines)
    if final is None:  # the position may say which scoring it shows (checked by its schema)
        final = data.get("scoring") == "final"
    sheet = score_position(variant, pos.state, answers=parse_answers(variant, answers), final=final,
                           names=pos.names)
    if as_json:
        doc = {"variant": variant.id, "position": str(position), **sheet.to_dict()}
        click.echo(dump_json(doc))
        return
    console = make_console()  # names from the position print literally: no markup, no emoji codes
    console.print(score_table(variant, sheet))
    if sheet.final:
        names = [sheet.names[p] for p in sheet.winners]
        console.print(f"Winner{'s' if len(names) > 1 else ''}: {' and '.join(names)}", markup=False)

