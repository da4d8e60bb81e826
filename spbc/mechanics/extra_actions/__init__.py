"""The extra_actions mechanic: a special card that, played from the hand as an action, lets its player take
more actions at once."""
