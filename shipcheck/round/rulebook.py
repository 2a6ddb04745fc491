"""The numbers of a round (``tiles/rounds.toml``): decks, start positions, track, rewards, caps.

Values the rulebooks leave open are marked *provisional* with the open question they rest on; a
user file in the same format overrides any key (:func:`round_rules` with ``rules=PATH``), and the
notes of a result name every provisional value it used.
"""

from __future__ import annotations

import copy
import functools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shipcheck.data import data_path
from shipcheck.defaults import ROUNDS
from shipcheck.errors import InputError, Locator, read_text_file, read_toml

__all__ = ["EPIDEMIC", "ROUNDS", "RoundRules", "round_key", "round_rules"]

RULES_BYTES = 1024 * 1024  # the largest rules file read
_LEVELS = {"I": 1, "II": 2, "III": 3}
_ROUND_KEYS = ("level", "deck", "track", "start_gaps", "arrival", "best_looking", "luxury", "provisional")
#: which cabins an Epidemic strikes (OQ14): those ``adjacent`` to another occupied cabin (on the
#: next square, joined or not) or only those ``joined`` to one by connectors
EPIDEMIC = ("adjacent", "joined")
_CARD_KEYS = ("epidemic", "provisional")


def round_key(value: Any, *, key: str = "round") -> str:
    """``1``, ``"1"``, ``"3a"``, ``"learning"`` as the key of ``[round.*]``; an InputError (a
    ValueError) naming ``key`` otherwise (:func:`shipcheck.validate.round_key`)."""
    from shipcheck.validate import round_key as valid_round

    return valid_round(value, key=key, rounds=ROUNDS)


@dataclass(frozen=True)
class RoundRules:
    """One round's numbers, and the game's goods prices and insurance caps."""

    round: str
    level: int
    deck: tuple[tuple[int, int], ...] | None  # (level, cards) per level; None for the learning flight
    track: int
    start_gaps: tuple[int, ...]
    arrival: tuple[int, ...]
    best_looking: int
    luxury: int
    goods: dict[str, int] = field(hash=False, compare=False)
    caps: dict[str, int] = field(hash=False, compare=False)
    provisional: dict[str, str] = field(hash=False, compare=False)  # key -> why it is provisional
    cap_notes: dict[str, str] = field(hash=False, compare=False)
    source: str = "packaged"
    epidemic: str = "adjacent"
    card_notes: dict[str, str] = field(default_factory=dict, hash=False, compare=False)

    @property
    def cards(self) -> int:
        return 8 if self.deck is None else sum(n for _, n in self.deck)

    def start_positions(self, players: int) -> tuple[int, ...]:
        """Track positions at launch, the leader on 0 and each ship behind the one before."""
        gaps = self.start_gaps
        pos = [0]
        for i in range(1, players):
            pos.append(pos[-1] - gaps[min(i - 1, len(gaps) - 1)])
        return tuple(pos)

    def arrival_rewards(self, players: int, five_player: bool) -> tuple[int, ...]:
        """Reward per place among the ships that finish; five-player rules double the first."""
        base = list(self.arrival)
        if five_player:
            base = [base[0]] + base
        while len(base) < players:
            base.append(0)
        return tuple(base[:players])

    def cap_for(self, board_name: str, board_cap: int | None) -> tuple[int | None, str | None]:
        """The lost-component cap of a board and a note when it is provisional."""
        if board_name in self.caps:
            return self.caps[board_name], self.cap_notes.get(board_name)
        return board_cap, None

    def notes(self, used: tuple[str, ...] = ("track", "start_gaps", "arrival", "best_looking", "luxury")) -> list[str]:
        return [f"provisional {k}: {self.provisional[k]}" for k in used if k in self.provisional]

    def card_rule_notes(self, types: set[str] | frozenset[str]) -> list[str]:
        """Notes on the card rules of ``[cards]`` that the card types ``types`` use."""
        out = []
        if "epidemic" in types:
            what = ("joined by connectors to another occupied cabin" if self.epidemic == "joined" else
                    "next to another occupied cabin, joined or not")
            why = self.card_notes.get("epidemic")
            out.append(f"epidemic = \"{self.epidemic}\": it strikes occupied cabins {what}"
                       + (f" (provisional, {why})" if why else f" (set by {self.source})"))
        return out


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for k, v in over.items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = _merge(out[k], v)
        else:
            out[k] = v
    return out


def _read(path: str) -> dict[str, Any]:
    p = Path(path)
    try:
        stamp = p.stat().st_mtime_ns
    except OSError:
        stamp = -1
    return _read_cached(path, stamp)


@functools.lru_cache(maxsize=8)
def _read_cached(path: str, stamp: int) -> dict[str, Any]:
    p = Path(path)
    text = read_text_file(p, what="the rules file", limit=RULES_BYTES)
    doc = read_toml(text, p)
    doc["__locator__"] = Locator(text)
    return doc


def _user_overrides(doc: dict[str, Any]) -> set[tuple[str, ...]]:
    """Keys a user file sets: they are no longer provisional."""
    out: set[tuple[str, ...]] = set()
    for k, v in doc.get("round", {}).items():
        if isinstance(v, dict):
            out |= {("round", str(k), kk) for kk in v if kk != "provisional"}
    for k in doc.get("caps", {}):
        if k != "provisional":
            out.add(("caps", k))
    cards = doc.get("cards", {})
    for k in cards if isinstance(cards, dict) else ():
        if k != "provisional":
            out.add(("cards", k))
    return out


