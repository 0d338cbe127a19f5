"""The suite reads what it expects from each variant, never the printed numbers.

House rules drawn at random (`house_rules.house_rule`: any player counts, kingdoms, rounds,
supplies, deck, numeric params and rulings the format allows and the loader accepts) are
written to a folder named by `AMUNRE_PATH`, the search path a designer's own files live on,
and the tests that run over every variant file are run on them in a child pytest, selected by
their ids. Each must pass: a house rule with other numbers is covered without new test code.
(Its golden playthrough, the one thing the suite cannot know, is left out: that test fails
for a new file and says how to record it.)

The quick run draws one set of three house rules; the deep run (`AMUNRE_DEEP=1`) draws 20.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import conftest
from house_rules import drawn_params, house_rule
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from amunre.loader.files import SEARCH_PATH

REPO = Path(__file__).resolve().parent.parent
DEEP = conftest.DEEP  # AMUNRE_DEEP=1 (or the deep hypothesis profile named outright)

#: The test files that run over every variant file the suite covers, each test by the rules it
#: uses (the cached greedy agent's comparison, games only, in the deep profile).
SHARED = ("tests/test_rules_shared.py", "tests/test_set_scoring.py", "tests/test_narration.py",
          "tests/test_conformance.py") + (("tests/test_greedy.py",) if DEEP else ())
PREFIX = "suite-drawn-rule"  # (an id prefix no shipped or designer file is expected to use)


# no shrinking: each example runs a child pytest, and the failure shows the three files whole
@settings(max_examples=20 if DEEP else 1, deadline=None, database=None, phases=[Phase.generate],
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large])
@given(st.tuples(*(house_rule(f"{PREFIX}-{i}") for i in range(3))))
def test_the_shared_tests_pass_on_house_rules_with_any_numbers(tmp_path_factory, texts):
    folder = tmp_path_factory.mktemp("drawn")  # kept after a failure: AMUNRE_PATH=<it> pytest -k <PREFIX> reruns it
    for i, text in enumerate(texts):
        (folder / f"{PREFIX}-{i}.toml").write_text(text, encoding="utf-8")
    env = {**os.environ, SEARCH_PATH: str(folder), "HYPOTHESIS_PROFILE": "ci", "AMUNRE_DEEP": "0"}
    child = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-o", "addopts=", "-v", "-rfE", "--tb=short",
         "-k", PREFIX, *SHARED],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=900)
    shown = f"the drawn files are in {folder}\n\n" + child.stdout[-6000:] + child.stderr[-2000:]
    assert child.returncode == 0, shown
    # each drawn rule really ran: dozens of tests passed on it, in every file that runs over
    # every variant (the set-scoring tests run over the variants that score sets their way)
    for i in range(3):
        passed = [line.split("::")[0] for line in child.stdout.splitlines()
                  if f"{PREFIX}-{i}" in line and " PASSED" in line]
        assert set(passed) >= set(SHARED) - {"tests/test_set_scoring.py"} and len(passed) >= 30, (i, passed, shown)


def test_the_drawn_house_rules_change_every_price_of_the_market():
    """The numbers a drawn house rule may change include the market's shared price table and
    each kind's own (cards, farmers, stones), each over its whole declared range: the shared
    tests above are then run on house rules whose kinds cost differently."""
    from hypothesis import find

    from amunre.loader import load_variant
    from amunre.rules.market import ITEMS

    market = next(s.params for s in load_variant("classic2003").phases if s.rule == "market")
    drawn = drawn_params(market)
    keys = {"first_price", "price_step"} | {f"{what}_{key}" for what in ITEMS for key in ("first_price", "price_step")}
    assert keys <= set(drawn)
    for key in keys:
        assert find(drawn[key], lambda value: value == 0) == 0
        assert find(drawn[key], lambda value: value >= 100) == 100
