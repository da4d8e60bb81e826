"""What a player may not know stays unknown: the seed of an unseeded game, other players'
rubles and hands in the messages of a replay.

The seed of a game gives the order of every deck. A game dealt from a small space of
seeds could be found from its opening display by trying them all; the rubles of a
player are secret in the printed game, and an explanation of a refused move must not
tell them to anyone but that player.
"""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from scenario import Scenario, buy, points, play
from spbc.play.explain import explain_illegal
from spbc.frontends.cli import app
from spbc.play.game import Ruleset
from spbc.play.moves import AmbiguousMoveError, IllegalMoveError, MoveKind
from spbc.play.notation import parse_move
from spbc.play.record import read_record, write_record

runner = CliRunner()
OLD_SEEDS = 1_000_000  # spb play drew its seeds from range(1_000_000)


# --- the seed of an unseeded game ---------------------------------------------------------------


def unseeded_games(monkeypatch, count: int) -> list:
    """Games dealt by `spb play` without --seed, as the command deals them."""
    dealt = []
    real = Ruleset.new_game

    def spy(self, players, seed):
        game = real(self, players, seed)
        dealt.append(game)
        return game

    monkeypatch.setattr(Ruleset, "new_game", spy)
    for _ in range(count):
        result = runner.invoke(app, ["play"], input="quit\n")
        assert result.exit_code == 0, result.output
    monkeypatch.undo()
    return dealt


def display(engine, fields: dict[str, tuple[int, int]]) -> tuple[int, ...]:
    """What every player sees when the game opens: the upper row in order and the start markers."""
    (upper, size), (markers, phases) = fields["upper"], fields["markers"]
    get = engine.get
    return tuple(get(upper + i) for i in range(size)) + tuple(get(markers + i) for i in range(phases))


@pytest.mark.slow  # many unseeded games
def test_the_seed_of_an_unseeded_game_is_not_in_the_old_space_of_seeds(compiled, monkeypatch):
    games = unseeded_games(monkeypatch, 3)
    assert all(len(game.players) == 2 for game in games)
    fields = {name: (offset, size) for name, offset, size in compiled.engine.FIELDS}
    fields["upper"] = (fields["upper"][0], games[0]._value("upper_size"))
    wanted = {display(game._engine, fields): game for game in games}
    new = compiled.engine.Engine.new
    found = []
    for seed in range(OLD_SEEDS):  # the attack: deal every old seed, keep those showing the same
        engine = new(2, seed)
        game = wanted.get(display(engine, fields))
        if game is not None and engine.state() == game.state_values():
            found.append(seed)
    assert found == [], "an unseeded game was dealt from a seed below 1,000,000"
    assert all(0 <= game.seed < 2**64 for game in games)
    assert len({game.seed for game in games}) == 3


def test_unseeded_seeds_use_the_whole_64_bits(monkeypatch):
    from spbc.frontends import game_cmds

    seeds = [game_cmds.deal_seed(None) for _ in range(200)]
    assert all(0 <= seed < 2**64 for seed in seeds)
    assert max(seeds) >= 2**63 and min(seeds) < 2**62  # 200 draws of 64 bits: certain but for 2^-199
    assert game_cmds.deal_seed(7) == 7


def test_a_64_bit_seed_deals_by_all_its_bits_and_survives_saves_and_records(ruleset):
    big = 2**64 - 1
    games = [ruleset.new_game(["Anna", "Boris"], seed) for seed in (big, big - 2**63, 2**64 + big)]
    assert games[0].state_values() != games[1].state_values()  # the top bit counts
    assert games[0].state_values() == games[2].state_values()  # only the low 64 bits do
    game = games[0]
    game.play(game.legal_moves()[0])
    loaded = ruleset.game_from_json(game.to_json())
    assert loaded.seed == big and loaded.state_values() == game.state_values()
    text = write_record(ruleset, ["Anna", "Boris"], big, [ruleset.new_game(["Anna", "Boris"], big).legal_moves()[0]])
    assert f'[Seed "{big}"]' in text
    assert read_record(text, ruleset).game.state_values() == game.state_values()


# --- rubles and hands in explanations ------------------------------------------------------------


def poor(ruleset):
    """Player 1 on turn in the building phase with 4 rubles; an Observatory (6) in the upper row."""
    return Scenario(ruleset).upper(["observatory"]).lower([]).rubles(0, 4).phase("building").current(0).build()


def test_the_player_is_told_their_rubles_a_spectator_is_not(ruleset):
    game = poor(ruleset)
    move = buy("observatory", "upper")
    assert explain_illegal(game, move, reader=0) == "Observatory costs 6 after reductions, you have 4 rubles"
    told = explain_illegal(game, move, reader=None)
    assert told == "Observatory costs 6 after reductions, more than Player 1 has"
    assert explain_illegal(game, move, reader=1) == told  # another player at the table
    with pytest.raises(IllegalMoveError) as caught:
        parse_move("buy obs", game, spectator=True)
    assert caught.value.reason == told and "4" not in str(caught.value)
    with pytest.raises(IllegalMoveError) as caught:
        game.play(move)  # the player on turn plays it: they are told
    assert caught.value.reason == "Observatory costs 6 after reductions, you have 4 rubles"


