"""Adventure cards: shipcheck.cards and the card files in tiles/cards/ (against the reference data:
tests/reference/)."""

from __future__ import annotations

import dataclasses
import json
from collections import Counter

import pytest

from shipcheck.cards import Attack, Card, CombatLine, find_card, load_card_file, load_cards

ROMAN = {1: "I", 2: "II", 3: "III"}

# rules.md §14.2 (original edition, 20 cards a level); the 2021 decks have the same mix at I-II
PER_LEVEL = {
    1: {"open_space": 4, "planets": 4, "meteor_swarm": 3, "abandoned_ship": 2,
        "abandoned_station": 2, "slavers": 1, "smugglers": 1, "pirates": 1, "combat_zone": 1,
        "stardust": 1},
    2: {"open_space": 3, "planets": 4, "meteor_swarm": 3, "abandoned_ship": 2,
        "abandoned_station": 2, "slavers": 1, "smugglers": 1, "pirates": 1, "combat_zone": 1,
        "stardust": 1, "epidemic": 1},
    3: {"open_space": 3, "planets": 4, "meteor_swarm": 3, "abandoned_ship": 2,
        "abandoned_station": 2, "slavers": 1, "smugglers": 1, "pirates": 1, "combat_zone": 1,
        "epidemic": 1, "sabotage": 1},
}
LEVELS = {"2007": (1, 2, 3), "2021": (1, 2)}


def counts(cards) -> dict[int, Counter]:
    out: dict[int, Counter] = {}
    for c in cards:
        out.setdefault(c.level, Counter())[c.type] += 1
    return out


# ------------------------------------------------------------ catalogue shape


@pytest.mark.parametrize("edition,total", [("2007", 60), ("2021", 40)])
def test_totals_and_ids(edition, total):
    cards = load_cards(edition)
    assert len(cards) == total
    assert all(isinstance(c, Card) and c.edition == edition for c in cards)
    assert [(c.level, c.index) for c in cards] == [
        (lv, i) for lv in LEVELS[edition] for i in range(1, 21)
    ]
    assert all(c.id == f"{ROMAN[c.level]}-{c.index:02d}" for c in cards)


@pytest.mark.parametrize("edition", ["2007", "2021"])
def test_counts_per_type_per_level(edition):
    assert counts(load_cards(edition)) == {lv: Counter(PER_LEVEL[lv]) for lv in LEVELS[edition]}


@pytest.mark.parametrize("edition", ["2007", "2021"])
def test_eight_learning_cards_all_level_one(edition):
    learning = [c for c in load_cards(edition) if c.learning]
    assert len(learning) == 8  # rules.md §14.1(4)
    assert {c.level for c in learning} == {1}


def test_load_cards_is_cached():
    assert load_cards("2007") is load_cards("2007")


def test_cards_are_frozen_and_hashable():
    card = find_card("I-09")
    with pytest.raises(dataclasses.FrozenInstanceError):
        card.level = 2  # type: ignore[misc]
    assert len({*load_cards("2007"), *load_cards("2021")}) == 100


def test_unknown_edition():
    with pytest.raises(ValueError, match="2007"):
        load_cards("1999")


# ------------------------------------------------------------ hand-checked cards


def test_2007_I_09_meteors():
    card = find_card("2007:I-09")
    assert card.type == "meteor_swarm" and card.learning
    assert card.attacks() == (
        Attack("large", "front"), Attack("small", "left"), Attack("small", "right")
    )
    assert [str(a) for a in card.attacks()] == [
        "large-meteor:front", "small-meteor:left", "small-meteor:right"
    ]


def test_2007_I_03_pirates():
    card = find_card("I-03")
    assert (card.type, card.strength, card.days, card.credits) == ("pirates", 5, 1, 4)
    assert [a.spec for a in card.attacks()] == ["light:front", "heavy:front", "light:front"]


