"""The consistency pass of the checker (SPB4xx and SPB214): declarations checked against each other.

Runs after every name is resolved. A check that needs a value already reported as
wrong stays silent (see :meth:`spbc.lang.decls.Decl.valid`), so a misspelt deck does not
also give "card has no colour" or "deck has no cards".
"""

from __future__ import annotations

from typing import Any

from spbc.lang import syntax
from spbc.lang.decls import Decl, Declarations
from spbc.source.diagnostics import Note
from spbc.lang.model import EFFECT_KINDS, Effect
from spbc.source.span import Span
from spbc.lang.schema import LOCALIZED, TRANSLATED
from spbc.source.language import BASE_LANGUAGE, LANGUAGES, language_name, localized_key
from spbc.contract.abi import MAX_CARDS, MAX_COPIES_IN_ALL, MAX_DECKS, MAX_SPECIALS  # the engine's limits



def card_colour(checker: Declarations, card: Decl) -> str | None:
    """The colour of a card: its deck's colour, else the one it names; None when unknown."""
    if not card.valid("deck", "colour") or card.get("deck") is None:
        return None
    deck = checker.decls["deck"][card.get("deck")]
    if not deck.valid("colour"):
        return None
    colour = deck.get("colour") or card.get("colour")
    return str(colour) if colour is not None else None


def _value_node(decl: Decl, key: str) -> syntax.Value | None:
    """The written value of a setting (the first, if it was set twice)."""
    for setting in decl.block.settings:
        if setting.key.value == key:
            return setting.value
    return None


def _check_card_colour(checker: Declarations, card: Decl) -> None:
    if not card.valid("deck", "colour", "displaces") or card.get("deck") is None:
        return
    deck = checker.decls["deck"][card.get("deck")]
    if not deck.valid("colour"):
        return
    deck_colour, own = deck.get("colour"), card.get("colour")
    if deck_colour is not None and own is not None and own != deck_colour:
        checker.report(
            "SPB400", f"card '{card.id}' names colour {own}, but its deck '{deck.id}' is {deck_colour}",
            card.spans["colour"], notes=(Note("the deck's colour is set here", deck.spans["colour"]),),
        )
        return
    if deck_colour is None and own is None:
        checker.report("SPB401", f"card '{card.id}' must name its colour: its deck '{deck.id}' has none",
                       card.block.anchor, hint="add: colour = <a colour name>")
        return
    colour = deck_colour or own
    displaces = card.get("displaces")
    if displaces is not None and displaces != colour:
        checker.report(
            "SPB402", f"card '{card.id}' is {colour} but displaces {displaces}; "
            "a trading card displaces a card of its own colour", card.spans["displaces"],
            hint=f"write displaces = {colour}",
        )
    elif deck_colour is None and displaces is None and not (card.valid("special") and card.get("special")):
        checker.report(
            "SPB403", f"card '{card.id}' of the colourless deck '{deck.id}' must say what it displaces",
            card.block.anchor, hint=f"add: displaces = {colour}",
        )


def _check_cards(checker: Declarations) -> None:
    for card in checker.decls["card"].values():
        _check_card_colour(checker, card)
        if "displaces" in card.values and "displace_value" in card.values:
            checker.report(
                "SPB404", f"trading card '{card.id}' cannot have a displace_value: "
                "trading cards are never displaced", card.spans["displace_value"],
            )


def _cards_by_deck(checker: Declarations) -> dict[str, int] | None:
    """Copies per deck id; None when some card's deck or copies is unknown."""
    counts = {deck: 0 for deck in checker.decls["deck"]}
    for card in checker.decls["card"].values():
        if card.get("deck") is None or not card.valid("deck", "copies") or card.get("copies") is None:
            return None
        counts[card.get("deck")] += card.get("copies")
    return counts


def _check_decks(checker: Declarations) -> None:
    counts = _cards_by_deck(checker)
    if counts is None:
        return
    for deck in checker.decls["deck"].values():
        if counts[deck.id] == 0:
            checker.report("SPB405", f"deck '{deck.id}' has no cards", deck.block.anchor,
                           hint=f"give a card: deck = {deck.id}")


def _check_phases(checker: Declarations) -> None:
    scored: dict[str, Decl] = {}
    for phase in checker.decls["phase"].values():
        colour = phase.get("scores")
        if colour is None or not phase.valid("scores"):
            continue
        if colour in scored:
            first = scored[colour]
            checker.report(
                "SPB406", f"colour '{colour}' is scored by two phases, '{first.id}' and '{phase.id}'",
                phase.spans["scores"], notes=(Note("first scored here", first.spans["scores"]),),
            )
        else:
            scored[colour] = phase


