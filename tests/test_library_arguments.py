"""The library's arguments held to what they promise (a sweep of a notebook user's mistakes): each
a `shipcheck.InputError` naming the argument before any work, never a silently wrong answer."""

from __future__ import annotations

from pathlib import Path

import pytest

import shipcheck
from shipcheck import InputError
from shipcheck.flight.chain import Decision, Policy

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
SCOUT = shipcheck.load_ship(EXAMPLES / "class-I-scout.toml")
START = shipcheck.load_ship(EXAMPLES / "building" / "class-I-start.toml")


def test_design_reads_its_opponents_once_a_generator_too() -> None:
    # the final flight met an empty field: the generator was spent reading the field's ships
    by_list = shipcheck.design("I", opponents=[SCOUT], budget=4, runs=20, seed=1)
    by_generator = shipcheck.design("I", opponents=(s for s in [SCOUT]), budget=4, runs=20, seed=1)
    assert by_generator.field == by_list.field == (("Scout", by_list.field[0][1]),)
    assert by_generator.credits == by_list.credits
    for bad in ("abc", True, {"a": SCOUT}):
        with pytest.raises(InputError) as exc:
            shipcheck.design("I", opponents=bad, budget=4, runs=20, seed=1)
        assert exc.value.key == "opponents"


@pytest.mark.parametrize("kw, key", [({"budget": 10**30}, "budget"), ({"progress": True}, "progress"),
                                     ({"progress": lambda: None}, "progress"), ({"time_limit": True}, "time_limit"),
                                     ({"time_limit": float("nan")}, "time_limit"), ({"edition": True}, "edition")])
def test_design_refuses_before_it_searches(kw: dict[str, object], key: str) -> None:
    with pytest.raises(InputError) as exc:
        shipcheck.design("I", runs=20, seed=1, **kw)  # type: ignore[arg-type]
    assert exc.value.key == key


