"""The variant JSON Schema: generated from the modules, current in `schemas/`, complete
(each module's params, every ruling), usable by an editor through `#:schema`, and still
the loader's shape check."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import attrs
import jsonschema
import pytest

from amunre.cli import main
from amunre.core.errors import VariantError
from amunre.loader import load_variant, variant_files
from amunre.loader.resources import schemas_dir, variants_dir
from amunre.loader.rulings import declared_rulings
from amunre.loader.schema import builtin_rules, schema_text, variant_schema

REPO = Path(__file__).resolve().parent.parent
COMMITTED = REPO / "schemas" / "variant.schema.json"
SCHEMA = json.loads(COMMITTED.read_text(encoding="utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def errors(data: dict) -> list[str]:
    return sorted(f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in VALIDATOR.iter_errors(data))


def test_committed_schema_is_current():
    assert COMMITTED.read_text(encoding="utf-8") == schema_text(), \
        "schemas/variant.schema.json is out of date: run `python -m amunre.testing.docgen`"


def test_schema_command_prints_it(capsys):
    try:
        main(["schema"])
    except SystemExit as exc:
        assert exc.code in (0, None)
    out = capsys.readouterr().out
    assert json.loads(out) == variant_schema() == SCHEMA  # no plug-in installed here


def test_schema_is_a_valid_2020_12_schema():
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


@pytest.mark.parametrize("path", variant_files(variants_dir()), ids=lambda p: p.name)
def test_every_shipped_file_validates_as_written(path):
    assert errors(tomllib.loads(path.read_text(encoding="utf-8"))) == []


def test_term_keys_are_the_words_of_the_engine_its_modules_and_cards():
    """An editor flags a misspelt term key (`favr`) with the shipped schema; the engine's, a
    module's and a card's words and their numbered forms (`offering_level_2`) pass. The loader
    reports the same key once, with its own words (did you mean 'favor'?)."""
    classic = tomllib.loads((variants_dir() / "classic2003.toml").read_text(encoding="utf-8"))
    for key in ("gold", "bid_marker", "treasury", "offering_level_2", "favor_plural"):
        classic["terms"] = {key: "a word"}
        assert errors(classic) == [], key
    for key in ("favr", "offering_level_21", "offering_level_0", "bid_marker_x"):
        classic["terms"] = {key: "a word"}
        assert [e.split(":")[0] for e in errors(classic)] == ["terms"], key
    with pytest.raises(VariantError) as info:
        load_variant("classic2003", ['terms.favr="x"'])
    assert len(info.value.problems) == 1 and "did you mean 'favor'" in info.value.problems[0]


def test_params_are_checked_per_rule_module():
    classic = tomllib.loads((variants_dir() / "classic2003.toml").read_text(encoding="utf-8"))
    auction = next(e for e in classic["phases"] if e["rule"] == "auction")
    auction["params"]["protection_skip"] = "two"
    auction["params"]["speed"] = 1
    harvest = next(e for e in classic["phases"] if e["rule"] == "harvest")
    harvest["params"]["protection_skip"] = 3  # an auction param on another module
    # the shipped schema knows the built-in rule ids (an editor flags another: a plug-in's ids are
    # in the schema `amunre schema` writes where it is installed), its params stay open
    classic["scoring"].append({"rule": "some_plugin", "params": {"anything": 1}})
    # an entry given by its id alone (an edit) has the params of the rule of that name
    classic["scoring"].append({"id": "pyramids", "params": {"doubel": 3}})
    found = errors(classic)
    assert any(e.startswith("phases/1/params/protection_skip: 'two' is not of type 'integer'") for e in found)
    assert any(e.startswith("phases/1/params: Additional properties are not allowed ('speed'") for e in found)
    assert any(e.startswith("phases/4/params: Additional properties are not allowed ('protection_skip'") for e in found)
    plugin = len(classic["scoring"]) - 2
    assert any(e.startswith(f"scoring/{plugin}/rule: 'some_plugin' is not one of") for e in found)
    assert any(e.startswith(f"scoring/{plugin + 1}/params: Additional properties are not allowed ('doubel'")
               for e in found)
    assert len(found) == 5


def test_every_module_params_are_described():
    rules = builtin_rules()
    entries = {kind: SCHEMA["$defs"][f"{kind}_entry"] for kind in ("phases", "scoring", "final_scoring")}
    described = {branch["if"]["properties"]["rule"]["const"]: branch["then"]["properties"]["params"]
                 for entry in entries.values() for branch in entry["allOf"] if "rule" in branch["if"]["properties"]}
    by_id = {branch["if"]["properties"]["id"]["const"]: branch["then"]["properties"]["params"]
             for entry in entries.values() for branch in entry["allOf"] if "id" in branch["if"]["properties"]}
    assert set(described) == set(rules) and by_id == described
    for rule_id, cls in rules.items():
        params = described[rule_id]
        assert params["additionalProperties"] is False
        assert set(params["properties"]) == {f.name for f in attrs.fields(cls.Params)}
        for field in attrs.fields(cls.Params):
            assert params["properties"][field.name]["description"], (rule_id, field.name)
        assert SCHEMA["properties"]["params"]["properties"][rule_id] == params  # [params.<rule id>] too


def test_every_ruling_has_its_type_values_meaning_and_default():
    rulings = SCHEMA["properties"]["rulings"]
    assert rulings["additionalProperties"] is False
    owners = declared_rulings(builtin_rules())
    assert set(rulings["properties"]) == set(owners)
    for key, (cls, owner) in owners.items():
        field = attrs.fields_dict(cls)[key]
        prop = rulings["properties"][key]
        assert prop["type"] in ("boolean", "string", "integer")
        assert prop["default"] == field.default
        assert prop["description"].startswith(field.metadata["spec"] + ": ") and owner in prop["description"]
    assert rulings["properties"]["bribery_scope"]["enum"] == ["one_rebid", "whole_phase"]
    assert rulings["properties"]["nile_compare"]["enum"] == ["province", "side_total"]
    assert errors({"extends": "x", "rulings": {"bribery_scope": "often"}}) == [
        "rulings/bribery_scope: 'often' is not one of ['one_rebid', 'whole_phase']"]
    assert errors({"extends": "x", "rulings": {"bribery_scop": "whole_phase"}})[0].startswith(
        "rulings: Additional properties are not allowed ('bribery_scop'")


def test_required_keys_apply_to_a_file_without_extends_only():
    assert errors({"extends": "classic2003", "edition": {"id": "mine"},
                   "rulings": {"nile_compare": "side_total"}}) == []
    found = errors({"edition": {"id": "mine"}})
    assert ": 'components' is a required property" in found
    assert "edition: 'name' is a required property" in found


def test_shipped_editions_name_the_schema_on_their_first_line():
    for name in ("classic2003.toml", "supermeeple2016.toml"):
        path = variants_dir() / name
        first = path.read_text(encoding="utf-8").splitlines()[0]
        assert first == "#:schema ../schemas/variant.schema.json"
        # the path resolves in the checkout, where editors open the file
        if (REPO / "variants" / name).resolve() == path.resolve():
            assert (path.parent / first.split(" ", 1)[1]).resolve() == COMMITTED.resolve()


def test_the_loader_ignores_a_schema_line_and_keeps_its_line_numbers(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text('#:schema ./variant.schema.json\nextends = "classic2003"\n[edition]\nid = "mine"\n'
                    '[components]\nfarmers = "many"\n', encoding="utf-8")
    with pytest.raises(VariantError) as info:
        load_variant(path)
    assert info.value.problems == [
        f'{path}:6: components.farmers: wrong type: got "many", a string (expected an integer >= 0)']
    path.write_text('#:schema ./variant.schema.json\nextends = "classic2003"\n[edition]\nid = "mine"\n',
                    encoding="utf-8")
    assert load_variant(path).id == "mine"


def test_the_loader_checks_shape_with_the_shipped_schema_and_leaves_params_to_the_modules(tmp_path):
    assert (schemas_dir() / "variant.schema.json").resolve() == COMMITTED.resolve() or \
        json.loads((schemas_dir() / "variant.schema.json").read_text(encoding="utf-8")) == SCHEMA
    path = tmp_path / "bad.toml"
    path.write_text('extends = "classic2003"\n[edition]\nid = "bad"\ncolour = "red"\n[rulings]\nbribery_scop = 1\n'
                    '[[phases]]\nid = "auction"\nparams = { speed = 2 }\n', encoding="utf-8")
    with pytest.raises(VariantError) as info:
        load_variant(path)
    problems = info.value.problems
    assert len(problems) == 3  # one each: nothing reported twice by the schema and the modules
    assert problems[0].startswith(f"{path}:4: edition.colour: unknown key (expected one of: ")
    assert problems[1].startswith(f"{path}:6: rulings.bribery_scop: unknown ruling (did you mean 'bribery_scope'? ")
    assert problems[2].startswith(f"{path}:9: phases[0].params.speed: unknown parameter (expected one of: ")


def test_every_number_of_a_variant_declares_its_range():
    """Every integer a variant file sets (components, edition counts, each rule module's
    params and rulings, list items too) has a minimum and a maximum in the schema, taken from
    the field's own validators, so a variant that loads plays a finite game."""
    unbounded = []

    def walk(node, where):
        if isinstance(node, dict):
            if node.get("type") == "integer" and not ("minimum" in node and "maximum" in node):
                unbounded.append(where)
            for key, sub in node.items():
                walk(sub, f"{where}.{key}")
        elif isinstance(node, list):
            for i, sub in enumerate(node):
                walk(sub, f"{where}[{i}]")

    schema = variant_schema()
    for table in ("components", "params", "rulings"):
        walk(schema["properties"][table], table)
    walk(schema["properties"]["edition"]["properties"]["rounds_per_kingdom"], "edition.rounds_per_kingdom")
    walk(schema.get("$defs", {}), "$defs")
    assert not unbounded, f"integers without a declared range: {unbounded}"


def test_every_shipped_file_names_its_schema_and_the_schema_accepts_it():
    """Each file under variants/ starts with a `#:schema` line (for editors) whose path, taken
    from the file's own folder, is the variant (or board) schema, and that schema accepts it."""
    import json
    import re
    import tomllib

    import jsonschema
    from conftest import project_files

    repo = Path(__file__).resolve().parents[1]
    for path in project_files(sorted((repo / "variants").rglob("*.toml"))):
        first = path.read_text(encoding="utf-8").splitlines()[0]
        match = re.fullmatch(r"#:schema (\S+)", first)
        assert match, f"{path.relative_to(repo)} has no #:schema first line"
        schema = (path.parent / match[1]).resolve()
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        expected = "board" if "provinces" in data else "variant"
        assert schema == repo / "schemas" / f"{expected}.schema.json", path
        jsonschema.validate(data, json.loads(schema.read_text(encoding="utf-8")))
