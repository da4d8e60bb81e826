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
from spbc.play.observe import observe

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