def _check_board_sizes(checker: Declarations) -> None:
    game = checker.single.get("game")
    keys = ("players", "board_size", "board_size_by_players")
    if game is None or not game.valid(*keys) or any(game.get(key) is None for key in keys[:2]):
        return
    (low, high), sizes, most = game.get("players"), game.get("board_size_by_players"), game.get("board_size")
    shifts = game.get("marker_shift_by_players")
    if shifts is not None and game.valid("marker_shift_by_players") and len(shifts) != high - low + 1:
        checker.report("SPB412", f"marker_shift_by_players gives {len(shifts)} numbers, but players = {low}..{high} "
                       f"needs {high - low + 1}, one for each player count from {low} to {high}",
                       game.spans["marker_shift_by_players"])
    if sizes is None:
        return
    at = game.spans["board_size_by_players"]
    if len(sizes) != high - low + 1:
        checker.report("SPB412", f"board_size_by_players gives {len(sizes)} sizes, but players = {low}..{high} "
                       f"needs {high - low + 1}, one for each player count from {low} to {high}", at)
    elif max(sizes) > most:
        checker.report("SPB412", f"board_size_by_players holds {max(sizes)}, more than board_size ({most}), "
                       "the most cards the board holds", at,
                       notes=(Note("board_size is set here", game.spans["board_size"]),))


def _check_opening(checker: Declarations) -> None:
    game = checker.single.get("game")
    keys = ("players", "opening_per_player", "board_size", "opening_deck")
    if game is None or not game.valid(*keys) or any(game.get(key) is None for key in keys):
        return
    per, players = game.get("opening_per_player"), game.get("players")[1]
    needed = per * players
    at = game.spans["opening_per_player"]
    if needed > game.get("board_size"):
        checker.report(
            "SPB408", f"the opening display of {per} cards per player needs {needed} places "
            f"for {players} players, but board_size is {game.get('board_size')}", at,
            notes=(Note("board_size is set here", game.spans["board_size"]),),
        )
    counts = _cards_by_deck(checker)
    deck = game.get("opening_deck")
    if counts is not None and needed > counts[deck] > 0:  # an empty deck is reported as such
        checker.report(
            "SPB407", f"the opening display needs {needed} cards ({per} per player for {players} "
            f"players), but deck '{deck}' holds only {counts[deck]}", at,
        )


def _check_card_names(checker: Declarations) -> None:
    used: dict[str, tuple[str, Span]] = {}  # casefolded name -> (card id, where)
    for card in checker.decls["card"].values():
        written: list[syntax.Value] = []
        name = _value_node(card, "name")
        if card.valid("name") and card.get("name") is not None and name is not None:
            written.append(name)
        aliases = _value_node(card, "aliases")
        if card.valid("aliases") and isinstance(aliases, syntax.List):
            written += aliases.items
        for node in written:
            assert isinstance(node, syntax.Str)
            key = node.value.casefold()
            if key in used:
                other, first = used[key]
                whose = "this card already" if other == card.id else f"card '{other}'"
                checker.report("SPB214", f"'{node.value}' is already a name of {whose}", node.span,
                               hint="names and aliases are compared ignoring case",
                               notes=(Note("first used here", first),))
            else:
                used[key] = (card.id, node.span)
    for card in checker.decls["card"].values():  # a card's names in other languages may repeat its own
        for language in LANGUAGES[1:]:
            node_of = _value_node(card, localized_key("name", language))
            if not isinstance(node_of, syntax.Str) or not card.valid(localized_key("name", language)):
                continue
            key = node_of.value.casefold()
            if key in used and used[key][0] != card.id:
                other, first = used[key]
                checker.report("SPB214", f"'{node_of.value}' is already a name of card '{other}'", node_of.span,
                               hint="names in every language and aliases are compared ignoring case",
                               notes=(Note("first used here", first),))
            used.setdefault(key, (card.id, node_of.span))


def _languages(checker: Declarations) -> tuple[str, ...]:
    """The languages the ruleset declares (English alone when it names none); () when already reported."""
    ruleset = checker.single.get("ruleset")
    if ruleset is None or not ruleset.valid("languages"):
        return ()
    languages: tuple[str, ...] = tuple(ruleset.get("languages", (BASE_LANGUAGE,)))
    if BASE_LANGUAGE not in languages:
        checker.report("SPB250", f"'languages' must include {BASE_LANGUAGE}: the plain settings "
                       "(name, title) are English", ruleset.spans["languages"],
                       hint="write: languages = [" + ", ".join((BASE_LANGUAGE, *languages)) + "]")
        return ()
    return languages


