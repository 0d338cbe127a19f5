"""Strings from files never reach the terminal as control sequences: a variant, board or
`--set` value holding a control character (ESC, OSC, BEL, C1, a line break) is refused at
load with its key named, and the message shows the character escaped."""

from __future__ import annotations

import tomllib

import pytest
import tomli_w
from conftest import variant_files
from helpers import parent_table, toml_paths
from hypothesis import given
from hypothesis import strategies as st

from amunre.core.errors import VariantError
from amunre.loader import load_variant

CONTROL = st.sampled_from(["\x1b[31m", "\x1b]0;title\x07", "\x9b31m", "\x07", "\n", "\r", "\x00", "\x7f",
                          "\u2028", "\u2029", "\u202e", "\u200b", "\ufeff"])


@pytest.mark.parametrize("path", variant_files(), ids=[f.stem for f in variant_files()])
@given(data=st.data(), control=CONTROL)
def test_a_control_character_in_any_string_of_a_variant_is_refused(tmp_path_factory, path, data, control):
    doc = tomllib.loads(path.read_text(encoding="utf-8"))
    strings = [(p, parent_table(doc, p)[p[-1]]) for p in toml_paths(doc)
               if isinstance(parent_table(doc, p)[p[-1]], str) and p != ("extends",) and p[-1:] != ("board",)]
    where, text = data.draw(st.sampled_from(strings))
    cut = data.draw(st.integers(0, len(text)))
    parent_table(doc, where)[where[-1]] = text[:cut] + control + text[cut:]
    folder = tmp_path_factory.mktemp("ctl")
    bad = folder / path.name
    bad.write_text(tomli_w.dumps(doc), encoding="utf-8")
    if "extends" in doc and doc["extends"].endswith(".toml"):
        pytest.skip("a relative parent")
    with pytest.raises(VariantError) as info:
        load_variant(bad)
    message = str(info.value)
    # refused for the character itself, or (an id in a pipeline edit) as an unknown id shown escaped
    assert "control character" in message or repr(control)[1:-1] in message
    assert not any(c in message for c in "\x1b\x07\x9b\x00\x7f\r")  # shown escaped, never raw


def test_a_set_value_with_an_escape_sequence_is_refused_and_shown_escaped():
    with pytest.raises(VariantError) as info:
        load_variant("classic2003", ["edition.name=\x1b]0;pwned\x07"])
    assert "\\x1b]0;pwned\\x07" in str(info.value) and "\x1b" not in str(info.value)


def test_a_board_name_with_an_escape_sequence_is_refused(tmp_path):
    from amunre.loader.resources import variants_dir

    board = tomllib.loads((variants_dir() / "board.toml").read_text(encoding="utf-8"))
    board["provinces"][0]["name"] = "Abu\x1b]0;pwned\x07"
    (tmp_path / "b.toml").write_text(tomli_w.dumps(board), encoding="utf-8")
    (tmp_path / "v.toml").write_text('extends = "classic2003"\n[edition]\nid = "v"\nboard = "b.toml"\n',
                                     encoding="utf-8")
    with pytest.raises(VariantError, match="control character U\\+001B"):
        load_variant(tmp_path / "v.toml")
