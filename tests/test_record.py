"""Game records: written move by move, replayed to the same game; a bad line is found at its
line and column (strict) or with every other problem (lenient); other rules are refused."""

from __future__ import annotations

import re

import pytest

from spbc.play.moves import IllegalMoveError, Move, MoveKind
from spbc.play.record import (
    RECORD_EXTENSION,
    RecordError,
    RecordWriter,
    format_result,
    read_record,
    record_ruleset,
    write_record,
)
from spbc.ai.sim import play_game, record_game


def random_record(ruleset, seed: int, players: int = 3) -> tuple[str, object]:
    """The record of a random game, and the game itself."""
    moves = []
    game, _ = play_game(ruleset, ["random"] * players, seed,
                        on_move=lambda g, code: moves.append(ruleset.decode(code)))
    return write_record(ruleset, game.players, seed, moves, date="2026-11-29"), game


def move_lines(text: str) -> list[int]:
    """Indexes of the move lines of a record."""
    return [i for i, line in enumerate(text.splitlines()) if line and line[0] not in "[#"]


def replace_line(text: str, index: int, old: str, new: str) -> str:
    lines = text.splitlines()
    assert old in lines[index]
    lines[index] = lines[index].replace(old, new, 1)
    return "\n".join(lines) + "\n"


def first_line_with(text: str, needle: str, after: int = 0) -> int:
    return next(i for i, line in enumerate(text.splitlines()) if i > after and needle in line)


# --- writing and replaying -----------------------------------------------------------------


@pytest.mark.parametrize("seed, players", [(1, 2), (2, 3), (3, 4)])
def test_a_record_replays_to_the_same_game(ruleset, seed, players):
    text, game = random_record(ruleset, seed, players)
    replay = read_record(text, ruleset)
    assert replay.problems == []
    assert replay.game.state_values() == game.state_values()
    assert replay.game.standings() == game.standings()
    assert replay.game.is_over


def test_the_record_shape(compiled):
    text, game = random_record(compiled, 5)
    lines = text.splitlines()
    assert lines[:7] == [
        '[Ruleset "base"]',
        f'[RulesDigest "{compiled.model.digest}"]',
        '[Seed "5"]',
        '[Player1 "random 1"]',
        '[Player2 "random 2"]',
        '[Player3 "random 3"]',
        '[Date "2026-11-29"]',
    ]
    assert lines[7] == f'[Result "{format_result(game)}"]'
    assert re.fullmatch(r"random 1 -?\d+, random 2 -?\d+, random 3 -?\d+", format_result(game))
    assert lines[8:10] == ["", "# round 1, Worker phase"]
    assert "# round 1, Building phase" in lines
    assert all(re.fullmatch(r"random [123]: \S.*", lines[i]) for i in move_lines(text))
    assert text.endswith("\n") and not text.endswith("\n\n")


def test_the_writer_follows_a_game_move_by_move(compiled):
    game = compiled.new_game(["Anna", "Boris"], seed=9)
    writer = RecordWriter(game)
    for _ in range(30):
        move = game.legal_moves()[-1]
        writer.add(move)
        game.play(move)
    assert "Result" not in writer.headers()
    replay = read_record(writer.text(), compiled)
    assert replay.game.state_values() == game.state_values()
    assert len(replay.moves) == 30


def test_the_writer_refuses_a_game_already_under_way_and_illegal_moves(compiled):
    game = compiled.new_game(["Anna", "Boris"], seed=9)
    game.play(game.legal_moves()[1])
    with pytest.raises(ValueError, match="a record starts where the game starts; this game is already at Boris"):
        RecordWriter(game)
    with pytest.raises(IllegalMoveError, match="you have no Market in your hand"):
        write_record(compiled, ["Anna", "Boris"], 9, [Move(MoveKind.PLAY, card="market")])


def test_headers_escape_quotes_and_backslashes(compiled):
    names = ['Anna "the Czar"', "Bo\\ris", "C: 3"]
    moves = [compiled.new_game(names, 4).legal_moves()[0]]
    text = write_record(compiled, names, 4, moves)
    assert '[Player1 "Anna \\"the Czar\\""]' in text
    assert '[Player2 "Bo\\\\ris"]' in text
    assert read_record(text, compiled).game.players == tuple(names)


