"""The architecture holds: rule modules own their rule, every SPEC id has a module and a test.

- no file outside `amunre/rules/` (the engine, narration, results, positions, the CLI, the
  loader, the agents, the observation, the board text and picture, the conformance suite,
  compare) names a rule id, card, decision kind, event or ruling of a particular rule, but
  for what `ALLOWED` lists, each with its reason (the greedy heuristic's preferences); no
  rule module imports another;
- docs/rules-index.md maps every SPEC id to its module, variant files and tests, and is
  current; an id without a module or without a test fails;
- `from amunre import load_variant, Game, play_game` works as the package docstring says.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import attrs
import pytest

from amunre.core.board import Province
from amunre.core.model import Components
from amunre.core.registry import all_rules
from amunre.core.state import GameState, PlayerState, ProvinceState
from amunre.loader import load_variant, variant_files
from amunre.testing import docgen

REPO = Path(__file__).resolve().parent.parent
#: The ids the code and the tests name, in the project's own words (docs/checklist.md).
CHECKLIST = REPO / "docs" / "checklist.md"
SPEC = REPO.parent / "shared" / "SPEC.md"
#: The rules specification the checklist was made from is the project's working notes, kept
#: outside the repository: a clone has no copy, and the one test comparing the two skips.
SPEC_ABSENT = ("needs the project's rules specification (SPEC.md), which is not part of this repository; "
               "a fresh clone skips this test (docs/checklist.md holds the ids)")


def checklist_ids(prefix: str) -> set[str]:
    """The ids of docs/checklist.md that start with `prefix` (R-, A-, E-, G16-)."""
    text = CHECKLIST.read_text(encoding="utf-8")
    return set(re.findall(rf"^- ({re.escape(prefix)}[A-Z0-9-]*[A-Z0-9]) ", text, re.M))
#: Every file of the package but the rule modules: the engine, narration, results, positions,
#: the loader, the command line, the agents, the observation, the board text and picture, the
#: conformance suite, compare, the docs generator.
CORE = sorted(path for path in (REPO / "amunre").rglob("*.py")
              if path.relative_to(REPO / "amunre").parts[0] != "rules")
#: Words of the core's own vocabulary (state, component and board names) that a rule also uses
#: as a name: the `pyramids` scoring rule, the `provinces` and `start_player` events, the
#: `temples` printed on a province.
CORE_WORDS = (set(GameState.__slots__) | set(PlayerState.__slots__) | set(ProvinceState.__slots__)
              | {f.name for f in attrs.fields(Components)} | {f.name for f in attrs.fields(Province)})
#: What a core file may name although a rule uses the name too, each with why: (file relative
#: to the repository, or "*" for every file; the word, or None for every word) -> the reason.
ALLOWED = {
    ("amunre/agents/greedy.py", None):
        "a hand-written heuristic for the printed editions: its preferences name their cards and decision "
        "kinds by design; it copies no rule (a price comes from the module's params) and answers a kind no "
        "built-in module asks through that module's declarations",
    ("*", "level"):
        "the offering level is a published value (Rule.publishes `offering_level`, a picture's Snapshot.level): "
        "the conformance suite's [level] invariant, compare's and arena's level rows and the picture's level "
        "panel are about it, not about the offering's event of that name",
    ("amunre/core/boardtext.py", "offering"):
        "the edition's word for the offering (a term), in the words of the offering level, a published value",
    ("amunre/picture/svg.py", "offering"):
        "the edition's word for the offering (a term), in the picture's panel of the offering level, a published "
        "value",
    ("amunre/picture/svg.py", "auction"):
        "the picture's panel of the provinces on auction, a published value (Rule.publishes `on_auction`)",
    ("amunre/rl/pettingzoo.py", "reward"):
        "the environment's `reward` argument (win or score), named in its error message: PettingZoo's word for "
        "what a seat gets, not the offering's event of that name",
    ("amunre/rl/gymnasium.py", "reward"):
        "the environment's `reward` argument (win or score), named in its error message: Gymnasium's word for "
        "what the learning seat gets, not the offering's event of that name",
    ("amunre/rl/vector.py", "reward"):
        "the vector environment's `reward` argument (win or score): Gymnasium's word for what a seat gets, not "
        "the offering's event of that name",
    ("amunre/rl/history.py", "bid"):
        "the optional observation history (off by default) listens to the auction's public `bid` event by name, "
        "as a learner asked for it; a variant without that module leaves the history's bid entries 0",
    ("amunre/rl/history.py", "offers"):
        "the optional observation history (off by default) listens to the offering's `offers` event (sent when "
        "the sealed offers are revealed) by name; a variant without that module leaves those entries 0",
}


def allowed(path: Path, word: str) -> bool:
    where = path.relative_to(REPO).as_posix()
    return any(key in ALLOWED for key in ((where, None), (where, word), ("*", word)))
#: SPEC ids no module implements yet (none: keep it empty unless the spec grows).
PLANNED: set[str] = set()


def rule_words() -> dict[str, str]:
    """Every name a built-in rule module introduces -> what it is."""
    words = {}
    for rid, cls in all_rules().items():
        words[rid] = f"the rule id {rid!r}"
        for kind in cls.cards:
            words[kind] = f"the card {kind!r} of {rid!r}"
        for kind in cls.decisions:
            words[kind] = f"the decision kind {kind!r} of {rid!r}"
        for name in cls.events:
            words[name] = f"the event {name!r} of {rid!r}"
        for field in attrs.fields(cls.Rulings):
            words[field.name] = f"the ruling {field.name!r} of {rid!r}"
    for path in variant_files():  # scoring item keys, as the shipped variants (rulings flipped) score them
        variant = load_variant(path)
        flipped = variant.rulings.evolve(**{k: True for k, v in variant.rulings.as_dict().items() if v is False})
        for item in attrs.evolve(variant, rulings=flipped).modules.items:
            words.setdefault(item.key, f"the scoring item {item.key!r}")
    return {w: what for w, what in words.items() if w not in CORE_WORDS}


def names_in(path: Path):
    """(line, name) of every string constant, f-string part and attribute name in a file."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.lineno, node.value
        elif isinstance(node, ast.Attribute):
            yield node.lineno, node.attr


