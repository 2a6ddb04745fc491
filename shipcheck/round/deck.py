"""Adventure decks as the rules build them (rules digest §14), and fixed decks from a file.

A drawn deck for round N takes, from the edition's cards, the round's count of each level (round 3:
4 of level I, 4 of II, 8 of III), shuffles them together and reshuffles until the top card is of
the current level. Reshuffling until a condition holds gives every order with such a top card the
same chance, so the draw here is: the top card uniformly among the chosen cards of the current
level, then the other cards in a uniformly random order. The learning flight shuffles the 8 starred
level-I cards.

Every run draws its deck from the chunk's random stream before any die is rolled, with shapes that
depend only on the round and the edition: the same seed gives run ``r`` the same deck whatever the
ships are (see :mod:`shipcheck.round.chunks`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from shipcheck.cards import DEFAULT_EDITION, Card, find_card, format_card_id, load_cards
from shipcheck.errors import InputError, Locator, read_text_file, read_toml

__all__ = ["Deck", "build_deck", "load_deck_file"]

DECK_BYTES = 256 * 1024  # the largest deck file read


@dataclass(frozen=True, eq=False)
class Deck:
    """The cards a round can draw and how: ``fixed`` decks are flown in the given order.

    ``cards`` are the candidate cards; a drawn deck's runs hold indices into it.
    """

    edition: str
    cards: tuple[Card, ...]
    size: int
    fixed: bool
    plan: tuple[tuple[int, tuple[int, ...], int], ...] = ()  # (level, candidate indices, count) per level
    top_level: int = 1
    learning: bool = False
    source: str | None = None

    @property
    def ids(self) -> list[str]:
        return [c.id for c in self.cards]

    def describe(self) -> Any:
        """``"drawn"`` or the list of card ids in order (contract §5's ``deck`` key)."""
        return self.ids if self.fixed else "drawn"

    def draw(self, g: np.random.Generator, n: int) -> np.ndarray:
        """``(n, size)`` indices into :attr:`cards`, the first column the top card."""
        if self.fixed:
            return np.broadcast_to(np.arange(self.size, dtype=np.int16), (n, self.size))
        if self.learning:
            return np.argsort(g.random((n, self.size)), axis=1).astype(np.int16)
        top = np.empty((n, 1), dtype=np.int16)
        rest = []
        for level, idx, k in self.plan:
            pool = np.asarray(idx, dtype=np.int16)
            pick = pool[np.argsort(g.random((n, len(pool))), axis=1)[:, :k]]
            if level == self.top_level:
                top[:, 0] = pick[:, 0]
                pick = pick[:, 1:]
            rest.append(pick)
        others = np.concatenate(rest, axis=1)
        order = np.argsort(g.random(others.shape), axis=1)
        return np.concatenate([top, np.take_along_axis(others, order, axis=1)], axis=1)


class Plan(Protocol):
    """What a round's deck is drawn by: the round's numbers (a
    :class:`~shipcheck.round.rulebook.RoundRules`, defined a layer above this module)."""

    @property
    def round(self) -> str: ...
    @property
    def level(self) -> int: ...
    @property
    def deck(self) -> tuple[tuple[int, int], ...] | None: ...
    @property
    def cards(self) -> int: ...


def build_deck(rules: Plan, edition: str | None = None) -> Deck:
    """The drawn deck of a round for an edition (``"2007"`` levels I-III, ``"2021"`` levels I-II)."""
    ed = edition or DEFAULT_EDITION
    try:
        cards = load_cards(ed)
    except ValueError as exc:
        raise InputError(str(exc), key="edition", value=ed, expected="2007 or 2021") from None
    if rules.deck is None:
        learning = tuple(c for c in cards if c.learning and c.level == 1)
        return Deck(ed, learning, len(learning), False, learning=True)
    plan = []
    for level, k in rules.deck:
        idx = tuple(i for i, c in enumerate(cards) if c.level == level)
        if len(idx) < k:
            raise InputError(f"the {ed} edition has {len(idx)} level-{level} cards; round {rules.round} "
                             f"needs {k}", key="edition", value=ed,
                             expected="an edition with the round's card levels (2021: rounds learning, 1, 2)")
        plan.append((level, idx, k))
    if rules.level not in {lv for lv, _ in rules.deck}:
        raise InputError(f"round {rules.round}'s deck has no card of its own level {rules.level}", key="deck")
    return Deck(ed, cards, rules.cards, False, tuple(plan), rules.level)


def fixed_deck(card_ids: list[str], edition: str | None = None, *, source: str | None = None,
               line: int | None = None) -> Deck:
    """A deck of the given cards in the given order (ids as ``find_card`` reads them)."""
    ed = edition or DEFAULT_EDITION
    cards = []
    for cid in card_ids:
        try:
            cards.append(find_card(cid, ed))
        except InputError as exc:  # find_card's message, said of the deck's `cards`
            raise InputError(exc.message, file=source, line=line, key="cards", value=cid,
                             expected=exc.expected, hint=exc.hint) from None
    return Deck(ed, tuple(cards), len(cards), True, source=source)


def load_deck_file(path: str | Path) -> Deck:
    """A deck file (contract §5): ``format = 1``, ``edition``, ``cards = ["I-05", ...]``."""
    p = Path(path)
    text = read_text_file(p, what="the deck file", limit=DECK_BYTES)
    doc = read_toml(text, p)
    loc = Locator(text)
    for k in doc:
        if k not in ("format", "edition", "cards"):
            raise InputError("unknown top-level key", file=p, line=loc.line_of(k), key=k,
                             expected="format, edition, cards")
    if doc.get("format") != 1:
        raise InputError("unsupported format", file=p, line=loc.line_of("format"), key="format",
                         value=doc.get("format"), expected="1")
    ed = doc.get("edition", DEFAULT_EDITION)
    if ed not in ("2007", "2021"):
        raise InputError("bad edition", file=p, line=loc.line_of("edition"), key="edition", value=ed,
                         expected='"2007" or "2021"')
    ids = doc.get("cards")
    if not isinstance(ids, list) or not ids or not all(isinstance(c, str) for c in ids):
        raise InputError("bad card list", file=p, line=loc.line_of("cards"), key="cards", value=ids,
                         expected='a non-empty list of card ids, e.g. ["I-05", "II-04"]')
    return fixed_deck(ids, ed, source=str(p), line=loc.line_of("cards"))


def card_label(card: Card) -> str:
    return f"{format_card_id(card.level, card.index)} {card.type.replace('_', ' ')}"
