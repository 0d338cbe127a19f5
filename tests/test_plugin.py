"""A plug-in proves the contract: a third-party package, the module docs/architecture.md
shows (a scoring rule with its own ruling, terms and narrated event; a phase with its own
data, a decision with context, a payment and a fact about provinces), registered through the
`amunre.rules` entry-point group, and house rules that insert them by id. Nothing in amunre
names them.

The package is built and installed into a temporary target; the game runs in a subprocess
with that target on the path, as a user who `pip install`ed the plug-in would run it.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import jsonschema
import pytest
from helpers import installed_env, offline_build_possible, problems_of

from amunre.loader.resources import load_schema

REPO = Path(__file__).resolve().parent.parent


def _example_module() -> str:
    """The plug-in module of docs/architecture.md, as written there: the docs show what this
    test installs and plays."""
    from test_architecture import example_module

    return example_module()


PLUGIN = _example_module()

PYPROJECT = '''
[build-system]
requires = ["setuptools>=64"]
build-backend = "setuptools.build_meta"

[project]
name = "amunre-obelisks"
version = "0.1"

[project.entry-points."amunre.rules"]
obelisks = "amunre_obelisks:Obelisks"
shrines = "amunre_obelisks:Shrines"

[tool.setuptools]
py-modules = ["amunre_obelisks"]
'''

HOUSE = '''
extends = "classic2003"

[edition]
id = "classic2003-obelisks"
name = "2003 with obelisks"

[terms]
obelisk = "stone needle"
obelisks = "stone needles"

[[scoring]]
id = "obelisks"
rule = "obelisks"
name = "stone needles"
after = "pyramids"
[scoring.params]
points = 2

[rulings]
obelisks_need_a_pyramid = false
'''


SHRINE_HOUSE = '''
extends = "classic2003"

[edition]
id = "classic2003-shrines"
name = "2003 with shrines"

[[phases]]
id = "shrines"
rule = "shrines"
name = "raise shrines"
after = "market"
'''

#: Plays the shrine house rule until a shrine stands, then prints what each face of the
#: engine shows of it: the observation, the human seat's board text, the board picture.
SHOW_SHRINES = '''
import json, sys
from amunre.agents import make_agents
from amunre.core.boardtext import holding_line
from amunre.core.engine import Game
from amunre.loader import load_variant
from amunre.core.words import Words, player_names
from amunre.rl.actions import action_space
from amunre.rl.observation import ObservationLayout
from amunre.picture.steps import snapshot
from amunre.picture.svg import BoardPicture

variant = load_variant(sys.argv[1])
game = Game(variant, 3, 2)
agents = make_agents(["random"] * 3, 2)
layout = ObservationLayout(variant, 3, action_space(variant))
asked = None
while game.pending is not None and not game.state.rules["shrines"]["standing"]:
    request = game.pending
    if request.kind == "raise_shrine" and asked is None:
        vector = layout.encode(game, request.player)
        asked = {"left": float(vector[layout.slices["context.left"]][0]), "options": len(request.options)}
    choice = agents[request.player].choose(game.view(request.player), request)
    if request.kind == "raise_shrine" and len(request.options) > 1:
        choice = request.options[1]
    game.answer(choice)
where = game.state.rules["shrines"]["standing"][0]
owner = game.state.provinces[where].owner
vector = layout.encode(game, owner)
words = Words(variant, player_names(3))
snap = snapshot(variant, game.state, game.phase_name, game=game)
print(json.dumps({
    "sections": [name for name, *_ in layout.sections],
    "standing": [int(v) for v in vector[layout.slices["rules.shrines.standing"]]],
    "where": where,
    "asked": asked,
    "board_text": holding_line(game.view(owner), where, words),
    "picture_facts": list(snap.facts[where]),
    "picture": BoardPicture(variant, player_names(3)).document(snap),
}))
'''


#: The tests of the installed plug-in share a worker (`--dist loadgroup`): the module's fixture `installed`
#: is then built once, not once on each worker (a pip install, with its isolated build, each time)
ONE_INSTALL = pytest.mark.xdist_group("plugin-installed")


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(environment with the plug-in on the path, the house-rule file)."""
    root = tmp_path_factory.mktemp("plugin")
    src = root / "src"
    src.mkdir()
    (src / "amunre_obelisks.py").write_text(textwrap.dedent(PLUGIN), encoding="utf-8")
    (src / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    target = root / "site"
    env = installed_env(src, target)
    assert any(target.glob("amunre_obelisks-*.dist-info/entry_points.txt"))
    house = root / "obelisks.toml"
    house.write_text(HOUSE, encoding="utf-8")
    (root / "shrines.toml").write_text(SHRINE_HOUSE, encoding="utf-8")
    return env, house


def amunre(env, *args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "amunre", *args], capture_output=True, text=True, env=env,
                          timeout=300)


