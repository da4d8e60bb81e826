"""The deck_discount mechanic: while its card is in a play area, its owner pays less for every card of some decks."""
