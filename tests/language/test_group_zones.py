"""Issue 27, item 4: groups of Communities wherever a zone is read; C082 where one Community's zone or turn is meant."""

from __future__ import annotations

import pytest

from happydayz.authoring.checking import check_paths


def _check(tmp_path, body: str):
    path = tmp_path / "p.power"
    path.write_text("power P {\n  added\n\n  after trick {\n" + body + "\n  }\n}\n", encoding="utf-8")
    return [(d.code, d.message, d.hint) for d in check_paths([path]) if d.severity == "error"]


@pytest.mark.parametrize("line, message, hint", [
    ("move trick to hand of others", "cards move into one Community's zone, not a group's: a card lies in one zone "
     "at a time", "each c in others { move ... to hand of c } moves cards to each of them; deal CARDS to others "
     "hands them out one at a time"),
    ("move trick to expedition of team", "cards move into one Community's zone, not a group's: a card lies in one "
     "zone at a time", None),
    ("draw 1 for others", "'draw ... for' names one Community, not a group: say in which order each of them does it",
     "each c in others { draw N for c }"),
    ("gain 2 for team", "'gain ... for' names one Community, not a group: say in which order each of them does it",
     "each c in others { gain N for c }"),
    ("lose 2 for everyone", "'lose ... for' names one Community, not a group: say in which order each of them does "
     "it", "each c in others { lose N for c }"),
])
def test_a_group_where_one_community_is_meant_is_c082(tmp_path, line, message, hint):
    found = _check(tmp_path, "    " + line)
    assert [(code, text) for code, text, _ in found] == [("C082", message)]
    if hint is not None:
        assert found[0][2] == hint


def test_other_types_stay_c010_and_a_group_is_read_everywhere(tmp_path):
    assert [c for c, _, _ in _check(tmp_path, "    draw 1 for trick")] == ["C010"]
    assert _check(tmp_path, "    each c in others {\n      draw 1 for c\n      gain count(hand of others) for c\n"
                            "    }\n    choose x from expedition of team {\n      move x to hand\n    }\n"
                            "    deal first(reserve, 2) to others") == []
