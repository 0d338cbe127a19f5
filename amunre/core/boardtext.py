"""The public board in words, read from a seat's view: what is printed on a province, what
lies on it now, what it yields. Rule modules use it for the facts of their decisions
(`Decision.facts`) and the human seat for its view of the board; it reads only what every
player may know (`amunre.core.view`).
"""

from __future__ import annotations

from amunre.core.facets import WordsFacet

#: The names the board's words read of what the rule modules publish (`Rule.publishes`):
#: the offering level, the theft cards each player holds. Shown only where one is published.
LEVEL = "offering_level"
THEFT_CARDS = "theft_cards"


def theft_cards(view, player: int) -> int:
    """The theft cards `player` holds, as published (0 where no module publishes them)."""
    held = view.published(THEFT_CARDS)
    return held[player] if held else 0


def _join(parts) -> str:
    parts = [p for p in parts if p]
    return ", ".join(parts)


def printed(view, pid: int, w) -> str:
    """What the province card shows for the whole kingdom: where it lies, its field spaces,
    gold mine, caravan, temples and card symbols."""
    info = view.variant.board.provinces[pid]
    where = f"{info.half} Egypt, {info.side} side, {'on the Nile' if info.nile else 'frontier'}"
    return _join([
        where,
        w.plural(info.fields, "field", "fields"),
        f"gold mine {info.mine}" if info.mine else "",
        f"caravan {info.caravan}" if info.caravan else "",
        w.plural(info.temples, "temple", "temples") if info.temples else "",
        f"buys up to {w.plural(info.card_limit, w.t('favor'), w.t('favor_plural'))}" if info.card_limit else "",
    ])


def pyramids_text(prov, w) -> str:
    """The pyramids standing in a province ("2 pyramids and 1 double pyramid"), or ""."""
    parts = []
    if prov.pyramids:
        parts.append(w.plural(prov.pyramids, w.t("pyramid"), w.t("pyramid") + "s"))
    if prov.doubles:
        parts.append(w.plural(prov.doubles, w.t("double_pyramid"), w.t("double_pyramid") + "s"))
    return " and ".join(parts)


def lying_on(view, pid: int, w) -> str:
    """What lies on a province now (cards face down only by their number), or ""."""
    prov = view.provinces[pid]
    return _join([
        f"{w.plural(prov.cards, w.t('favor'), w.t('favor_plural'))} face down" if prov.cards else "",
        w.plural(prov.stones, w.t("stone"), w.t("stones")) if prov.stones else "",
        f"{prov.gold} {w.t('gold')}" if prov.gold else "",
        pyramids_text(prov, w),
    ])


def province_line(view, pid: int, w) -> str:
    """A province on auction: what it shows and what lies on it."""
    on = lying_on(view, pid, w)
    return printed(view, pid, w) + (f"; on it: {on}" if on else "")


def level_words(view, w) -> str:
    """The offering level as the edition shows it ("Amun-Re temple on the temple track:
    level 2", "Offering tile 3>12 (level 2)"), and before the first offering, that there is
    none yet: the first offering sets it. "" where no module publishes a level."""
    if not view.publishes(LEVEL):
        return ""
    level = view.published(LEVEL)
    if level == 0:
        return f"{w.t('offering_level')}: no level yet (the first {w.t('offering')} sets it)"
    name = w.numbered("offering_level", level)
    return f"{w.t('offering_level')} {name} (level {level})" if name else f"{w.t('offering_level')}: level {level}"


def holding_line(view, pid: int, w) -> str:
    """One of the seat's own provinces: fields used of total, farmers, stones, pyramids, then
    what the rule modules tell of it (`WordsFacet.province_facts`: the harvest, its income)."""
    info = view.variant.board.provinces[pid]
    prov = view.provinces[pid]
    farmers = f"{prov.farmers}/{info.fields} fields used"
    if prov.free_farmers:
        farmers += f" (+{prov.free_farmers} {w.t('farmer') if prov.free_farmers == 1 else w.t('farmers')} " \
                   f"off the fields)"
    return _join([
        farmers,
        w.plural(prov.stones, w.t("stone"), w.t("stones")) if prov.stones else "",
        pyramids_text(prov, w),
        *province_facts(view, pid, w),
    ])


def province_facts(view, pid: int, w) -> list[str]:
    """What the variant's rule modules tell about a province as the seat of `view` sees it,
    in pipeline order (`WordsFacet.province_facts`), each once (two entries of a rule tell alike)."""
    facts = []
    for module in view.variant.modules.all:
        if not isinstance(module, WordsFacet):
            continue
        told = module.province_facts(view, pid, w)
        if not isinstance(told, (list, tuple)) or not all(isinstance(fact, str) for fact in told):
            from amunre.core.errors import RuleModuleError

            raise RuleModuleError(f"rule module {module.id!r} (entry {module.spec.id!r}): province_facts returned "
                                  f"{type(told).__name__} {str(told)[:60]!r} (expected a list of short phrases, "
                                  "[] for none)")
        facts += told
    return list(dict.fromkeys(facts))


def level_text(level: int, w) -> str:
    """An offering level as the edition shows it: "level 2", or the 2016 tile's name."""
    name = w.numbered("offering_level", level)
    return f"level {level}, the {name} {w.t('offering_level')}" if name else f"level {level}"


def temples_text(temples, level: int, w) -> str:
    """"2 temples in Damanhur x 2 (level 2)": [province, temples] pairs times the level (the
    temples scoring, and the harvest where a ruling scores them there)."""
    count = sum(n for _, n in temples)
    where = w.join([w.province(pid) + (f" ({n})" if len(temples) > 1 else "") for pid, n in temples])
    return f"{w.count(count, 'temple', 'temples')} in {where} x {level} ({level_text(level, w)})"
