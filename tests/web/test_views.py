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


def _bridge_at_the_dummys_decision(seat_of_person: int | None = None) -> TableSession:
    """bridge/1 played by bots (seed 2) up to the first decision of the dummy's seat, asked of the declarer."""
    session = TableSession.start(Environment(), "bridge/1", 4, 0, 2, True, bots="random", play_bots=False)
    session.people = frozenset()
    game = session.game
    while not (game.dummy is not None and game.decision.actor == game.dummy):
        d = game.decision
        session._apply(session.bots[d.decider].decide(game.observe(d.decider), d))
    return session


def test_every_view_draws_the_laid_dummys_hand_face_up():
    session = _bridge_at_the_dummys_decision()
    game = session.game
    dummy, declarer = game.dummy, game.setup.partner_of[game.dummy]
    hand = sorted(game.zone("hand", dummy))
    for viewer in (0, 1, 2, 3, SPECTATOR):
        view = session.view(viewer)
        assert view["dummy"]["seat"] == dummy and view["dummy"]["controller"] == declarer
        assert sorted(c["id"] for c in view["dummy"]["hand"]) == hand
        assert all({"label", "faction", "value"} <= set(c) for c in view["dummy"]["hand"])
    # the declarer answers the dummy's decision on the dummy's cards; nobody else has a decision
    record = session.view(declarer)["decision"]
    assert record is not None and {o["card"] for o in record["options"]} <= set(hand)
    assert all(session.view(s)["decision"] is None for s in range(4) if s != declarer)
    assert session.view(dummy)["waiting_for"]["seat"] == declarer


def test_the_dummy_is_not_shown_before_the_opening_lead_and_not_at_all_without_one():
    session = TableSession.start(Environment(), "bridge/1", 4, 0, 2, True, bots="random", play_bots=False)
    for viewer in (0, 1, SPECTATOR):
        view = session.view(viewer)
        assert view["dummy"] is None  # the auction: nobody's hand is face up
        assert all("hand_face_up" not in c for c in view["communities"])
    assert "dummy" not in session_with_two_people().view(0)  # a hand without a dummy: no key
