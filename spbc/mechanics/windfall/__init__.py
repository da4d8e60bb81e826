"""The windfall mechanic: a special card that, played from the hand as an action, gives its player rubles."""