@ONE_INSTALL
def test_a_plugin_scoring_item_plays_and_is_narrated_in_the_variants_words(installed):
    env, house = installed
    run = amunre(env, "run", "--variant", str(house), "--seed", "3", "--players", "4")
    assert run.returncode == 0, run.stderr
    # its own line, in the file's words, says the points and the total (no generic points line)
    assert re.search(r"raises \d+ stone needles?: scores \d+ points?, now \d+ points? in all\.", run.stdout)
    assert not re.search(r"scores \d+ points? for stone needles", run.stdout)
    table = run.stdout.split("Final score")[1]
    rows = [line for line in table.splitlines() if "stone needles" in line]
    assert len(rows) == 2 and "Old Kingdom: stone needles" in rows[0]  # one row per kingdom
    assert table.index("pyramids") < table.index("stone needles") < table.index("complete sets")


@ONE_INSTALL
def test_a_plugin_item_is_in_the_json_result_and_the_schema_accepts_it(installed):
    env, house = installed
    run = amunre(env, "run", "--variant", str(house), "--seed", "3", "--players", "4", "--json")
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    jsonschema.validate(result, load_schema("result"))
    items = result["players"][0]["items"]
    assert all("obelisks" in items[k] for k in ("Old Kingdom", "New Kingdom"))
    assert sum(p["items"]["Old Kingdom"]["obelisks"] for p in result["players"]) % 2 == 0


@ONE_INSTALL
def test_a_plugin_ruling_is_checked_like_any_other(installed, tmp_path):
    env, house = installed
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(HOUSE.replace("obelisks_need_a_pyramid = false", "obelisk_need_a_pyramid = 1"), encoding="utf-8")
    run = amunre(env, "run", "--variant", str(wrong))
    assert run.returncode == 2
    assert "rulings.obelisk_need_a_pyramid: unknown ruling (did you mean 'obelisks_need_a_pyramid'?" in run.stderr
    assert "Traceback" not in run.stderr


@ONE_INSTALL
def test_the_conformance_suite_passes_on_the_plugin_variant(installed):
    env, house = installed
    run = amunre(env, "check", str(house), "--games", "2", "--players", "3")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "all invariants held" in run.stdout


@ONE_INSTALL
def test_compare_reports_the_plugins_statistic_and_item_without_knowing_them(installed):
    """compare finds its rows in what modules declare: the plug-in's event statistic and
    its scoring item get rows, in the house rule's words, with no change to compare."""
    env, house = installed
    run = amunre(env, "compare", "classic2003", str(house), "--games", "30", "--players", "3", "--workers", "1",
                 "--json")
    assert run.returncode == 0, run.stderr
    doc = json.loads(run.stdout)
    jsonschema.validate(doc, load_schema("compare"))
    rows = {row["key"]: row for row in doc["rows"]}
    assert rows["obelisks"]["label"] == "stone needles raised per game"
    assert rows["obelisks"]["values"][0] is None and rows["obelisks"]["values"][1]["mean"] > 0
    assert rows["points.obelisks"]["label"].endswith(": stone needles")
    assert rows["points.obelisks"]["values"][0] is None and rows["points.obelisks"]["values"][1]["n"] == 30
    # and every row a scoring item gets: its share of the winner's points and of the others'
    for prefix in ("item_share.winner.", "item_share.others."):
        assert rows[prefix + "obelisks"]["label"].startswith("Stone needles") or \
            rows[prefix + "obelisks"]["label"].lower().startswith("stone needles")
        assert rows[prefix + "obelisks"]["values"][0] is None and rows[prefix + "obelisks"]["values"][1]["n"] > 0


@ONE_INSTALL
def test_a_plugins_state_decision_context_and_province_fact_reach_every_face(installed):
    """A plug-in phase with its own data, a decision with context and a fact about a province:
    the observation holds its data (`EncodingFacet.observation`) and, when a seat is asked, the context
    (`Decision.context`); the human seat's board text and the board picture tell its fact
    (`WordsFacet.province_facts`). No core file names it."""
    pytest.importorskip("numpy", reason="the observation needs the rl extra: pip install '.[rl]'")
    pytest.importorskip("pettingzoo", reason="the observation needs the rl extra: pip install '.[rl]'")
    env, house = installed
    shrines = house.parent / "shrines.toml"
    run = subprocess.run([sys.executable, "-c", SHOW_SHRINES, str(shrines)], capture_output=True, text=True, env=env,
                         timeout=300)
    assert run.returncode == 0, run.stderr
    shown = json.loads(run.stdout)
    assert {"rules.shrines.standing", "rules.shrines.left", "context.left"} <= set(shown["sections"])
    assert shown["standing"] == [int(pid == shown["where"]) for pid in range(len(shown["standing"]))]
    assert shown["asked"]["left"] == 2 and shown["asked"]["options"] >= 1
    assert "a shrine stands here" in shown["board_text"]
    assert "a shrine stands here" in shown["picture_facts"]
    assert re.search(r'data-facts="[^"]*a shrine stands here[^"]*"', shown["picture"])
    assert re.search(r"<title>[^<]*: a shrine stands here[^<]*</title>", shown["picture"])
    check = amunre(env, "check", str(shrines), "--games", "2", "--players", "3")
    assert check.returncode == 0, check.stdout + check.stderr