def test_the_core_names_no_particular_rule():
    words = rule_words()
    found = [f"{path.relative_to(REPO)}:{line}: {words[name]}"
             for path in CORE for line, name in names_in(path) if name in words and not allowed(path, name)]
    assert not found, ("the core knows a particular rule; move it into the contract (what the rule module "
                       "declares), or allow it in ALLOWED with the reason:\n" + "\n".join(found))


def test_every_allowed_name_is_still_used():
    """An allow-list entry whose file no longer names its word is dropped, not kept as a hole."""
    words = rule_words()
    used = {(path.relative_to(REPO).as_posix(), name) for path in CORE for _, name in names_in(path) if name in words}
    for where, word in ALLOWED:
        assert any((where in ("*", f)) and (word is None or word == w) for f, w in used), (where, word)


def test_the_core_scan_finds_a_planted_rule_name(tmp_path):
    """The scan above really looks: a core file naming a card is caught."""
    planted = tmp_path / "planted.py"
    planted.write_text('def f(variant):\n    return variant.card_id("protection"), variant.rulings.nile_compare\n')
    words = rule_words()
    assert {words[n] for _, n in names_in(planted) if n in words} == {
        "the card 'protection' of 'auction'", "the ruling 'nile_compare' of 'nile_sides'"}


def test_every_declared_spec_id_has_a_test():
    tests = docgen.spec_tests(REPO / "tests")
    missing = sorted(sid for sid, found in tests.items() if not found)
    assert not missing, f"SPEC ids without a test named after them: {missing}"


def test_every_spec_id_has_a_module():
    rules, rulings = checklist_ids("R-"), checklist_ids("A-")
    assert len(rules) > 30 and len(rulings) > 10  # the pattern reads the checklist
    declared = set(docgen.spec_owners())
    assert not (rules | rulings) - declared - PLANNED, "SPEC ids with no module declaring them"
    assert not declared - rules - rulings, "modules declare ids the spec does not have"
    assert not PLANNED & declared, f"now implemented, drop from PLANNED: {sorted(PLANNED & declared)}"


