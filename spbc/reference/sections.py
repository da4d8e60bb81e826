"""The sections of the rules reference, lowered from the model in its language: a format-neutral
:class:`spbc.reference.document.Section` each, every number already computed (spbc.reference.docs puts
them in a document).
"""

from __future__ import annotations

from spbc.reference.abilities import describe_effect, display_names
from spbc.reference.cards import NO_VALUE, card_table
from spbc.reference.costs import costs_section
from spbc.reference.diff import diff_models
from spbc.reference.differences import difference_lines
from spbc.reference.document import Block, Cell, Items, Paragraph, Row, Section, Table
from spbc.reference.language import both, label, say, say_of
from spbc.lang.model import Card, RulesModel
from spbc.reference import hooks


def _setup(model: RulesModel) -> Section:
    game = model.game
    _, decks, _ = display_names(model)
    parts = [label(model, "deck_part", d.name, sum(c.copies for c in model.cards if c.deck == d.id))
             for d in model.decks]
    phase_count = len(model.phases)
    rows = []
    for players in range(game.min_players, game.max_players + 1):
        each, extra = divmod(phase_count, players)
        opening = game.opening_per_player * players
        rows.append(Row((
            Cell(str(players)),
            Cell(str(game.starting_rubles)),
            Cell(say(model, "marker_split", each, extra)),
            Cell(label(model, "opening_cards", opening, decks[game.opening_deck])),
        )))
    headers = tuple(label(model, key) for key in ("players", "starting_rubles", "markers", "opening_display"))
    table = Table(headers, (True, True, False, False), tuple(rows))
    return Section(
        label(model, "setup"),
        "setup",
        (
            Paragraph(say(model, "decks", parts, sum(c.copies for c in model.cards))),
            Paragraph(say(model, "money", game.starting_rubles, game.open_rubles)),
            Paragraph(say(model, "markers", phase_count)),
            *([Paragraph(say(model, "disc", game.disc_rubles, game.disc_points, phase_count))] if game.disc else []),
            Paragraph(say(model, "opening", game.opening_per_player, decks[game.opening_deck], game.board_size,
                          bool(game.board_size_by_players))),
            table,
        ),
    )


def _round(model: RulesModel) -> Section:
    game = model.game
    colours, decks, phases = display_names(model)
    steps = []
    for index, phase in enumerate(model.phases):
        scores = colours[phase.scores] if phase.scores else None
        step = say(model, "phase_step", phase.name, decks[phase.deck], scores, index == 0)
        for sentence in hooks.contributions(model, "round_step", phase):
            step += " " + sentence
        steps.append(step)
    end = [say(model, "round_end_discard"), say(model, "round_end_shift"),
           say(model, "round_end_markers", game.marker_shift, [
               (n, game.shift(n)) for n in range(game.min_players, game.max_players + 1)]
               if game.marker_shift_by_players else [])]
    end += hooks.contributions(model, "round_end")
    end.append(say(model, "round_end_next", model.phases[0].name))
    scoring_colours = [colours[p.scores] for p in model.phases if p.scores]
    return Section(
        label(model, "a_round"),
        "a-round",
        (
            Paragraph(say(model, "round_intro", [p.name for p in model.phases])),
            Items(tuple(steps), ordered=True),
            Paragraph(say(model, "turns")),
            Paragraph(say(model, "refill", game.board_size, [(n, game.refill_size(n)) for n in
                                                             range(game.min_players, game.max_players + 1)]
                          if game.board_size_by_players else [])),
            Paragraph(say(model, "scoring", scoring_colours)),
        ),
        (Section(label(model, "end_of_round"), "end-of-a-round", (Items(tuple(end), ordered=True),)),),
    )


def _actions(model: RulesModel) -> Section:
    actions = (
        say(model, "action_buy"),
        say(model, "action_take", model.game.hand_limit),
        say(model, "action_play"),
        say(model, "action_pass"),
    )
    blocks: list[Block] = [
        Items(actions),
        Paragraph(say(model, "actions_notes", model.game.first_phase_must_buy, model.phases[0].name)),
    ]
    extra = hooks.contributions(model, "actions")
    if extra:
        blocks.append(Items(tuple(extra)))
    return Section(label(model, "actions"), "actions", tuple(blocks))


