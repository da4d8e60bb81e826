"""The discard_from_hand mechanic: a special card that, played from the hand as an action, discards one
more card of the player's hand."""
