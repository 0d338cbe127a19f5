"""Position files (amunre/planning/position.py) and `amunre score`: loading, every problem reported,
round trips, scoring with the variant's own rules, clean CLI errors."""

import json
from pathlib import Path

import pytest
from helpers import BLUE, RED, card, classic, pid, published, seats, state_of, with_rulings

from amunre.cli import main
from amunre.core.errors import PositionError
from amunre.planning.position import (
    load_position,
    position_from_data,
    position_to_dict,
    read_position,
    score_position,
    write_position,
)

POSITIONS = Path(__file__).parent / "positions"
E06 = POSITIONS / "e06_final_scoring.toml"


def test_load_position_builds_the_state():
    state = load_position(E06, classic())
    assert state.n_players == 4 and state.kingdom == 1 and published(state, "offering_level") == 1
    assert state.start_player == 0
    blue = state.players[BLUE]
    # theft defaults to the variant's 1
    assert blue.gold == 4 and blue.score == 24 and published(state, "theft_cards")[BLUE] == 1
    assert blue.provinces == [pid("Edfu"), pid("Abu"), pid("Thebes")]
    assert blue.hand[card("upper_lower")] == 1 and sum(blue.hand) == 3
    edfu = state.provinces[pid("Edfu")]
    assert (edfu.owner, edfu.farmers, edfu.pyramids, edfu.doubles) == (BLUE, 1, 1, 1)
    # supplies default to the components minus the board: 20 farmers, 3 stones, 7 singles, 4 doubles placed
    assert (state.supply_farmers, state.supply_stones, state.supply_pyramids, state.supply_doubles) == (
        45 - 20, 15 - 3, 15 - 7, 15 - 4)
    # the deck holds the 39 cards minus the hands
    assert len(state.deck) == 39 - 4 and state.deck.count(card("upper_lower")) == 1


def test_json_and_toml_positions_load_alike(tmp_path):
    data = position_to_dict(load_position(E06, classic()), classic(), names=("red", "black", "blue", "white"))
    as_json = tmp_path / "p.json"
    as_toml = tmp_path / "p.toml"
    write_position(data, as_json)
    write_position(data, as_toml)
    assert json.loads(as_json.read_text())["players"][2]["name"] == "blue"
    assert load_position(as_json, classic()) == load_position(as_toml, classic())


def test_position_round_trips():
    variant = classic()
    position = read_position(E06, variant)
    data = position_to_dict(position.state, variant, position.names)
    again = position_from_data(data, variant)
    assert again.state == position.state  # same holdings, supplies, seed, so the same deck too
    assert position_to_dict(again.state, variant, again.names) == data
    assert data["start_player"] == "red" and data["kingdom"] == "New Kingdom"
    assert data["players"][2]["provinces"]["Edfu"] == {"farmers": 1, "pyramids": 1, "doubles": 1}


def test_state_round_trips_through_a_position():
    players = seats(3, gold=7)
    players[RED].update(theft=1, hand={"architect": 2}, provinces={"Memphis": {"farmers": 2, "stones": 1}})
    state = state_of(players, unowned={"Abu": {"doubles": 1}}, offering_level=3, start_player=2, seed=9)
    data = position_to_dict(state, classic(), names=[p["name"] for p in players])
    assert data["unowned"] == {"Abu": {"doubles": 1}}
    assert position_from_data(data, classic()).state == state


def test_every_problem_is_reported_naming_its_key():
    data = {
        "offering_level": 9,
        "start_player": "green",
        "players": [
            {"name": "red", "gold": -1, "provinces": {"Edfo": {}, "Baharya": {"farmers": 3}}},
            {"name": "black", "hand": {"master_of_dice": 1, "upper_lower": 3}, "provinces": {"Memphis": {}}},
            {"name": "blue", "provinces": {"memphis": {"stones": 1}}, "colour": "blue"},
        ],
        "unowned": {"Thebes": {"farmers": 1}},
    }
    with pytest.raises(PositionError) as caught:
        position_from_data(data, classic(), source="case.toml")
    message = str(caught.value)
    problems = caught.value.problems
    expected = [
        "players[0].gold: -1 is too small (expected at least 0)",
        "players[0].provinces.Edfo: no province named 'Edfo' on the board (provinces: Buto, Damanhur,",
        "players[0].provinces.Baharya.farmers: 3 farmers, but Baharya has 2 field spaces",
        "players[1].hand.master_of_dice: unknown card kind (known: protection,",
        "players[*].hand.upper_lower: the players hold 3, but the classic2003 deck has 2",
        "players[2].provinces.memphis: Memphis is already given at players[1].provinces.Memphis",
        "players[2].colour: unknown key (expected one of: gold, hand, name, provinces, score, theft)",
        "unowned.Thebes.farmers: unknown key (expected one of: doubles, pyramids, stones)",
        "offering_level: 9 is above the highest level, 4",
        "start_player: no player named 'green' (players: red, black, blue)",
    ]
    for text in expected:
        assert any(p.startswith("case.toml: " + text) for p in problems), (text, problems)
    assert len(problems) == len(expected)
    assert message.startswith("10 problems in the position case.toml\n")


def test_players_count_and_supplies_checked():
    with pytest.raises(PositionError, match=r"players: 2 players, but classic2003 is played by 3, 4, 5"):
        position_from_data({"players": [{}, {}]}, classic())
    many = {name: {"doubles": 5} for name in ("Buto", "Mendes", "Avaris", "Kharga")}
    with pytest.raises(PositionError, match=r"supplies.doubles: the position places 20 doubles"):
        position_from_data({"players": seats(3), "unowned": many}, classic())
    # given supplies, or unlimited supplies, lift the check
    position_from_data({"players": seats(3), "unowned": many, "supplies": {"doubles": 0}}, classic())
    position_from_data({"players": seats(3), "unowned": many}, with_rulings(finite_supply=False))


