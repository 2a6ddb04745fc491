"""Adventure cards: the packaged card catalogues (``tiles/cards/<edition>.toml``) and lookups.

Card ids are ``<roman level>-<two-digit index>`` (``"I-09"``), the index being the card's
position 1-20 in its level in the publisher's card-sheet order; ``"2007:I-09"`` names the edition.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

from shipcheck.data import data_path
from shipcheck.errors import (
    Collector,
    InputError,
    Locator,
    UnknownNameError,
    read_text_file,
    read_toml,
    suggest,
)

__all__ = [
    "Attack",
    "Card",
    "CombatLine",
    "CARD_TYPES",
    "DEFAULT_EDITION",
    "find_card",
    "format_card_id",
    "load_card_file",
    "load_cards",
]

DEFAULT_EDITION = "2007"

METEOR_SIZES = ("small", "large")
SHOT_SIZES = ("light", "heavy")
ATTACK_SIDES = ("front", "rear", "left", "right")
GOODS = ("red", "yellow", "green", "blue")
CRITERIA = ("crew", "engine_power", "firepower")
PENALTIES = ("days", "crew", "goods", "shots")

# card type -> its fields (all required), in file order
CARD_TYPES: dict[str, tuple[str, ...]] = {
    "slavers": ("strength", "days", "credits", "crew_penalty"),
    "smugglers": ("strength", "days", "goods", "goods_penalty"),
    "pirates": ("strength", "days", "credits", "shots"),
    "stardust": (),
    "epidemic": (),
    "sabotage": (),
    "open_space": (),
    "meteor_swarm": ("meteors",),
    "planets": ("days", "planets"),
    "combat_zone": ("lines",),
    "abandoned_ship": ("crew_cost", "days", "credits"),
    "abandoned_station": ("crew_required", "days", "goods"),
}

_INT_FIELDS = (
    "strength",
    "days",
    "credits",
    "crew_penalty",
    "goods_penalty",
    "crew_cost",
    "crew_required",
)
_COMMON_KEYS = ("id", "level", "index", "type", "learning")
_ROMAN = {1: "I", 2: "II", 3: "III", 4: "IV"}
_ARABIC = {v: k for k, v in _ROMAN.items()}
_UID_PREFIX = {"O": "2007", "N": "2021"}  # reference-style uids: O-I-09, N-II-10

ACCEPTED_FORMS = (
    '"2007:I-09", "I-09" (edition 2007 unless given), "2021:II-10", '
    '"O-I-09" (original 2007), "N-II-10" (2021)'
)


@dataclass(frozen=True)
class Attack:
    """One meteor or shot: ``size`` small|large (meteors) or light|heavy (shots), from ``side``."""

    size: str
    side: str

    def __post_init__(self) -> None:
        if not isinstance(self.size, str) or self.size not in METEOR_SIZES + SHOT_SIZES:
            raise InputError("bad attack size", key="size", value=self.size, expected="small, large, light or heavy",
                             hint=suggest(self.size, METEOR_SIZES + SHOT_SIZES))
        if not isinstance(self.side, str) or self.side not in ATTACK_SIDES:
            raise InputError("bad attack side", key="side", value=self.side, expected="front, rear, left or right",
                             hint=suggest(self.side, ATTACK_SIDES))

    @property
    def is_meteor(self) -> bool:
        """True for meteors, False for shots."""
        return self.size in METEOR_SIZES

    @property
    def kind(self) -> str:
        """``small-meteor``, ``large-meteor``, ``light-shot`` or ``heavy-shot``."""
        return f"{self.size}-{'meteor' if self.is_meteor else 'shot'}"

    @property
    def spec(self) -> str:
        """The card-file form, ``"small:front"``."""
        return f"{self.size}:{self.side}"

    def __str__(self) -> str:
        return f"{self.kind}:{self.side}"

    @classmethod
    def parse(cls, text: str) -> Attack:
        """Read ``"small:front"`` or ``"small-meteor:front"``; raise InputError (a ValueError) otherwise."""
        head, sep, side = text.strip().lower().partition(":") if isinstance(text, str) else ("", "", "")
        size, _, noun = head.partition("-")
        if not sep or (noun and noun != ("meteor" if size in METEOR_SIZES else "shot")):
            raise InputError("bad attack", key="attack", value=text, expected="SIZE:SIDE, e.g. 'small:front'")
        return cls(size, side)


@dataclass(frozen=True)
class CombatLine:
    """One line of a Combat Zone: the weakest in ``criterion`` takes ``penalty``."""

    criterion: str
    penalty: str
    amount: int | None = None
    shots: tuple[Attack, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form; shots as ``"light-shot:rear"``."""
        out: dict[str, Any] = {"criterion": self.criterion, "penalty": self.penalty}
        if self.amount is not None:
            out["amount"] = self.amount
        if self.shots:
            out["shots"] = [str(a) for a in self.shots]
        return out


