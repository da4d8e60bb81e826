"""The search's light rollout policy (spbc/ai/playout.pxi): uniformly random until the last round, then it
plays hand cards and buys what scores rather than passing or taking; the uniformly random playouts stay
selectable (spbc.ai.agents.Settings.rollout)."""

from __future__ import annotations

import random

from spbc.ai import search
from spbc.ai.agents import SearchAgent, Settings
from spbc.ai.budget import Budget
from spbc.contract.rng import rng_below
from spbc.play.game import Game, Ruleset
from spbc.play.moves import Move, MoveKind
from spbc.play.observe import observe
from scenario import Scenario

KIND_PASS, KIND_TAKE, KIND_PLAY = 0, 2, 3


def _kind(code: int) -> int:
    return code & 15


def _position(ruleset: Ruleset, last_round: bool) -> Game:
    """A 2-player game (seeded random play, taking cards into hands often) at a decision where the player to
    move has a hand card to play and may pass, in the last round or (last_round False) before it."""
    for seed in range(1, 400):
        game = ruleset.new_game(2, seed)
        rng = random.Random(seed)
        while not game.is_over:
            legal = game.legal_codes()
            kinds = {_kind(code) for code in legal}
            if game.view(None).last_round == last_round and KIND_PLAY in kinds and KIND_PASS in kinds:
                return game
            takes = [code for code in legal if _kind(code) == KIND_TAKE]
            game.play_code(rng.choice(takes if takes and rng.random() < 0.5 else legal))
    raise AssertionError("no such position in 400 seeded games")


def _light_draws(game: Game, count: int, seed: int) -> list[int]:
    agent = SearchAgent("hard", 1, Budget(iterations=10), Settings(rollout="light"))
    tables, layout, settings = agent._prepare(game.ruleset)
    return search.light_moves(game.ruleset.engine.c_api(), observe(game, game.current_player).state, seed, count,
                              tables, layout, settings)


def test_in_the_last_round_the_light_policy_plays_the_hand_card(compiled):
    game = _position(compiled, last_round=True)
    draws = _light_draws(game, 1000, 5)
    legal = game.legal_codes()
    assert set(draws) <= set(legal)
    plays = sum(_kind(code) == KIND_PLAY for code in draws)
    share_of_plays = sum(_kind(code) == KIND_PLAY for code in legal) / len(legal)
    assert plays / len(draws) > max(0.5, 2 * share_of_plays)  # far above a uniform draw's share
    assert sum(_kind(code) == KIND_PASS for code in draws) < 0.1 * len(draws)
    assert not any(_kind(code) == KIND_TAKE for code in draws)  # a card taken in the last round only costs


def test_before_the_last_round_the_light_policy_draws_uniformly(compiled):
    game = _position(compiled, last_round=False)
    legal = game.legal_codes()
    x = [11]
    assert _light_draws(game, 200, 11) == [legal[rng_below(x, len(legal))] for _ in range(200)]


def test_the_search_plays_the_hand_card_in_the_last_round_and_random_playouts_stay(compiled):
    game = _position(compiled, last_round=True)
    observation = observe(game, game.current_player)
    assert set(search.ROLLOUTS) == {"random", "light", "policy"}
    light = SearchAgent("hard", 3, Budget(iterations=2000), Settings(rollout="light")).decide(observation)
    assert _kind(light.best) != KIND_PASS
    for rollout in ("random", "policy"):
        decision = SearchAgent("hard", 3, Budget(iterations=300), Settings(rollout=rollout)).decide(observation)
        assert decision.iterations == 300 and decision.best in game.legal_codes()
    assert Settings().rollout in search.ROLLOUTS


def _buy_share(game: Game, card: str) -> float:
    """The share of 1000 light draws at game's position that buy card."""
    draws = _light_draws(game, 1000, 7)
    buys = [code for code in game.legal_codes() if game.ruleset.decode(code) == Move(MoveKind.BUY, card=card,
                                                                                     row="upper")]
    assert len(buys) == 1
    return draws.count(buys[0]) / len(draws)


def test_in_the_last_trading_phase_a_card_whose_phase_has_scored_brings_nothing_but_a_new_noble_does(compiled):
    """The trading phase has no scoring (rules fact 11): a Theater bought then pays no 6 points, so the policy
    does not favour buying it over passing; a Secretary, a third different noble, adds 3 points to the final
    bonus (fact 35a: 3 for two, 6 for three) for 12 rubles, worth more than its cost at 10 rubles a point."""
    def trading(upper: list[str], nobles: list[str]) -> Game:
        built = Scenario(compiled, players=2).upper(upper).lower([]).last_round().phase("trading").current(0)
        for noble in nobles:
            built.give(0, noble)
        return built.rubles(0, 25).build()

    # three moves, pass, take and buy: a take gives way to one of the other two, so about half the draws buy
    assert _buy_share(trading(["theater"], []), "theater") < 0.65
    assert _buy_share(trading(["secretary"], ["author", "administrator"]), "secretary") > 0.85
    # without the two nobles the Secretary would be the first (1 point for 12 rubles): not favoured
    assert _buy_share(trading(["secretary"], []), "secretary") < 0.65


def test_in_a_decided_last_round_the_search_settles_on_the_hand_card_worth_five_points(compiled):
    """Issue 26: seat 0 leads by 20 in the last trading phase, with 6 rubles and a Fur Trapper in hand. Playing
    it saves the hand penalty (5 points); every other move brings nothing (the trading phase has no scoring),
    so every reward lies within a few hundredths. With UCB's constant scaled by each node's deviation of
    rewards (Settings.deviation) the search gives the hand card most of its iterations; with the constant alone
    it tried every move about as often (16% of them each, the hand card first by a single visit)."""
    game = (Scenario(compiled, players=2).upper(["st_isaacs_cathedral", "winter_palace", "administrator"])
            .lower([]).last_round().phase("trading").current(0).give(0, "theater", 2).give(1, "library")
            .hand(0, ["fur_trapper"]).rubles(0, 6).rubles(1, 7).points(0, 80).points(1, 60).build())
    observation = observe(game, 0)
    play = next(code for code in game.legal_codes() if compiled.decode(code).kind is MoveKind.PLAY)
    for seed in (1, 2):
        decision = SearchAgent("hard", seed, Budget(iterations=2000)).decide(observation)
        visits = {choice.code: choice.visits for choice in decision.choices}
        assert decision.best == play and visits[play] > 0.8 * sum(visits.values())
        flat = SearchAgent("hard", seed, Budget(iterations=2000), Settings(exploration=0.7, deviation=0.0))
        visits = {choice.code: choice.visits for choice in flat.decide(observation).choices}
        assert visits[play] < 0.3 * sum(visits.values())
