"""spb play at a real (pseudo-)terminal: nothing of one seat is left for the next, line editing works,
Ctrl-C keeps the record.

Each test runs ``python -m spbc.frontends.cli play`` under pexpect on a terminal of a fixed size
and feeds everything it writes into pyte, a terminal emulator that keeps the lines scrolled off
the top as scrollback (and clears them on ESC[3J, as xterm does). pyte has no alternate screen,
so its scrollback is the stricter model: a terminal that keeps the scrollback of the alternate
screen too. What a player could see is the screen plus that scrollback.
"""

from __future__ import annotations

import os
import sys

import pytest

pexpect = pytest.importorskip("pexpect")
pyte = pytest.importorskip("pyte")

import spbc  # noqa: E402
from conftest import load_base  # noqa: E402
from scenario import Scenario  # noqa: E402
from spbc.play.record import read_record  # noqa: E402

ROWS, COLUMNS = 24, 120
#: A terminal tall enough for the full screen (board and phases as tables, a block per player).
TALL = 50
#: Every wait is for what the screen shows; this bound only ends a game that hangs. It is far above what
#: the slowest screen takes on a busy machine (a 60 s bound failed the run under load: the Ctrl-C test took 4-45 s alone).
HANG_SECONDS = 900


class Terminal:
    """spb play on a pseudo-terminal, and what its screen and scrollback hold."""

    def __init__(self, *args: str, rows: int = ROWS, columns: int = COLUMNS, cwd: str | None = None) -> None:
        env = dict(os.environ, TERM="xterm-256color", COLUMNS=str(columns), LINES=str(rows))
        env.pop("NO_COLOR", None)
        self.columns = columns
        self.child = pexpect.spawn(sys.executable, ["-P", "-m", "spbc.frontends.cli", "play", *args], env=env,
                                   dimensions=(rows, columns), encoding="utf-8", timeout=HANG_SECONDS, cwd=cwd)
        self.screen = pyte.HistoryScreen(columns, rows, history=100_000)
        self.stream = pyte.Stream(self.screen)
        self.raw = ""

    def wait(self, pattern: str) -> None:
        """Read output until it shows pattern (a regular expression), keeping it all."""
        self.child.expect(pattern)
        self._feed(self.child.before + self.child.after)

    def _feed(self, text: str) -> None:
        self.raw += text
        self.stream.feed(text)

    def send(self, text: str, then: str) -> None:
        self.child.send(text)
        self.wait(then)

    def visible(self) -> str:
        """Every line a player could look at now: the scrollback, then the screen."""
        history = ["".join(line[x].data for x in range(self.columns)) for line in self.screen.history.top]
        return "\n".join(line.rstrip() for line in history + list(self.screen.display))

    def finish(self) -> int:
        self.child.expect(pexpect.EOF)
        self._feed(self.child.before)
        self.child.close()
        return self.child.exitstatus


def test_after_each_handover_neither_screen_nor_scrollback_holds_the_other_players_secrets():
    term = Terminal("--players", "Anna,Boris", "--seed", "4")  # Boris starts the worker phase
    term.wait("Boris, press Enter to see your screen")
    assert "\x1b[?1049h" in term.raw  # the game runs on the alternate screen
    shown = term.visible()
    assert "rubles" not in shown and "Your hand" not in shown  # the handover screen shows nothing private
    term.send("\r", "Boris> ")
    assert "Boris [you, on turn]  0 points, 25 rubles" in term.visible()
    term.send("buy upper Shepherd\r", "Anna, press Enter to see your screen")
    shown = term.visible()
    assert "20 rubles" not in shown and "Your hand" not in shown and "Boris [you" not in shown
    term.send("\r", "Anna> ")
    shown = term.visible()
    assert "Anna [you, on turn]  0 points, 25 rubles, hand 0/3" in shown
    assert "Boris  0 points, ? rubles, hand 0/3" in shown
    assert "20 rubles" not in shown and "Boris [you" not in shown
    term.send("take upper Ship Builder\r", "Boris, press Enter to see your screen")
    shown = term.visible()
    assert "Ship Builder" not in shown.replace("Anna: take upper Ship Builder", "")
    assert "Your hand" not in shown and "Anna [you" not in shown and "25 rubles" not in shown
    term.send("\r", "Boris> ")
    shown = term.visible()
    assert "Your hand (0/3): empty" in shown and "Your hand (1/3)" not in shown
    assert "Anna  0 points, ? rubles, hand 1/3" in shown and "Anna [you" not in shown
    assert "25 rubles" not in shown and "Boris [you, on turn]  0 points, 20 rubles" in shown
    # every handover cleared the scrollback as well as the screen
    assert term.raw.count("\x1b[3J") >= 4
    term.send("quit\r", r"\[y/N\] ")
    term.send("y\r", "not finished")
    assert term.finish() == 0