@pytest.mark.skipif(not SPEC.is_file(), reason=SPEC_ABSENT)
def test_the_checklist_holds_every_id_of_the_rules_specification():
    """docs/checklist.md has the ids of the specification it was made from, no more, no
    fewer: rules, rulings, examples, and the 2016 scenarios of EDITIONS.md."""
    text = SPEC.read_text(encoding="utf-8")
    spec = {"R-": set(re.findall(r"^- (R-[A-Z]+-\d+)", text, re.M)),
            "A-": set(re.findall(r"^\| (A-[A-Z]+) \|", text, re.M)),
            "E-": set(re.findall(r"^- (E-\d+) ", text, re.M)),
            "G16-": set(re.findall(r"^### (G16-\d+) ", (SPEC.parent / "EDITIONS.md").read_text(encoding="utf-8"),
                                   re.M))}
    assert all(spec.values())  # the patterns read the documents
    for prefix, ids in spec.items():
        assert checklist_ids(prefix) == ids, prefix


def test_an_id_without_a_test_is_noticed(tmp_path):
    """The index marks an id whose tests are gone, and the check above would fail."""
    (tmp_path / "test_some.py").write_text("def test_r_auc_01_something():\n    pass\n")
    tests = docgen.spec_tests(tmp_path)
    assert tests["R-AUC-01"] and not tests["R-AUC-02"]
    assert "| R-AUC-02 |" in docgen.rules_index_markdown(tmp_path)
    assert "**none**" in docgen.rules_index_markdown(tmp_path)


def test_rules_index_links_each_id_to_its_module():
    text = (REPO / "docs" / "rules-index.md").read_text(encoding="utf-8")
    row = next(line for line in text.splitlines() if line.startswith("| A-SELL |"))
    assert "[`auction`](../amunre/rules/auction/__init__.py)" in row and "test_a_sell_" in row
    for link in re.findall(r"\]\(\.\./([^)]+)\)", text):
        assert (REPO / link).is_file(), link


def test_the_package_exports_what_its_docstring_promises():
    import amunre
    from amunre import Game, load_variant, play_game

    assert "from amunre import load_variant, Game, play_game" in amunre.__doc__
    from amunre.agents import make_agents

    game = play_game(load_variant("classic2003"), make_agents(["random"] * 3, 1), 1)
    assert isinstance(game, Game) and game.finished


def example_module() -> str:
    """The plug-in module of docs/architecture.md, as written there (the python block after
    its marker): tests/test_plugin.py installs it as a package."""
    text = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
    marker = text.index("<!-- the plug-in module tests/test_plugin.py installs")
    return re.search(r"```python\n(.*?)```", text[marker:], re.S).group(1)


def test_the_architecture_example_module_plays(tmp_path):
    """docs/architecture.md's plug-in module and variant, run as written (in this process;
    tests/test_plugin.py installs the same module as a package)."""
    from amunre.agents import make_agents
    from amunre.core.engine import play_game
    from amunre.core.registry import RULES
    from amunre.core.words import Narrator
    from amunre.loader import load_variant

    text = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
    toml = re.search(r"```toml\n(extends.*?)```", text, re.S).group(1)
    all_rules()
    space: dict = {"__name__": "amunre_obelisks"}
    exec(compile(example_module(), "architecture.md", "exec"), space)
    try:
        RULES["obelisks"], RULES["shrines"] = space["Obelisks"], space["Shrines"]
        path = tmp_path / "obelisks.toml"
        path.write_text(toml, encoding="utf-8")
        variant = load_variant(path)
        assert [s.id for s in variant.scoring][:3] == ["pyramids", "obelisks", "complete_sets"]
        assert [s.id for s in variant.phases].index("shrines") == [s.id for s in variant.phases].index("market") + 1
        lines = []
        game = play_game(variant, make_agents(["greedy"] * 3, 5), 5, [Narrator(variant, lines.append)])
        assert any(re.search(r"raises \d+ stone needles?: scores \d+ points?, now \d+ points? in all", line)
                   for line in lines)
        assert any("raises a shrine in" in line for line in lines)
        assert any(key.endswith(":obelisks") for p in game.state.players for key in p.breakdown)
    finally:
        RULES.pop("obelisks", None)
        RULES.pop("shrines", None)


def test_every_rulebook_example_is_a_golden_test():
    """Each rulebook example of the checklist (E-01..) has a test named after it
    (`test_e01_...`), and each 2016 scenario (G16-01..) one naming it (`..._g16_01_...`)."""
    names = [m.group(1) for path in sorted((REPO / "tests").glob("test_*.py"))
             for m in re.finditer(r"^def (test_\w+)", path.read_text(encoding="utf-8"), re.M)]
    examples, scenarios = checklist_ids("E-"), checklist_ids("G16-")
    assert len(examples) >= 8 and len(scenarios) >= 13  # the patterns read the checklist
    missing = sorted(e for e in examples if not any(n.startswith(f"test_e{e[2:]}_") for n in names))
    missing += sorted(g for g in scenarios if not any(f"_g16_{g[4:]}_" in n + "_" for n in names))
    assert not missing, f"rulebook examples without a golden test: {missing}"


