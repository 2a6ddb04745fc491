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
from shipcheck.errors import Collector, InputError, Locator, read_text_file, read_toml, suggest
from shipcheck.validate import round_key as _valid_round

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
    return _valid_round(value, key=key, rounds=ROUNDS)


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


# -- checking the numbers ----------------------------------------------------------------------------
MAX_TRACK = 1000  # spaces of a flight track
MAX_CREDITS = 1000  # a reward, a price or a cap, in credits
_TOP_KEYS = ("format", "goods", "caps", "cards", "round")
_GOODS = ("red", "yellow", "green", "blue")


def _int(v: Any, lo: int, hi: int) -> str | None:
    """What was expected, when ``v`` is not an integer from ``lo`` to ``hi`` (None when it is)."""
    return None if type(v) is int and lo <= v <= hi else f"an integer from {lo} to {hi}"


def _ints(v: Any, lo: int, hi: int, most: int) -> str | None:
    ok = isinstance(v, list) and 1 <= len(v) <= most and all(type(x) is int and lo <= x <= hi for x in v)
    return None if ok else f"a list of 1 to {most} integers from {lo} to {hi}"


def _deck_value(v: Any) -> str | None:
    ok = v == "learning" or (isinstance(v, dict) and bool(v) and all(
        k in _LEVELS and type(n) is int and 0 < n <= 20 for k, n in v.items()))
    return None if ok else '"learning" or a table like { I = 4, II = 8 } (1-20 cards a level)'


def _notes_value(v: Any) -> str | None:
    ok = isinstance(v, dict) and all(isinstance(x, str) for x in v.values())
    return None if ok else 'a table of notes, like { track = "why it is provisional" }'


#: [round.N] key -> what is wrong with a value (None: nothing)
_ROUND_CHECKS: dict[str, Any] = {
    "level": lambda v: _int(v, 1, 3),
    "deck": _deck_value,
    "track": lambda v: _int(v, 2, MAX_TRACK),
    "start_gaps": lambda v: _ints(v, 1, MAX_TRACK, 4),
    "arrival": lambda v: _ints(v, 0, MAX_CREDITS, 5),
    "best_looking": lambda v: _int(v, 0, MAX_CREDITS),
    "luxury": lambda v: _int(v, 0, MAX_CREDITS),
    "provisional": _notes_value,
}
assert tuple(_ROUND_CHECKS) == _ROUND_KEYS


def _check_file(doc: dict[str, Any], path: Path, loc: Locator) -> None:
    """Every mistake of a user's rules file, before it is merged over the packaged numbers: each
    table a table, each key known (with a did-you-mean), each number an integer in its range."""
    col = Collector()

    def err(msg: str, table: str | None, key: str | None, value: Any, expected: str, options: Any = (),
            hint: str | None = None) -> None:
        line = loc.line_in(table, key) if table else loc.line_of(key)
        where = f"{table}.{key}" if table and key else table or key
        col.add(InputError(msg, file=path, line=line, key=where, value=value, expected=expected,
                           hint=hint or (suggest(key, options) if options else None)))

    def table(name: str, v: Any, expected: str) -> bool:
        if isinstance(v, dict):
            return True
        err(f"`{name}` must be a table", None if "." not in name else name.rsplit(".", 1)[0],
            name.rsplit(".", 1)[-1], v, expected)
        return False

    for k in doc:
        if k not in _TOP_KEYS:
            err("unknown top-level key", None, k, None, "format, [goods], [caps], [cards], [round.N]", _TOP_KEYS)
    if doc.get("format", 1) != 1 or type(doc.get("format", 1)) is not int:
        err("unsupported format", None, "format", doc.get("format"), "1")
    if table("goods", doc.get("goods", {}), "a [goods] table of credits: red, yellow, green, blue"):
        for g, v in doc.get("goods", {}).items():
            if g not in _GOODS:
                err("unknown goods colour", "goods", g, None, ", ".join(_GOODS), _GOODS)
            elif _int(v, 0, MAX_CREDITS):
                err("bad price", "goods", g, v, str(_int(v, 0, MAX_CREDITS)))
    if table("caps", doc.get("caps", {}), "a [caps] table: board name = lost-component cap"):
        for c, v in doc.get("caps", {}).items():
            if c == "provisional":
                if _notes_value(v):
                    err("bad notes", "caps", c, v, 'a table of notes, like { II = "why it is provisional" }')
            elif _int(v, 0, MAX_CREDITS):
                err("bad cap", "caps", c, v, str(_int(v, 0, MAX_CREDITS)))
    if table("cards", doc.get("cards", {}), 'a [cards] table like epidemic = "adjacent"'):
        for k, v in doc.get("cards", {}).items():
            if k not in _CARD_KEYS:
                err("unknown key in [cards]", "cards", k, None, ", ".join(_CARD_KEYS), _CARD_KEYS)
            elif k == "epidemic" and v not in EPIDEMIC:
                err("bad epidemic rule", "cards", k, v, " or ".join(f'"{e}"' for e in EPIDEMIC),
                    hint=suggest(v, EPIDEMIC))
            elif k == "provisional" and _notes_value(v):
                err("bad notes", "cards", k, v, 'a table of notes, like { epidemic = "why it is provisional" }')
    if table("round", doc.get("round", {}), "[round.N] tables, N one of " + ", ".join(ROUNDS)):
        for r, t in doc.get("round", {}).items():
            if r not in ROUNDS:
                err("unknown round", "round", r, None, ", ".join(ROUNDS), ROUNDS)
                continue
            if not table(f"round.{r}", t, f"a [round.{r}] table"):
                continue
            for k, v in t.items():
                if k not in _ROUND_CHECKS:
                    err("unknown key", f"round.{r}", k, None, ", ".join(_ROUND_KEYS), _ROUND_KEYS)
                    continue
                why = _ROUND_CHECKS[k](v)
                if why:
                    err("bad value", f"round.{r}", k, v, why)
                elif k == "provisional":
                    for kk in v:
                        if kk not in _ROUND_KEYS or kk == "provisional":
                            err("a note on an unknown key", f"round.{r}.provisional", kk, None,
                                ", ".join(_ROUND_KEYS[:-1]), _ROUND_KEYS[:-1])
    col.raise_any()