def test_a_move_typed_with_tab_completion_and_again_from_the_history():
    term = Terminal("--players", "me,ai:random", "--seed", "3")
    term.wait("me> ")
    term.send("take upper Lum\t", "Lumberjack")  # Tab completes the card's name
    term.send("\r", "me> ")
    assert "Your hand (1/3): Lumberjack" in term.visible()
    term.send("undo\r", "me> ")
    assert "Your hand (0/3): empty" in term.visible() and "took back: take upper Lumberjack" in term.visible()
    term.send("\x1b[A\x1b[A", "take upper Lumberjack")  # Up, Up: the move before undo
    term.send("\r", "me> ")
    assert "Your hand (1/3): Lumberjack" in term.visible()
    assert term.raw.count("me: take upper Lumberjack") == 2
    term.send("q\r", r"\[y/N\] ")
    term.send("y\r", "not finished")
    assert term.finish() == 0
    # leaving the game leaves the alternate screen and says how the game ended on the normal one
    assert term.raw.rindex("\x1b[?1049l") < term.raw.rindex("Stopped (quit)")


def test_ctrl_c_leaves_a_readable_record_of_the_moves_so_far(tmp_path):
    record = tmp_path / "game.spbr"
    term = Terminal("--players", "me,ai:random", "--seed", "3", "--record", str(record))
    term.wait("me> ")
    term.send("take upper Lumberjack\r", "me> ")
    term.send("pass\r", "me> ")
    term.child.sendintr()  # Ctrl-C, through the terminal as a player sends it
    assert term.finish() == 130
    assert "Stopped (interrupted)" in term.visible()
    assert f"Record of the moves so far written to {record}" in " ".join(term.visible().split())
    text = record.read_text(encoding="utf-8")
    assert '[Seed "?"]' in text and "me: take upper Lumberjack" in text and "me: pass" in text
    replay = read_record(text, load_base("compiled"), seed=3)
    assert len(replay.moves) == 3 and not replay.game.is_over  # the computer passed after the take


#: Fixed words of the English screen that the German one translates.
ENGLISH_WORDS = ("Your hand", "Board: prices", "Phases", "to move", "rubles", "points", "Your moves", "Type a move",
                 "Legal moves", "Stopped", "cards left", "Commands", "took back", "Leave the game", "3r")


def test_the_screen_in_german_shows_german_words_and_none_of_the_english_ones():
    term = Terminal("--players", "me,ai:random", "--seed", "3", "--lang", "de", rows=TALL)
    term.wait("me> ")
    shown = term.visible()
    assert "Deine Hand (0/3): leer" in shown and "Spielbrett: Preise für me" in shown and "Phasen" in shown
    assert "me [du, am Zug]  0 Punkte, 25 Rubel, Hand 0/3" in shown and "Karten übrig" in shown
    term.send("take upper Holzfäller\r", "me> ")  # a German card name is a move; the notation stays English
    shown = term.visible()
    assert "Deine Hand (1/3): Holzfäller" in shown
    term.send("moves\r", "me> ")
    assert "Erlaubte Züge von me" in term.visible()
    term.send("help\r", "me> ")
    shown = " ".join(term.visible().split())
    assert "Befehle, oder ihre Anfänge" in shown and "das Spiel unbeendet verlassen" in shown
    term.send("undo\r", "me> ")
    assert "zurückgenommen: take upper Lumberjack" in term.visible()
    term.send("quit\r", r"\[y/N\] ")
    assert "Das Spiel unbeendet verlassen (nichts ist gespeichert" in term.visible()
    term.send("y\r", "nicht zu Ende")
    assert term.finish() == 0
    shown = " ".join(term.visible().split())
    assert "Beendet (quit): das Spiel wurde nicht zu Ende gespielt" in shown
    for english in ENGLISH_WORDS:
        assert english not in term.raw, english


def test_the_screen_in_chinese():
    term = Terminal("--players", "me,ai:random", "--seed", "3", "--lang", "zh")
    term.wait("me> ")
    shown = term.visible()
    assert "你的手牌（0/3）：無" in shown and "輪到me" in shown and "me [你, 輪到]  0分, 25盧布, 手牌0/3" in shown
    term.send("quit\r", r"\[y/N\] ")
    term.send("y\r", "遊戲未完成")
    assert term.finish() == 0
    for english in ENGLISH_WORDS:
        assert english not in term.raw, english