def test_no_core_file_knows_the_plugin():
    for path in (REPO / "amunre").rglob("*.py"):
        text = path.read_text(encoding="utf-8").lower()
        assert "obelisk" not in text and "shrine" not in text, path


@ONE_INSTALL
def test_a_broken_plugin_is_named_and_stops_nothing_else(installed, tmp_path):
    env, house = installed
    src = tmp_path / "broken"
    src.mkdir()
    (src / "amunre_broken.py").write_text('raise ImportError("needs numpy 9")\n', encoding="utf-8")
    (src / "pyproject.toml").write_text(PYPROJECT.replace("amunre-obelisks", "amunre-broken").replace(
        'obelisks = "amunre_obelisks:Obelisks"', 'sphinx = "amunre_broken:Sphinx"').replace(
        '"amunre_obelisks"', '"amunre_broken"'), encoding="utf-8")
    site = Path(env["PYTHONPATH"])
    cmd = [sys.executable, "-m", "pip", "install", str(src), "--target", str(tmp_path / "site2"), "--no-deps",
           "--quiet", "--disable-pip-version-check"]
    if offline_build_possible():
        cmd += ["--no-build-isolation", "--no-index"]
    assert subprocess.run(cmd, capture_output=True, text=True, timeout=300).returncode == 0
    both = dict(env, PYTHONPATH=f"{site}{os.pathsep}{tmp_path / 'site2'}")
    uses = tmp_path / "sphinx.toml"
    uses.write_text(HOUSE.replace('rule = "obelisks"', 'rule = "sphinx"').replace(
        "[rulings]\nobelisks_need_a_pyramid = false\n", ""), encoding="utf-8")
    run = amunre(both, "run", "--variant", str(uses))
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert ("unknown rule module 'sphinx': its plug-in failed to load "
            "(amunre_broken:Sphinx: ImportError: needs numpy 9)") in run.stderr
    assert amunre(both, "run", "--variant", str(house), "--quiet", "--seed", "1").returncode == 0


# -- plug-in traps: what a module written from docs/architecture.md can get wrong ------------

TRIBUTE = '''
"""Tribute: every player pays the bank at a kingdom's scoring (a test plug-in)."""

from amunre.core.contract import Rule
from amunre.core.mechanics import pay, place_stone


class Tribute(Rule):
    id = "tribute"
    kind = "scoring"
    summary = "Every player pays 2 gold of tribute."

    def run(self, game):
        for p in game.state.turn_order():
            {call}
        return
        yield
'''


def tribute_variant(tmp_path, call: str):
    """A variant with the Tribute module, whose `run` makes `call` for every player; the
    module is registered in this process for the test only (as an installed plug-in is)."""
    from amunre.core.registry import RULES, all_rules
    from amunre.loader import load_variant

    all_rules()
    space: dict = {"__name__": "amunre_tribute"}
    exec(compile(TRIBUTE.format(call=call), "amunre_tribute.py", "exec"), space)
    RULES["tribute"] = space["Tribute"]
    path = tmp_path / "tribute.toml"
    path.write_text('extends = "classic2003"\n[edition]\nid = "tribute"\n'
                    '[[scoring]]\nid = "tribute"\nrule = "tribute"\n', encoding="utf-8")
    return load_variant(path)


@pytest.fixture
def unregister_tribute():
    yield
    from amunre.core.registry import RULES

    RULES.pop("tribute", None)


FIX = ("write `yield from pay(...)` (a shared move that may ask a player a decision is carried out with "
       "yield from; see docs/architecture.md, The rule module contract)")


def test_a_plugin_that_pays_without_yield_from_fails_loudly_in_a_game(tmp_path, capsys, unregister_tribute):
    """`pay` is carried out with `yield from`: called bare it would silently pay nothing.
    The step that called it ends in a `RuleModuleError` naming the module, the call and the
    fix; `amunre run` says so in one error line."""
    from helpers import run_cli

    from amunre.agents import make_agents
    from amunre.core.engine import play_game
    from amunre.core.errors import RuleModuleError

    variant = tribute_variant(tmp_path, 'pay(game, p, 2, "tribute")')
    with pytest.raises(RuleModuleError) as info:
        play_game(variant, make_agents(["random"] * 3, 1), 1)
    assert str(info.value).startswith("rule module 'tribute' (entry 'tribute') called pay(game, ")
    assert ", 2, 'tribute') without `yield from`, so it never happened: " + FIX in str(info.value)
    code, out, err = run_cli(capsys, "run", "--variant", variant.source, "--players", "3", "--quiet")
    assert code == 2 and "Traceback" not in err and "internal error" not in err
    assert err.startswith("error: rule module 'tribute' (entry 'tribute') called pay(game, ") and FIX in err