def test_check_many_takes_one_string_as_one_item(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    mistakes = str(EXAMPLES / "mistakes")
    every = len(shipcheck.check_many([mistakes]))
    # "zz*" was read as the patterns z, z and *: nothing was left
    assert len(shipcheck.check_many([mistakes], exclude="zz*")) == every
    assert len(shipcheck.check_many([mistakes], exclude="loose-piece.toml")) == every - 1
    only = shipcheck.check_many([mistakes], select="S1")  # was: unknown rule code 'S'
    assert set(only["codes"]) <= {"S1", ""}
    for kw in ({"select": True}, {"exclude": 1.5}, {"ignore": {"S1": 1}}):
        with pytest.raises(InputError) as exc:
            shipcheck.check_many([mistakes], **kw)  # type: ignore[arg-type]
        assert exc.value.key == next(iter(kw))


def test_check_many_excludes_alike_from_any_working_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    mistakes = str(EXAMPLES / "mistakes")
    counts = []
    for where in (ROOT, tmp_path):
        monkeypatch.chdir(where)
        counts.append(len(shipcheck.check_many([mistakes], exclude=["loose-piece.toml"])))
    assert counts[0] == counts[1] == len(shipcheck.check_many([mistakes])) - 1


def test_an_optimal_policy_answers_only_its_own_question() -> None:
    attacks = ["light-shot:right", "heavy-shot:left", "small-meteor:front"]
    pol = shipcheck.OptimalPolicy(shipcheck.FlightModel(SCOUT), [shipcheck.parse_attack(a) for a in attacks])
    assert shipcheck.odds(SCOUT, attacks, policy=pol).p_survive == shipcheck.odds(SCOUT, attacks,
                                                                                   policy="optimal").p_survive
    for other in (attacks[::-1], attacks + attacks):  # read its values as theirs: wrong, or an IndexError
        with pytest.raises(InputError, match="built for another ship or other attacks") as exc:
            shipcheck.odds(SCOUT, other, policy=pol)
        assert exc.value.key == "policy"
        with pytest.raises(InputError):
            shipcheck.simulate(SCOUT, other, policy=pol, runs=100, seed=1)
    with pytest.raises(InputError) as exc:
        shipcheck.OptimalPolicy(None, attacks)  # type: ignore[arg-type]
    assert exc.value.key == "model"
    with pytest.raises(InputError) as exc:
        shipcheck.OptimalPolicy(shipcheck.FlightModel(SCOUT), "x")
    assert exc.value.key is not None


class Says(Policy):
    """A player's policy answering what it is told to."""

    name = "says"

    def __init__(self, answer: object) -> None:
        self.answer = answer

    def decide(self, sit: object) -> Decision:
        return self.answer  # type: ignore[return-value]


@pytest.mark.parametrize("answer", [None, "shield", Decision(shield=True), Decision(draws=(999,))])
def test_a_players_decision_the_rules_refuse_is_an_input_error(answer: object) -> None:
    ship = shipcheck.load_ship(EXAMPLES / "class-II-freighter.toml")
    for ask in (lambda: shipcheck.odds(ship, ["small-meteor:front"] * 2, policy=Says(answer)),
                lambda: shipcheck.simulate(ship, ["small-meteor:front"] * 2, policy=Says(answer), runs=50, seed=1)):
        with pytest.raises(InputError) as exc:
            ask()
        assert exc.value.key == "policy" and "says" in exc.value.message


def test_a_seed_is_at_most_256_bits() -> None:
    with pytest.raises(InputError, match="2\\*\\*256") as exc:
        shipcheck.simulate(SCOUT, ["small-meteor:left"], runs=100, seed=10**5000)
    assert exc.value.key == "seed"
    r = shipcheck.simulate(SCOUT, ["small-meteor:left"], runs=100, seed=2**256 - 1)
    assert repr(r) and r.to_dict()["seed"] == 2**256 - 1


@pytest.mark.parametrize("call", [
    lambda f: shipcheck.simulate(SCOUT, ["small-meteor:left"], runs=100, seed=1, progress=f),
    lambda f: shipcheck.simulate_round(SCOUT, runs=20, seed=1, progress=f),
], ids=["simulate", "simulate_round"])
def test_a_progress_callback_is_checked_before_the_work(call: object) -> None:
    with pytest.raises(InputError, match="2 arguments") as exc:
        call(lambda: None)  # type: ignore[operator]
    assert exc.value.key == "progress"
    seen: list[tuple[int, int]] = []
    call(lambda done, total: seen.append((done, total)))  # type: ignore[operator]
    assert seen and seen[-1][0] == seen[-1][1]


def test_a_tile_object_in_hand_is_held_to_a_ship_files_rules() -> None:
    for tile, word in ((shipcheck.Tile(at=0, kind="zzz", sides="0111"), "unknown tile kind"),
                       (shipcheck.Tile(at=0, kind="cannon", sides="9"), "bad side string")):
        with pytest.raises(InputError, match=word) as exc:
            shipcheck.advise(START, tile, credits=False, exact=False)
        assert exc.value.key == "tile"
    good = shipcheck.Tile(at=0, kind="cannon", sides="0111")
    assert shipcheck.advise(START, good, credits=False, exact=False).placements



@pytest.mark.parametrize("weigh, word", [({"loss": 1e308}, "at most 1e\\+09"), ({"loss": "2"}, "not text"),
                                         ("loss=1,loss=2", "given twice")])
def test_weights_that_would_leave_no_finite_score_or_hide_a_mistake(weigh: object, word: str) -> None:
    with pytest.raises(InputError, match=word) as exc:
        shipcheck.advise(START, "cannon:0111", credits=False, exact=False, weigh=weigh)
    assert exc.value.key == "weigh"


def test_constructors_and_writers_check_their_arguments() -> None:
    with pytest.raises(InputError):
        shipcheck.FlightModel(None)  # type: ignore[arg-type]
    with pytest.raises(InputError):
        shipcheck.FlightModel(SCOUT, track_crew="x")  # type: ignore[arg-type]
    with pytest.raises(InputError) as exc:
        shipcheck.dump_ship(SCOUT, comment=1.5)  # type: ignore[arg-type]
    assert exc.value.key == "comment"
    assert shipcheck.dump_ship(SCOUT, comment="mine").startswith("# mine\n")