def _check_translations(checker: Declarations) -> None:
    """SPB251: every name, title and edition in each declared language; SPB252: ``translated`` names only
    languages the block has names in; SPB253: the card symbols named in each language."""
    languages = _languages(checker)
    decls = [(kind, decl) for kind in LOCALIZED
             for decl in ([checker.single[kind]] if kind in checker.single else checker.decls.get(kind, {}).values())]
    for kind, decl in decls:
        for key in LOCALIZED[kind]:
            if decl.get(key) is None:
                continue  # an optional setting left out (edition), or one already reported
            for language in (lang for lang in languages if lang != BASE_LANGUAGE):
                written = localized_key(key, language)
                if written not in decl.values:
                    checker.report("SPB251", f"{kind} '{decl.id}' has no {language_name(language)} {key}: "
                                   f"the ruleset's languages include {language}", decl.block.anchor,
                                   hint=f'add: {written} = "..." (and {language} to its translated list '
                                        "if it is your own translation), or leave it out of the ruleset's "
                                        "languages (languages = [...] in the ruleset block)")
        if decl.valid(TRANSLATED):
            for language in decl.get(TRANSLATED, ()):
                if not any(localized_key(key, language) in decl.values for key in LOCALIZED[kind]):
                    checker.report("SPB252", f"{kind} '{decl.id}' lists {language} as translated but has no "
                                   f"{language_name(language)} name", decl.spans[TRANSLATED],
                                   hint=f'add: {localized_key(LOCALIZED[kind][0], language)} = "..."')
    game = checker.single.get("game")
    if game is None or not game.valid("symbols"):
        return
    symbols = game.get("symbols", ())
    for language in LANGUAGES[1:]:
        key = f"symbol_names_{language}"
        if not game.valid(key):
            continue
        names = game.get(key)
        if names is None and symbols and language in languages:
            checker.report("SPB253", f"the game block has no {language_name(language)} names of its symbols: "
                           f"the ruleset's languages include {language}", game.block.anchor,
                           hint=f"add: {key} = [...] with one name for each of " + ", ".join(symbols))
        elif names is not None and len(names) != len(symbols):
            checker.report("SPB253", f"'{key}' has {len(names)} names for {len(symbols)} symbols",
                           game.spans[key], hint="one name for each of " + ", ".join(symbols) + ", in that order")


def _check_verbs(checker: Declarations) -> None:
    used: dict[str, tuple[str, Span]] = {}
    for card in checker.decls["card"].values():
        for ability in card.abilities:
            verb: Any = ability.get("verb")
            if verb is None or not ability.valid("verb"):
                continue
            if verb in used:
                other, first = used[verb]
                checker.report("SPB409", f"verb '{verb}' of card '{card.id}' is already used by "
                               f"card '{other}'", ability.spans["verb"],
                               hint="each verb must name one action in the move notation",
                               notes=(Note("first used here", first),))
            else:
                used[verb] = (card.id, ability.spans["verb"])


def _check_cost_example(checker: Declarations) -> None:
    """cost_example names a trading card, a card it may displace, and optionally a card whose
    discount applies to the trading card's colour."""
    ruleset = checker.single.get("ruleset")
    if ruleset is None or not ruleset.valid("cost_example") or ruleset.get("cost_example") is None:
        return
    example, at = ruleset.get("cost_example"), ruleset.spans["cost_example"]
    cards = checker.decls["card"]
    usage = "cost_example = [TRADING CARD, CARD IT DISPLACES, DISCOUNT CARD (optional)]"
    if len(example) not in (2, 3):
        checker.report("SPB410", f"cost_example names {len(example)} cards; it takes 2 or 3", at, hint=usage)
        return
    trading, target = cards[example[0]], cards[example[1]]
    colour, target_colour = card_colour(checker, trading), card_colour(checker, target)
    if trading.get("displaces") is None:
        checker.report("SPB410", f"cost_example: '{trading.id}' is not a trading card", at, hint=usage)
        return
    if target.get("displaces") is not None or target_colour != trading.get("displaces"):
        checker.report("SPB410", f"cost_example: '{trading.id}' cannot displace '{target.id}'", at,
                       hint=f"a trading card displaces a card of its colour ({trading.get('displaces')}) "
                            "that is not a trading card")
        return
    if len(example) == 3:
        # an ability with a value already reported wrong stays silent: it may be the reduction meant
        reductions = [a for a in cards[example[2]].abilities
                      if (effect := _effect_of(a)) is None or (colour is not None and effect.reduction(colour))]
        if not reductions:
            checker.report("SPB410", f"cost_example: '{example[2]}' has no discount on {colour} cards",
                           at, hint=usage)




