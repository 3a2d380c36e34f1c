"""What a search needs of the engine: legal orders per formation, a value for an unfinished
game, and a lookahead that rolls its own dice and never learns the game's coming rolls."""

from __future__ import annotations

from conftest import EngineFactory, Unit

from game.ai.basic import BasicAI
from game.ai.general import General
from game.core.actions import Action, Attack, EndTurn
from game.core.engine import Engine
from game.core.evaluation import UNFINISHED_SCALE
from game.core.events import Attacked, Event
from game.core.rules import Ruleset
from game.core.scenario import Scenario

FIELD = (".......",) * 5
SEEDS = range(1, 9)


def rolls(engine: Engine, n: int = 12) -> list[float]:
    rng = engine.rng()
    return [rng.random() for _ in range(n)]


def clash(small_engine: EngineFactory, seed: int) -> Engine:
    return small_engine(
        FIELD,
        [Unit("a_foot", "a", "han_soldier", 3000, (2, 2)), Unit("b_levy", "b", "soul_levy", 3000, (3, 2))],
        seed=seed,
    )


def losses(events: list[Event]) -> tuple[int, int]:
    (attacked,) = [e for e in events if isinstance(e, Attacked)]
    return attacked.attacker_losses, attacked.defender_losses


# -- the dice-blind lookahead -------------------------------------------------------------------


def test_a_dice_blind_clone_rolls_other_dice_than_the_game(small_engine: EngineFactory) -> None:
    attack = Attack(unit="a_foot", target="b_levy")
    differ = 0
    for seed in SEEDS:
        game = clash(small_engine, seed)
        blind = game.dice_blind(dice_seed=99)
        assert blind.seed != game.seed
        assert rolls(blind) != rolls(game)
        assert game.clone().hash() == blind.hash()  # the same game, only the dice are its own
        differ += losses(blind.apply(attack)) != losses(game.clone().apply(attack))
    assert differ >= len(SEEDS) // 2  # an exact clone would roll as the game does every time


def test_the_dice_seed_the_caller_chooses_decides_the_lookahead_dice(small_engine: EngineFactory) -> None:
    game = clash(small_engine, 5)
    assert rolls(game.dice_blind(1)) == rolls(game.dice_blind(1))
    assert rolls(game.dice_blind(1)) != rolls(game.dice_blind(2))
    # Nothing of the game's seed reaches it: two games of different seeds imagine the same dice.
    assert rolls(clash(small_engine, 6).dice_blind(1)) == rolls(game.dice_blind(1))


def test_looking_ahead_changes_nothing_in_the_game(small_engine: EngineFactory) -> None:
    plan: list[Action] = [Attack(unit="a_foot", target="b_levy"), EndTurn(), EndTurn()]
    quiet = clash(small_engine, 3)
    quiet.apply_all(plan)
    busy = clash(small_engine, 3)
    for action in plan:
        lookahead = busy.dice_blind(7)
        for tried in lookahead.legal_actions()[:3]:
            lookahead.clone().apply(tried)
        busy.apply(action)
    assert busy.hash() == quiet.hash()


def test_the_generals_plan_on_a_view_with_their_own_dice(scenario: Scenario, rules: Ruleset) -> None:
    game = Engine(scenario, rules, seed=1234)
    for general in (BasicAI(game, "a"), General(game, "a")):
        view = general.engine
        assert view.seed != game.seed and rolls(view) != rolls(game)
        assert set(view.state.formations) <= set(game.state.formations)  # still only what it sees


# -- legal orders per formation -----------------------------------------------------------------


def test_orders_per_formation_are_the_legal_actions(scenario: Scenario, rules: Ruleset) -> None:
    game = Engine(scenario, rules, seed=1234)
    for _ in range(4):
        by_formation = game.legal_orders_by_formation()
        assert by_formation
        listed = [a for orders in by_formation.values() for a in orders]
        assert [*listed, EndTurn()] == game.legal_actions()
        for unit_id, orders in by_formation.items():
            assert game.legal_orders(unit_id) == orders
            assert all(getattr(a, "unit", None) == unit_id for a in orders)
        forced = game.legal_orders_by_formation(forced_marches=True)
        assert [*(a for o in forced.values() for a in o), EndTurn()] == game.legal_actions(forced_marches=True)
        side = game.state.active_side.id
        others = [f.id for f in game.state.formations.values() if f.side != side]
        assert all(game.legal_orders(unit_id) == [] for unit_id in others)
        game.apply(EndTurn())


# -- the value of a game ------------------------------------------------------------------------


def test_the_value_lies_in_its_range_and_favours_the_side_that_is_winning(small_engine: EngineFactory) -> None:
    game = clash(small_engine, 1)
    assert game.value("a") == game.value("b") == 0.0  # both whole
    game.state.formations["b_levy"].men = 600
    assert 0 < game.value("a") < UNFINISHED_SCALE
    assert -UNFINISHED_SCALE < game.value("b") < 0
    assert game.value("a") == -game.value("b")
    game.state.formations["a_foot"].routed = True  # a routed formation no longer stands
    assert game.value("a") < 0 < game.value("b")


def test_a_finished_game_is_worth_one_to_the_winner(small_engine: EngineFactory) -> None:
    game = small_engine(
        FIELD,
        [Unit("a_foot", "a", "han_soldier", 3000, (2, 2)), Unit("b_levy", "b", "soul_levy", 100, (3, 2))],
    )
    game.apply(Attack(unit="a_foot", target="b_levy"))
    assert game.state.over and game.state.winner == "a"
    assert (game.value("a"), game.value("b")) == (1.0, -1.0)
    game.state.winner = None
    assert game.value("a") == game.value("b") == 0.0