def test_every_shared_move_in_a_builtin_module_is_carried_out_with_yield_from():
    """A shared move that may ask a decision (`amunre.core.mechanics.MOVES`, `decide`,
    `ask_secretly`) does nothing unless carried out with `yield from`. A plug-in's steps are
    checked as they run (`RuleModuleError`); the built-in modules' are not, to keep the hot
    path lean, so this test reads their code: every call of such a move is the operand of a
    `yield from`."""
    files = sorted((REPO / "amunre" / "rules").rglob("*.py"))  # a rule package's files each
    files += sorted((REPO / "amunre" / "core" / "mechanics").glob("*.py"))
    bare = [f"{path.relative_to(REPO)}:{line}: {name}(...) without `yield from`"
            for path in files for line, name in bare_moves(path.read_text(encoding="utf-8"))]
    assert not bare, bare


def bare_moves(code: str) -> list[tuple[int, str]]:
    """(line, name) of every call of a shared move in `code` that is not carried out with
    `yield from` (a move's own `return _pay(...)`, which hands its generator on, apart)."""
    from amunre.core import mechanics

    names = {move.__name__ for move in mechanics.MOVES}
    moves = names | {"_" + name for name in names} | {"decide", "ask_secretly"}
    tree = ast.parse(code)
    carried = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.YieldFrom)}
    handed_on = {id(node.value) for func in ast.walk(tree) if isinstance(func, ast.FunctionDef) and func.name in moves
                 for node in ast.walk(func) if isinstance(node, ast.Return)}
    return [(node.lineno, node.func.id) for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in moves
            and id(node) not in carried and id(node) not in handed_on]


def test_the_yield_from_scan_finds_a_bare_move():
    code = ("def run(self, game):\n    pay(game, 0, 2, 'x')\n    yield from pay(game, 0, 1, 'y')\n"
            "    place_stone(game, 0, 3)\n    built = yield from build_from_stones(game, 3, 3)\n")
    assert bare_moves(code) == [(2, "pay"), (4, "place_stone")]


def test_no_rule_module_imports_another():
    """A rule module is the one owner of its rule: what two rules share lives in a core
    module (amunre.core.round_provinces, amunre.core.boardtext), never in one of them. A rule
    that is a package (amunre/rules/offering/) is every file of its folder: they import each
    other, never another rule."""
    rules = REPO / "amunre" / "rules"
    found = []
    for path in sorted(rules.rglob("*.py")):
        if path.parent == rules and path.name == "__init__.py":
            continue  # the package of the rules, which imports them all to register them
        own = path.relative_to(rules).parts[0].removesuffix(".py")  # market.py -> market, offering/words.py -> offering
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else \
                [alias.name for alias in node.names] if isinstance(node, ast.Import) else []
            found += [f"{path.relative_to(rules)}:{node.lineno}: {name}" for name in names
                      if name.startswith("amunre.rules.")
                      and name != f"amunre.rules.{own}" and not name.startswith(f"amunre.rules.{own}.")]
    assert not found, "rule modules import each other:\n" + "\n".join(found)


def test_the_rule_import_scan_finds_an_import_of_another_rule(tmp_path, monkeypatch):
    """The scan above really looks into a rule package's files: a file of one rule importing
    another rule is caught, its imports of its own package's files are not."""
    folder = tmp_path / "amunre" / "rules" / "offering"
    folder.mkdir(parents=True)
    (tmp_path / "amunre" / "rules" / "__init__.py").write_text("from amunre.rules import offering\n")
    (folder / "__init__.py").write_text("from amunre.rules.offering.words import line\n")
    (folder / "words.py").write_text("from amunre.rules.auction import Bid\nimport amunre.rules.offering.levels\n")
    monkeypatch.setitem(globals(), "REPO", tmp_path)
    with pytest.raises(AssertionError) as caught:
        test_no_rule_module_imports_another()
    found = "rule modules import each other:\n  offering/words.py:1: amunre.rules.auction\n"
    assert str(caught.value).startswith(found)
    assert str(caught.value).count("amunre.rules.") == 2  # (the line, and the list of what was found)