def test_2007_I_16_combat_zone():
    card = find_card("I-16")
    assert card.lines == (
        CombatLine("crew", "days", amount=3),
        CombatLine("engine_power", "crew", amount=2),
        CombatLine("firepower", "shots", shots=(Attack("light", "rear"), Attack("heavy", "rear"))),
    )
    assert card.attacks() == card.lines[2].shots


def test_2021_II_16_combat_zone_shots():
    # reference discrepancy resolved from the card image: three light (front, left, right), heavy rear
    card = find_card("2021:II-16")
    assert [str(a) for a in card.attacks()] == [
        "light-shot:front", "light-shot:left", "light-shot:right", "heavy-shot:rear"
    ]


def test_2007_II_15_planets():
    # reference discrepancy resolved from the sprite: 4 green / 2 yellow / 3 blue, 3 days
    card = find_card("II-15")
    assert card.days == 3
    assert card.planets == (("green",) * 4, ("yellow",) * 2, ("blue",) * 3)


def test_2021_II_02_smugglers_days():
    # reference discrepancy resolved from the card image: 1 flight day
    card = find_card("N-II-02")
    assert (card.type, card.strength, card.days, card.goods_penalty) == ("smugglers", 8, 1, 3)
    assert card.goods == ("red", "yellow", "yellow")


@pytest.mark.parametrize("cid", ["I-01", "I-04", "I-05", "I-12", "I-17", "I-19", "III-04"])
def test_no_attacks(cid):
    assert find_card(cid).attacks() == ()


def test_digest_facts_about_attacks():
    # rules.md §9.3: no large meteor from the rear in the original decks; combat-zone heavy shots
    # from the rear; pirate heavy shots from the front (both editions)
    for card in load_cards("2007"):
        assert Attack("large", "rear") not in card.meteors
    for edition in ("2007", "2021"):
        for card in load_cards(edition):
            sides = {a.side for a in card.attacks() if a.size == "heavy"}
            if card.type == "combat_zone":
                assert sides <= {"rear"}, card.id
            if card.type == "pirates":
                assert sides <= {"front"}, card.id


def _content(card: Card) -> dict:
    d = card.to_dict()
    for key in ("id", "edition", "index", "learning"):
        d.pop(key)
    return d


def test_2021_changes_four_swarms_and_two_planets():
    # rules.md §9.3; compared as multisets per level and type (2021 reorders some cards), with
    # combat-zone shots as multisets (II-16 prints them in another order)
    def key(card: Card) -> str:
        d = _content(card)
        for line in d.get("lines", []):
            line["shots"] = sorted(line.get("shots", []))
        return json.dumps(d, sort_keys=True)

    old = Counter(key(c) for c in load_cards("2007") if c.level <= 2)
    new = Counter(key(c) for c in load_cards("2021"))
    changed = Counter(json.loads(k)["type"] for k in (old - new).elements())
    assert changed == {"meteor_swarm": 4, "planets": 2}
    assert sum((new - old).values()) == 6


# ------------------------------------------------------------ find_card


@pytest.mark.parametrize(
    "text,edition,full_id",
    [
        ("2007:I-09", None, "2007:I-09"),
        ("I-09", None, "2007:I-09"),
        ("I-09", "2021", "2021:I-09"),
        ("2021:II-10", None, "2021:II-10"),
        ("2021:II-10", "2021", "2021:II-10"),
        ("O-I-09", None, "2007:I-09"),
        ("N-II-10", None, "2021:II-10"),
        ("o-iii-20", None, "2007:III-20"),
        (" 2007:I-9 ", None, "2007:I-09"),
    ],
)
def test_find_card_forms(text, edition, full_id):
    assert find_card(text, edition).full_id == full_id


@pytest.mark.parametrize(
    "text,edition",
    [("III-01", "2021"), ("2021:III-01", None), ("I-21", None), ("I-00", None), ("X-01", None),
     ("", None), ("2007:I-09", "2021"), ("N-I-01", "2007"), ("I-01", "1999")],
)
def test_find_card_errors(text, edition):
    with pytest.raises(KeyError) as exc:
        find_card(text, edition)
    if edition is None:
        assert "O-I-09" in str(exc.value) and "2021:II-10" in str(exc.value)