def test_the_discard_pile_and_a_card_taken_from_it_at_the_terminal(tmp_path):
    rules = spbc.load_rules("new_society", backend="python")
    scenario = (Scenario(rules).give(0, "debtors_prison").discarded(["market", "shepherd", "market"])
                .rubles(0, 20).phase("building").markers(0))
    scenario.saved["players"] = ["me", "ai:random"]
    path = tmp_path / "prison.json"
    path.write_text(scenario.build().to_json(), encoding="utf-8")
    term = Terminal("--load", str(path), "--lang", "de", rows=TALL)
    term.wait("me> ")
    assert "Ablagestapel (3 Karten): Schäfer, Markt x2" in term.visible()
    term.send("prison markt\r", "me> ")
    shown = term.visible()
    assert "Ablagestapel (2 Karten): Schäfer, Markt" in shown
    assert "me hat Markt vom Ablagestapel genommen: kaufen, auf die Hand nehmen oder ablegen" in shown
    term.send("quit\r", r"\[y/N\] ")
    term.send("y\r", "nicht zu Ende")
    assert term.finish() == 0


# --- issue 22: a screen that fits, answers that do not outlive their position, Ctrl-C, languages ------------


def on_screen(term: Terminal) -> list[str]:
    """The lines of the screen itself, without the scrollback."""
    return [line.rstrip() for line in term.screen.display]


def test_at_80x24_the_whole_screen_fits_and_board_and_log_show_what_it_leaves_out():
    """Issue 22 finding 8: at 80x24 the full screen's title, board and phases scrolled away (and the
    scrollback is cleared each turn); the compact screen keeps every part on the terminal, turn after turn."""
    term = Terminal("--players", "me,ai:random", "--seed", "3", rows=24, columns=80)
    term.wait("me> ")
    for move in ("take upper Lumberjack", "pass", "pass", "pass", "pass", "pass"):
        lines = on_screen(term)
        titles = [line for line in lines if "Round " in line and "me to move" in line]
        assert len(titles) == 1, lines  # above it only what the table saw since the last screen (a scoring)
        text = "\n".join(lines)
        for part in ("upper: ", "lower: ", "Phases: ", "me [you, on turn]", "ai:random  ", "Your hand (",
                     "Type a move"):
            assert part in text, (part, text)
        assert "me>" in text
        assert not term.screen.history.top  # nothing of this screen scrolled away
        term.send(move + "\r", "me> ")
    assert "Building phase" in term.visible()  # the passes ended the worker phase: its scoring is on the screen
    term.send("board\r", "me> ")
    shown = term.visible()
    assert "Board: prices for me" in shown and "cards left" in shown and "pays: " in shown
    term.send("log\r", "me> ")
    shown = term.visible()
    assert "The game so far" in shown and "me: take upper Lumberjack" in shown and "ai:random: " in shown
    term.send("quit\r", r"\[y/N\] ")
    term.send("y\r", "not finished")
    assert term.finish() == 0


def test_at_120x50_the_full_screen_is_drawn():
    """Issue 22 finding 8: where the full screen fits, it is the one drawn (board and phases as tables)."""
    term = Terminal("--players", "me,ai:random", "--seed", "3", rows=50, columns=120)
    term.wait("me> ")
    text = "\n".join(on_screen(term))
    assert "Board: prices for me" in text and "cards left" in text and "pays: " in text and "upper: " not in text
    assert not term.screen.history.top
    term.send("quit\r", r"\[y/N\] ")
    term.send("y\r", "not finished")
    assert term.finish() == 0


def test_a_hint_is_not_drawn_again_once_a_move_is_made():
    """Issue 22 finding 9: the hint (and a refusal) of the last turn was drawn under the next screen,
    where it read as advice for a position it was not about."""
    term = Terminal("--players", "me,ai:random", "--seed", "3", rows=TALL)
    term.wait("me> ")
    term.send("buy upper Academy\r", "me> ")
    term.send("hint\r", "would play")
    term.wait("me> ")
    assert "win chance" in term.visible()
    term.send("take upper Lumberjack\r", "me> ")
    shown = term.visible()
    assert "Your hand (1/3): Lumberjack" in shown
    assert "would play" not in shown and "win chance" not in shown and "Academy" not in shown
    term.send("hint\r", "would play")
    term.wait("me> ")
    term.send("undo\r", "me> ")  # undo changes the position too: the hint goes, what undo took back stays
    shown = term.visible()
    assert "took back: take upper Lumberjack" in shown and "would play" not in shown
    term.send("quit\r", r"\[y/N\] ")
    term.send("y\r", "not finished")
    assert term.finish() == 0