@pytest.mark.parametrize("name,text,expected", [
    ("missing.toml", None, "does not exist"),
    ("bad.toml", "players = [", "bad.toml:1: TOML syntax error"),
    ("bad.json", "{", "bad.json:1: (top level): JSON syntax error: Expecting property name enclosed in double quotes "
     "(line 1, column 2) (expected valid JSON)"),
    ("p.yaml", "players: []", "must end in .toml or .json"),
    ("list.json", "[1]", "list.json:1: (top level): got an array (expected an object: a position is a table/object"),
])
def test_unreadable_position_files(tmp_path, name, text, expected):
    path = tmp_path / name
    if text is not None:
        path.write_text(text)
    with pytest.raises(PositionError) as caught:
        load_position(path, classic())
    assert expected in str(caught.value)


def test_score_position_does_not_change_the_state_and_follows_the_bonus_policy():
    players = seats(3)
    players[RED].update(hand={"upper_lower": 1, "west_east": 1}, provinces={"Edfu": {}, "Abu": {}, "Thebes": {}})
    state = state_of(players)
    before = state.to_dict()
    met = score_position(classic(), state)
    assert state.to_dict() == before
    assert met.points(RED)["bonus_cards"] == 3
    items = [i.key for i in met.items]
    assert items == ["pyramids", "complete_sets", "nile_sides", "temples", "bonus_cards"]
    assert score_position(classic(), state, answers={"play_bonus": "none"}).points(RED)["bonus_cards"] == 0
    everything = score_position(classic(), state, answers={"play_bonus": "all"})
    bonus = next(i for i in everything.items if i.key == "bonus_cards")
    assert {k: v[RED] for k, v in bonus.details.items()} == {"bonus_cards:upper_lower": 3, "bonus_cards:west_east": 0}


# -- the command line ------------------------------------------------------------------
class Result:
    def __init__(self, code, stdout, stderr):
        self.exit_code, self.stdout, self.stderr = code, stdout, stderr
        self.output = stdout + stderr


@pytest.fixture
def _cli(capsys):
    """Run `amunre score ARGS` through the console entry point."""
    def invoke(*args):
        code = 0
        try:
            main(["score", *map(str, args)])
        except SystemExit as exc:
            code = exc.code
        out, err = capsys.readouterr()
        return Result(code, out, err)
    return invoke


def test_cli_score_table(_cli):
    result = _cli(E06, "--final")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    row = next(line for line in lines if "points this final scoring" in line)
    assert [cell.strip() for cell in row.split("│")[2:6]] == ["11", "10", "27", "4"]  # red black blue white
    assert "Winner: blue" in result.stdout


def test_cli_score_json(_cli):
    result = _cli("--variant", "classic2003", E06, "--final", "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    blue = next(p for p in doc["players"] if p["name"] == "blue")
    assert blue["gained"] == 27 and blue["total"] == 51
    assert blue["points"] == {"temples": 1, "pyramids": 7, "complete_sets": 3, "nile_sides": 10,
                              "bonus_cards": 6, "gold_ranking": 0}
    assert doc["winners"] == ["blue"] and doc["final"] is True
    # with --no-final: the kingdom scoring only (the file itself says `scoring = "final"`)
    doc = json.loads(_cli(E06, "--no-final", "--json").stdout)
    assert [i["key"] for i in doc["items"]] == ["pyramids", "complete_sets", "nile_sides", "temples", "bonus_cards"]


def test_cli_score_answers_decisions_by_the_policies_the_modules_offer(_cli):
    met = json.loads(_cli(E06, "--final", "--json").stdout)
    none = json.loads(_cli(E06, "--final", "--json", "--answer", "play_bonus=none").stdout)
    blue = [next(p for p in doc["players"] if p["name"] == "blue") for doc in (met, none)]
    assert blue[0]["points"]["bonus_cards"] == 6 and blue[1]["points"]["bonus_cards"] == 0


def test_cli_score_errors_are_one_message_and_exit_2(_cli, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[[players]]\ngold = -2\n[players.provinces.Atlantis]\n[[players]]\n[[players]]\n')
    cases = [
        ((tmp_path / "none.toml",), "does not exist"),
        ((bad,), "players[0].provinces.Atlantis: no province named 'Atlantis'"),
        (("--variant", "nosuch", E06), "unknown variant 'nosuch'"),
        ((E06, "--answer", "play_bonus=some"), "--answer 'play_bonus=some': 'play_bonus' has no policy 'some' "
         "(expected one of: met, all, none)"),
        ((E06, "--answer", "bid"), "--answer 'bid' is not KIND=POLICY (expected one of: play_bonus=met|all|none; "
         "sell_cards=none|all)"),
        ((E06, "--answer", "bogus=all"), "no scoring decision 'bogus' of classic2003 takes a policy"),
        ((E06, "--answer", "play_bonus=all", "--answer", "play_bonus=none"), "gives 'play_bonus' twice"),
    ]
    for args, expected in cases:
        result = _cli(*args)
        assert result.exit_code == 2, result.output
        assert result.stderr.startswith("error: ") and expected in result.stderr
        assert "Traceback" not in result.output
    result = _cli(bad)  # every problem, each with its line
    assert result.stderr.startswith("error: 2 problems in the position")
    assert f"{bad}:2: players[0].gold: -2 is too small (expected at least 0)" in result.stderr
    assert f"{bad}:3: players[0].provinces.Atlantis: no province named" in result.stderr