def test_a_spectator_is_not_told_the_rubles_that_limit_bought_points(ruleset):
    game = (Scenario(ruleset).give(0, "pub").rubles(0, 5).phase("building").current(0).build())
    while game.stage != "points":
        game.play(game.legal_moves()[0])
    seat = game.current_player
    rubles = game.rubles(seat)
    most = min(rubles // 2, 5)
    name = game.players[seat]
    mine = explain_illegal(game, points("pub", most + 1), reader=seat)
    assert mine == f"you can buy at most {most} points now: each costs 2 rubles and you have {rubles} rubles"
    theirs = explain_illegal(game, points("pub", most + 1), reader=None)
    assert theirs == f"{name} cannot pay for {most + 1} points: at 2 rubles each they cost {2 * (most + 1)}, more than {name} has"
    waiting = explain_illegal(game, buy("observatory", "upper"), reader=None)
    assert waiting == f"first {name} decides how many points to buy with the Pub"
    assert str(rubles) not in theirs.replace(str(2 * (most + 1)), "") and str(most) not in waiting
    assert explain_illegal(game, points("pub", 6), reader=None) == "you can buy at most 5 points now: 5 for each Pub you own (1)"


def test_a_spectator_is_not_told_what_a_hand_holds(ruleset):
    game = (Scenario(ruleset).hand(0, ["academy"]).rubles(0, 30).upper(["market"]).lower([])
            .phase("building").current(0).build())
    assert explain_illegal(game, play("library"), reader=0) == "you have no Library in your hand"
    told = explain_illegal(game, play("library"), reader=None)
    price = game.cost(play("library"))
    assert told == (f"Player 1 cannot play Library now: it is not in their hand, "
                    f"or it costs {price} after reductions, more than Player 1 has")
    assert "Academy" not in told


def test_ambiguity_shown_to_a_spectator_does_not_list_what_the_hand_or_rubles_allow(ruleset):
    game = (Scenario(ruleset).hand(0, ["gold_miner", "gold_smelter"]).give(0, "gold_miner").rubles(0, 30)
            .upper(["market"]).lower([]).phase("worker").current(0).build())
    with pytest.raises(AmbiguousMoveError) as caught:
        parse_move("play gold", game)  # the player is shown what their hand and rubles allow
    assert caught.value.candidates == ["play Gold Miner", "play Gold Smelter over Gold Miner"]
    with pytest.raises(AmbiguousMoveError) as caught:
        parse_move("play gold", game, spectator=True)
    assert caught.value.candidates == ["play Gold Miner", "play Gold Smelter"]
    assert caught.value.reason == "'gold' could be Gold Miner or Gold Smelter; name the card in full: " \
        "play Gold Miner or play Gold Smelter"


def unfinished_record_with_an_unaffordable_buy(ruleset) -> tuple[str, int, str]:
    """A real game played until the player on turn cannot pay for a card on the board;
    the record of it with that buy as its last line, the player's rubles and the card."""
    game = ruleset.new_game(["Anna", "Boris"], seed=5)
    moves = []
    while not game.is_over:
        seat = game.current_player
        for row in ("upper", "lower"):
            for card in game.row(row):
                move = buy(card, row)
                cost = game.cost(move)
                if game.stage == "actions" and not ruleset.model.card(card).trading and cost > game.rubles(seat):
                    from spbc.play.notation import format_move

                    text = write_record(ruleset, list(game.players), 5, moves)
                    line = f"{game.players[seat]}: {format_move(move, ruleset)}\n"
                    return text + line, game.rubles(seat), ruleset.model.card(card).name
        purchases = [m for m in game.legal_moves() if m.kind is MoveKind.BUY]
        move = max(purchases, key=game.cost) if purchases else game.legal_moves()[0]
        game.play(move)
        moves.append(move)
    raise AssertionError("no position with an unaffordable card")


def test_replay_of_an_unfinished_record_keeps_the_rubles_of_a_refused_buy_secret(compiled, tmp_path):
    text, rubles, card = unfinished_record_with_an_unaffordable_buy(compiled)
    path = tmp_path / "game.spbr"
    path.write_text(text, encoding="utf-8")
    for extra in ([], ["--lenient"], ["--json"]):
        result = runner.invoke(app, ["replay", str(path), *extra])
        assert result.exit_code == 1
        assert f"{card} costs" in result.output and "after reductions, more than" in result.output
        assert "you have" not in result.output and f"{rubles} rubles" not in result.output


def test_record_problems_name_no_rubles(compiled):
    text, rubles, _ = unfinished_record_with_an_unaffordable_buy(compiled)
    replay = read_record(text, compiled, lenient=True)
    assert replay.problems and all(f"{rubles} rubles" not in p.message for p in replay.problems)


def test_with_open_rubles_a_spectator_is_told_them():
    import spbc

    rules = spbc.load_rules("open-information", backend="python")
    game = poor(rules)
    told = "Observatory costs 6 after reductions, you have 4 rubles"
    assert explain_illegal(game, buy("observatory", "upper"), reader=None) == told
    assert explain_illegal(game, buy("observatory", "upper"), reader=1) == told