# ------------------------------------------------------------ Attack, to_dict


def test_attack_kinds():
    assert [Attack(s, "front").kind for s in ("small", "large", "light", "heavy")] == [
        "small-meteor", "large-meteor", "light-shot", "heavy-shot"
    ]
    assert str(Attack("small", "front")) == "small-meteor:front"
    assert Attack.parse("small:front") == Attack.parse("small-meteor:front")
    for bad in ("small-shot:front", "tiny:front", "small:up", "small"):
        with pytest.raises(ValueError):
            Attack.parse(bad)


def test_to_dict_has_only_set_fields():
    d = find_card("I-01").to_dict()
    assert d == {
        "id": "2007:I-01", "edition": "2007", "level": 1, "index": 1, "type": "slavers",
        "learning": False, "strength": 6, "days": 1, "credits": 5, "crew_penalty": 3,
    }
    assert find_card("I-05").to_dict() == {
        "id": "2007:I-05", "edition": "2007", "level": 1, "index": 5, "type": "open_space",
        "learning": True,
    }
    for card in load_cards("2007") + load_cards("2021"):
        json.dumps(card.to_dict())


# ------------------------------------------------------------ malformed files

GOOD = """\
format = 1
edition = "2007"

[[card]]
id = "I-09"
level = 1
index = 9
type = "meteor_swarm"
learning = true
meteors = ["large:front"]
"""


def _write(tmp_path, text):
    path = tmp_path / "cards.toml"
    path.write_text(text)
    return path


def test_load_card_file_good(tmp_path):
    (card,) = load_card_file(_write(tmp_path, GOOD), "2007")
    assert card.meteors == (Attack("large", "front"),)


@pytest.mark.parametrize(
    "old,new,key",
    [
        ('meteors = ["large:front"]', 'meteors = ["huge:front"]', "meteors"),
        ('meteors = ["large:front"]', 'meteors = ["light:front"]', "meteors"),
        ('meteors = ["large:front"]', 'shots = ["light:front"]', "shots"),
        ('meteors = ["large:front"]', "", "meteors"),
        ("index = 9", 'index = "9"', "index"),
        ("index = 9", "index = 8", "id"),
        ('type = "meteor_swarm"', 'type = "black_hole"', "type"),
        ("learning = true", 'learning = "yes"', "learning"),
    ],
)
def test_malformed_card_names_file_card_and_key(tmp_path, old, new, key):
    path = _write(tmp_path, GOOD.replace(old, new))
    with pytest.raises(ValueError) as exc:
        load_card_file(path, "2007")
    msg = str(exc.value)
    assert str(path) in msg and "I-09" in msg and f"`{key}`" in msg


@pytest.mark.parametrize(
    "text",
    [
        GOOD.replace("format = 1", "format = 2"),
        GOOD.replace('edition = "2007"', 'edition = "2021"'),
        GOOD + "\n[[card]]\n" + GOOD.split("[[card]]\n")[1],  # duplicate id
        GOOD.replace("learning = true", "learning = true\nstrength = 3"),
        GOOD.replace("level = 1", "level = 1 1"),  # not TOML
    ],
)
def test_malformed_file(tmp_path, text):
    path = _write(tmp_path, text)
    with pytest.raises(ValueError, match=str(path)):
        load_card_file(path, "2007")


def test_malformed_combat_line(tmp_path):
    text = GOOD.replace('type = "meteor_swarm"', 'type = "combat_zone"').replace(
        'meteors = ["large:front"]',
        'lines = [{criterion = "crew", penalty = "days", amount = 3},'
        ' {criterion = "luck", penalty = "days", amount = 1}]',
    )
    with pytest.raises(ValueError, match="criterion") as exc:
        load_card_file(_write(tmp_path, text), "2007")
    assert "`lines`" in str(exc.value) and "I-09" in str(exc.value)