def test_ctrl_c_saves_the_game_and_load_continues_it_in_its_language(tmp_path):
    """Issue 22 finding 10: Ctrl-C wrote the record but no save; now it saves beside the working folder,
    says where, and spb play --load continues at the same position in the language it was played in."""
    term = Terminal("--players", "me,ai:random", "--seed", "3", "--lang", "de", cwd=str(tmp_path))
    term.wait("me> ")
    term.send("take upper Holzfäller\r", "me> ")
    term.child.sendintr()
    assert term.finish() == 130
    shown = " ".join(term.visible().split())
    saves = sorted(tmp_path.glob("spb-*.json"))
    assert len(saves) == 1, saves
    assert f"Spiel gespeichert nach {saves[0].name}; spb play --load {saves[0].name} setzt es fort" in shown
    assert "Beendet (unterbrochen)" in shown
    again = Terminal("--load", saves[0].name, cwd=str(tmp_path))
    again.wait("me> ")
    shown = again.visible()
    assert "Fortgesetztes Spiel" in again.raw and "Deine Hand (1/3): Holzfäller" in shown
    assert "Runde 1, Handwerkerphase: me ist am Zug" in shown
    again.send("quit\r", r"\[y/N\] ")
    again.send("y\r", "nicht zu Ende")
    assert again.finish() == 0
    english = Terminal("--load", saves[0].name, "--lang", "en", cwd=str(tmp_path))  # --lang wins over the save
    english.wait("me> ")
    assert "Your hand (1/3): Lumberjack" in english.visible()
    english.send("quit\r", r"\[y/N\] ")
    english.send("y\r", "not finished")
    assert english.finish() == 0


#: The Lumberjack's Chinese name.
LUMBERJACK_ZH = "伐木工"
#: What the English screen says in the hint, a refusal's context and the stopped line.
ENGLISH_CONTEXT = ("would play", "win chance", "searched", "round 1", "Worker phase")


@pytest.mark.parametrize("lang, hint, context, stopped, own, other", [
    ("de", "würde spielen", "(me, Runde 1, Handwerkerphase)", "Beendet (quit)", "Holzfäller", LUMBERJACK_ZH),
    pytest.param("zh", "會這樣走", "（me，第1輪，", "已停止（quit）", LUMBERJACK_ZH, "Holzfäller", marks=pytest.mark.slow),
])
def test_hint_refusals_stopped_line_and_completion_speak_the_screens_language(lang, hint, context, stopped, own,
                                                                              other):
    """Issue 22 finding 13: the German and Chinese screens showed the hint block, the "(round 1, Worker
    phase)" context of a refusal and of the stopped line in English, and Tab offered every card in all
    three languages."""
    term = Terminal("--players", "me,ai:random", "--seed", "3", "--lang", lang, rows=TALL)
    term.wait("me> ")
    term.send("hint\r", hint)
    term.wait("me> ")
    term.send("buy upper Academy\r", "me> ")
    assert context.replace("（", "(")[:4] in term.visible().replace("（", "(")
    before = len(term.raw)
    term.send("take upper \t\t", "me> take upper ")  # Tab twice: the list of what fits
    offered = term.raw[before:]
    assert own in offered and "Lumberjack" not in offered and other not in offered, offered
    term.send("\x15quit\r", r"\[y/N\] ")  # Ctrl-U clears the line
    term.send("y\r", stopped.replace("(", r"\(").replace(")", r"\)"))
    assert term.finish() == 0
    shown = " ".join(term.visible().split())
    assert context in shown and stopped in shown
    for english in ENGLISH_CONTEXT:
        assert english not in term.raw, english


@pytest.mark.parametrize("lang, parts", [("de", ("oben: ", "unten: ", "Phasen: ", "me [du, am Zug]", "Deine Hand")),
                                         pytest.param("zh", ("上排: ", "下排: ", "階段: ", "me [你, 輪到]", "你的手牌"),
                                                      marks=pytest.mark.slow)])
def test_the_compact_screen_speaks_the_screens_language(lang, parts):
    """Issue 22 findings 8 and 13: the compact screen at 80x24 is in the screen's language too."""
    term = Terminal("--players", "me,ai:random", "--seed", "3", "--lang", lang, rows=24, columns=80)
    term.wait("me> ")
    shown = term.visible()
    assert all(part in shown for part in parts), shown
    assert not term.screen.history.top
    term.send("log\r", "me> ")
    term.send("board\r", "me> ")
    term.send("quit\r", r"\[y/N\] ")
    term.send("y\r", "quit")
    assert term.finish() == 0
    for english in (*ENGLISH_WORDS, "upper:", "lower:", "The game so far"):
        assert english not in term.raw, english
