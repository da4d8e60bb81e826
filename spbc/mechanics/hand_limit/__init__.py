"""The hand_limit mechanic: while its card is in a play area, its owner may hold more cards in hand."""
