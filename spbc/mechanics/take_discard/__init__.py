"""The take_discard mechanic: an action in one phase, once per copy and round, that takes a card of the
player's choice from the discard pile, which its owner then buys, takes into hand or discards again (the
drawn stage, which the draw_action mechanic keeps)."""
