"""Shared test set-up: hypothesis profiles and the variant files under test.

Profiles: `ci` (the default, quick) and `deep` (many more examples, for manual runs):
    HYPOTHESIS_PROFILE=deep pytest
"""

import os
from pathlib import Path

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
settings.register_profile("deep", max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

REPO = Path(__file__).resolve().parent.parent
VARIANTS_DIR = REPO / "variants"


def variant_files() -> list[Path]:
    """Every variant file in the checkout's variants/ (editions and house rules), found by
    globbing; board files are left out, files that fail to parse are kept (and fail)."""
    from amunre.loader import variant_files as find

    return find(VARIANTS_DIR)
