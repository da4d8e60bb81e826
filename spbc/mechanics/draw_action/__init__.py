"""The draw_action mechanic: an action in one phase, once per copy and round, that draws the top card of a
deck, which its owner then buys, takes into hand or discards (the drawn stage)."""
