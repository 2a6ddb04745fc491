"""The round's figures: their numbers from the round engine's results, by hand where dice play no part."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import shipcheck
from shipcheck.report import plots
from shipcheck.report.figures import distribution, round_data, round_table, swarm_weights

ROOT = Path(__file__).resolve().parents[1]
BLUE = ROOT / "examples" / "blue-round1.toml"


def test_distribution_of_a_small_sample() -> None:
    d = distribution(np.array([5, 1, 2, 1]))
    assert d.values == (1, 2, 5) and d.shares == (0.5, 0.25, 0.25)
    assert d.mean == 2.25
    half = 1.959963984540054 * np.sqrt(10.75 / 3) / 2  # sample sd of 1, 1, 2, 5 over sqrt(4)
    assert d.ci == pytest.approx((2.25 - half, 2.25 + half))
    assert d.percentiles == ((5, 1), (50, 1), (95, 5))  # the smallest value whose share reaches the percent
    assert d.share(2) == 0.25 and d.share(3) == 0.0


def test_a_round_without_dice_earns_the_same_every_time() -> None:
    # alone, one Open Space card: the ship arrives first (4 credits in a level-I round) and is the
    # best-looking ship (2 credits, the only one to finish); nothing is lost
    r = shipcheck.simulate_round(BLUE, round=1, opponents=[], deck=["I-05"], runs=40, seed=1, keep_runs=True)
    v = round_data(r)
    assert v.credits.values == (6,) and v.credits.shares == (1.0,) and v.credits.ci == (6.0, 6.0)
    assert v.credits.percentiles == ((5, 6), (50, 6), (95, 6))
    assert v.lost.values == (0,) and v.p_finish == 1.0 and v.p_survive == 1.0 and v.gave_up == ()
    (row,) = v.by_type
    assert (row.type, row.drawn, row.lost, row.credits, row.gave_up) == ("open_space", 1.0, 0.0, 0.0, 0.0)
    (me,) = v.players
    assert me.ship and me.name == "Blue, round 1" and me.credits == 6.0
    # where they come from: 4 for arriving first, 2 for the best-looking ship, nothing else
    assert dict(me.by_source) == {"cards": 0.0, "goods": 0.0, "arrival": 4.0, "best_looking": 2.0, "penalty": 0.0}
    assert v.gap is None  # no field to compare with
    assert v.deck == ["I-05"] and v.runs == 40 and v.seed == 1
    rows = dict(round_table(v).rows)
    assert rows["credits"].startswith("6.00 (95% interval 6.00 to 6.00)")
    assert rows["gives up"] == "never"


def test_the_field_and_the_ship_come_from_the_players() -> None:
    scout = ROOT / "examples" / "class-I-scout.toml"
    r = shipcheck.simulate_round(BLUE, round=1, opponents=[scout], runs=300, seed=2, keep_runs=True)
    v = round_data(r)
    assert [p.name for p in v.players] == [p.name for p in r.players]
    assert [p.ship for p in v.players] == [True, False]
    for row, p in zip(v.players, r.players, strict=True):
        assert row.credits == pytest.approx(float(np.mean(p.credits)))
        assert row.p_finish == float(np.mean(p.gave_up == 0))
    assert v.credits.mean == pytest.approx(float(np.mean(r.players[0].credits)))
    assert sum(v.credits.shares) == pytest.approx(1.0)
    # every figure draws from these numbers
    for make in (plots.credits_figure, plots.losses_figure, plots.card_types_figure, plots.field_figure):
        assert make(v).axes


def test_swarm_weights_follow_the_rounds_deck() -> None:
    from fractions import Fraction as F

    from shipcheck.round import build_deck, fixed_deck, round_rules

    r1 = swarm_weights(build_deck(round_rules(1), "2007"))
    assert [(c.id, w) for c, w in r1] == [("I-09", F(8, 20)), ("I-10", F(8, 20)), ("I-11", F(8, 20))]
    r3 = swarm_weights(build_deck(round_rules(3), "2007"))
    assert [(c.level, w) for c, w in r3] == [(1, F(4, 20))] * 3 + [(2, F(4, 20))] * 3 + [(3, F(8, 20))] * 3
    fixed = swarm_weights(fixed_deck(["I-09", "I-05", "I-09", "II-10"], "2007"))
    assert [(c.id, w) for c, w in fixed] == [("I-09", 2), ("II-10", 1)]


# -- where the credits come from, and the biggest gap to the field ---------------------------------
def _row(name: str, ship: bool, parts: dict[str, float], **kw: object):  # type: ignore[no-untyped-def]
    from shipcheck.report.figures import PlayerRow

    total = sum(parts.values())
    return PlayerRow(name, ship, total, (total, total), 1.0, (1.0, 1.0), 1.0, tuple(parts.items()), **kw)  # type: ignore[arg-type]


SHIP = {"cards": 2.0, "goods": 6.0, "arrival": 2.0, "best_looking": 1.0, "penalty": -1.0}  # 10.0


def test_the_gap_sentence_of_the_issue() -> None:
    from shipcheck.report.figures import field_gap

    # Racer II earns 14.1, 3.2 more from arrival (it ends 6 spaces further along), 0.9 more elsewhere
    racer = {"cards": 2.4, "goods": 6.2, "arrival": 5.2, "best_looking": 1.3, "penalty": -1.0}
    trader = {"cards": 1.0, "goods": 9.0, "arrival": 1.0, "best_looking": 1.0, "penalty": -1.0}
    gap = field_gap([_row("Blue", True, SHIP, days=1.0), _row("Trader II", False, trader, days=0.0),
                     _row("Racer II", False, racer, days=7.0)])
    assert gap is not None and gap.opponent == "Racer II" and gap.source == "arrival"
    assert gap.credits == pytest.approx(-4.1) and gap.part == pytest.approx(-3.2)
    assert gap.sentence == "You earn 4.1 less than Racer II, 3.2 of it from arrival: it flies 6 spaces further."


@pytest.mark.parametrize(("source", "mine", "theirs", "why"), [
    ("goods", {"card_goods": (("planets", 5.0),)}, {"card_goods": (("planets", 9.5), ("smugglers", 0.5))},
     "it brings home 4.5 more in goods from planets"),
    ("cards", {"card_credits": (("pirates", 1.0),), "firepower": 4.0},
     {"card_credits": (("pirates", 4.0), ("slavers", 0.5)), "firepower": 9.0},
     "it earns 3.0 more on pirates (firepower up to 9 against 4)"),
    ("best_looking", {"exposed": 6}, {"exposed": 0}, "it shows fewer exposed connectors (0 against 6)"),
    ("penalty", {"lost": 4.5}, {"lost": 1.5}, "it loses 3.0 fewer components"),
])
def test_the_gap_says_why(source: str, mine: dict, theirs: dict, why: str) -> None:  # type: ignore[type-arg]
    from shipcheck.report.figures import field_gap

    other = dict(SHIP)
    other[source] += 3.0 if source != "goods" else 4.5
    gap = field_gap([_row("Blue", True, SHIP, **mine), _row("Other", False, other, **theirs)])
    assert gap is not None and gap.source == source and gap.why == why


def test_a_ship_ahead_of_the_field() -> None:
    from shipcheck.report.figures import field_gap

    worse = dict(SHIP, goods=3.0)
    gap = field_gap([_row("Blue", True, SHIP, card_goods=(("planets", 6.0),)),
                     _row("Other", False, worse, card_goods=(("planets", 3.0),))])
    assert gap is not None and gap.credits == pytest.approx(3.0)
    assert gap.sentence == ("You earn 3.0 more than Other, the best of the field, 3.0 of it from goods: "
                            "you bring home 3.0 more in goods from planets.")


def test_a_part_bigger_than_the_gap_is_said_as_such() -> None:
    from shipcheck.report.figures import field_gap

    other = dict(SHIP, arrival=5.0, penalty=-3.0)  # +3 arrival, -2 penalty: 1 more in all
    gap = field_gap([_row("Blue", True, SHIP, days=0.0), _row("Other", False, other, days=4.0)])
    assert gap is not None and gap.sentence == ("You earn 1.0 less than Other: 3.0 less from arrival alone (it "
                                                "flies 4 spaces further), made up in part by the others.")


@pytest.fixture(scope="module")
def freighter_round():  # type: ignore[no-untyped-def]
    r = shipcheck.simulate_round(ROOT / "examples" / "class-II-freighter.toml", round=2, runs=300, seed=3, keep_runs=True)
    return r, round_data(r)


def test_the_stacked_bar_draws_each_ships_parts_and_total(freighter_round) -> None:  # type: ignore[no-untyped-def]
    from matplotlib.patches import Rectangle

    r, v = freighter_round
    fig = plots.sources_figure(v)
    ax = fig.axes[0]
    bars = [p for p in ax.patches if isinstance(p, Rectangle)]
    for k, p in enumerate(r.players):
        mine = sorted(round(b.get_width(), 9) for b in bars if abs(b.get_y() + b.get_height() / 2 - k) < 1e-9)
        assert mine == sorted(round(x, 9) for x in p.by_source.values() if x != 0)
        # the parts add up to the credits: the diamond sits at the total
        assert sum(p.by_source.values()) == pytest.approx(p.credits_mean)
    diamonds = [ln for ln in ax.lines if ln.get_marker() == "D"]
    assert [d.get_xdata()[0] for d in diamonds] == pytest.approx([p.credits_mean for p in r.players])
    assert v.gap is not None and v.gap.sentence.split(":")[0] in "".join(t.get_text() for t in ax.texts)
    assert plots.sources_figure(v, plots.PHONE).axes


def test_card_by_card_shows_the_goods_value_of_planets(freighter_round) -> None:  # type: ignore[no-untyped-def]
    r, v = freighter_round
    goods = r.players[0].card_types()["planets"]["expected_goods_value"]
    assert goods > 0 and {row.type: row.goods for row in v.by_type}["planets"] == goods
    fig = plots.card_types_figure(v)
    ax = fig.axes[0]
    names = [t.get_text() for t in ax.get_yticklabels()]
    k = names.index("planets")
    widths = [b.get_width() for b in ax.patches if abs(b.get_y() + b.get_height() / 2 - k) < 0.5]
    assert goods in widths
    subtitle = next(t.get_text() for t in ax.texts if "per kind of card" in t.get_text())
    assert "planets" not in subtitle.partition("nothing earned")[2]  # not among the cards that brought nothing


def test_card_by_card_bars_sit_on_their_own_line(freighter_round) -> None:  # type: ignore[no-untyped-def]
    # every bar is centred within its card type's line, however many bars the type has: a type with
    # only losses (a meteor swarm) draws them on its own label, not beside the next one
    _, v = freighter_round
    fig = plots.card_types_figure(v)
    ax = fig.axes[0]
    names = [t.get_text() for t in ax.get_yticklabels()]
    rows = {r.type: r for r in v.by_type}
    label = {plots.CARD_TYPE_LABEL.get(t, t): r for t, r in rows.items()}
    for k, name in enumerate(names):
        r = label[name]
        here = [b for b in ax.patches if abs(b.get_y() + b.get_height() / 2 - k) < 0.5]
        values = [x for x in (r.credits, r.goods, r.lost) if x]
        assert sorted(b.get_width() for b in here) == sorted(values)
        if here:  # a type shown only for giving up has no bar
            centre = sum(b.get_y() + b.get_height() / 2 for b in here) / len(here)
            assert centre == pytest.approx(k)
    assert any(sum(1 for x in (label[n].credits, label[n].goods, label[n].lost) if x) == 1 for n in names)
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["credit rewards", "goods value", "components lost"]


def test_the_gap_names_its_cause_in_the_ships_parameters() -> None:
    from shipcheck.report.figures import field_gap

    # the issue's slow trader: 8.1 less from goods, 2.0 less from arrival; each with its parameter
    slow = dict(SHIP, goods=1.0, arrival=1.0)
    trader = dict(SHIP, goods=9.1, arrival=3.5, cards=1.5, penalty=-5.7)
    gap = field_gap([_row("Blue", True, slow, days=0.0, engine=1.0, cargo=4, card_goods=(("planets", 1.0),)),
                     _row("Trader II", False, trader, days=5.0, engine=4.0, cargo=10, card_goods=(("planets", 9.1),))])
    assert gap is not None and gap.source == "goods"
    assert gap.sentence == ("You earn 5.4 less than Trader II: 8.1 less from goods alone (it brings home 8.1 more in "
                            "goods from planets, with 10 cargo slots against 4), made up in part by the others; and "
                            "2.5 less from arrival: it flies 5 spaces further, with engine power up to 4 against 1.")
    # a ship losing its components to meteors from the front
    open_front = dict(SHIP, penalty=-5.8)
    gap = field_gap([_row("Blue", True, open_front, lost=5.8, front_open=6,
                          card_lost=(("meteor_swarm", 4.9), ("pirates", 0.9))),
                     _row("Other", False, SHIP, lost=1.0, front_open=1, card_lost=(("meteor_swarm", 0.6),))])
    assert gap is not None and gap.source == "penalty"
    assert gap.why == ("it loses 4.8 fewer components (you lose 4.3 more to meteor swarm, with 6 connectors open to "
                       "the front against 1)")
