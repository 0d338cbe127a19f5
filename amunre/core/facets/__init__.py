"""The facets of the rule contract: what a module adds when one more part of amunre should
understand it.

A rule module's core (`amunre.core.contract.Rule`: what it is, its params and rulings, its
own data, `run`) is enough to play it. Each facet is a small class a module adds to its bases
when it needs it, read by one audience:

- `WordsFacet` (`words.py`): words for people at the table (terms, reasons, what the seat
  shows of its data, what it tells of a province);
- `HiddenFacet` (`hidden.py`): what of its data a seat may see, and its hidden data drawn again;
- `EncodingFacet` (`encoding.py`): what of its data an observation vector holds (RL);
- `ValuationFacet` (`valuation.py`): its points and income on a position (planners), with the
  `Valuer` an appraisal asks;
- `PictureFacet` (`picture.py`): the markers it puts on the table (pictures of the board).

A decision's and an event's facets are fields of `Decision` and `Event` (words, encoding,
valuation, statistics, checks), as docs/plugins.md lays out.

`FACET_OF` names the facet of each hook: a module that declares a hook without its facet
among its bases is refused when its class is made, with the base to add (a module written
before the facets, say).
"""

from __future__ import annotations

from amunre.core.facets.encoding import EncodingFacet
from amunre.core.facets.hidden import HiddenFacet
from amunre.core.facets.picture import PictureFacet
from amunre.core.facets.valuation import ValuationFacet
from amunre.core.facets.words import WordsFacet

__all__ = ["FACET_OF", "EncodingFacet", "HiddenFacet", "PictureFacet", "ValuationFacet", "WordsFacet"]

#: Every hook a facet adds -> the facet (the class to add to a module's bases for it).
FACET_OF: dict[str, type] = {
    name: facet
    for facet in (WordsFacet, HiddenFacet, EncodingFacet, ValuationFacet, PictureFacet)
    for name in vars(facet) if not name.startswith("_")
}
