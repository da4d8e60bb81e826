"""The feast mechanic: a special card that, played from the hand, lies on one of its player's cards that
pays both rubles and points, and multiplies that card's next income; then it is discarded."""
