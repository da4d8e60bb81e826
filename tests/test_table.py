"""The terminal game's manners, as library behaviour: commands by their beginnings, Enter to pass,
completion, records kept whenever a game stops (without the seed until it is over), saves that
never overwrite another game, house rules remembered by a save, German card names.

Sessions are driven with scripted input (tests/test_play.py's helpers); the pseudo-terminal
tests are in tests/test_terminal.py.
"""

from __future__ import annotations

import json
import shutil

import pytest
from typer.testing import CliRunner

from conftest import load_base
from scenario import Scenario
from spbc.frontends.cli import app
from spbc.play.notation import parse_move
from spbc.play.record import read_record
from spbc.source import locate
from spbc.table.completion import complete
from spbc.table.seats import seats_of
from spbc.table.session import COMMANDS, Finished, MoveList, Note, Played, Problem, Session, Stopped, help_text
from test_play import new_session, run_session

runner = CliRunner()


# --- commands and input ---------------------------------------------------------------------------


def test_commands_answer_to_their_beginnings_but_verbs_come_first():
    session = new_session()
    assert [session.command_of(word) for word in ("q", "qui", "h", "?", "HE", "mo", "u", "s", "sav")] == [
        "quit", "quit", "help", "help", "help", "moves", "undo", "save", "save"]
    # 'p' and 'd' begin verbs (play, pass, pub; discard): they are never commands
    assert [session.command_of(word) for word in ("p", "pa", "d", "b", "t", "x")] == [None] * 6
    events = run_session(new_session(), ["?", "m", "q"])
    assert isinstance(events[2], Note) and events[2].text.startswith("Moves (card names")
    assert any(isinstance(e, MoveList) for e in events)
    assert isinstance(events[-1], Stopped) and events[-1].reason == "quit"


def test_help_names_the_short_verbs_german_names_and_the_command_beginnings():
    text = help_text(new_session())
    assert "Short verbs: b (buy), t (take), pl (play), d (discard), - (pass)" in text
    assert "German and Chinese names work too" in text
    assert ("Commands, or their beginnings: h (help), hi (hint), m (moves), bo (board), l (log), u (undo), s (save), "
            "q (quit), ? (help)") in text


def test_enter_alone_passes_only_when_passing_is_the_one_move(ruleset):
    scenario = Scenario(ruleset, players=2).upper([]).lower([]).phase("aristocrat").current(0)
    scenario.saved["players"] = ["me", "ai:random"]
    game = scenario.build()
    assert [m.kind.value for m in game.legal_moves()] == ["pass"]
    session = Session(game, seats_of(game.players), agent_seed=1)
    events = run_session(session, [""])
    assert Played(0, "me", "pass", False) in events
    # with more to do, an empty line is only an empty line
    busy = new_session()
    events = run_session(busy, ["", ""])
    assert not any(isinstance(e, Played) for e in events)


def test_completion_gives_legal_moves_in_the_players_words():
    session = new_session()  # round 1: Lumberjack x2, Fur Trapper and Shepherd in the upper row
    assert complete(session, "take upper Lum") == ["take upper Lumberjack"]
    assert complete(session, "b up lum") == ["b upper Lumberjack"]
    assert complete(session, "b fur") == ["b Fur Trapper"]
    assert complete(session, "t holz") == ["t Holzfäller"]
    assert complete(session, "t SCHA") == ["t Schäfer"]
    assert complete(session, "he") == ["help"] and complete(session, "q") == ["quit"]
    assert complete(session, "b upper Lumberjack") == ["b upper Lumberjack"]
    assert complete(session, "b upper Lumberjack ") == []  # nothing more to say
    assert complete(session, "buy upper Academy") == []  # not on the board
    every = complete(session, "")
    assert "pass" in every and "take upper Shepherd" in every and "save" in every
    # everything completed reads as the move it names
    for line in every:
        if line not in (*COMMANDS, "quit"):
            assert parse_move(line, session.game) in session.game.legal_moves()


