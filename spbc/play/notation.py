"""Move notation: a move as the short text a player types and a game record stores.

>>> format_move(Move(MoveKind.BUY, card="market", row="lower"), rules)
'buy lower Market'
>>> parse_move("b low mark", game)            # short forms, prefixes, any case
Move(kind=<MoveKind.BUY: 'buy'>, card='market', row='lower', ...)

``format_move`` writes the canonical form, which needs only the ruleset and always
reads back as the same move: ``parse_move(format_move(m, rules), game) == m`` for
every legal move ``m`` of ``game``. ``parse_move`` reads the text in the context of
the game (which cards lie where, what the player owns), so a player may leave out
whatever the situation makes plain: the row when only one row holds the card, the
displaced card when only one fits, the card when deciding on a drawn card.

Card names are matched without regard to case, apostrophes, periods, hyphens or
umlauts, by English name, German name, alias or any unique prefix of those. The
verbs of ability moves (``observe worker``, ``pub 3``) come from the rules.

A text that fails raises one of three errors, each naming the text and the
situation (player, round, phase): MalformedMoveError (it does not read as a move),
AmbiguousMoveError (several moves fit; ``candidates`` lists them in notation) and
IllegalMoveError (one move fits and the rules forbid it now; the reason says why).
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Any

from spbc.play.explain import refusal_of
from spbc.engine.lower import displace_targets
from spbc.play import hooks
from spbc.play.moves import (
    AmbiguousMoveError,
    IllegalMoveError,
    MalformedMoveError,
    Move,
    MoveKind,
)
from spbc.play.refusal import Refusal
from spbc.play.words import find_cards, normalize, vocabulary_of
from spbc.play.game import Game, Ruleset


# The words of moves that every ruleset has, with their short forms.
VERBS: dict[str, MoveKind] = {
    "buy": MoveKind.BUY, "b": MoveKind.BUY,
    "take": MoveKind.TAKE, "t": MoveKind.TAKE,
    "play": MoveKind.PLAY, "pl": MoveKind.PLAY,
    "discard": MoveKind.DISCARD, "d": MoveKind.DISCARD,
    "pass": MoveKind.PASS, "-": MoveKind.PASS,
}
# The rows a card is bought or taken from; "up" and "low" are their short forms.
ROW_WORDS = {"upper": "upper", "up": "upper", "lower": "lower", "low": "lower", "drawn": "drawn"}
OVER = "over"
#: The public places a mechanic's moves take a card from, as its parse_move names them, by the key
#: the refusals of every language say them with (spbc.play.templates).
_PLACES = {"the discard pile": "discard", "your hand": "hand", "your play area": "area"}


# --- formatting ---------------------------------------------------------------------------


def format_move(move: Move, ruleset: Ruleset) -> str:
    """The canonical notation of a move: the form records store.

    Moves from a row always name it (``buy upper Market``), a trading card names the
    card it displaces (``buy upper Wharf over Ship Builder``), a decision on a drawn
    card names no row (``buy Wharf over Czar and Carpenter``), abilities use their
    verb from the rules (``observe worker``, ``pub 3``).

    >>> format_move(Move(MoveKind.USE, card="observatory", deck="trading"), rules)
    'observe trading'
    """
    words = vocabulary_of(ruleset)
    kind = move.kind
    if kind is MoveKind.PASS:
        return "pass"
    if kind in hooks.verb_kinds(ruleset.model):
        found = hooks.ability(ruleset.model, move.card or "", kind)
        assert found is not None, f"{move.card} has no ability with {kind.value} moves"
        return found[1].format_move_named(move, words.verb_of[move.card or ""], words.names)
    parts = [kind.value]
    if kind in (MoveKind.BUY, MoveKind.TAKE) and move.row in ("upper", "lower"):
        parts.append(move.row)
    parts.append(words.names[move.card or ""])
    if move.target is not None:
        parts += [OVER, words.names[move.target]]
    return " ".join(parts)


# --- parsing ------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Wanted:
    """What the text asked for; None where it left something for the situation to decide."""

    kind: MoveKind
    card: str | None = None
    row: str | None = None
    target: str | None = None
    deck: str | None = None
    amount: int | None = None

    def fits(self, move: Move) -> bool:
        return all(
            want is None or want == have
            for want, have in ((self.kind, move.kind), (self.card, move.card), (self.row, move.row),
                               (self.target, move.target), (self.deck, move.deck),
                               (self.amount, move.amount))
        )


class _Reader:
    """Reads one text against one game state; each method raises the fitting MoveError."""

    def __init__(self, text: str, game: Game, reader: int | None) -> None:
        self.text = text
        self.game = game
        self.reader = reader  # who reads the errors: the seat on turn, or None for a spectator
        self.ruleset = game.ruleset
        self.words = vocabulary_of(game.ruleset)
        self.legal = game.legal_moves()
        # the words as typed (for messages) and as compared
        typed = [word for word in re.sub(r"[-_,;:/]+", " ", text).split() if normalize(word)]
        self.typed = dict(zip((normalize(word) for word in typed), typed))
        self.tokens = [normalize(word) for word in typed]

    def shown(self, phrase: str) -> str:
        """A normalized phrase in the words the player typed, for messages (shortened when very long)."""
        shown = " ".join(self.typed.get(word, word) for word in phrase.split())
        return shown if len(shown) <= 40 else shown[:28] + "..." + shown[-8:]

    def malformed(self, message: Refusal) -> MalformedMoveError:
        """The error of a text that does not read as a move, for the reason ``message`` gives."""
        return MalformedMoveError.refused(message, self.game, self.text)

    def ambiguous(self, reason: Refusal, moves: list[str]) -> AmbiguousMoveError:
        refusal = Refusal.of("ambiguous", reason=reason, moves=moves)
        return AmbiguousMoveError.refused(refusal, self.game, self.text, candidates=moves)

    def refused(self, refusal: Refusal) -> IllegalMoveError:
        return IllegalMoveError.refused(refusal, self.game, self.text)

    def illegal(self, move: Move) -> IllegalMoveError:
        return self.refused(refusal_of(self.game, move, reader=self.reader))

    # --- the parts of a move

    def read(self) -> Move:
        if self.text.strip() == "-":
            return self.settle(_Wanted(MoveKind.PASS))
        tokens = self.tokens
        if not tokens:
            raise self.malformed(Refusal.of("empty", verbs=self.known_verbs()))
        verb, rest = tokens[0], tokens[1:]
        verb = self.full_verb(verb, tokens)
        if verb in VERBS:
            return self.read_builtin(VERBS[verb], verb, rest)
        return self.read_ability(verb, rest)

    def known_verbs(self) -> list[str]:
        return ["buy", "take", "play", "pass", "discard", *self.words.abilities]

    def full_verb(self, verb: str, tokens: list[str]) -> str:
        """A verb, a short form or a unique prefix of a verb; MalformedMoveError for anything else."""
        if verb in VERBS or verb in self.words.abilities:
            return verb
        known = self.known_verbs()
        starting = [word for word in known if word.startswith(verb)]
        if len(starting) == 1:
            return starting[0]
        if starting:
            raise self.malformed(Refusal.of("verb_prefix", typed=self.shown(verb), verbs=starting))
        raise self.malformed(self.unknown_verb(verb, tokens))

    def unknown_verb(self, verb: str, tokens: list[str]) -> Refusal:
        cards = find_cards(" ".join(tokens), self.words)
        if len(cards) == 1:
            return Refusal.of("verb_for_card", card=cards[0], verbs=self.known_verbs())
        close = difflib.get_close_matches(verb, self.known_verbs(), n=1)
        if close:
            return Refusal.of("verb_close", typed=self.shown(verb), verb=close[0])
        return Refusal.of("verb_unknown", typed=self.shown(verb), verbs=self.known_verbs())

    def read_ability(self, verb: str, rest: list[str]) -> Move:
        """The words after an ability's verb, read by the mechanic of the ability (hooks.Reader)."""
        card_id, effect = self.words.abilities[verb]
        present = hooks.presenter(effect.kind)
        assert present is not None
        return present.parse_move(self, card_id, effect, verb, rest)

    def settle_move(self, kind: MoveKind, **fields: Any) -> Move:
        """The one legal move of that kind with those fields (see settle)."""
        return self.settle(_Wanted(kind, **fields))

    def card(self, phrase: str, card_id: str, where: str) -> str:
        """The card a use of card_id's ability takes, as a phrase names it; narrowed, when it fits several, to
        those the legal uses take (from a public place: ``where``, the discard pile). Raises the fitting MoveError."""
        pool = [m.target for m in self.legal if m.kind is MoveKind.USE and m.card == card_id and m.target]
        found = find_cards(phrase, self.words)
        if len(found) == 1:
            return found[0]
        if not found:
            return self.pick_card(phrase, MoveKind.USE, None, None, pool=pool)  # raises: unknown card
        near = [c for c in found if c in pool]
        if len(near) == 1:
            return near[0]
        if not near:
            raise self.refused(Refusal.of("none_in_place", typed=self.shown(phrase), cards=found,
                                          place=_PLACES.get(where, where)))
        names = [self.words.names[c] for c in near]
        raise self.ambiguous(Refusal.of("name_in_full", typed=self.shown(phrase), cards=near),
                             [f"{self.shown(phrase)} ... {name}" for name in names])

    def deck(self, phrase: str, verb: str, expected: tuple[str, ...]) -> str:
        """A deck by id or name in any language, or a beginning of one: of an id or English name
        first, then of a name in another language (so ``a`` stays the aristocrats)."""
        decks = {**self.words.other_decks, **self.words.decks}
        if phrase in decks:
            return decks[phrase]
        found: list[str] = []
        for table in (self.words.decks, self.words.other_decks):
            found = sorted({deck for form, deck in table.items() if form.startswith(phrase)},
                           key=self.words.deck_ids.index)
            if found:
                break
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            raise self.ambiguous(Refusal.of("several_decks", typed=self.shown(phrase)),
                                 [f"{verb} {deck}" for deck in found])
        close = difflib.get_close_matches(phrase, list(decks), n=1)
        raise self.malformed(Refusal.of("unknown_deck", typed=self.shown(phrase),
                                        close=decks[close[0]] if close else None, decks=expected))

    def read_builtin(self, kind: MoveKind, verb: str, rest: list[str]) -> Move:
        if kind is MoveKind.PASS:
            if rest:
                raise self.malformed(Refusal.of("nothing_after", verb=verb))
            return self.settle(_Wanted(MoveKind.PASS))
        name = kind.value
        row = None
        if rest and rest[0] in ROW_WORDS and not self.is_exact_card(rest):
            if kind not in (MoveKind.BUY, MoveKind.TAKE):
                raise self.malformed(Refusal.of("no_row", verb=name, row=rest[0]))
            row = ROW_WORDS[rest[0]]
            rest = rest[1:]
        card_words, target_words = self.split_over(rest)
        if target_words is not None and not target_words:
            raise self.malformed(Refusal.of("displaced_expected"))
        if target_words is not None and kind not in (MoveKind.BUY, MoveKind.PLAY):
            raise self.malformed(Refusal.of("displaces_nothing", verb=name))
        drawn = self.game.drawn_card() if self.game.stage == "drawn" else None
        if not card_words:
            if kind is MoveKind.DISCARD and drawn is None:
                raise self.illegal(Move(kind, row="drawn"))
            if drawn is None or kind is MoveKind.PLAY:
                raise self.malformed(Refusal.of("card_expected", verb=verb))
            card = drawn
        else:
            card = self.pick_card(" ".join(card_words), kind, row, drawn)
        target = None
        if target_words:
            owned = list(self.game.play_area(self.game.current_player))
            target = self.pick_card(" ".join(target_words), kind, None, None, pool=owned, card=card)
        if kind is MoveKind.DISCARD:
            row = "drawn"
        return self.settle(_Wanted(kind, card=card, row=row, target=target))

    def is_exact_card(self, words: list[str]) -> bool:
        phrase = " ".join(words)
        return phrase in self.words.primary or phrase in self.words.secondary

    def split_over(self, words: list[str]) -> tuple[list[str], list[str] | None]:
        """The card's words and the displaced card's words (None without 'over')."""
        spots = [i for i, word in enumerate(words) if word == OVER]
        if not spots or self.is_exact_card(words):
            return words, None
        for spot in spots:
            if find_cards(" ".join(words[:spot]), self.words):
                return words[:spot], words[spot + 1:]
        return words[:spots[0]], words[spots[0] + 1:]

    def pool(self, kind: MoveKind, row: str | None, drawn: str | None) -> list[str]:
        """The cards the move could be about here: on the board, in the hand, or drawn."""
        if drawn is not None:
            return [drawn]
        if kind is MoveKind.PLAY:
            return self.game.hand(self.game.current_player)
        rows = [row] if row in ("upper", "lower") else ["upper", "lower"]
        return [card for name in rows for card in self.game.row(name)]

    def pick_card(self, phrase: str, kind: MoveKind, row: str | None, drawn: str | None,
                  pool: list[str] | None = None, card: str | None = None) -> str:
        """One card for a phrase; several matches are narrowed to those at hand (``pool``)."""
        found = find_cards(phrase, self.words) if phrase else []
        if len(found) == 1:
            return found[0]
        if not found:
            forms = list(self.words.primary) + list(self.words.secondary)
            close = difflib.get_close_matches(phrase, forms, n=1, cutoff=0.7)
            first = None
            if close:
                ids = (self.words.primary | self.words.secondary)[close[0]]
                first = next(card for card in self.words.names if card in ids)
            raise self.malformed(Refusal.of("unknown_card", typed=self.shown(phrase), close=first))
        at_hand = pool if pool is not None else self.pool(kind, row, drawn)
        near = [c for c in found if c in at_hand]
        if len(near) == 1:
            return near[0]
        # which of them are in the hand and which the player can pay tell a spectator the
        # secrets: they are shown every card the words fit, in the plain form
        secret = self.reader != self.game.current_player
        if not near and not secret:
            raise self.none_at_hand(phrase, found, kind, card, drawn)
        choices = found if secret else near or found
        moves = []
        for choice in choices:
            wanted = (_Wanted(kind, card=card, row=row, target=choice) if card
                      else _Wanted(kind, card=choice, row=row))
            fitting = [] if secret else [format_move(m, self.ruleset) for m in self.legal if wanted.fits(m)]
            moves += fitting or [f"{kind.value} {self.words.names[choice]}"]
        key = "name_displaced_in_full" if card else "name_in_full"
        raise self.ambiguous(Refusal.of(key, typed=self.shown(phrase), cards=choices), moves)

    def none_at_hand(self, phrase: str, found: list[str], kind: MoveKind, card: str | None,
                     drawn: str | None) -> IllegalMoveError:
        """The words fit several cards and none of them is where the move would take it from."""
        where = ("drawn" if drawn is not None else "displace" if card
                 else "hand" if kind is MoveKind.PLAY else "board")
        return self.refused(Refusal.of("none_at_hand", typed=self.shown(phrase), cards=found, where=where))

    # --- from what was asked to one legal move

    def settle(self, wanted: _Wanted) -> Move:
        fitting = [move for move in self.legal if wanted.fits(move)]
        if len(fitting) == 1:
            return fitting[0]
        if fitting:
            raise self.ambiguous(self.why_several(wanted, fitting),
                                 [format_move(m, self.ruleset) for m in fitting])
        raise self.illegal(self.guess(wanted))

    def why_several(self, wanted: _Wanted, fitting: list[Move]) -> Refusal:
        card = wanted.card or ""
        rows = {m.row for m in fitting}
        targets = [m.target for m in fitting if m.target is not None]
        if len(rows) > 1:
            return Refusal.of("both_rows", card=card)
        if len(set(targets)) > 1:
            return Refusal.of("could_displace", card=card, targets=list(dict.fromkeys(targets)))
        return Refusal.of("any_of")

    def guess(self, wanted: _Wanted) -> Move:
        """The move the player most likely meant, for explaining why it is not allowed."""
        kind, card, row, target = wanted.kind, wanted.card, wanted.row, wanted.target
        if kind in (MoveKind.BUY, MoveKind.TAKE) and row is None:
            if self.game.stage == "drawn" and card == self.game.drawn_card():
                row = "drawn"
            elif card in self.game.row("lower"):
                row = "lower"  # the cheaper row, if the card lies in both
            else:
                row = "upper"
        if kind in (MoveKind.BUY, MoveKind.PLAY) and card is not None and target is None:
            target = self.likely_target(Move(kind, card=card, row=row))
        return Move(kind, card=card, row=row, target=target, deck=wanted.deck, amount=wanted.amount)

    def likely_target(self, move: Move) -> str | None:
        """The cheapest card the player owns that a trading card could displace, if any."""
        model = self.ruleset.model
        card = model.card(move.card or "")
        area = self.game.play_area(self.game.current_player)
        owned = [model.cards[i].id for i in displace_targets(model, card) if area.get(model.cards[i].id)]
        if len(owned) <= 1:
            return owned[0] if owned else None
        return min(owned, key=lambda t: self.game.cost(Move(move.kind, move.card, move.row, t)) or 0)


def parse_move(text: str, game: Game, *, spectator: bool = False) -> Move:
    """The move a text means in the game's current state; always one of ``game.legal_moves()``.

    Raises MalformedMoveError when the text does not read as a move, AmbiguousMoveError
    (with ``candidates`` in notation) when several legal moves fit it, and
    IllegalMoveError when the one move it names is not allowed now (with the reason).
    The errors are for the player on turn, who typed the text; with ``spectator`` they
    are for anyone else (the replay of a record) and tell none of that player's
    secrets: not their rubles, not what their hand holds (see :mod:`spbc.play.explain`).

    >>> parse_move("buy obs", game)
    Move(kind=<MoveKind.BUY: 'buy'>, card='observatory', row='upper', ...)
    """
    return _Reader(text, game, None if spectator else game.current_player).read()