def test_a_plugin_that_pays_without_yield_from_fails_amunre_check(tmp_path, capsys, unregister_tribute):
    from helpers import run_cli

    from amunre.testing import ConformanceError, check_variant

    variant = tribute_variant(tmp_path, 'pay(game, p, 2, "tribute")')
    with pytest.raises(ConformanceError) as info:
        check_variant(variant, seeds=range(1), agents=("random",), players=[3])
    assert info.value.invariant == "contract" and FIX in str(info.value)
    code, out, err = run_cli(capsys, "check", variant.source, "--games", "1", "--players", "3")
    assert code == 1 and "Traceback" not in err
    assert "invariant [contract] failed: rule module 'tribute' (entry 'tribute') called pay(game, " in err
    assert FIX in err and f"rerun: amunre run --variant {variant.source} --players 3 --seed 0" in err


def test_a_plugin_that_places_a_stone_without_yield_from_fails_loudly(tmp_path, unregister_tribute):
    """Every shared move that may ask a decision is held to it, not only `pay`."""
    from amunre.agents import make_agents
    from amunre.core.engine import play_game
    from amunre.core.errors import RuleModuleError

    call = "place_stone(game, p, game.state.players[p].provinces[0]) if game.state.players[p].provinces else None"
    variant = tribute_variant(tmp_path, call)
    with pytest.raises(RuleModuleError, match=r"called place_stone\(game, \d, \d+, False\) without `yield from`, "
                                              r"so it never happened: write `yield from place_stone\(\.\.\.\)`"):
        play_game(variant, make_agents(["random"] * 3, 1), 1)


def test_a_plugin_that_pays_with_yield_from_pays_and_passes_the_check(tmp_path, unregister_tribute):
    from amunre.agents import make_agents
    from amunre.core.engine import play_game
    from amunre.testing import check_variant

    variant = tribute_variant(tmp_path, 'yield from pay(game, p, 2, "tribute")')
    lines = []
    game = play_game(variant, make_agents(["random"] * 3, 1), 1, [lines.append])
    tributes = [e for e in lines if e["event"] == "pay" and e["why"] == "tribute"]
    assert len(tributes) == 3 * len(variant.edition.kingdoms) and all(e["amount"] == 2 for e in tributes)
    assert game.state.finished
    assert check_variant(variant, seeds=range(1), agents=("random", "greedy"), players=[3])


def test_a_move_carried_out_twice_is_refused(tmp_path, unregister_tribute):
    from amunre.agents import make_agents
    from amunre.core.engine import play_game
    from amunre.core.errors import RuleModuleError

    variant = tribute_variant(tmp_path, 'owed = pay(game, p, 1, "tribute"); yield from owed; yield from owed')
    with pytest.raises(RuleModuleError, match=r"pay\(game, \d, 1, 'tribute'\) was carried out twice with `yield from`"):
        play_game(variant, make_agents(["random"] * 3, 1), 1)


@pytest.fixture
def fake_plugins(monkeypatch):
    """`install(name=class, ...)`: entry points of the `amunre.rules` group, faked (each
    class in a module of its own in `sys.modules`), and the registry loaded again with them.
    The registry is put back afterwards."""
    import types
    from importlib.metadata import EntryPoint

    from amunre.core import registry

    registry.all_rules()
    rules, broken = dict(registry.RULES), dict(registry.BROKEN_PLUGINS)

    def install(*plugins):
        points = []
        for i, (name, cls) in enumerate(plugins):
            if isinstance(cls, str):  # "module:Class" of a module on the path, imported when loaded
                points.append(EntryPoint(name=name, value=cls, group="amunre.rules"))
                continue
            module = types.ModuleType(f"amunre_fake{i}")
            module.Plugin = cls
            monkeypatch.setitem(sys.modules, module.__name__, module)
            points.append(EntryPoint(name=name, value=f"{module.__name__}:Plugin", group="amunre.rules"))
        monkeypatch.setattr(registry, "entry_points", lambda group: points if group == "amunre.rules" else [])
        monkeypatch.setattr(registry, "_loaded", False)
        registry.RULES.clear()
        registry.RULES.update({k: v for k, v in rules.items() if v.__module__.startswith("amunre.rules.")})
        registry.BROKEN_PLUGINS.clear()
        return registry.all_rules()

    yield install
    registry.RULES.clear()
    registry.RULES.update(rules)
    registry.BROKEN_PLUGINS.clear()
    registry.BROKEN_PLUGINS.update(broken)