def test_comments_blank_lines_and_trailing_comments_are_skipped(compiled):
    text, game = random_record(compiled, 6, 2)
    index = move_lines(text)[0]
    lines = text.splitlines()
    lines[index] += "   # a fine start"
    lines.insert(index, "")
    lines.insert(index, "# a note of our own")
    replay = read_record("\n".join(lines), compiled)
    assert replay.problems == [] and replay.game.state_values() == game.state_values()


def test_record_game_writes_a_file_that_replays_to_its_result(compiled, tmp_path):
    result = record_game(compiled, ["random", "random", "random"], 17, tmp_path)
    path = tmp_path / f"game-17{RECORD_EXTENSION}"
    assert RECORD_EXTENSION == ".spbr" and path.exists()
    text = path.read_text(encoding="utf-8")
    replay = read_record(text)  # the rules come from the Ruleset header
    by_seat = sorted(replay.game.standings(), key=lambda s: s.seat)
    assert [s.final for s in by_seat] == result.scores
    assert [s.rank for s in by_seat] == result.ranks
    assert len(replay.moves) == result.moves
    assert re.search(r'\[Date "\d{4}-\d\d-\d\d"\]', text)
    assert record_ruleset(text) == "base"


# --- bad records, strict ---------------------------------------------------------------------


def test_a_corrupted_move_is_reported_at_its_line_and_column(compiled):
    text, _ = random_record(compiled, 7)
    index = first_line_with(text, ": buy upper ", after=40)
    bad = replace_line(text, index, ": buy upper ", ": buy uper ")
    with pytest.raises(RecordError) as caught:
        read_record(bad, compiled, path="games/g7.spbr")
    error = caught.value
    line = bad.splitlines()[index]
    assert (error.line, error.column) == (index + 1, line.index("buy uper") + 1)
    assert str(error).startswith(f"games/g7.spbr:{index + 1}:{line.index('buy uper') + 1}: 'buy uper ")
    assert "unknown card 'uper " in error.reason
    assert error.problem.describe("g.spbr").startswith(f"g.spbr:{index + 1}:")


def test_an_illegal_move_is_reported_with_its_reason(compiled):
    text, _ = random_record(compiled, 8)
    index = first_line_with(text, ": buy upper ", after=30)
    bad = replace_line(text, index, ": buy upper ", ": buy lower ")
    with pytest.raises(RecordError) as caught:
        read_record(bad, compiled)
    assert caught.value.line == index + 1
    assert "only in the upper row" in caught.value.reason or "on the board" in caught.value.reason


def test_a_move_by_the_wrong_player(compiled):
    text, _ = random_record(compiled, 8, 2)
    index = move_lines(text)[0]
    first, other = ("random 1", "random 2") if text.splitlines()[index].startswith("random 1") else (
        "random 2", "random 1")
    bad = replace_line(text, index, f"{first}:", f"{other}:")
    with pytest.raises(RecordError) as caught:
        read_record(bad, compiled)
    assert (caught.value.line, caught.value.column) == (index + 1, 1)
    assert caught.value.reason == f"it is {first}'s turn, not {other}'s ({first}, round 1, Worker phase)"


def test_a_record_of_other_rules_is_refused_with_both_digests(compiled):
    text, _ = random_record(compiled, 9, 2)
    other = "0123456789ab" + "0" * 52
    bad = text.replace(compiled.model.digest, other)
    for lenient in (False, True):
        with pytest.raises(RecordError) as caught:
            read_record(bad, compiled, lenient=lenient)
        assert (caught.value.line, caught.value.column) == (2, 14)
        assert caught.value.reason == (
            f"this record was played with other rules (base, digest 0123456789ab); "
            f"these are base, digest {compiled.model.digest[:12]}")


def test_a_wrong_result_is_found(compiled):
    text, game = random_record(compiled, 10, 2)
    said = format_result(game)
    wrong = re.sub(r"(\d+)$", lambda m: str(int(m.group(1)) + 1), said)
    bad = text.replace(f'[Result "{said}"]', f'[Result "{wrong}"]')
    with pytest.raises(RecordError) as caught:
        read_record(bad, compiled)
    assert (caught.value.line, caught.value.column) == (7, 9)
    assert caught.value.reason == f"the result {wrong!r} does not match the replay: {said!r}"


