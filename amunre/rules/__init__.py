"""The built-in rule modules. Importing this package registers all of them."""

from amunre.rules import auction, final, harvest, market, offering, province_draw, scoring  # noqa: F401