@pytest.mark.parametrize("hook,facet", [
    ("    def points_for(self, state, player):\n        return {}", "ValuationFacet"),
    ("    def view_state(self, data, player):\n        return {}", "HiddenFacet"),
    ("    terms = {'stele': 'stele'}", "WordsFacet"),
    ("    observation = {'steles': 'count'}", "EncodingFacet"),
    ("    def table_markers(self, event, markers):\n        pass", "PictureFacet"),
])
def test_a_plugin_that_declares_a_facet_hook_without_the_facet_says_which_base_to_add(
        fake_plugins, tmp_path, monkeypatch, hook, facet):
    """A module written before the contract had facets declares its hooks on a plain `Rule`: the
    faces ask only a module with the facet, so its hook would be silently unread (a secret
    shown, a formula never used). Its plug-in is refused when loaded, and a variant that uses
    it says which base to add; the same class with the facet loads and plays."""
    from helpers import problems_of

    from amunre.loader import load_variant

    code = ("from amunre.core.contract import Rule\n"
            "from amunre.core.facets import {bases}\n\n\n"
            "class Steles(Rule{extra}):\n"
            "    id, kind, summary = 'steles', 'scoring', 'a plug-in written before the facets'\n"
            "{hook}\n")
    (tmp_path / "amunre_steles_old.py").write_text(code.format(bases=facet, extra="", hook=hook))
    (tmp_path / "amunre_steles_new.py").write_text(code.format(bases=facet, extra=f", {facet}", hook=hook))
    monkeypatch.syspath_prepend(str(tmp_path))
    house = tmp_path / "steles.toml"
    house.write_text('extends = "classic2003"\n\n[edition]\nid = "steles"\n\n'
                     '[[scoring]]\nid = "steles"\nrule = "steles"\nname = "steles"\n')
    fake_plugins(("steles", "amunre_steles_old:Steles"))
    (problem,) = problems_of(house)
    assert "its plug-in failed to load" in problem and f"a hook of the {facet}, without that facet" in problem, problem
    assert f"`from amunre.core.facets import {facet}`; `class Steles(Rule, {facet})`" in problem, problem
    fake_plugins(("steles", "amunre_steles_new:Steles"))
    assert load_variant(house).modules.rule("steles").id == "steles"


def test_a_module_declares_its_params_and_rulings_once_or_as_before(tmp_path, unregister_oasis):
    """`params = takes(Params)` declares the class the loader reads a pipeline entry's `params`
    into (the module's `Params`) and the type of `self.params`; a module written before sets
    `Params` itself and keeps working. Either way a built module holds the entry's values."""
    import attrs

    from amunre.core.contract import Rule, answers, ruling, takes
    from amunre.loader import load_variant

    @attrs.frozen
    class WellParams:
        depth: int = 3

    @attrs.frozen
    class WellRulings:
        deep_wells: bool = ruling("A-WELLS", "Wells may be deep.", False)

    class NewStyle(Rule):
        id, kind = "oasis", "phase"
        params = takes(WellParams)
        rulings = answers(WellRulings)

    class OldStyle(Rule):
        id, kind = "oasis", "phase"
        Params = WellParams
        Rulings = WellRulings

    for cls in (NewStyle, OldStyle):
        assert (cls.Params, cls.Rulings) == (WellParams, WellRulings)
        module = load_variant(_register(tmp_path, cls)).modules.rule("oasis")
        assert module.params == WellParams() and module.rulings == WellRulings()


@pytest.mark.parametrize("body,said", [
    ({"params": "WellParams"}, "sets params = <class"),
    ({"rulings": "WellParams"}, "write `rulings = answers(...)`"),
    ({"publishes": "'well'"}, "declares publishes as 'well': expected a mapping of each name"),
    ({"publishes": "('well',)"}, "declares publishes as ('well',): expected a mapping"),
    ({"reads_published": "'offering_level'"}, "declares reads_published as 'offering_level': expected a tuple"),
    ({"reads_published": "[1, 2]"}, "declares reads_published as [1, 2]: expected a tuple"),
    ({"keeps_between_kingdoms": "frozenset({'pyramids'})"}, "expected a frozenset of 'farmers', 'owners'"),
    ({"keeps_between_kingdoms": "'farmers'"}, "declares keeps_between_kingdoms as 'farmers': expected a frozenset"),
])
def test_a_declaration_of_the_wrong_shape_is_refused_when_the_class_is_made(body, said):
    """Shapes that would pass unseen until a game fails (a string read letter by letter as
    names, a params class set without `takes`) are refused with what to write instead."""
    import attrs

    from amunre.core.contract import Rule
    from amunre.core.errors import RuleModuleError

    @attrs.frozen
    class WellParams:
        depth: int = 3

    (name, value), = body.items()
    with pytest.raises(RuleModuleError, match=re.escape(said)):
        type("Wells", (Rule,), {"id": "wells", "__module__": "amunre_wells", name: eval(value)})


def _failing():
    from amunre.core.contract import Rule

    class Oasis(Rule):
        id, kind = "oasis", "phase"

        def run(self, game):
            raise ValueError("a slip of the plug-in")
            yield

    return Oasis