@dataclass(frozen=True)
class Card:
    """An adventure card of one edition; fields its type does not use are None or empty."""

    edition: str
    id: str
    level: int
    index: int
    type: str
    learning: bool = False
    strength: int | None = None
    days: int | None = None
    credits: int | None = None
    crew_penalty: int | None = None
    goods_penalty: int | None = None
    crew_cost: int | None = None
    crew_required: int | None = None
    goods: tuple[str, ...] = ()
    meteors: tuple[Attack, ...] = ()
    shots: tuple[Attack, ...] = ()
    planets: tuple[tuple[str, ...], ...] = ()
    lines: tuple[CombatLine, ...] = ()

    @property
    def full_id(self) -> str:
        """``"2007:I-09"``."""
        return f"{self.edition}:{self.id}"

    def attacks(self) -> tuple[Attack, ...]:
        """Meteors of a swarm, shots of pirates or of a combat zone's shots line; else ``()``."""
        if self.meteors:
            return self.meteors
        if self.shots:
            return self.shots
        for line in self.lines:
            if line.penalty == "shots":
                return line.shots
        return ()

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form with only the fields that are set; ``id`` is the full id."""
        out: dict[str, Any] = {
            "id": self.full_id,
            "edition": self.edition,
            "level": self.level,
            "index": self.index,
            "type": self.type,
            "learning": self.learning,
        }
        for name in _INT_FIELDS:
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        if self.goods:
            out["goods"] = list(self.goods)
        if self.meteors:
            out["meteors"] = [str(a) for a in self.meteors]
        if self.shots:
            out["shots"] = [str(a) for a in self.shots]
        if self.planets:
            out["planets"] = [list(p) for p in self.planets]
        if self.lines:
            out["lines"] = [ln.to_dict() for ln in self.lines]
        return out


def format_card_id(level: int, index: int) -> str:
    """``format_card_id(1, 9) == "I-09"``."""
    return f"{_ROMAN[level]}-{index:02d}"


# ---------------------------------------------------------------- loading


class _Reader:
    """Validates one card table, raising InputError that names file, card and key."""

    def __init__(self, path: Path, locator: Locator, pos: int, raw: dict[str, Any]) -> None:
        self.path, self.locator, self.pos, self.raw = path, locator, pos, raw
        self.cid = raw.get("id") if isinstance(raw.get("id"), str) else f"#{pos + 1}"

    def fail(self, key: str, message: str, value: Any = None, expected: str | None = None,
             hint: str | None = None) -> NoReturn:
        raise InputError(
            f"card {self.cid}: {message}",
            file=self.path,
            line=self.locator.line_of(key, table="card", index=self.pos),
            key=key,
            value=value,
            expected=expected,
            hint=hint,
        )

    def int_(self, key: str, lo: int = 0) -> int:
        value = self.raw.get(key)
        if type(value) is not int or value < lo:
            self.fail(key, "bad value", value, f"an integer >= {lo}")
        return value

    def goods(self, key: str, value: Any) -> tuple[str, ...]:
        if not isinstance(value, list) or not value or any(g not in GOODS for g in value):
            self.fail(key, "bad goods list", value, "a non-empty list of red, yellow, green, blue")
        return tuple(value)

    def attacks(self, key: str, value: Any, sizes: tuple[str, ...]) -> tuple[Attack, ...]:
        expected = f"a non-empty list of 'SIZE:SIDE', SIZE in {'/'.join(sizes)}"
        if not isinstance(value, list) or not value:
            self.fail(key, "bad attack list", value, expected)
        out = []
        for item in value:
            try:
                attack = Attack.parse(item) if isinstance(item, str) else None
            except ValueError:
                attack = None
            if attack is None or attack.size not in sizes:
                self.fail(key, "bad attack", item, expected)
            out.append(attack)
        return tuple(out)

    def planets(self) -> tuple[tuple[str, ...], ...]:
        value = self.raw.get("planets")
        if not isinstance(value, list) or not value:
            self.fail("planets", "bad planets list", value, "a list of goods lists")
        return tuple(self.goods("planets", p) for p in value)

    def lines(self) -> tuple[CombatLine, ...]:
        value = self.raw.get("lines")
        if not isinstance(value, list) or not value:
            self.fail("lines", "bad combat lines", value, "a list of {criterion, penalty, ...}")
        out = []
        for ln in value:
            if not isinstance(ln, dict):
                self.fail("lines", "bad combat line", ln, "an inline table")
            crit, pen = ln.get("criterion"), ln.get("penalty")
            if not isinstance(crit, str) or crit not in CRITERIA:
                self.fail("lines", "bad criterion", crit, " | ".join(CRITERIA), hint=suggest(crit, CRITERIA))
            if not isinstance(pen, str) or pen not in PENALTIES:
                self.fail("lines", "bad penalty", pen, " | ".join(PENALTIES), hint=suggest(pen, PENALTIES))
            if pen == "shots":
                if set(ln) != {"criterion", "penalty", "shots"}:
                    self.fail("lines", "a shots line takes criterion, penalty, shots", ln)
                out.append(CombatLine(crit, pen, shots=self.attacks("lines", ln["shots"], SHOT_SIZES)))
            else:
                amount = ln.get("amount")
                if set(ln) != {"criterion", "penalty", "amount"} or type(amount) is not int or amount < 1:
                    self.fail("lines", "bad combat line", ln, "criterion, penalty and amount >= 1")
                out.append(CombatLine(crit, pen, amount=amount))
        return tuple(out)

    def card(self, edition: str) -> Card:
        raw = self.raw
        if not isinstance(raw.get("id"), str):
            self.fail("id", "missing or bad id", raw.get("id"), 'a string like "I-09"')
        ctype = raw.get("type")
        if not isinstance(ctype, str) or ctype not in CARD_TYPES:
            self.fail("type", "unknown card type", ctype, ", ".join(CARD_TYPES), hint=suggest(ctype, CARD_TYPES))
        fields = CARD_TYPES[ctype]
        for key in raw:
            if key not in _COMMON_KEYS and key not in fields:
                self.fail(key, f"key not allowed on a {ctype} card", raw[key],
                          ", ".join(_COMMON_KEYS + fields), hint=suggest(key, _COMMON_KEYS + fields))
        level = self.int_("level", 1)
        if level not in _ROMAN:
            self.fail("level", "bad level", level, "1-4")
        index = self.int_("index", 1)
        if raw["id"] != format_card_id(level, index):
            self.fail("id", "id does not match level and index", raw["id"], format_card_id(level, index))
        learning = raw.get("learning", False)
        if not isinstance(learning, bool):
            self.fail("learning", "bad value", learning, "true or false")
        kw: dict[str, Any] = {}
        for key in fields:
            if key not in raw:
                self.fail(key, f"missing key (a {ctype} card needs {', '.join(fields)})")
            if key in _INT_FIELDS:
                kw[key] = self.int_(key, 0 if key == "days" else 1)
            elif key == "goods":
                kw[key] = self.goods(key, raw[key])
            elif key == "meteors":
                kw[key] = self.attacks(key, raw[key], METEOR_SIZES)
            elif key == "shots":
                kw[key] = self.attacks(key, raw[key], SHOT_SIZES)
            elif key == "planets":
                kw[key] = self.planets()
            elif key == "lines":
                kw[key] = self.lines()
        return Card(edition, raw["id"], level, index, ctype, learning, **kw)


CARD_FILE_BYTES = 1024 * 1024  # the largest card catalogue read


def load_card_file(path: str | Path, edition: str | None = None) -> tuple[Card, ...]:
    """Read a card catalogue file; raise InputError (a ValueError) listing every malformed entry."""
    path = Path(path) if isinstance(path, str) else path
    text = read_text_file(path, what="card file", limit=CARD_FILE_BYTES)
    doc = read_toml(text, path)
    loc = Locator(text)
    col = Collector()

    def top(key: str, message: str, value: Any, expected: str, hint: str | None = None) -> InputError:
        return InputError(message, file=path, line=loc.line_of(key), key=key, value=value,
                          expected=expected, hint=hint)

    for key in doc:
        if key not in ("format", "edition", "card"):
            col.add(top(key, "unknown top-level key", doc[key], "format, edition, [[card]]",
                        hint=suggest(key, ("format", "edition", "card"))))
    if doc.get("format") != 1 or isinstance(doc.get("format"), bool):
        col.add(top("format", "unsupported format", doc.get("format"), "1"))
        col.raise_any()
    file_edition = doc.get("edition")
    if not isinstance(file_edition, str) or (edition is not None and file_edition != edition):
        col.add(top("edition", "bad edition", file_edition, repr(edition or "an edition name")))
    tables = doc.get("card", [])
    if not isinstance(tables, list):
        col.add(top("card", "cards must be [[card]] tables", tables, "[[card]]"))
        tables = []
    cards: list[Card] = []
    seen: set[str] = set()
    for pos, raw in enumerate(tables):
        if not isinstance(raw, dict):
            col.add(top("card", "cards must be [[card]] tables", raw, "[[card]]"))
            continue
        reader = _Reader(path, loc, pos, raw)
        with col.guard():
            card = reader.card(file_edition if isinstance(file_edition, str) else "?")
            if card.id in seen:
                reader.fail("id", "duplicate card id", card.id)
            seen.add(card.id)
            cards.append(card)
    col.raise_any()
    return tuple(cards)


@functools.cache
def _available_editions() -> tuple[str, ...]:
    """The editions with a card catalogue (the package's data: read once a process)."""
    try:
        return tuple(sorted(p.stem for p in data_path("cards").glob("*.toml")))
    except FileNotFoundError:
        return ()


def load_cards(edition: str = DEFAULT_EDITION) -> tuple[Card, ...]:
    """All cards of an edition (``"2007"``: 60, levels I-III; ``"2021"``: 40, levels I-II).

    Raises :class:`~shipcheck.errors.UnknownNameError` for an edition without a catalogue.
    """
    known = _available_editions()
    if not isinstance(edition, str) or edition not in known:
        raise UnknownNameError("no card catalogue for this edition", key="edition", value=edition,
                               expected=", ".join(known) or "none found", hint=suggest(edition, known))
    return _load_cards(edition)


@functools.lru_cache(maxsize=8)
def _load_cards(edition: str) -> tuple[Card, ...]:
    return load_card_file(data_path("cards", f"{edition}.toml"), edition)


@functools.lru_cache(maxsize=8)
def _by_id(edition: str) -> dict[str, Card]:
    return {c.id: c for c in load_cards(edition)}


_ID_RE = re.compile(
    r"^(?:(?P<ed>\d{4})\s*:\s*|(?P<pre>[ON])-)?(?P<lvl>IV|I{1,3}|[1-4])-(?P<idx>\d{1,2})$",
    re.IGNORECASE | re.ASCII,  # only ASCII digits: "I-٣" is not "I-03"
)


def find_card(card_id: str, edition: str | None = None) -> Card:
    """Look a card up by ``"2007:I-09"``, ``"I-09"``, ``"O-I-09"`` or ``"N-II-10"``.

    ``edition`` applies to ids that do not name one (default 2007). Raises
    :class:`~shipcheck.errors.UnknownNameError` (an InputError and a KeyError) when the id is
    malformed, names another edition than ``edition``, or no such card exists.
    """
    m = _ID_RE.match(card_id.strip()) if isinstance(card_id, str) else None
    if m is None:
        raise UnknownNameError("bad card id", key="card", value=card_id, expected=f"one of the forms {ACCEPTED_FORMS}")
    named = m["ed"] or (_UID_PREFIX[m["pre"].upper()] if m["pre"] else None)
    if named is not None and edition is not None and named != edition:
        raise UnknownNameError(f"card id names edition {named}, not {edition}", key="card", value=card_id,
                               expected=f"a card of edition {edition}")
    ed = named or edition or DEFAULT_EDITION
    lvl = m["lvl"].upper()
    level = int(lvl) if lvl.isdigit() else _ARABIC[lvl]
    cid = f"{_ROMAN[level]}-{int(m['idx']):02d}"
    if ed not in _available_editions():
        load_cards(ed)  # raises the error that names the known editions
    cards = _by_id(ed)
    if cid not in cards:
        levels = sorted({c.level for c in cards.values()})
        span = ", ".join(_ROMAN[lv] for lv in levels)
        raise UnknownNameError(f"no card {cid} in edition {ed}", key="card", value=card_id,
                               expected=f"one of its {len(cards)} cards, levels {span}; forms {ACCEPTED_FORMS}",
                               hint=suggest(cid, cards))
    return cards[cid]