def _check_engine_limits(checker: Declarations) -> None:
    cards, decks = list(checker.decls["card"].values()), list(checker.decls["deck"].values())
    if len(cards) > MAX_CARDS:
        checker.report("SPB411", f"{len(cards)} cards; the engine holds at most {MAX_CARDS} different cards",
                       cards[MAX_CARDS].block.anchor, hint="give a card more copies instead of a twin")
    if len(decks) > MAX_DECKS:
        checker.report("SPB411", f"{len(decks)} decks; the engine holds at most {MAX_DECKS}",
                       decks[MAX_DECKS].block.anchor)
    specials = [card for card in cards if card.valid("special") and card.get("special", False)]
    if len(specials) > MAX_SPECIALS:
        checker.report("SPB411", f"{len(specials)} special cards; the engine holds at most {MAX_SPECIALS} "
                       "different ones", specials[MAX_SPECIALS].spans["special"],
                       hint="give a special card more copies instead of a twin")
    total = 0
    for card in cards:
        copies = card.get("copies") if card.valid("copies") else None
        if copies is None:
            continue
        total += copies
        if total > MAX_COPIES_IN_ALL:
            checker.report("SPB411", f"with card '{card.id}' the decks hold {total} cards; the engine holds "
                           f"at most {MAX_COPIES_IN_ALL} in all", card.spans["copies"])
            break


def _effect_of(ability: Decl) -> Effect | None:
    """The effect an ability block describes, or None while one of its values is wrong or missing
    (already reported)."""
    cls = EFFECT_KINDS.get(ability.id)
    if cls is None or not ability.valid(*ability.values):
        return None
    try:
        return cls(**ability.values)
    except TypeError:  # a required parameter is missing (SPB213)
        return None


def _check_abilities(checker: Declarations) -> None:
    """Each ability's own checks, as its kind's mechanic defines them (Effect.check)."""
    for card in checker.decls["card"].values():
        for ability in card.abilities:
            cls = EFFECT_KINDS.get(ability.id)
            if cls is not None:
                cls.check(checker, card, ability)


def _check_special_cards(checker: Declarations) -> None:
    """A special card is played from the hand by exactly one ability made for it (Effect.plays_special),
    such an ability sits only on a special card, and a special card is free and no trading card."""
    for card in checker.decls["card"].values():
        if not card.valid("special"):
            continue
        special = bool(card.get("special", False))
        players = [ability for ability in card.abilities
                   if (effect := _effect_of(ability)) is not None and effect.played]
        kinds = ", ".join(kind for kind, cls in EFFECT_KINDS.items() if cls.plays_special)
        if special and len(players) != 1:
            at = players[1].block.anchor if players else card.spans["special"]
            checker.report("SPB420", f"special card '{card.id}' has {len(players)} abilities it is played by; "
                           "it needs exactly one", at,
                           hint=f"give it one ability of the kinds a special card is played by: {kinds}")
        if not special:
            for ability in players:
                checker.report("SPB420", f"ability {ability.id} is played from the hand, but card '{card.id}' "
                               "is not special", ability.block.anchor,
                               hint="add: special = yes (the card is then only taken into hand and played from it)")
        if special and card.get("displaces") is not None:
            checker.report("SPB421", f"special card '{card.id}' cannot be a trading card: it never enters a "
                           "play area", card.spans["displaces"], hint="remove displaces, or special = yes")
        if special and card.valid("cost") and card.get("cost"):
            checker.report("SPB421", f"special card '{card.id}' costs {card.get('cost')}; special cards cost "
                           "nothing, as they are never bought", card.spans["cost"], hint="write cost = 0")


def check_consistency(checker: Declarations) -> None:
    """Run every consistency check, reporting through ``checker``."""
    _check_cards(checker)
    _check_decks(checker)
    _check_phases(checker)
    _check_opening(checker)
    _check_board_sizes(checker)
    _check_card_names(checker)
    _check_translations(checker)
    _check_verbs(checker)
    _check_cost_example(checker)
    _check_engine_limits(checker)
    _check_special_cards(checker)
    _check_abilities(checker)