def test_a_result_before_the_end_is_found(compiled):
    text, _ = random_record(compiled, 11, 2)
    cut = "\n".join(text.splitlines()[:60]) + "\n"
    with pytest.raises(RecordError, match="the record gives a result but its moves end before the game is over"):
        read_record(cut, compiled)
    unfinished = cut.replace(re.search(r'\[Result "[^"]*"\]', cut).group(0), '[Result "*"]')
    assert read_record(unfinished, compiled).problems == []


@pytest.mark.parametrize("header, message", [
    ('[Seed "7"]', "no Seed header"),
    ('[Seed "seven"]', "the seed must be a whole number, not 'seven'"),
])
def test_headers_that_leave_nothing_to_replay(compiled, header, message):
    text, _ = random_record(compiled, 7, 2)
    bad = text.replace('[Seed "7"]\n', "" if message.startswith("no") else header + "\n")
    for lenient in (False, True):
        with pytest.raises(RecordError, match=message):
            read_record(bad, compiled, lenient=lenient)


def test_no_players_and_no_ruleset(compiled):
    text, _ = random_record(compiled, 7, 2)
    no_players = re.sub(r'\[Player\d "[^"]*"\]\n', "", text)
    with pytest.raises(RecordError, match="no players"):
        read_record(no_players, compiled)
    no_rules = text.replace('[Ruleset "base"]\n', "")
    with pytest.raises(RecordError, match="no Ruleset header"):
        read_record(no_rules)
    unknown = text.replace('[Ruleset "base"]', '[Ruleset "nosuchgame"]')
    with pytest.raises(RecordError, match="played with the rules 'nosuchgame', which are not shipped") as caught:
        read_record(unknown)
    assert (caught.value.line, caught.value.column) == (1, 10)


# --- bad records, lenient --------------------------------------------------------------------


def test_lenient_lists_every_problem_and_keeps_the_good_moves(compiled):
    text, _ = random_record(compiled, 14)  # a game with a take upper well after its 20th move's buy upper
    moves = move_lines(text)
    first = first_line_with(text, ": buy upper ", after=moves[20])
    later = first_line_with(text, ": take upper ", after=first + 60)
    bad = replace_line(text, first, ": buy upper ", ": buy uper ")
    bad = replace_line(bad, later, ": take upper ", ": tkae upper ")
    bad = bad.replace('[Date "2026-11-29"]', "[Date 2026-11-29]")
    replay = read_record(bad, compiled, lenient=True, path="g.spbr")
    found = [(p.line, p.message.split(":")[0]) for p in replay.problems]
    assert found == [
        (7, 'a header reads [Name "value"]'),
        (first + 1, "'buy uper " + bad.splitlines()[first].split("buy uper ")[1] + "'"),
        (first + 2, f"{found[2][1]}"),
        (later + 1, "'tkae upper " + bad.splitlines()[later].split("tkae upper ")[1] + "'"),
    ]
    follow_on = replay.problems[2].message
    assert re.match(rf"\d+ later moves not replayed: the game is out of step with the record after line {first + 1}",
                    follow_on)
    assert "unknown verb 'tkae'; did you mean 'take'?" in replay.problems[3].message
    # every move before the first bad one was replayed, in order
    good = read_record(text, compiled).moves
    kept = sum(1 for i in moves if i < first)
    assert replay.moves[:kept] == good[:kept]
    assert "Date" not in replay.headers


def test_lenient_notes_a_wrong_result_and_goes_on(compiled):
    text, game = random_record(compiled, 13, 2)
    said = format_result(game)
    bad = text.replace(f'[Result "{said}"]', '[Result "nobody 0"]')
    replay = read_record(bad, compiled, lenient=True)
    assert [p.line for p in replay.problems] == [7]
    assert replay.game.standings() == game.standings()


def test_lenient_notes_misplaced_headers_and_foreign_lines(compiled):
    text, game = random_record(compiled, 14, 2)
    lines = text.splitlines()
    lines.insert(move_lines(text)[3], '[Late "header"]')
    lines.insert(move_lines(text)[5], "Zoe: pass")
    replay = read_record("\n".join(lines), compiled, lenient=True)
    assert [p.message for p in replay.problems] == [
        "a header must come before the moves",
        "expected 'player: move' with a player of this game (random 1, random 2)",
    ]
    assert replay.game.state_values() == game.state_values()