def round_rules(round: Any = 1, rules: str | Path | None = None) -> RoundRules:
    """The numbers of ``round`` from the packaged file, with ``rules`` (a TOML file) merged over it."""
    key = round_key(round)
    base = copy.deepcopy({k: v for k, v in _read(str(data_path("rounds.toml"))).items() if k != "__locator__"})
    src = "packaged"
    path = data_path("rounds.toml")
    loc: Locator | None = None
    if rules is not None:
        path = Path(rules)
        raw_user = _read(str(path))
        loc = raw_user["__locator__"]
        user = copy.deepcopy({k: v for k, v in raw_user.items() if k != "__locator__"})
        _check_file(user, path, loc)
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
        return InputError(f"bad value in [round.{key}]", file=path, line=loc.line_in(f"round.{key}", k) if loc else None,
                          key=f"round.{key}.{k}", value=value, expected=expected)

    raw = base.get("round", {}).get(key)
    if not isinstance(raw, dict):
        raise bad("round", raw, f"a [round.{key}] table")
    for k in _ROUND_KEYS:
        if k == "provisional":
            continue
        why = _ROUND_CHECKS[k](raw.get(k)) if k in raw else "the key (the packaged file has it)"
        if why:
            raise bad(k, raw.get(k), why)
    if any(g > raw["track"] for g in raw["start_gaps"]):
        raise bad("start_gaps", raw["start_gaps"], f"gaps of at most the track's {raw['track']} spaces")
    deck_raw = raw["deck"]
    deck = None if deck_raw == "learning" else tuple(sorted((_LEVELS[k], n) for k, n in deck_raw.items()))
    if deck is not None and raw["level"] not in {lv for lv, _ in deck}:  # (its deck merged key by key)
        which = "level" if loc is not None and loc.line_in(f"round.{key}", "level") else "deck"
        raise bad(which, raw[which], f"a deck holding cards of the round's level {raw['level']} (the deck is "
                                     f"{', '.join(f'{k} = {n}' for k, n in deck_raw.items())}, merged with the "
                                     "packaged one key by key)")
    goods = base.get("goods", {})
    caps_raw = dict(base.get("caps", {}))
    cap_notes = dict(caps_raw.pop("provisional", {}))
    # [cards]: packaged, or checked with the rest of a user's file (_check_file)
    cards_raw = base.get("cards", {})
    epidemic = cards_raw.get("epidemic", "adjacent")
    card_notes = cards_raw.get("provisional", {})
    return RoundRules(
        round=key,
        level=raw["level"],
        deck=deck,
        track=raw["track"],
        start_gaps=tuple(raw["start_gaps"]),
        arrival=tuple(raw["arrival"]),
        best_looking=raw["best_looking"],
        luxury=raw["luxury"],
        goods=dict(goods),
        caps=caps_raw,
        provisional=dict(raw.get("provisional", {})),
        cap_notes=cap_notes,
        source=src,
        epidemic=epidemic,
        card_notes={str(k): str(v) for k, v in card_notes.items()},
    )
