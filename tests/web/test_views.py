"""What the web table's views hold (TableSession.view), without a server: the seats people play are never
played by bots, a spectator sees no hand and no decision, and the trick's `winning` is the kernel's."""

from __future__ import annotations

from happydayz.data.environment import Environment
from happydayz.table.narration import Narrator
from happydayz.table.session import SPECTATOR, TableSession


def session_with_two_people() -> TableSession:
    session = TableSession.start(Environment(), "woodstock-fever/5", 4, 0, 3, True, bots="greedy", play_bots=False)
    session.people = frozenset({0, 2})
    session.run_bots()
    return session


def test_the_bots_stop_at_every_seat_a_person_plays():
    session = session_with_two_people()
    for _ in range(60):
        decision = session.game.decision
        if decision is None:
            break
        assert decision.actor in (0, 2)  # run_bots never answers for a person
        session.answer(session.decision_record(decision.actor)["options"][0]["index"], seat=decision.actor)
    assert set(session.actors) == {0, 1, 2, 3}
    assert session.record()["people"] == [0, 2]


def test_a_spectator_sees_no_hand_no_decision_and_only_public_narration():
    session = session_with_two_people()
    view = session.view(SPECTATOR)
    assert view["spectator"] and view["hand"] == [] and view["decision"] is None and view["passing"] == []
    assert view["narration"] == [line.record() for line in Narrator(session.game, SPECTATOR).new_lines()]
    seated = session.view(0)
    assert seated["hand"] and seated["decision"] is not None


def test_the_winning_card_of_the_view_is_the_kernels():
    session = session_with_two_people()
    for _ in range(80):
        trick = session.game.trick
        if trick is not None and len(trick.plays) >= 2:
            break
        decision = session.game.decision
        session.answer(session.decision_record(decision.actor)["options"][-1]["index"], seat=decision.actor)
    view = session.view(SPECTATOR)
    assert view["trick"]["winning"] == session.game.winning_play()[0]
