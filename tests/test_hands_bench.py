"""benchmarks/hands.py: the classes of the cards left in hand, and a short run of it."""

from __future__ import annotations

from types import ModuleType

import bench_script
import pytest

from spbc.play.moves import MoveKind


@pytest.fixture(scope="module")
def hands() -> ModuleType:
    return bench_script.load("hands")


def test_a_card_left_in_hand_is_classed_by_its_owners_turns_of_the_last_two_rounds(hands):
    turn = hands.Turn
    played_else = [turn(6, False, MoveKind.BUY, frozenset({"bank"})), turn(7, True, MoveKind.BUY, frozenset({"bank"}))]
    assert hands.classify("bank", played_else, 7) == "last round, other moves"
    assert hands.classify("bank", [*played_else, turn(7, True, MoveKind.PASS, frozenset({"bank"}))], 7) == "passed"
    assert hands.classify("bank", played_else[:1], 7) == "round before only"
    # playable only in a round before those two, or another card playable: never
    assert hands.classify("bank", [turn(5, False, MoveKind.BUY, frozenset({"bank"}))], 7) == "never"
    assert hands.classify("bank", [turn(7, True, MoveKind.PASS, frozenset({"market"}))], 7) == "never"


def test_a_short_run_counts_every_card_left_in_hand_once(hands, capsys):
    games = [hands.play(("base", "casual@20it", seed)) for seed in (1, 2, 3)]
    assert hands.main(["--games", "3", "--level", "casual@20it"]) == 0
    out = capsys.readouterr().out
    cards = sum(len(classes) for classes, _, _ in games)
    holding = sum(held for _, held, _ in games)
    assert f"{holding} of 6 seat-games" in out and f"{cards} cards" in out
    assert all(kind in hands.CLASSES for classes, _, _ in games for kind in classes)
    with pytest.raises(SystemExit):
        hands.main(["--level", "easy"])  # a level that does not search
