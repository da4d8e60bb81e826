"""spb play: scripted games through the CLI and a real process, commands, undo and its barrier, saving.

A Session is driven with a list of input lines and its events are collected; the CLI
is driven through typer's CliRunner with stdin text, and once as a real `yes pass |`
pipeline.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable, Iterable

import pytest
from typer.testing import CliRunner

from conftest import load_base
from scenario import Scenario
from spbc import load_rules
from spbc.frontends.cli import app
from spbc.play.moves import Move, MoveKind
from spbc.play.notation import parse_move
from spbc.table.seats import Seat, SeatError, parse_seats, seats_of
from spbc.table.session import NewPhase, Note, Played, Problem, Session, Stopped, Turn

runner = CliRunner()
PLAY = ["play", "--players", "me,ai:random", "--seed", "3"]


def run_session(session: Session, lines: Iterable[str] | Callable[[list], str | None]) -> list:
    """Run a session on scripted input (a list of lines, or a function of the events so far)."""
    events: list = []
    queue = iter(lines) if not callable(lines) else None

    def read(prompt: str) -> str | None:
        if queue is None:
            return lines(events)  # type: ignore[operator]
        return next(queue, None)

    session.run(read, events.append)
    return events


def new_session(players: str = "me,ai:random", seed: int = 3) -> Session:
    seats = parse_seats(players)
    game = load_base("compiled").new_game([seat.name for seat in seats], seed)
    return Session(game, seats, agent_seed=seed)


#: A row of the final standings: rank, player, points on the track, noble bonus (distinct nobles),
#: rubles converted (rubles held), hand penalty (cards held), total, rubles left.
STANDING = re.compile(r"^\s*(\d+)\s+(\S+)\s+(-?\d+)\s+\+(\d+) \((\d+)\)\s+\+(\d+) \((\d+)\)\s+-(\d+) \((\d+)\)"
                      r"\s+(-?\d+)\s+(\d+)\s*$", re.MULTILINE)


def standings_in(output: str) -> dict[str, tuple[int, int, int, int]]:
    """name -> (rank, total points, rubles held, hand cards) from the final standings table."""
    table = output[output.index("Final standings"):]
    return {row[1]: (int(row[0]), int(row[9]), int(row[6]), int(row[8])) for row in STANDING.findall(table)}


def replay_transcript(output: str, names: list[str], seed: int, moves: list | None = None):
    """Replay the moves a transcript printed ("name: move") on a fresh game; the game at the end."""
    game = load_base("compiled").new_game(names, seed)
    for name, text in re.findall(rf"^({'|'.join(map(re.escape, names))}): (.+)$", output, re.MULTILINE):
        assert name == names[game.current_player]
        move = parse_move(text, game)
        game.play(move)
        if moves is not None:
            moves.append(move)
    return game


# --- whole games through the command line ------------------------------------------------------


def test_a_game_fed_only_passes_runs_to_the_end_and_prints_the_standings():
    result = runner.invoke(app, PLAY, input="pass\n" * 400)
    assert result.exit_code == 0, result.output
    output = result.stdout
    assert "New game of base: me, ai:random (computer)\n" in output
    assert "Seed 3: spb play --seed 3 deals this game again." in output
    assert output.count("seed 3") + output.count("Seed 3") == 2  # told at the end only, with the record hint
    assert "not finished" not in output
    table = standings_in(output)
    assert set(table) == {"me", "ai:random"}
    # the printed moves are the whole game: replaying them gives the printed standings
    game = replay_transcript(output, ["me", "ai:random"], 3)
    assert game.is_over
    for standing in game.standings():
        assert table[standing.name] == (standing.rank, standing.final, standing.rubles, standing.hand_size)
    assert table["me"][1:] == (2, 25, 0)  # never bought anything: 25 rubles are 2 points
    assert "\x1b" not in result.output  # piped output is plain text


def test_a_real_process_in_a_pipe_plays_to_the_end():
    done = subprocess.run(
        f"yes pass | {sys.executable} -P -m spbc.frontends.cli play --players me,ai:random --seed 3",
        shell=True, capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "Final standings" in done.stdout and "\x1b" not in done.stdout
    assert set(standings_in(done.stdout)) == {"me", "ai:random"}


def test_end_of_input_stops_cleanly_and_says_the_game_is_unfinished():
    result = runner.invoke(app, PLAY, input="pass\npass\n")
    assert result.exit_code == 0
    assert "Stopped (end of input): the game was not finished (me, round 1, Building phase)" in result.stdout
    assert "Final standings" not in result.stdout
    assert result.stdout.count("me> pass") == 2


def test_a_mistyped_move_prints_the_error_and_asks_again():
    result = runner.invoke(app, PLAY, input="buy lumbrjack\nbuy\nbuy upper Lumberjack\n")
    assert result.exit_code == 0
    output = result.stdout
    assert "'buy lumbrjack': unknown card 'lumbrjack'; did you mean 'Lumberjack'? (me, round 1, Worker phase)" in output
    assert "'buy': expected a card after 'buy'" in output
    assert "me: buy upper Lumberjack" in output  # the next line was still read and played
    assert "Traceback" not in result.output


def test_an_illegal_move_gets_the_reason_and_the_game_goes_on(ruleset):
    scenario = Scenario(ruleset, players=2).upper(["shepherd", "lumberjack"]).rubles(0, 4).current(0)
    scenario.saved["players"] = ["me", "ai:random"]
    game = scenario.build()
    session = Session(game, seats_of(game.players), agent_seed=1)
    events = run_session(session, ["buy shepherd", "buy lumberjack"])
    assert Problem("'buy shepherd': Shepherd costs 5 after reductions, you have 4 rubles "
                   "(me, round 1, Worker phase)") in events
    assert Played(0, "me", "buy upper Lumberjack", False) in events
    assert session.game.rubles(0) == 1


def test_help_lists_the_commands_and_the_notation_forms():
    result = runner.invoke(app, PLAY, input="help\n")
    for word in ("buy [upper|lower] CARD", "take [upper|lower] CARD", "play CARD [over CARD]",
                 "observe DECK", "pub N", "undo", "save [FILE]", "quit"):
        assert word in result.stdout
    assert "Legal now, for example: pass, take upper Lumberjack" in result.stdout


def test_moves_lists_every_legal_move_with_its_cost():
    session = new_session()
    events = run_session(session, ["moves"])
    listing = next(e for e in events if type(e).__name__ == "MoveList")
    game = session.game
    assert len(listing.moves) == len(game.legal_moves())
    for (text, cost), move in zip(listing.moves, game.legal_moves()):
        assert parse_move(text, game) == move and cost == game.cost(move)


def test_quit_stops_without_saving(tmp_path):
    result = runner.invoke(app, PLAY, input="quit\npass\n")
    assert result.exit_code == 0
    assert "Stopped (quit)" in result.stdout and "me: pass" not in result.stdout


# --- seats and usage errors ---------------------------------------------------------------------


def test_an_unknown_computer_level_is_a_usage_error_naming_the_known_ones():
    result = runner.invoke(app, ["play", "--players", "me,ai:grandmaster"])
    assert result.exit_code == 2
    assert "unknown computer level 'grandmaster'; known: random, novice, easy, casual, medium" in result.stderr


def test_seat_names_must_be_unique_and_the_count_fit_the_rules():
    assert runner.invoke(app, ["play", "--players", "Anna,Anna"]).exit_code == 2
    assert runner.invoke(app, ["play", "--players", "a,b,c,d,e"]).exit_code == 2
    assert runner.invoke(app, ["play", "--players", "Anna,,Boris"]).exit_code == 2


def test_seats_parse_and_number_computers_of_one_level():
    assert parse_seats("Anna, ai:random ,ai:random") == [
        Seat("Anna"), Seat("ai:random", "random"), Seat("ai:random 2", "random")]
    assert seats_of(["Anna", "ai:random 2"]) == [Seat("Anna"), Seat("ai:random 2", "random")]
    with pytest.raises(SeatError):
        parse_seats("ai:random,ai:nope")


@pytest.mark.slow  # whole games in real processes
def test_without_a_seed_a_random_one_is_told_at_the_end_and_replays_the_deal():
    first = runner.invoke(app, ["play"], input="pass\n" * 400)
    seed = int(re.search(r"Seed (\d+): spb play --seed", first.stdout).group(1))
    assert first.stdout.index("Final standings") < first.stdout.index(f"Seed {seed}")
    again = runner.invoke(app, ["play", "--seed", str(seed)], input="pass\n" * 400)
    assert first.stdout == again.stdout  # the same seed, the same game


def test_an_unfinished_game_does_not_tell_its_seed():
    result = runner.invoke(app, ["play", "--seed", "987654"], input="pass\n")
    assert result.exit_code == 0 and "not finished" in result.stdout
    assert "987654" not in result.stdout


# --- several humans -------------------------------------------------------------------------------


def test_two_humans_get_a_handover_line_and_see_only_their_own_hands():
    result = runner.invoke(app, ["play", "--players", "Anna,Boris", "--seed", "4"],
                           input="take upper Shepherd\npass\n")
    assert result.exit_code == 0
    output = result.stdout
    # Boris starts the worker phase; Anna gets the keyboard after his move
    assert output.index("pass the keyboard to Boris") < output.index("Boris> take upper Shepherd")
    anna_screen = output[output.index("pass the keyboard to Anna"):]
    assert "Boris: take upper Shepherd" in anna_screen  # the others' moves since her last turn
    assert "Your hand (0/3): empty" in anna_screen
    assert "Boris  0 points, ? rubles, hand 1/3" in anna_screen
    assert "Anna> pass" in anna_screen


def test_undo_is_refused_when_another_human_plays():
    events = run_session(new_session("Anna,Boris", seed=4), ["pass", "undo"])
    assert Problem("undo is only possible against computers; Boris also plays here") in events


# --- undo -----------------------------------------------------------------------------------------


def test_undo_takes_back_your_move_and_the_computer_answer():
    session = new_session()
    start = session.game.state_values()
    events = run_session(session, ["buy upper Lumberjack", "undo"])
    note = next(e for e in events if isinstance(e, Note))
    assert note.text.startswith("took back: buy upper Lumberjack; ")
    assert session.game.state_values() == start
    assert sum(isinstance(e, Turn) for e in events) == 3  # the first screen, after the move, after undo
    assert session.history.moves == []


@pytest.mark.parametrize("level", ["ai:random", "ai:easy", "ai:medium@50it", "ai:hard@50it"])
def test_undo_against_every_level_takes_back_the_move_and_the_answer_comes_again(level):
    # the second move is made after the computer has chosen once (a search agent then holds its
    # prepared tables), and undo keeps a copy of the agents at every move of yours
    session = new_session(f"me,{level}", seed=2)  # a seed whose computer does not end the phase at once
    events = run_session(session, ["buy upper Lumberjack"])
    after_first = session.game.state_values()
    events = run_session(session, ["pass", "undo", "pass"])
    answers = [e.text for e in events if isinstance(e, Played) and e.computer]
    assert not any(isinstance(e, Problem) for e in events)
    assert len(answers) == 2 and answers[0] == answers[1]
    session.undo([], events.append)
    assert session.game.state_values() == after_first


def test_undo_twice_goes_back_two_moves_and_then_there_is_nothing_left():
    session = new_session(seed=2)  # the computer's answers to two passes draw no card (a refill blocks undo)
    start = session.game.state_values()
    events = run_session(session, ["pass", "pass", "undo", "undo", "undo"])
    assert session.game.state_values() == start
    assert Problem("there is no move of yours to undo yet") in events


def test_after_undo_the_computer_answers_the_same_move_the_same_way():
    session = new_session()
    events = run_session(session, ["buy upper Lumberjack", "undo", "buy upper Lumberjack"])
    answers = [e.text for e in events if isinstance(e, Played) and e.computer]
    assert len(answers) == 2 and answers[0] == answers[1]


def test_undo_is_refused_after_a_refill_drew_cards():
    session = new_session()

    def script(events: list) -> str | None:
        if any(isinstance(e, NewPhase) for e in events):
            return "undo" if not any(isinstance(e, Problem) for e in events) else None
        return "pass"

    events = run_session(session, script)
    before = session.game.state_values()
    problems = [e for e in events if isinstance(e, Problem)]
    assert problems and problems[0].message.startswith("cannot undo past the refilled board")
    assert session.game.state_values() == before
    assert session.game.phase == "building"


def test_a_move_after_the_refill_can_be_undone_again():
    session = new_session()
    script = iter(["undo", "take upper Market", "undo"])

    def lines(events: list) -> str | None:
        if not any(isinstance(e, NewPhase) for e in events):
            return "pass"
        return next(script, None)

    events = run_session(session, lines)
    assert session.game.phase == "building"
    problems = [e for e in events if isinstance(e, Problem)]
    notes = [e.text for e in events if isinstance(e, Note)]
    assert len(problems) == 1 and problems[0].message.startswith("cannot undo past the refilled board")
    assert len(notes) == 1 and notes[0].startswith("took back: take upper Market")
    assert session.game.hand(0) == []


def observatory_game(ruleset):
    scenario = (
        Scenario(ruleset, players=2).give(0, "observatory").upper(["market", "library"]).lower([])
        .phase("building").current(0)
    )
    scenario.saved["players"] = ["me", "ai:random"]
    return scenario.build()


def test_undo_is_refused_after_an_observatory_draw(ruleset):
    game = observatory_game(ruleset)
    session = Session(game, seats_of(game.players), agent_seed=1)
    events = run_session(session, ["observe worker", "undo", "discard", "undo"])
    problems = [e.message for e in events if isinstance(e, Problem)]
    assert problems[0].startswith("cannot undo past the card drawn with observe worker")
    # after the decision on the drawn card, that decision can be undone, but not the draw
    notes = [e.text for e in events if isinstance(e, Note)]
    assert notes and notes[0].startswith("took back: discard")
    assert session.game.stage == "drawn"


# --- saving and loading ---------------------------------------------------------------------------


@pytest.mark.slow  # whole games
def test_save_writes_a_game_that_loads_and_continues(tmp_path):
    path = tmp_path / "game.json"
    result = runner.invoke(app, PLAY, input=f"pass\nsave {path}\n")
    assert result.exit_code == 0 and f"saved the game to {path}" in result.stdout
    ruleset = load_base("compiled")
    loaded = ruleset.game_from_json(path.read_text(encoding="utf-8"))
    expected = replay_transcript(result.stdout, ["me", "ai:random"], 3)
    assert loaded.state_values() == expected.state_values()
    resumed = runner.invoke(app, ["play", "--load", str(path)], input="pass\n" * 400)
    assert resumed.exit_code == 0
    assert "Resumed game of base: me, ai:random (computer)\n" in resumed.stdout
    assert "Final standings" in resumed.stdout


def test_a_save_of_a_shipped_variant_loads_with_that_variant(tmp_path):
    # a shipped ruleset's save names the ruleset, not a file: --load must not fall back to base
    path = tmp_path / "game.json"
    game = load_rules("open_information", backend="python").new_game(["me", "ai:random"], seed=5)
    path.write_text(game.to_json(), encoding="utf-8")
    resumed = runner.invoke(app, ["play", "--load", str(path)], input="quit\n")
    assert resumed.exit_code == 0, resumed.stderr
    assert "Resumed game of open_information: me, ai:random (computer)\n" in resumed.stdout


def test_save_without_a_name_uses_the_time_not_the_seed(tmp_path):
    session = new_session()
    session.save_dir = tmp_path
    events = run_session(session, ["save"])
    saved = list(tmp_path.glob("spb-*.json"))
    assert len(saved) == 1 and re.fullmatch(r"spb-\d{8}-\d{6}\.json", saved[0].name)
    run_session(session, ["save"])
    run_session(session, ["save"])
    assert len(list(tmp_path.glob("spb-*.json"))) == 3  # saves in the same second do not overwrite
    assert Note(f"saved the game to {saved[0]}; continue it with spb play --load {saved[0]}") in events


def test_a_bad_save_file_is_an_input_error(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text("{}", encoding="utf-8")
    result = runner.invoke(app, ["play", "--load", str(path)])
    assert result.exit_code == 1 and "not a saved game" in result.stderr
    assert runner.invoke(app, ["play", "--load", str(path), "--seed", "3"]).exit_code == 2


def test_an_unfinished_session_reports_where_it_stopped():
    events = run_session(new_session(), ["pass"])
    assert events[-1] == Stopped("end of input", "me, round 1, Building phase")


# --- game records -----------------------------------------------------------------------------------


def test_record_is_written_at_the_end_and_replays_to_the_printed_standings(tmp_path):
    from spbc.play.record import read_record

    path = tmp_path / "game.spbr"
    result = runner.invoke(app, [*PLAY, "--record", str(path)], input="pass\n" * 400)
    assert result.exit_code == 0
    assert f"Record written to {path}" in " ".join(result.stdout.split())
    replay = read_record(path.read_text(encoding="utf-8"), load_base("compiled"))
    assert replay.game.is_over and not replay.problems
    table = standings_in(result.stdout)
    for standing in replay.game.standings():
        assert table[standing.name][:2] == (standing.rank, standing.final)
    assert replay.headers["Seed"] == "3" and replay.headers["Player1"] == "me"


def test_undone_moves_stay_out_of_the_record(tmp_path):
    from spbc.play.record import read_record

    path = tmp_path / "game.spbr"
    session = new_session()
    session.record = path
    run_session(session, ["buy upper Lumberjack", "undo", "pass", "save " + str(tmp_path / "g.json")])
    text = path.read_text(encoding="utf-8")
    assert '[Seed "?"]' in text and '[Seed "3"]' not in text  # withheld until the game is over
    replay = read_record(text, load_base("compiled"), seed=3)
    assert replay.moves == [move for _, move, _ in session.history.moves]
    assert replay.moves[0] == Move(MoveKind.PASS) and len(replay.moves) == 2  # pass and the answer
    assert replay.game.state_values() == session.game.state_values()


@pytest.mark.slow  # whole games
def test_a_loaded_game_continues_its_record(tmp_path):
    from spbc.play.record import read_record

    record, saved = tmp_path / "game.spbr", tmp_path / "game.json"
    first = runner.invoke(app, [*PLAY, "--record", str(record)], input=f"pass\npass\nsave {saved}\n")
    assert first.exit_code == 0
    assert read_record(record.read_text(encoding="utf-8"), load_base("compiled"), seed=3).moves  # the record so far
    second = runner.invoke(app, ["play", "--load", str(saved), "--record", str(record)], input="pass\n" * 400)
    assert second.exit_code == 0, second.output
    replay = read_record(record.read_text(encoding="utf-8"), load_base("compiled"))
    assert replay.game.is_over and not replay.problems
    printed: list = []
    replay_transcript(first.stdout, ["me", "ai:random"], 3, printed)
    assert len(printed) == 4 and replay.moves[:4] == printed
    table = standings_in(second.stdout)
    for standing in replay.game.standings():
        assert table[standing.name][:2] == (standing.rank, standing.final)


def test_a_loaded_game_with_a_record_of_another_game_is_refused(tmp_path):
    saved, other = tmp_path / "game.json", tmp_path / "other.spbr"
    runner.invoke(app, PLAY, input=f"pass\nsave {saved}\n")
    runner.invoke(app, ["play", "--players", "me,ai:random", "--seed", "4", "--record", str(other)],
                  input="pass\nsave " + str(tmp_path / "x.json") + "\n")
    result = runner.invoke(app, ["play", "--load", str(saved), "--record", str(other)])
    assert result.exit_code == 1
    assert f"the record {other} does not lead to the saved game" in " ".join(result.stderr.split())


@pytest.mark.slow  # whole games
def test_names_are_shown_as_typed_never_read_as_markup():
    result = runner.invoke(app, ["play", "--players", "[b]Anna,ai:random", "--seed", "3"], input="pass\n" * 400)
    assert result.exit_code == 0
    output = result.stdout
    assert re.search(r"Worker phase\s+Workers\s+\d+\s+\[b\]Anna", output)  # the phase table
    assert "[b]Anna [you, on turn]  0 points" in output
    assert standings_in(output)["[b]Anna"][1:] == (2, 25, 0)  # the standings
