"""The card files in tiles/cards/ against the reference data in ../shared/reference."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from refdata import REFERENCE
from test_cards import ROMAN, counts

from shipcheck.cards import Attack, Card, CombatLine, find_card, load_cards

REF_EDITION = {"2007": "original_2007", "2021": "second_2021"}


# ------------------------------------------------------------ against the reference


@pytest.fixture(scope="module")
def ref() -> dict:
    return json.loads((REFERENCE / "cards_and_boards.json").read_text(encoding="utf-8"))


REF_TYPE = {
    "Slavers": "slavers", "Smugglers": "smugglers", "Pirates": "pirates", "Stardust": "stardust",
    "Epidemic": "epidemic", "Sabotage": "sabotage", "OpenSpace": "open_space",
    "MeteorSwarm": "meteor_swarm", "Planets": "planets", "CombatZone": "combat_zone",
    "AbandonedShip": "abandoned_ship", "AbandonedStation": "abandoned_station",
}
REF_PENALTY = {"flight_days": "days", "crew": "crew", "goods": "goods", "shots": "shots"}
REF_META = {"uid", "level", "index_in_level", "type", "learning_flight", "source_code_O1", "bga_id",
            "image"}


def ref_cards(ref: dict, edition: str) -> list[dict]:
    levels = ref["editions"][REF_EDITION[edition]]["levels"]
    return [c for lv in levels.values() for c in lv]


def ref_as_card(edition: str, rc: dict) -> Card:
    """A reference card in project terms (field names mapped, flight_days -> days)."""
    kw: dict = {}
    for key, value in rc.items():
        if key in REF_META:
            continue
        if key == "flight_days":
            kw["days"] = value
        elif key in ("meteors", "shots"):
            kw[key] = tuple(Attack(a["size"], a["from"]) for a in value)
        elif key == "goods":
            kw[key] = tuple(value)
        elif key == "planets":
            kw[key] = tuple(tuple(p) for p in value)
        elif key == "lines":
            lines = []
            for ln in value:
                pen = ln["penalty"]
                shots = tuple(Attack(a["size"], a["from"]) for a in pen.get("shots", ()))
                lines.append(CombatLine(ln["criterion"], REF_PENALTY[pen["type"]],
                                        pen.get("amount"), shots))
            kw[key] = tuple(lines)
        else:
            kw[key] = value
    lvl, idx = rc["level"], rc["index_in_level"]
    return Card(edition, f"{ROMAN[lvl]}-{idx:02d}", lvl, idx, REF_TYPE[rc["type"]],
                rc["learning_flight"], **kw)


@pytest.mark.parametrize("edition", ["2007", "2021"])
def test_every_card_equals_reference(ref, edition):
    expected = [ref_as_card(edition, rc) for rc in ref_cards(ref, edition)]
    expected.sort(key=lambda c: (c.level, c.index))
    assert list(load_cards(edition)) == expected


@pytest.mark.parametrize("edition", ["2007", "2021"])
def test_reference_uids_find_the_same_card(ref, edition):
    for rc in ref_cards(ref, edition):
        assert find_card(rc["uid"]) == ref_as_card(edition, rc)


@pytest.mark.parametrize("edition", ["2007", "2021"])
def test_counts_match_reference(ref, edition):
    ref_counts = ref["editions"][REF_EDITION[edition]]["counts_by_type"]
    expected = {
        int(lv): Counter({REF_TYPE[t]: n for t, n in by_type.items()})
        for lv, by_type in ref_counts.items()
    }
    assert counts(load_cards(edition)) == expected


@pytest.mark.parametrize("edition", ["2007", "2021"])
def test_learning_cards_match_reference(ref, edition):
    expected = ref["learning_flight_cards_level_I_index"][REF_EDITION[edition]]
    assert [c.index for c in load_cards(edition) if c.learning] == expected


@pytest.mark.parametrize("edition", ["2007", "2021"])
def test_meteor_stats_match_reference(ref, edition):
    stats = ref["editions"][REF_EDITION[edition]]["meteor_stats"]
    for lv, st in stats.items():
        swarms = [c for c in load_cards(edition) if c.level == int(lv) and c.meteors]
        meteors = [m for c in swarms for m in c.meteors]
        assert len(swarms) == st["meteor_swarm_cards"]
        assert len(meteors) == st["meteors_total"]
        assert Counter(m.size for m in meteors) == {"small": st["small"], "large": st["large"]}
        assert Counter(f"{m.size}_{m.side}" for m in meteors) == st["by_direction"]


def test_discrepancy_resolutions_applied(ref):
    # the three recorded transcription discrepancies, as resolved by the reference
    notes = {(d["edition"], d["card"]) for d in ref["transcription_discrepancies"]}
    assert notes == {
        ("original_2007", "2-15"), ("second_2021", "2-02 Smugglers"),
        ("second_2021", "2-16 CombatZone"),
    }
    assert [len(p) for p in find_card("2007:II-15").planets] == [4, 2, 3]
    assert find_card("2021:II-02").days == 1
    assert [a.size for a in find_card("2021:II-16").attacks()] == ["light"] * 3 + ["heavy"]
