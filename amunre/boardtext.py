"""The public board in words, read from a seat's view: what is printed on a province, what
lies on it now, what it yields. Rule modules use it for the facts of their decisions
(`Decision.facts`) and the human seat for its view of the board; it reads only what every
player may know (`amunre.view`).
"""

from __future__ import annotations


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


def income(view, pid: int) -> int | None:
    """The gold the province would yield at a harvest now (farmers at the offering level, its
    mine, its caravan where the level shows a camel), or None in a variant without a harvest."""
    harvest = view.rule("harvest")
    if harvest is None or not hasattr(harvest, "income"):
        return None
    return harvest.income(view, view.variant.board, pid)


def level_words(view, w) -> str:
    """The offering level as the edition shows it ("Amun-Re temple on the temple track:
    level 2", "Offering tile 3>12 (level 2)"), and before the first offering, that there is
    none yet: the first offering sets it."""
    level = view.offering_level
    if level == 0:
        return f"{w.t('offering_level')}: no level yet (the first {w.t('offering')} sets it)"
    name = w.numbered("offering_level", level)
    return f"{w.t('offering_level')} {name} (level {level})" if name else f"{w.t('offering_level')}: level {level}"


def income_text(view, pid: int, w) -> str | None:
    """"income 5 gold" at the current offering level; before the first offering, which sets
    the level, what the income will depend on ("income after the first sacrifice: 2 farmers x
    its level + 1 gold (+3 at level 1 or 2)"). None in a variant without a harvest."""
    gold = income(view, pid)
    if gold is None:
        return None
    if view.offering_level:
        return f"income {gold} {w.t('gold')}"
    info = view.variant.board.provinces[pid]
    farmers = view.provinces[pid].all_farmers()
    camels = getattr(getattr(view.rule("harvest"), "params", None), "camel_levels", ())
    terms = ([f"{w.count(farmers, 'farmer')} x its level"] if farmers else []) + ([str(info.mine)] if info.mine else [])
    total = " + ".join(terms) or "0"
    total += f" {w.t('gold')}" if not farmers or info.mine else f", in {w.t('gold')}"
    if info.caravan and camels:
        total += f" (+{info.caravan} {w.t('gold')} at level {w.join([str(level) for level in camels], 'or')})"
    return f"income after the first {w.t('offering')}: {total}"


def holding_line(view, pid: int, w) -> str:
    """One of the seat's own provinces: fields used of total, farmers, stones, pyramids, income."""
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
        income_text(view, pid, w),
    ])