def test_a_plugin_whose_code_raises_is_named_not_reported_as_a_bug_of_amunre(tmp_path, unregister_oasis):
    from amunre.agents import make_agents
    from amunre.core.engine import play_game
    from amunre.core.errors import RuleModuleError
    from amunre.loader import load_variant

    variant = load_variant(_register(tmp_path, _failing()))
    with pytest.raises(RuleModuleError) as info:
        play_game(variant, make_agents(["random"] * 3, 1), 1)
    said = str(info.value)
    assert ("rule module 'oasis' (entry 'oasis', test_plugin) raised ValueError: a slip of the plug-in in its run"
            in said)
    assert "test_plugin.py:" in said and "a bug in the plug-in's code" in said


def test_a_published_value_missing_from_its_modules_data_is_refused_when_the_game_starts(tmp_path, unregister_oasis):
    from amunre.agents import make_agents
    from amunre.core.contract import Rule
    from amunre.core.engine import play_game
    from amunre.core.errors import RuleModuleError
    from amunre.loader import load_variant

    class Oasis(Rule):
        id, kind = "oasis", "phase"
        publishes = {"wells": "the wells dug"}

    variant = load_variant(_register(tmp_path, Oasis))
    with pytest.raises(RuleModuleError, match="publishes 'wells' but its initial_state holds no such key"):
        play_game(variant, make_agents(["random"] * 3, 1), 1)


def test_a_published_value_read_without_declaring_it_or_misspelt_is_named(tmp_path, unregister_oasis):
    """Read without a declaration: the error names the module and what to declare. Read with a
    stand-in under a near miss of a published name: refused at load (it would read its stand-in
    all game), with the name meant."""
    from amunre.agents import make_agents
    from amunre.core.contract import Rule
    from amunre.core.engine import play_game
    from amunre.core.errors import RuleModuleError
    from amunre.loader import load_variant

    class Oasis(Rule):
        id, kind = "oasis", "phase"

        def run(self, game):
            self.published(game.state, "offering_level")
            return
            yield

    variant = load_variant(_register(tmp_path, Oasis))
    with pytest.raises(RuleModuleError, match="reads the published value 'offering_level' without declaring it"):
        play_game(variant, make_agents(["random"] * 3, 1), 1)
    Oasis.reads_published = {"offering_lvl": 0}
    (problem,) = problems_of(_register(tmp_path, Oasis))
    assert "reads 'offering_lvl', which no rule module publishes" in problem and "did you mean 'offering_level'" \
        in problem, problem


def _scoring_plugin(rule_id: str):
    from amunre.core.contract import Rule

    return type("Plugin", (Rule,), {"id": rule_id, "kind": "scoring", "summary": "a fake plug-in",
                                    "__module__": "amunre_fake"})


def test_a_plugin_named_like_a_builtin_rule_is_reported_not_dropped(fake_plugins, capsys):
    """A plug-in whose entry-point name is a built-in rule id was dropped without a word, so a
    variant naming that id silently got the built-in. It is kept out like a broken plug-in,
    and a variant that uses the id says why; the others load."""
    from helpers import problems_of, run_cli

    from amunre.loader import load_variant
    from amunre.rules.fewest_pyramids import FewestPyramids

    rules = fake_plugins(("fewest_pyramids", _scoring_plugin("fewest_pyramids")))
    assert rules["fewest_pyramids"] is FewestPyramids  # the built-in stays, the plug-in is kept out
    why = ("rule module 'fewest_pyramids' is claimed by a plug-in that was not loaded (amunre_fake0:Plugin: its "
           "name 'fewest_pyramids' is already the id of the built-in rule module "
           "amunre.rules.fewest_pyramids:FewestPyramids, so it was not loaded) (expected each rule module id once: "
           "give the plug-in an entry-point name of its own (and the same id on its class), or uninstall it)")
    (problem,) = problems_of("supermeeple2016")
    assert problem.endswith(f"scoring[2].rule: {why}"), problem
    assert load_variant("classic2003")  # a variant without that id loads
    code, out, err = run_cli(capsys, "validate", "supermeeple2016")
    assert code == 1 and why in out + err and "Traceback" not in out + err


def test_two_plugins_of_one_name_or_a_plugin_that_is_no_rule_module_are_reported(fake_plugins):
    from helpers import problems_of

    class NotARule:
        id = "sphinx"

    fake_plugins(("obelisks", _scoring_plugin("obelisks")), ("obelisks", _scoring_plugin("obelisks")),
                 ("sphinx", NotARule), ("needles", _scoring_plugin("obelisks_again")))

    def problem(rule_id):
        (only,) = problems_of("classic2003", [f"scoring.bonus_cards.rule={rule_id}"])
        return only

    assert ("rule module 'obelisks' is claimed by a plug-in that was not loaded (amunre_fake1:Plugin: its name "
            "'obelisks' is already the id of the plug-in amunre_fake:Plugin, "
            "so it was not loaded)") in problem("obelisks")
    assert ("unknown rule module 'sphinx': its plug-in failed to load (amunre_fake2:Plugin: <class "
            in problem("sphinx")
            and "is not a rule module (expected a subclass of amunre.core.contract.Rule)" in problem("sphinx"))
    assert ("unknown rule module 'needles': its plug-in failed to load (amunre_fake3:Plugin: its class has the id "
            "'obelisks_again', not its entry-point name 'needles' (expected the same id))") in problem("needles")


