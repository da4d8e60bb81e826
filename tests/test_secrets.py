"""What a player may not know stays unknown: the seed of an unseeded game, other players'
rubles and hands in the messages of a replay.

The seed of a game gives the order of every deck. A game dealt from a small space of
seeds could be found from its opening display by trying them all; the rubles of a
player are secret in the printed game, and an explanation of a refused move must not
tell them to anyone but that player.
"""

from __future__ import annotations

from typer.testing import CliRunner

from spbc.frontends.cli import app
from spbc.game import Ruleset
from spbc.record import read_record, write_record

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

    seeds = [game_cmds._seed(None) for _ in range(200)]
    assert all(0 <= seed < 2**64 for seed in seeds)
    assert max(seeds) >= 2**63 and min(seeds) < 2**62  # 200 draws of 64 bits: certain but for 2^-199
    assert game_cmds._seed(7) == 7


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