def test_completion_offers_the_screens_language_first_and_the_others_only_when_it_has_nothing():
    """Issue 22 finding 13: Tab offered every card in all three languages at once."""
    english = new_session()
    every = complete(english, "t ")
    assert "t Lumberjack" in every and not any("Holzfäller" in line or "伐木工" in line for line in every)
    german = new_session()
    german.language = "de"
    every = complete(german, "t ")
    assert "t Holzfäller" in every and not any("Lumberjack" in line or "伐木工" in line for line in every)
    assert complete(german, "t lum") == ["t Lumberjack"]  # nothing German fits: the other languages do
    chinese = new_session()
    chinese.language = "zh"
    assert "t 伐木工" in complete(chinese, "t ") and "t Lumberjack" not in complete(chinese, "t ")


# --- records and saves ----------------------------------------------------------------------------


@pytest.mark.parametrize("script, reason", [(["pass", "quit"], "quit"), (["pass"], "end of input")])
def test_the_record_is_written_when_the_game_stops_without_its_seed(tmp_path, script, reason):
    path = tmp_path / "game.spbr"
    session = new_session()
    session.record = path
    events = run_session(session, script)
    assert events[-1] == Stopped(reason, "me, round 1, Building phase", path)
    text = path.read_text(encoding="utf-8")
    assert '[Seed "?"]' in text and "me: pass" in text
    replay = read_record(text, load_base("compiled"), seed=3)
    assert replay.moves == [move for _, move, _ in session.history.moves]
    with pytest.raises(Exception, match="the seed is withheld"):
        read_record(text, load_base("compiled"))
    with pytest.raises(Exception, match="not the seed of the game"):
        read_record(replay_text_with_seed(text, 4), load_base("compiled"), seed=3)


def replay_text_with_seed(text: str, seed: int) -> str:
    return text.replace('[Seed "?"]', f'[Seed "{seed}"]')


def test_a_finished_game_writes_its_seed_and_result(tmp_path):
    path = tmp_path / "game.spbr"
    session = new_session()
    session.record = path
    events = run_session(session, ["pass"] * 400)
    assert isinstance(events[-1], Finished) and events[-1].record == path
    text = path.read_text(encoding="utf-8")
    assert '[Seed "3"]' in text and "[Result " in text
    assert read_record(text, load_base("compiled")).game.is_over


def test_save_never_overwrites_another_game(tmp_path):
    other = tmp_path / "notes.json"
    other.write_text("my notes", encoding="utf-8")
    session = new_session()
    events = run_session(session, [f"save {other}"])
    assert Problem(f"{other} already exists and is not a save of this game; save to another name") in events
    assert other.read_text(encoding="utf-8") == "my notes"
    mine = tmp_path / "mine.json"
    run_session(session, [f"save {mine}", "pass", f"save {mine}"])  # this game's own save: overwritten
    assert session.game.ruleset.game_from_json(mine.read_text(encoding="utf-8")).state_values() == \
        session.game.state_values()
    stranger = new_session(seed=4)
    events = run_session(stranger, [f"save {mine}"])
    assert Problem(f"{mine} holds another game (me, ai:random); save to another name") in events


def test_a_shared_screen_is_warned_that_a_save_holds_every_secret(tmp_path):
    session = new_session("Anna,Boris", seed=4)
    events = run_session(session, [f"save {tmp_path / 'g.json'}"])
    note = next(e for e in events if isinstance(e, Note))
    assert "it holds every hand and the order of the decks" in note.text


@pytest.mark.slow  # an engine of a rules file
def test_a_save_of_house_rules_names_its_rules_file_and_load_finds_it(tmp_path):
    house = tmp_path / "house"
    shutil.copytree(locate.rules_dir(), house)
    rules = house / "base.spb"
    save = tmp_path / "game.json"
    played = runner.invoke(app, ["play", "--rules", str(rules), "--seed", "3"], input=f"pass\nsave {save}\n")
    assert played.exit_code == 0, played.output
    assert json.loads(save.read_text(encoding="utf-8"))["rules"] == str(rules.resolve())
    resumed = runner.invoke(app, ["play", "--load", str(save)], input="pass\n" * 400)
    assert resumed.exit_code == 0 and "Final standings" in resumed.stdout
    shutil.rmtree(house)
    lost = runner.invoke(app, ["play", "--load", str(save)])
    assert lost.exit_code == 1
    assert (f"the game was played with the rules file {rules.resolve()}, which is not there any more; "
            "give its rules with --rules FILE") in " ".join(lost.stderr.split())
    # a save of the shipped rules names none
    runner.invoke(app, ["play", "--seed", "3"], input=f"save {tmp_path / 'plain.json'}\n")
    assert "rules" not in json.loads((tmp_path / "plain.json").read_text(encoding="utf-8"))