PLUGIN_VARIANTS = {
    # a plug-in market that only changes a player's turn, inheriting the built-in run
    "taxed_market": ('''
from amunre.core.mechanics import pay
from amunre.rules.market import Market


class TaxedMarket(Market):
    id = "taxed_market"

    def turn(self, game, p):
        pay(game, p, 2, "tribute")
        yield from super().turn(game, p)
''', 'extends = "classic2003"\n[edition]\nid = "taxed"\n[[phases]]\nid = "market"\nrule = "taxed_market"\n'),
    # run written in a mixin, not in the Rule subclass itself
    "mixin_tribute": ('''
from amunre.core.contract import Rule
from amunre.core.mechanics import pay


class Paying:
    def run(self, game):
        for p in game.state.turn_order():
            pay(game, p, 2, "tribute")
        return
        yield


class MixinTribute(Paying, Rule):
    id = "mixin_tribute"
    kind = "scoring"
    summary = "Tribute, from a mixin."
''', 'extends = "classic2003"\n[edition]\nid = "mixed"\n[[scoring]]\nid = "mixin_tribute"\nrule = "mixin_tribute"\n'),
    # a move in start_kingdom, which asks no decision (and of a scoring item, which is called too)
    "kingdom_tax": ('''
from amunre.core.contract import Rule
from amunre.core.mechanics import pay


class KingdomTax(Rule):
    id = "kingdom_tax"
    kind = "scoring"
    summary = "Every player pays 2 gold when a kingdom starts."

    def start_kingdom(self, game):
        for p in game.state.turn_order():
            pay(game, p, 2, "tribute")
''', 'extends = "classic2003"\n[edition]\nid = "taxing"\n[[scoring]]\nid = "kingdom_tax"\nrule = "kingdom_tax"\n'),
}


@pytest.mark.parametrize("rule_id", sorted(PLUGIN_VARIANTS))
def test_a_move_without_yield_from_fails_however_the_plugin_is_written(tmp_path, rule_id):
    """An inherited built-in run that calls the plug-in's override, a run in a mixin, a move in
    start_kingdom (of a scoring item, which is called as a phase's is): each fails loudly."""
    from amunre.agents import make_agents
    from amunre.core.engine import play_game
    from amunre.core.errors import RuleModuleError
    from amunre.core.registry import RULES, all_rules
    from amunre.loader import load_variant

    source, toml = PLUGIN_VARIANTS[rule_id]
    all_rules()
    space: dict = {"__name__": f"amunre_{rule_id}"}
    exec(compile(source, f"amunre_{rule_id}.py", "exec"), space)
    RULES[rule_id] = next(v for k, v in space.items() if isinstance(v, type) and getattr(v, "id", None) == rule_id)
    try:
        path = tmp_path / f"{rule_id}.toml"
        path.write_text(toml, encoding="utf-8")
        with pytest.raises(RuleModuleError, match=rf"rule module '{rule_id}' .*called pay\(game, \d, 2, 'tribute'\)"):
            play_game(load_variant(path), make_agents(["random"] * 3, 1), 1)
    finally:
        RULES.pop(rule_id, None)


def test_a_plugin_decision_named_like_a_builtin_one_of_another_variant_is_not_taken_for_it(tmp_path):
    """classic2003 has no secret draft: a plug-in asking `pick_province` there (options that
    are no provinces) is a decision greedy does not know, answered at random, not crashed on;
    a plug-in re-declaring a kind of a module in its variant (`bid`) is refused at its key."""
    from amunre.agents import make_agents
    from amunre.core.engine import play_game
    from amunre.core.errors import VariantError
    from amunre.core.registry import RULES, all_rules
    from amunre.loader import load_variant

    source = '''
from amunre.core.contract import Decision, Rule
from amunre.core.decisions import decide


class Asking(Rule):
    id = "{rid}"
    kind = "scoring"
    summary = "Asks a question of its own."
    decisions = {{"{kind}": Decision("one of two words", "a string", actions=lambda rule, variant: ["a", "b"])}}

    def run(self, game):
        for p in game.state.turn_order():
            yield from decide(p, "{kind}", ["a", "b"])
'''
    all_rules()
    try:
        for rid, kind in (("asks_pick", "pick_province"), ("asks_bid", "bid")):
            space: dict = {"__name__": f"amunre_{rid}"}
            exec(compile(source.format(rid=rid, kind=kind), f"{rid}.py", "exec"), space)
            RULES[rid] = space["Asking"]
            (tmp_path / f"{rid}.toml").write_text(
                f'extends = "classic2003"\n[edition]\nid = "{rid}"\n[[scoring]]\nid = "{rid}"\nrule = "{rid}"\n',
                encoding="utf-8")
        game = play_game(load_variant(tmp_path / "asks_pick.toml"), make_agents(["greedy"] * 3, 2), 2)
        assert game.finished
        with pytest.raises(VariantError, match=r"scoring\[0\]\.rule: rule module 'asks_bid' declares the decision "
                                               r"'bid', which rule module 'auction' declares already"):
            load_variant(tmp_path / "asks_bid.toml")
    finally:
        RULES.pop("asks_pick", None)
        RULES.pop("asks_bid", None)