def _trading(model: RulesModel) -> Section:
    colours, decks, _ = display_names(model)
    blocks: list[Block] = [Paragraph(say(model, "trading_intro"))]
    rules = []
    for colour in model.colours:
        cards = [c for c in model.cards if c.trading and c.displaces == colour.id]
        if not cards:
            continue
        deck = next((decks[d.id] for d in model.decks if d.colour == colour.id), colour.name)
        copies = sum(c.copies for c in cards)
        macro = "trading_symbol" if any(c.symbol for c in cards) else "trading_colour"
        rules.append(say(model, macro, colour.name, deck, copies))
    if rules:
        blocks.append(Items(tuple(rules)))
    rows = []
    for symbol in (*model.game.symbols, "any"):
        plain = [c for c in model.cards if not c.trading and c.symbol == symbol]
        if symbol == "any":
            upgrades = [label(model, "every_trading", colours[c]) for c in dict.fromkeys(c.colour for c in plain)]
        else:
            upgrades = [c.name for c in model.cards if c.trading and c.symbol == symbol]
        if plain or upgrades:
            names = both(model, [c.name for c in plain]) or NO_VALUE
            shown = label(model, "any") if symbol == "any" else model.symbol_name(symbol)
            rows.append(Row((Cell(shown), Cell(names), Cell(both(model, upgrades) or NO_VALUE))))
    if rows:
        headers = (label(model, "symbol"), label(model, "cards_with_it"), label(model, "displaced_by"))
        blocks.append(Table(headers, (False, False, False), tuple(rows)))
    return Section(label(model, "trading"), "trading-cards", tuple(blocks))


def card_anchor(card: Card) -> str:
    """The link target of a card's table row."""
    return f"card-{card.id}"


def ability_anchor(card: Card) -> str:
    """The link target of a card's ability section."""
    return f"ability-{card.id}"


def _ability_names(model: RulesModel, card: Card) -> str:
    """The kinds of a card's abilities, each as its mechanic's prose names it (macro ``title``)."""
    return ", ".join(dict.fromkeys(say_of(model, effect.kind, "title") for effect in card.abilities))


def _column_title(model: RulesModel, key: str) -> str:
    if key.startswith("name_"):
        return label(model, "name_in", key.removeprefix("name_"))
    return label(model, key)


def _card_table(model: RulesModel, cards: list[Card], one_colour: bool) -> Table:
    """The card table of one deck (or one colour of it, without a Colour column): each row anchored,
    the Ability cell linked to the ability's section."""
    columns, texts = card_table(model, cards, ability=lambda card: _ability_names(model, card),
                                mark=label(model, "translated_mark"), any_symbol=label(model, "any"))
    kept = [index for index, column in enumerate(columns) if not (one_colour and column.key == "colour")]
    columns = [columns[index] for index in kept]
    rows = []
    for card, line in zip(cards, texts):
        cells = tuple(
            Cell(text, "#" + ability_anchor(card) if column.key == "ability" and card.abilities else None)
            for column, text in zip(columns, [line[index] for index in kept])
        )
        rows.append(Row(cells, anchor=card_anchor(card)))
    return Table(tuple(_column_title(model, c.key) for c in columns), tuple(c.numeric for c in columns),
                 tuple(rows))


def _deck_blocks(model: RulesModel, cards: list[Card], one_colour: bool = False) -> list[Block]:
    return [Paragraph(say(model, "deck_total", sum(c.copies for c in cards), len(cards))),
            _card_table(model, cards, one_colour)]


def _cards(model: RulesModel) -> Section:
    """A section per deck with its card table; a deck whose cards name their own colours gets a
    table per colour."""
    colours, _, _ = display_names(model)
    decks = []
    for deck in model.decks:
        cards = [card for card in model.cards if card.deck == deck.id]
        if deck.colour is not None:
            decks.append(Section(deck.name, f"deck-{deck.id}", tuple(_deck_blocks(model, cards))))
            continue
        by_colour = tuple(
            Section(label(model, "deck_colour", deck.name, colours[colour.id]), f"deck-{deck.id}-{colour.id}",
                    tuple(_deck_blocks(model, [c for c in cards if c.colour == colour.id], True)))
            for colour in model.colours if any(c.colour == colour.id for c in cards))
        total = Paragraph(say(model, "deck_total", sum(c.copies for c in cards), len(cards)))
        decks.append(Section(deck.name, f"deck-{deck.id}", (total,), by_colour))
    blocks: tuple[Block, ...] = ()
    if any(language in card.names.translated for card in model.cards for language in model.languages):
        blocks = (Paragraph(label(model, "translated_note")),)
    return Section(label(model, "cards"), "the-cards", blocks, tuple(decks))


