"""Decks as the rules build them (rules digest §14), deck files, and common random numbers."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from shipcheck.cards import load_cards
from shipcheck.errors import InputError
from shipcheck.round import build_deck, load_deck_file, round_rules, simulate_round
from tests.roundkit import A, D, gunship

COUNTS = {"1": {1: 8}, "2": {1: 4, 2: 8}, "3": {1: 4, 2: 4, 3: 8}, "3a": {1: 4, 2: 4, 3: 8}}


@pytest.mark.parametrize("edition,rnd", [("2007", "1"), ("2007", "2"), ("2007", "3"), ("2007", "3a"),
                                         ("2021", "1"), ("2021", "2")])
def test_drawn_decks_have_the_levels_of_the_round_and_a_top_card_of_its_level(edition, rnd):
    rules = round_rules(rnd)
    deck = build_deck(rules, edition)
    idx = deck.draw(np.random.default_rng(5), 400)
    levels = np.asarray([c.level for c in deck.cards])[idx]
    for row in levels:
        assert Counter(row.tolist()) == COUNTS[rnd]
    assert (levels[:, 0] == rules.level).all()
    # cards are distinct within a deck and every card of the round's levels turns up
    assert all(len(set(r)) == len(r) for r in idx.tolist())
    assert set(idx.ravel().tolist()) == {i for i, c in enumerate(deck.cards) if c.level in COUNTS[rnd]}


def test_top_card_is_uniform_among_the_current_level():
    deck = build_deck(round_rules("2"), "2007")
    idx = deck.draw(np.random.default_rng(1), 40_000)
    tops = Counter(idx[:, 0].tolist())
    assert len(tops) == 20  # the 20 level-II cards, each about 1/20 of the time
    share = np.asarray(list(tops.values())) / 40_000
    assert np.all(np.abs(share - 0.05) < 5 * np.sqrt(0.05 * 0.95 / 40_000))


def test_learning_flight_is_the_eight_starred_cards_shuffled():
    for edition in ("2007", "2021"):
        deck = build_deck(round_rules("learning"), edition)
        starred = sorted(c.id for c in load_cards(edition) if c.learning)
        assert len(starred) == 8
        idx = deck.draw(np.random.default_rng(0), 50)
        for row in idx.tolist():
            assert sorted(deck.cards[i].id for i in row) == starred
        assert len({tuple(r) for r in idx.tolist()}) > 40


def test_the_2021_edition_has_no_third_round():
    with pytest.raises(InputError, match="level-3"):
        build_deck(round_rules("3"), "2021")


def test_deck_file_fixes_the_cards_and_their_order(tmp_path):
    f = tmp_path / "deck.toml"
    f.write_text('format = 1\nedition = "2007"\ncards = ["I-05", "I-12", "II-04"]\n')
    deck = load_deck_file(f)
    assert deck.describe() == ["I-05", "I-12", "II-04"]
    assert deck.draw(np.random.default_rng(0), 3).tolist() == [[0, 1, 2]] * 3


@pytest.mark.parametrize("text,key", [
    ('format = 2\ncards = ["I-05"]\n', "format"),
    ('format = 1\ncards = []\n', "cards"),
    ('format = 1\ncards = ["I-99"]\n', "cards"),
    ('format = 1\nedition = "1999"\ncards = ["I-05"]\n', "edition"),
    ('format = 1\ncards = ["I-05"]\nshuffle = true\n', "shuffle"),
])
def test_bad_deck_files_name_the_key(tmp_path, text, key):
    f = tmp_path / "deck.toml"
    f.write_text(text)
    with pytest.raises(InputError) as e:
        load_deck_file(f)
    assert e.value.key == key and e.value.file == str(f)


def test_common_random_numbers_two_ships_see_the_same_decks_and_dice():
    """With one seed, run r draws the same deck and the same dice whatever the ships: the chunk's
    generator is consumed by the deck draw and then by a fixed block of rolls per card slot."""
    from shipcheck.round.chunks import ROLLS

    rules = round_rules("1")
    deck = build_deck(rules)
    states = []
    for ships in ([A(), D()], [gunship(), A(), D()]):
        g = np.random.default_rng(np.random.SeedSequence(entropy=9, spawn_key=(0,)))
        decks = deck.draw(g, 500)
        rolls = g.integers(0, 36, size=(500, decks.shape[1], ROLLS), dtype=np.uint8)
        states.append((decks.copy(), rolls.copy()))
        simulate_round(ships[0], opponents=ships[1:], runs=500, seed=9)  # the ships play no part in the draw
    assert np.array_equal(states[0][0], states[1][0]) and np.array_equal(states[0][1], states[1][1])


def test_common_random_numbers_shared_dice_show_in_results():
    """Two variants under one seed: the same meteor rolls hit the same opponent the same way, so an
    opponent's results do not depend on the ship flying with it in a deck without interaction."""
    a = simulate_round(A(), round=1, opponents=[gunship()], deck=["I-11", "I-10"], runs=3000, seed=4, keep_runs=True)
    b = simulate_round(D(), round=1, opponents=[gunship()], deck=["I-11", "I-10"], runs=3000, seed=4, keep_runs=True)
    assert np.array_equal(a.players[1].lost, b.players[1].lost)
    assert not np.array_equal(a.players[0].lost, b.players[0].lost)
