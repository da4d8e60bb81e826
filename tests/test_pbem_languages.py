"""Every mail the server writes can be said in English, German and Chinese: a player's language is
kept with their seat (``lang de`` in a mail, or given when the game is made), and every kind of mail
to them (welcome, turn, refusal, help, standings at the game's end, a seat change, a message, a
notice) is then in it, with no English sentence left and every field filled in."""

from __future__ import annotations

import functools
import random
import re
import shutil
from pathlib import Path

import jinja2
import pytest

import spbc.play

from pbem_mail import Received, make_server, mail, outbox, secret_of
from test_pbem_games import break_game
from test_pbem_schema import CURRENT, CURRENT_SECRETS
from spbc.engine import render
from spbc.pbem.admin import find_seat
from spbc.pbem.server import NewGame, SeatSpec
from spbc.pbem.wording import mail_words
from spbc.play.moves import MoveError
from spbc.play.notation import parse_move
from spbc.play.refusal import LANGUAGES

PEOPLE = {"anna@a.test": ("Anna", "de"), "boris@b.test": ("Boris", "zh"), "clara@c.test": ("Clara", "en")}


def _fragments(text: str) -> list[str]:
    """The fixed pieces of a template's sentence (what lies between its placeholders), long enough to be
    a sentence's words and not a name or a notation."""
    return [piece.strip() for piece in re.split(r"\{[a-z_]*\}", text) if len(piece.strip()) >= 12]


@functools.cache
def english_sentences() -> frozenset[str]:
    """Every fixed piece of an English mail sentence that the other languages do not say the same way."""
    en, others = mail_words("en"), [mail_words(language) for language in LANGUAGES if language != "en"]
    texts = [*en.phrases.values(), *en.help_head.split("\n"), *en.help_tail.split("\n")]
    said_elsewhere = "\n".join(text for words in others
                               for text in [*words.phrases.values(), words.help_head, words.help_tail])
    english = {piece for text in texts for line in text.split("\n") for piece in _fragments(line)
               if piece not in said_elsewhere}
    return frozenset(english | refusal_sentences())