def _income(model: RulesModel) -> Section:
    """What each scoring phase pays, a table per phase: every card of its colour that pays something,
    and the abilities that pay in it (spbc.reference.hooks ``income``)."""
    headers = tuple(label(model, key) for key in ("card", "rubles", "points"))
    extra = hooks.contributions(model, "income")
    phases = []
    for phase in model.phases:
        if phase.scores is None:
            continue
        rows = tuple(Row((Cell(card.name, "#" + card_anchor(card)), Cell(str(card.rubles)), Cell(str(card.points))))
                     for card in model.cards if card.colour == phase.scores and (card.rubles or card.points))
        phases.append(Section(phase.name, f"income-{phase.id}", (Table(headers, (False, True, True), rows),)))
    blocks: list[Block] = [Paragraph(say(model, "income_intro"))]
    if extra:
        blocks.append(Items(tuple(extra)))
    return Section(label(model, "income"), "income", tuple(blocks), tuple(phases))


def _abilities(model: RulesModel) -> Section:
    cards = [
        Section(
            card.name,
            ability_anchor(card),
            tuple(Paragraph(describe_effect(model, card, effect)) for effect in card.abilities),
        )
        for card in model.cards
        if card.abilities
    ]
    return Section(label(model, "abilities"), "special-abilities", (), tuple(cards))


def _hand_and_end(model: RulesModel) -> tuple[Section, Section]:
    game = model.game
    raisers = list(dict.fromkeys(hooks.contributions(model, "hand_raisers")))
    end = " ".join([say(model, "game_end"), *hooks.contributions(model, "game_end")])
    return (
        Section(label(model, "hand"), "hand", (Paragraph(say(model, "hand", game.hand_limit, game.hand_penalty, raisers)),)),
        Section(label(model, "end_of_game"), "end-of-the-game", (Paragraph(end),)),
    )


def _scoring(model: RulesModel) -> tuple[Section, Section]:
    game = model.game
    colours, _, _ = display_names(model)
    bonus = game.noble_bonus
    rows = tuple(
        Row((Cell(str(n) if n < len(bonus) - 1 else label(model, "or_more", n)), Cell(str(points))))
        for n, points in enumerate(bonus)
    )
    final = Section(
        label(model, "final_scoring"),
        "final-scoring",
        (
            Paragraph(say(model, "final_intro")),
            Items(
                (
                    say(model, "final_noble", colours[game.noble_colour], bonus[-1]),
                    say(model, "final_rubles", game.rubles_per_point),
                    say(model, "final_hand", game.hand_penalty, [card.name for card in model.cards if card.special]),
                )
            ),
            Table((label(model, "different", colours[game.noble_colour]), label(model, "points")), (True, True), rows),
        ),
    )
    winning = Section(label(model, "winning"), "winning",
                      (Paragraph(say(model, "tie_break", game.tie_break, game.rubles_per_point)),))
    return final, winning


def _variant(model: RulesModel, original: RulesModel) -> tuple[Section, ...]:
    """For a variant, what it changes in the ruleset it extends (computed on the rules as written, so a
    name in another language is no change; the lines are settings as rules files write them); and the
    notes its rules give, in the model's language."""
    sections = []
    base = original.base
    if base is not None:
        lines = difference_lines(model, base, diff_models(base, original))
        title = base.titles.get(model.language) or base.title
        blocks: tuple[Block, ...] = (Paragraph(say(model, "differences_intro", title, base.name)),
                                     Items(tuple(lines)) if lines else Paragraph(say(model, "differences_none")))
        sections.append(Section(label(model, "differences", base.name), "differences", blocks))
    if model.notes:
        sections.append(Section(label(model, "notes"), "notes", tuple(Paragraph(note) for note in model.notes)))
    return tuple(sections)


def sections(model: RulesModel, original: RulesModel) -> tuple[Section, ...]:
    return (
        *_variant(model, original),
        _setup(model),
        _round(model),
        _actions(model),
        costs_section(model),
        _trading(model),
        _cards(model),
        _income(model),
        _abilities(model),
        *_hand_and_end(model),
        *_scoring(model),
    )