def round_rules(round: Any = 1, rules: str | Path | None = None) -> RoundRules:
    """The numbers of ``round`` from the packaged file, with ``rules`` (a TOML file) merged over it."""
    key = round_key(round)
    base = copy.deepcopy({k: v for k, v in _read(str(data_path("rounds.toml"))).items() if k != "__locator__"})
    src = "packaged"
    path: Path | None = None
    loc: Locator | None = None
    if rules is not None:
        path = Path(rules)
        raw_user = _read(str(path))
        loc = raw_user["__locator__"]
        user = copy.deepcopy({k: v for k, v in raw_user.items() if k != "__locator__"})
        for k in user:
            if k not in ("format", "goods", "caps", "round", "cards"):
                raise InputError("unknown top-level key", file=path, line=loc.line_of(k), key=k,
                                 expected="format, [goods], [caps], [cards], [round.N]")
        if user.get("format", 1) != 1:
            raise InputError("unsupported format", file=path, line=loc.line_of("format"), key="format",
                             value=user.get("format"), expected="1")
        overrides = _user_overrides(user)
        base = _merge(base, user)
        for _, r, kk in (o for o in overrides if o[0] == "round"):
            base["round"][r].get("provisional", {}).pop(kk, None)
        for _, c in (o for o in overrides if o[0] == "caps"):
            base["caps"].get("provisional", {}).pop(c, None)
        for _, c in (o for o in overrides if o[0] == "cards"):
            base["cards"].get("provisional", {}).pop(c, None)
        src = str(path)

    def bad(k: str, value: Any, expected: str) -> InputError:
        return InputError(f"bad value in [round.{key}]", file=path or data_path("rounds.toml"),
                          line=loc.line_of(k) if loc else None, key=k, value=value, expected=expected)

    raw = base.get("round", {}).get(key)
    if not isinstance(raw, dict):
        raise bad("round", raw, f"a [round.{key}] table")
    for k in raw:
        if k not in _ROUND_KEYS:
            raise bad(k, raw[k], ", ".join(_ROUND_KEYS))

    def pos_int(k: str, lo: int = 0) -> int:
        v = raw.get(k)
        if type(v) is not int or v < lo:
            raise bad(k, v, f"an integer >= {lo}")
        return v

    def int_list(k: str, lo: int = 0) -> tuple[int, ...]:
        v = raw.get(k)
        if not isinstance(v, list) or not v or any(type(x) is not int or x < lo for x in v):
            raise bad(k, v, f"a non-empty list of integers >= {lo}")
        return tuple(v)

    deck_raw = raw.get("deck")
    deck: tuple[tuple[int, int], ...] | None
    if deck_raw == "learning":
        deck = None
    elif isinstance(deck_raw, dict) and deck_raw and all(
            k in _LEVELS and type(n) is int and 0 < n <= 20 for k, n in deck_raw.items()):
        deck = tuple(sorted((_LEVELS[k], n) for k, n in deck_raw.items()))
    else:
        raise bad("deck", deck_raw, '"learning" or a table like { I = 4, II = 8 } (1-20 cards a level)')
    goods = base.get("goods", {})
    if set(goods) != {"red", "yellow", "green", "blue"} or any(type(v) is not int for v in goods.values()):
        raise InputError("bad [goods] table", file=path or data_path("rounds.toml"), key="goods", value=goods,
                         expected="red, yellow, green, blue credits as integers")
    caps_raw = dict(base.get("caps", {}))
    cap_notes = dict(caps_raw.pop("provisional", {}))
    for k, v in caps_raw.items():
        if type(v) is not int or v < 0:
            raise InputError("bad cap", file=path or data_path("rounds.toml"), key=f"caps.{k}", value=v,
                             expected="an integer >= 0")
    cards_raw = base.get("cards", {})
    cfile = path or data_path("rounds.toml")
    if not isinstance(cards_raw, dict):
        raise InputError("bad [cards] table", file=cfile, key="cards", value=cards_raw,
                         expected="a table like [cards] epidemic = \"adjacent\"")
    for k in cards_raw:
        if k not in _CARD_KEYS:
            raise InputError("unknown key in [cards]", file=cfile, key=f"cards.{k}", value=cards_raw[k],
                             expected=", ".join(_CARD_KEYS))
    epidemic = cards_raw.get("epidemic", "adjacent")
    if epidemic not in EPIDEMIC:
        raise InputError("bad epidemic rule", file=cfile, line=loc.line_of("epidemic") if loc else None,
                         key="cards.epidemic", value=epidemic, expected=" or ".join(f'"{e}"' for e in EPIDEMIC))
    card_notes = cards_raw.get("provisional", {})
    if not isinstance(card_notes, dict):
        card_notes = {}
    level = pos_int("level", 1)
    return RoundRules(
        round=key,
        level=level,
        deck=deck,
        track=pos_int("track", 2),
        start_gaps=int_list("start_gaps", 1),
        arrival=int_list("arrival"),
        best_looking=pos_int("best_looking"),
        luxury=pos_int("luxury"),
        goods=dict(goods),
        caps=caps_raw,
        provisional=dict(raw.get("provisional", {})),
        cap_notes=cap_notes,
        source=src,
        epidemic=epidemic,
        card_notes={str(k): str(v) for k, v in card_notes.items()},
    )
