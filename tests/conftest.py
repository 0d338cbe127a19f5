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
    """Every variant file shipped in variants/ (editions and house rules), found by globbing."""
    files = sorted(VARIANTS_DIR.glob("*.toml")) + sorted(VARIANTS_DIR.glob("house/*.toml"))
    return [f for f in files if "[edition]" in f.read_text(encoding="utf-8")]