def test_a_player_name_a_record_cannot_hold_is_refused_before_the_game():
    result = runner.invoke(app, ["play", "--players", "An\udc80na,ai:random"])
    assert result.exit_code == 2 and "New game" not in result.output
    assert "cannot be written as UTF-8" in result.output


# --- German names ---------------------------------------------------------------------------------

#: Every German card name the project's card facts know (../shared/facts/cards.md), and the two the
#: issue names (Holzfäller, Pelzjäger, as a Yucata card label has the second).
GERMAN = {
    "lumberjack": "Holzfäller", "gold_miner": "Goldgräber", "shepherd": "Schäfer", "fur_trapper": "Pelzjäger",
    "ship_builder": "Schiffbauer", "czar_and_carpenter": "Zar und Zimmermann", "market": "Markt",
    "customs_house": "Zollhaus", "firehouse": "Feuerwehr", "hospital": "Krankenhaus", "library": "Bibliothek",
    "academy": "Akademie", "potjomkins_village": "Potjomkinsches Dorf", "pub": "Schenke", "warehouse": "Lagerhaus",
    "observatory": "Sternwarte", "author": "Schreiber", "administrator": "Verwalter",
    "warehouse_manager": "Kontorist", "secretary": "Sekretär", "controller": "Kontrolleur", "judge": "Richter",
    "mistress_of_ceremonies": "Hofmeisterin", "tax_man": "Steuereintreiber",
}


def test_every_known_german_name_is_in_the_rules():
    model = load_base("compiled").model
    assert {card.id: card.names.get("de") for card in model.cards if card.id in GERMAN} == GERMAN
    # an established name is not marked as our own translation; every other German name is
    assert {card.id for card in model.cards if "de" not in card.names.translated} == set(GERMAN) | {
        "carpenter_workshop", "gold_smelter", "mariinskij_theater"}  # named in the German and Chinese seeds


def test_german_names_and_their_beginnings_name_cards():
    session = new_session()
    game = session.game
    assert parse_move("b holz", game) == parse_move("buy upper Lumberjack", game)
    assert parse_move("t pelzj", game) == parse_move("take upper Fur Trapper", game)
    assert parse_move("b HOLZFAELLER", game) == parse_move("b Holzfaller", game) == parse_move("b lumb", game)
    events = run_session(session, ["b holz"])
    assert Played(0, "me", "buy upper Lumberjack", False) in events


def test_stopping_with_a_save_writes_a_new_file_that_loads_to_the_same_game_in_its_language(tmp_path):
    """Issue 22 finding 10: an interrupted game is saved (under a name no file has), with its screen's
    language, and the event says where."""
    from spbc.frontends.words import GERMAN
    from spbc.play.save import saved_language

    session = new_session()
    session.language, session.words, session.save_dir = "de", GERMAN.session, tmp_path
    run_session(session, ["take upper Lumberjack"])
    event, problem = session.stop("interrupted", save=True)
    assert problem is None and event.saved is not None and event.saved.parent == tmp_path
    assert event.context == "me, Runde 1, Handwerkerphase"
    text = event.saved.read_text(encoding="utf-8")
    assert saved_language(text) == "de"
    assert session.game.ruleset.game_from_json(text).state_values() == session.game.state_values()
    second, _ = session.stop("interrupted", save=True)
    assert second.saved != event.saved and event.saved.read_text(encoding="utf-8") == text


def test_a_german_session_says_why_a_move_is_refused_in_german():
    """Issue 21 (one translation mechanism): the terminal's refusal comes from the refusal's fields,
    said in the session's language with the ruleset's German names, not the English text."""
    from spbc.frontends.words import GERMAN

    session = new_session()
    session.language, session.words = "de", GERMAN.session
    events = run_session(session, ["buy upper Observatory"])
    problems = [event.message for event in events if isinstance(event, Problem)]
    assert problems, events
    assert "Sternwarte" in problems[0] and "Runde 1" in problems[0], problems[0]
    assert "costs" not in problems[0] and "you have" not in problems[0], problems[0]