@functools.cache
def refusal_sentences() -> frozenset[str]:
    """The fixed pieces of the play layer's English refusals (the words outside their template tags)."""
    folder = Path(spbc.play.__file__).parent / "templates"
    def pieces(language: str) -> set[str]:
        text = (folder / f"refusals.{language}.j2").read_text(encoding="utf-8")
        plain = re.sub(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", "\n", text, flags=re.S)
        return {piece.strip() for piece in plain.split("\n") if len(piece.strip()) >= 12}
    elsewhere = pieces("de") | pieces("zh")
    return frozenset(piece for piece in pieces("en") if piece not in elsewhere)


def check_said_in(sent: Received, language: str, english_names: set[str]) -> None:
    """A mail in a language other than English holds no English sentence of the server, no English name
    of a phase or a deck, and no field left unfilled."""
    text = sent.subject + "\n" + sent.body
    for piece in english_sentences():
        assert piece not in text, (language, piece, sent.subject, text)
    for name in english_names:
        assert name not in text, (language, name, sent.subject)
    assert not re.search(r"[{}]|\bNone\b|Undefined", text), (language, text)


def test_every_sentence_has_the_same_fields_in_every_language():
    en = mail_words("en")
    fields = re.compile(r"\{([a-z_]*)\}")
    for language in LANGUAGES:
        words = mail_words(language)
        assert set(words.phrases) == set(en.phrases), language
        assert set(words.nouns) >= set(en.nouns), language
        for key, text in en.phrases.items():
            assert sorted(fields.findall(words.phrases[key])) == sorted(fields.findall(text)), (language, key)
        assert fields.findall(words.help_tail) == ["keep"] and not fields.findall(words.help_head)


def test_a_language_the_server_does_not_write_is_refused():
    with pytest.raises(ValueError):
        mail_words("fr")
    with pytest.raises(jinja2.TemplateNotFound):
        render.environment().get_template("pbem/mail.fr.j2")


def test_counts_are_said_the_languages_way():
    assert [mail_words(lang).count(n, "point") for lang in LANGUAGES for n in (1, 2)] == [
        "1 point", "2 points", "1 Punkt", "2 Punkte", "1分", "2分"]


class Players:
    """A game of Anna (German), Boris (Chinese), Clara (English) and a computer, every mail kept."""

    def __init__(self, folder, rules: str = "base") -> None:
        self.now = [1_000_000.0]
        self.folder = folder
        self.server = make_server(folder, clock=lambda: self.now[0])
        seats = [SeatSpec(name, address, lang=lang) for address, (name, lang) in PEOPLE.items()]
        self.server.new_game(NewGame([*seats, SeatSpec("ai:random")], rules=rules, seed=4242, game_id="g",
                                     deadline=10, remind=2, policy="pass", hints=True))
        self.secrets = {address: secret_of_any(outbox(folder), address) for address in PEOPLE}
        self.rng = random.Random(7)

    def send(self, address: str, *lines: str) -> None:
        self.server.receive(mail(address, ["game g", f"secret {self.secrets[address]}", *lines]))

    def move(self) -> bool:
        """The person on turn plays one of their legal moves; False once the game is over."""
        sitting = self.server.sitting("g")
        if sitting.game.is_over:
            return False
        seat = sitting.table.on_turn
        assert seat is not None
        address = sitting.seats[seat].address
        assert address is not None
        self.send(address, f"move {sitting.moves + 1}", self.rng.choice(sitting.legal(seat))[0])
        return True


def secret_of_any(mails: list[Received], address: str) -> str:
    """A welcome's secret in any of the three languages."""
    for sent in mails:
        found = re.search(r"^(Your secret: |Dein Geheimnis: |你的密語：)(\S+)$", sent.body, re.M)
        if sent.recipient == address and found:
            return found.group(2)
    return secret_of(mails, address)


def english_names(players: Players) -> set[str]:
    """The English names of the rules' phases and decks that their German and Chinese names differ from."""
    model = players.server.sitting("g").game.ruleset.model
    names = {thing.name for thing in [*model.phases, *model.decks]}
    for language in ("de", "zh"):
        local = model.in_language(language)
        names -= {thing.name for thing in [*local.phases, *local.decks]}
    return names


@pytest.fixture
def played(tmp_path):
    """Every kind of mail, to each of the three people, through a whole game."""
    players = Players(tmp_path)
    server = players.server
    players.send("anna@a.test", "help", "status", "moves", "say Hallo zusammen", "mail move")
    players.send("boris@b.test", "help", "say 你好", "order pass phase", "order none", "orders")
    players.send("boris@b.test", "move 1", "buy zzz")  # a move refused: by the rules, or not their turn
    players.send("anna@a.test", "move 1", "buy zzz")
    sitting = server.sitting("g")
    on_turn = sitting.seats[sitting.table.on_turn].address
    players.send(on_turn, f"move {sitting.moves + 1}", "buy zzz")  # a move refused by the rules
    players.send(on_turn, "move 99", "pass")  # a stale move number
    for address in ("anna@a.test", "boris@b.test"):  # a refusal: a wrong secret
        server.receive(mail(address, ["game g", "secret wrong-secret", "status"]))
    players.now[0] += 8.5 * 3600
    server.tick()  # the reminder
    players.now[0] += 2 * 3600
    server.tick()  # the late notice; the policy passes
    server.admin("g", ["pause"])
    players.send("anna@a.test", "status")  # the game is paused
    server.admin("g", ["resume"])
    for _ in range(3000):
        if not players.move():
            break
    server.admin("g", ["address", "Anna", "anna2@a.test"])  # the seat change, after the game
    yield players, outbox(tmp_path)
    server.close()


def test_every_kind_of_mail_is_in_the_readers_language(played):
    players, mails = played
    english = english_names(players)
    by_kind: dict[str, set[str]] = {language: set() for language in LANGUAGES}
    for sent in mails:
        name, language = PEOPLE.get(sent.recipient, ("", "en"))
        if sent.recipient == "anna2@a.test":
            continue
        if language != "en":
            check_said_in(sent, language, english)
        by_kind[language].add(kind_of(sent.subject, sent.body))
    kinds = {"welcome", "turn", "refusal", "help", "game over", "seat change", "say", "notice", "move refused"}
    assert by_kind["de"] >= kinds, by_kind["de"]
    assert by_kind["zh"] >= kinds, by_kind["zh"]


def kind_of(subject: str, body: str) -> str:
    """Which kind of mail a subject and body are, in any of the three languages."""
    checks = [("welcome", r"\] (welcome|Willkommen|歡迎)"), ("refusal", r"\] (not used|nicht verwendet|未採用)"),
              ("game over", r"\] (game over|Spiel zu Ende|遊戲結束)"),
              ("seat change", r"(seat changed|Platz von .* wurde geändert|的座位已變更|your seat has|dein Platz hat|你的座位有了)"),
              ("say", r"\] \S+ (says|sagt)$|\] \S+說$"), ("notice", r"(reminder|Erinnerung|提醒|is late|zu spät|逾時)")]
    for kind, pattern in checks:
        if re.search(pattern, subject):
            return kind
    if re.search(r"^! (line|Zeile|第)\s?\d", body, re.M) and re.search(r"'(buy zzz|pass)'|buy zzz", body):
        return "move refused"
    if re.search(r"^  (help  |help {5,})", body, re.M):
        return "help"
    return "turn"


def test_a_player_of_a_store_of_version_3_writes_lang_de_and_gets_german_mails(tmp_path):
    """A store made before seats had a language opens with every seat in English; 'lang de' in a mail
    changes the seat's language from that very answer on, and keeps it; 'lang fr' is refused in the
    seat's own language and changes nothing."""
    shutil.copy(CURRENT, tmp_path / "pbem.sqlite")
    server = make_server(tmp_path, clock=lambda: 1_800_010_000.0)
    try:
        assert [seat.lang for seat in server.store.seats("cur1")] == ["en", "en", "en"]
        secret = CURRENT_SECRETS["boris@b.test"]
        server.receive(mail("boris@b.test", ["game cur1", f"secret {secret}", "lang fr"]))
        refused = outbox(tmp_path)[-1]
        assert "! line 3 'lang fr': lang en, lang de or lang zh: the language of your mails" in refused.body
        server.receive(mail("boris@b.test", ["game cur1", f"secret {secret}", "lang de", "move 12", "pass"]))
        assert [seat.lang for seat in server.store.seats("cur1")] == ["en", "de", "en"]
        sent = outbox(tmp_path)
        answer = next(m for m in reversed(sent) if m.recipient == "boris@b.test")
        assert answer.body.startswith("ok Zeile 3: ab jetzt sind deine Mails auf Deutsch\nok Zeile 5: pass\n")
        assert answer.subject == "[spb cur1] move 15: du bist am Zug" and "Seit deiner letzten Mail:" in answer.body
        assert "  12. Boris: pass\n" in answer.body and "Du bist am Zug. Deine Züge:" in answer.body
        check_said_in(answer, "de", set())
        server.receive(mail("boris@b.test", ["game cur1", f"secret {secret}", "lang en", "status"]))
        assert outbox(tmp_path)[-1].body.startswith("ok line 3: from now on your mails are in English\n")
    finally:
        server.close()


@pytest.mark.parametrize("language", ["de", "zh"])
def test_a_mechanics_refusal_by_mail_is_said_in_the_readers_language(tmp_path, language):
    """A move a mechanic refuses (using an Observatory one does not own) is answered with the refusal
    said from its fields in the reader's language, not its English."""
    server = make_server(tmp_path)
    server.new_game(NewGame([SeatSpec("Anna", "anna@a.test", lang=language), SeatSpec("ai:random")], seed=5,
                            game_id="g"))
    secret = secret_of_any(outbox(tmp_path), "anna@a.test")
    sitting = server.sitting("g")
    if sitting.table.on_turn != 0:
        pytest.skip("the computer is on turn")  # seed 5: Anna begins
    with pytest.raises(MoveError) as refused:
        parse_move("observe worker", sitting.game)
    server.receive(mail("anna@a.test", ["game g", f"secret {secret}", f"move {sitting.moves + 1}", "observe worker"]))
    answer = outbox(tmp_path)[-1]
    said = refused.value.say(sitting.game, language)
    assert said != str(refused.value) and said in answer.body and str(refused.value) not in answer.body
    check_said_in(answer, language, set())


def test_a_game_that_cannot_be_loaded_is_told_in_the_readers_language(tmp_path):
    """The administrator's notice that a game cannot be loaded, and the refusal of its player's mail, are
    German for a German administrator and player (the reason stored in English said in German)."""
    server = make_server(tmp_path)
    server.new_game(NewGame([SeatSpec("Anna", "anna@a.test", lang="de"), SeatSpec("ai:random")], seed=5,
                            game_id="g"))
    secret = secret_of_any(outbox(tmp_path), "anna@a.test")
    break_game(server, "g", "digest changed")
    server.close()
    server = make_server(tmp_path)  # a new process: the game is loaded from the store
    seen = len(outbox(tmp_path))
    server.receive(mail("anna@a.test", ["game g", f"secret {secret}", "status"]))
    told = outbox(tmp_path, seen)
    assert sorted(m.subject for m in told) == ["[spb g] das Spiel kann nicht geladen werden",
                                                "[spb g] nicht verwendet"]
    assert all("seine Regeln haben sich seit Spielbeginn geändert" in m.body for m in told)
    for sent in told:
        check_said_in(sent, "de", set())
    server.close()


@pytest.mark.parametrize("language, paused, no_seat", [
    ("de", "ok Zeile 3: das Spiel ist angehalten", "es gibt keinen Platz '9'"),
    ("zh", "ok 第3行：遊戲已暫停", "沒有座位'9'"),
])
def test_an_administrators_answers_by_mail_are_said_in_their_language(tmp_path, language, paused, no_seat):
    """Issue 21 (every mail line in en, de and zh): what the administration commands answer by mail, and
    why one is refused, is said in the administrator's language; the operator's command stays English."""
    server = make_server(tmp_path)
    server.new_game(NewGame([SeatSpec("Anna", "anna@a.test", lang=language), SeatSpec("ai:random")], seed=5,
                            game_id="g", admin="anna@a.test"))
    admin = re.search(r"(?:secret|Verwaltungsgeheimnis|管理密語)[:：] ?(\S+)",
                      "\n".join(m.body for m in outbox(tmp_path) if "admin" in m.subject or "管理" in m.body
                                or "verwaltest" in m.body)).group(1)
    seen = len(outbox(tmp_path))
    server.receive(mail("anna@a.test", ["game g", f"secret {admin}", "admin pause"]))
    answers = [m for m in outbox(tmp_path, seen) if paused in m.body]
    assert len(answers) == 1, [m.body for m in outbox(tmp_path, seen)]
    check_said_in(answers[0], language, set())
    seen = len(outbox(tmp_path))
    server.receive(mail("anna@a.test", ["game g", f"secret {admin}", "admin status"]))
    status = [m for m in outbox(tmp_path, seen) if "g: " + mail_words(language)("status_paused") in m.body
              or "g：" + mail_words(language)("status_paused") in m.body]
    assert len(status) == 1, [m.body for m in outbox(tmp_path, seen)]
    check_said_in(status[0], language, set())
    assert server.admin("g", ["resume"]) == "the game is active"
    with pytest.raises(Exception, match="there is no seat '9'"):
        server.admin("g", ["address", "9", "x@y.test"])
    with pytest.raises(Exception, match=no_seat):
        find_seat(server.sitting("g"), "9", mail_words(language))
    server.close()
