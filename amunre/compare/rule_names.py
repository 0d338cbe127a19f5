"""A rule difference's key in words: the name a rule module (or the variant's model) gives the
parameter, ruling or component, with the key beside it (`Ranks after a tie — gold_ties
(A-GOLDTIES)`), so that a co-designer reads what changed without the schema at hand.

The words are the field's own documentation (`doc(...)`, `ruling(...)`: `metadata["doc"]`),
whole, since a ruling's says what each of its values means; a key without any (an edition's
name, a pipeline's order) is shown as it is. Nothing here names a rule: the module is found
from the entry the key points at.
"""

from __future__ import annotations

import attrs


def words(doc: str) -> str:
    """A field's documentation as plain words (the code marks around values dropped)."""
    return " ".join(doc.replace("`", "").split()).rstrip(".")


def _doc(instance_or_class, name: str) -> str:
    cls = instance_or_class if isinstance(instance_or_class, type) else type(instance_or_class)
    if not attrs.has(cls):
        return ""
    field = attrs.fields_dict(cls).get(name)
    return str(field.metadata.get("doc", "")) if field is not None else ""


def key_name(group: str, key: str, variants) -> str:
    """The words for one difference's key (`group` as `amunre diff` groups it), from the
    first of `variants` that declares it; "" where nothing names it."""
    from amunre.loader.pipelines import PIPELINES

    if group == "rulings":
        from amunre.core.registry import all_rules
        from amunre.loader.rulings import declared_rulings

        owner = declared_rulings(all_rules()).get(key)
        return words(_doc(owner[0], key)) if owner else ""
    if group == "components":
        for variant in variants:
            found = _doc(variant.components, key.partition(".")[0] if key.startswith("deck.") else key)
            if found:
                return words(found)
        return ""
    if group == "params":
        pipeline, _, rest = key.partition(".")
        entry, _, name = rest.rpartition(".")
        if pipeline not in PIPELINES:
            return ""
        for variant in variants:
            for spec in getattr(variant, pipeline):
                if spec.id == entry:
                    found = _doc(spec.params, name)
                    if found:
                        return words(found)
    return ""


def shown_key(group: str, row: dict, variants) -> str:
    """A difference's key as the report shows it: its name, then the key (and a ruling's SPEC
    id) beside it; the key alone where nothing names it."""
    from amunre.loader.compare import key_text

    name = key_name(group, row["key"], variants)
    return f"{name} — {key_text(row)}" if name else key_text(row)