# -- declarations a plug-in author can get wrong, each said clearly ---------------------------

def _register(tmp_path, cls):
    """A variant of classic2003 with `cls` as a phase after the market, registered in-process."""
    from amunre.core.registry import RULES, all_rules

    all_rules()
    RULES[cls.id] = cls
    path = tmp_path / f"{cls.id}.toml"
    path.write_text(f'extends = "classic2003"\n[edition]\nid = "with-{cls.id}"\nname = "x"\n'
                    f'[[phases]]\nid = "{cls.id}"\nrule = "{cls.id}"\nafter = "market"\n', encoding="utf-8")
    return path


@pytest.fixture
def unregister_oasis():
    yield
    from amunre.core.registry import RULES

    RULES.pop("oasis", None)


def _oasis(**declared):
    from amunre.core.contract import Decision, Event, Rule, none_or_province_actions
    from amunre.core.decisions import decide
    from amunre.core.facets import EncodingFacet, ValuationFacet, WordsFacet

    class Oasis(Rule, WordsFacet, EncodingFacet, ValuationFacet):
        id, kind = "oasis", "phase"
        observation = declared.get("observation", {"wells": "provinces"})
        reads = declared.get("reads")
        decisions = {"dig": Decision("None or a province", "null or an id", actions=none_or_province_actions,
                                     context=declared.get("context", {"left": "count"}))}
        events = {"dug": Event("A well is dug.", check=declared.get("check"))}

        def initial_state(self, game):
            return {"wells": []}

        def province_facts(self, view, pid, words):
            return declared.get("facts", lambda pid: [])(pid)

        def run(self, game):
            state = game.state
            for p in state.turn_order():
                owned = state.players[p].provinces
                where = yield from decide(p, "dig", [None] + list(owned), {"left": 1})
                if where is not None:
                    state.rules[self.key]["wells"].append(where)
                    if "dug" in game.hearing:
                        game.emit("dug", player=p, province=where)

    return Oasis


@pytest.mark.parametrize("declared,said", [
    ({"observation": {"wells": "ints"}}, "declares its observation field 'wells' as 'ints' (expected one of count, "
                                         "provinces, players)"),
    ({"observation": ["wells"]}, "declares its observation as list"),
    ({"context": {"left": "number"}}, "declares the context 'left' of 'dig' as 'number' (expected one of count, "
                                      "province, seats, bids)"),
    ({"context": {"province": "count"}}, "declares the context 'province' of 'dig' as 'count', but the core declares "
                                         "it as 'province' for 'double_swap'"),
    ({"reads": ["gold"]}, "declares what it reads as list (expected a frozenset of cards, farmers, gold"),
    ({"reads": frozenset({"gold", "coins"})}, "declares it reads 'coins', which is no aspect of a holding nor a card "
                                              "kind (expected a frozenset of"),
    ({"reads": frozenset({"cards:3"})}, "declares it reads 'cards:3', which is no aspect"),  # a kind's name, not id
])
def test_an_observation_or_context_declared_wrong_is_refused_at_load(tmp_path, unregister_oasis, declared, said):
    """A module's observation, context encodings and `ValuationFacet.reads` (what the planner revalues it
    on) are checked when a variant using it loads."""
    from amunre.core.errors import VariantError
    from amunre.loader import load_variant

    with pytest.raises(VariantError) as info:
        load_variant(_register(tmp_path, _oasis(**declared)))
    assert said in str(info.value)


@pytest.mark.parametrize("declared,said", [
    ({"facts": lambda pid: "a well"}, "province_facts returned str 'a well' (expected a list of short phrases"),
    ({"check": lambda event, state: True}, "invariant [dug] failed: its check returned True (expected a message"),
    ({"check": lambda event, state: state.rules["nowhere"]}, "invariant [dug] failed: its check raised KeyError"),
    ({"observation": {"welss": "provinces"}}, "declares the observation fields ['welss'], which its data as a seat "
                                              "sees it (view_state) does not hold"),
])
def test_a_province_fact_or_event_check_of_the_wrong_kind_fails_amunre_check(tmp_path, unregister_oasis, declared,
                                                                            said):
    from amunre.loader import load_variant
    from amunre.testing import ConformanceError, check_variant

    variant = load_variant(_register(tmp_path, _oasis(**declared)))
    with pytest.raises(ConformanceError) as info:
        check_variant(variant, seeds=range(2), agents=("random",), players=[3])
    assert said in str(info.value) and "rerun:" in str(info.value)
