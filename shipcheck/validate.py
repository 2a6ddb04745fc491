"""The arguments of the library's functions, checked in one place.

Every public function checks its runs, seed, round, policy, opponents, rules file, deck, tile in
hand or score weights with the validators here, and the command line passes its options through
unchanged: a value is refused the same way whichever door it came in by, with an
:class:`~shipcheck.errors.InputError` naming the argument, the bad value and what was expected
(docs/errors.md). :func:`as_option` renames the argument to the option that gave it (``--runs``).

>>> runs(2000, minimum=2)
2000
>>> round_key("lerning")
Traceback (most recent call last):
...
shipcheck.errors.InputError: <input>: bad `round`; key `round`; value 'lerning' (expected 1, 2, 3, 3a or learning); did you mean `learning`?
"""

from __future__ import annotations

import math
import numbers
import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from shipcheck.defaults import ROUNDS
from shipcheck.errors import InputError, check_type, short_repr, suggest
from shipcheck.errors import shown_value as _shown

if TYPE_CHECKING:
    from shipcheck.model import Ship
    from shipcheck.round.deck import Deck

__all__ = [
    "OPTIONS",
    "as_option",
    "available_memory",
    "callback",
    "check_memory",
    "choice",
    "count",
    "deck",
    "edition",
    "flag",
    "instance",
    "opponents",
    "policy",
    "round_key",
    "rules",
    "runs",
    "seed",
    "ship",
    "top",
    "weights",
]

#: library argument -> the command-line option that carries it
OPTIONS: dict[str, str] = {
    "runs": "--runs", "seed": "--seed", "round": "--round", "top": "--top", "weigh": "--weigh",
    "policy": "--policy", "opponent_policy": "--opponent-policy", "opponents": "--opponent", "rules": "--rules",
    "deck": "--deck", "edition": "--edition", "tile": "TILE", "batch": "--batch", "workers": "--workers",
    "max_runs": "--runs", "precision": "--precision", "scheduler": "--scheduler", "purse": "--purse",
    "five_player": "--five-player", "exclude": "--exclude",
}

#: the editions whose cards and tiles the tool ships
EDITIONS = ("2007", "2021")


def _bad(key: str, value: Any, expected: str, hint: str | None = None, what: str | None = None) -> InputError:
    return InputError(what or f"bad `{key}`", key=key, value=value, expected=expected, hint=hint)




def as_option(exc: InputError, options: Mapping[str, str] = OPTIONS) -> InputError:
    """``exc`` with a library argument's name replaced by its command-line option (``runs`` ->
    ``--runs``), in its key and wherever its message names one in backticks; errors about files, or
    about names not in ``options``, come back unchanged."""
    if exc.file is not None or exc.key is None or exc.key not in options or len(exc.errors) != 1:
        return exc

    def named(text: str | None) -> str | None:
        for name, opt in options.items():
            text = text.replace(f"`{name}`", opt) if text is not None else None
        return text

    return InputError(named(exc.message) or "", key=options[exc.key], value=exc.value, expected=named(exc.expected),
                      hint=exc.hint)


def instance(value: Any, kind: type | tuple[type, ...], *, key: str, expected: str) -> Any:
    """``value`` when it is an instance of ``kind``; an InputError naming ``key`` otherwise
    (:func:`shipcheck.errors.check_type`, which :mod:`shipcheck.errors`' own users call)."""
    check_type(value, kind, key, expected)
    return value


# -- numbers --------------------------------------------------------------------------------------
def count(value: Any, *, key: str, minimum: int = 1, maximum: int | None = None) -> int:
    """``value`` as an int from ``minimum`` to ``maximum``: a whole number (numpy's too), not a bool,
    a float or a string."""
    span = f"an integer >= {minimum}" if maximum is None else f"an integer from {minimum} to {maximum}"
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise _bad(key, _shown(value), span)
    v = int(value)
    if v < minimum or (maximum is not None and v > maximum):
        raise _bad(key, v, span)
    return v


# -- memory: runs whose arrays cannot fit are refused before they start ----------------------------
def available_memory() -> int | None:
    """Bytes of memory available to new allocations (``MemAvailable``), or None when unknown."""
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return int(os.sysconf("SC_AVPHYS_PAGES")) * int(os.sysconf("SC_PAGE_SIZE"))
    except (AttributeError, ValueError, OSError):
        return None


def _size(n: float) -> str:
    for unit in ("bytes", "KB", "MB", "GB", "TB", "PB", "EB", "ZB", "YB"):
        if n < 1000 or unit == "YB":
            return f"{n:.0f} {unit}" if unit == "bytes" else f"{n:.1f} {unit}"
        n /= 1000
    raise AssertionError  # pragma: no cover


def check_memory(needed: int, *, key: str, value: Any, what: str, per: int = 0) -> None:
    """Refuse up front (an :class:`InputError` with the estimate) a run whose arrays cannot fit;
    with ``per`` (the bytes one unit of ``value`` needs) the message gives the largest value that fits."""
    avail = available_memory()
    if avail is not None and needed > avail:
        bound = f"at most about {avail // per:,} on this machine" if per else "a smaller value"
        raise InputError(f"{what} would need about {_size(needed)} of memory, and {_size(avail)} is available",
                         key=key, value=value, expected=bound)


def runs(value: Any, *, key: str = "runs", minimum: int = 1, maximum: int | None = None, run_bytes: int = 0,
         what: str = "keeping the results of") -> int:
    """A number of runs, from ``minimum`` to ``maximum`` (the most one call takes: more would run
    for hours or days, see :mod:`shipcheck.defaults`); with ``run_bytes`` (the memory one run keeps),
    refused up front when the runs could not fit in the memory available (the message gives the
    estimate and what is available), rather than growing until the machine runs out."""
    n = count(value, key=key, minimum=minimum)
    if maximum is not None and n > maximum:
        raise _bad(key, n, f"at most {maximum:,} runs a call: more would run for hours or days; pool the runs of "
                           "several seeds instead", what=f"too many runs for one call ({n:,})")
    if run_bytes:
        check_memory(n * run_bytes, key=key, value=n, what=f"{what} {n:,} runs", per=run_bytes)
    return n


#: the largest seed: 256 bits (78 digits), more than numpy's SeedSequence draws from; a seed of
#: 5,000 digits could be flown but neither printed nor written as JSON (Python's 4,300-digit limit)
MAX_SEED = 2**256 - 1


def seed(value: Any, *, key: str = "seed") -> int | None:
    """None (a fresh seed is drawn) or an int from 0 to :data:`MAX_SEED`."""
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool) and value > MAX_SEED:
        raise _bad(key, f"an integer of {value.bit_length()} bits", "an integer from 0 to 2**256 - 1")
    return count(value, key=key, minimum=0)


def top(value: Any, *, key: str = "top") -> int | None:
    """None (every placement) or an int >= 1."""
    if value is None:
        return None
    return count(value, key=key, minimum=1)


_PLAIN_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?", re.ASCII)


#: the largest weight either way: the score sums weights times counts, which must stay finite (JSON)
MAX_WEIGHT = 1e9


def weights(value: Any, defaults: Mapping[str, float], *, key: str = "weigh") -> dict[str, float]:
    """The score's weights over ``defaults``: None, ``"loss=3,exposed=1"`` or a mapping; every weight
    a finite number (``nan`` or ``inf`` would leave every score the same nan or infinity)."""
    out = dict(defaults)
    if value is None:
        return out
    items: list[tuple[Any, Any]]
    if isinstance(value, str):
        items = []
        for part in filter(None, (p.strip() for p in value.split(","))):
            k, eq, v = part.partition("=")
            items.append((k.strip(), v.strip() if eq else None))
    elif isinstance(value, Mapping):
        items = list(value.items())
    else:
        raise _bad(key, _shown(value), 'a string "NAME=X,..." or a mapping {name: number}')
    seen: set[Any] = set()
    for k, v in items:
        if k not in defaults:
            raise _bad(key, k, ", ".join(defaults), hint=suggest(k, defaults), what="unknown weight")
        if k in seen:
            raise _bad(key, k, "each weight once", what="a weight given twice")
        seen.add(k)
        if isinstance(value, Mapping) and isinstance(v, str):
            raise _bad(key, f"{k}={v!r}", "a number, not text", what="bad weight")
        x: float | None = None
        if isinstance(v, str) and not _PLAIN_NUMBER.fullmatch(v.strip()):
            x = None  # float() also reads "1_0" and other scripts' digits ("٣"): a user means neither
        elif isinstance(v, (numbers.Real, str)) and not isinstance(v, bool):
            try:
                x = float(v)
            except (ValueError, OverflowError):
                x = None
        if x is None or not math.isfinite(x) or abs(x) > MAX_WEIGHT:
            shown = k if v is None else f"{k}={short_repr(v) if not isinstance(v, str) else v}"  # (None: no "=X")
            raise _bad(key, shown, f"NAME=X with X a finite number of at most {MAX_WEIGHT:g} either way, "
                       "e.g. loss=3", what="bad weight")
        out[k] = x
    return out


# -- names ----------------------------------------------------------------------------------------
def _either(options: Sequence[str]) -> str:
    return options[0] if len(options) == 1 else ", ".join(options[:-1]) + " or " + options[-1]


def choice(value: Any, choices: Iterable[str], *, key: str, what: str | None = None) -> str:
    """``value`` when it is one of ``choices`` (a did-you-mean otherwise)."""
    options = list(choices)
    if isinstance(value, str) and value in options:
        return value
    raise _bad(key, _shown(value), _either(options), hint=suggest(value, options), what=what)


def round_key(value: Any, *, key: str = "round", rounds: Sequence[str] | None = None) -> str:
    """A round as the key of ``[round.N]``: ``1``, ``"1"``, ``" 3A "``, ``"learning"`` -> ``"1"``,
    ``"3a"``, ``"learning"``. ``rounds``: the rounds allowed (default every round the simulator
    flies, :data:`shipcheck.defaults.ROUNDS`)."""
    if rounds is None:
        rounds = ROUNDS
    options = sorted(rounds, key=lambda r: (not r[:1].isdigit(), r))
    if isinstance(value, str) or (isinstance(value, numbers.Integral) and not isinstance(value, bool)):
        k = str(int(value)) if not isinstance(value, str) else value.strip().lower()
        if k in rounds:
            return k
        raise _bad(key, value, _either(options), hint=suggest(k, options))
    raise _bad(key, _shown(value), _either(options))


def edition(value: Any, *, key: str = "edition") -> str | None:
    """None (the ship's) or an edition the tool ships, ``"2007"`` or ``"2021"`` (an int is read as its digits)."""
    if value is None:
        return None
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        value = str(int(value))
    return choice(value, EDITIONS, key=key)


def policy(value: Any, names: Iterable[str], *, key: str = "policy", kind: type | tuple[type, ...] = ()) -> Any:
    """A policy by name (one of ``names``) or an object of ``kind``, returned as given."""
    if kind and isinstance(value, kind):
        return value
    options = list(names)
    if isinstance(value, str) and value in options:
        return value
    kinds = kind if isinstance(kind, tuple) else (kind,)
    objects = f" (in Python also a {' or '.join(k.__name__ for k in kinds)} object)" if kind else ""
    raise _bad(key, _shown(value), _either(options) + objects, hint=suggest(value, options))


def flag(value: Any, *, key: str, none: bool = False) -> bool | None:
    """A bool (numpy's too); None too where ``none`` (the default chosen later)."""
    if value is None and none:
        return None
    if isinstance(value, bool) or (type(value).__module__ == "numpy" and type(value).__name__ in ("bool", "bool_")):
        return bool(value)
    raise _bad(key, _shown(value), "True or False" + (" or None" if none else ""))


def callback(value: Any, *, key: str, expected: str, args: int | None = None) -> Callable[..., Any] | None:
    """None or a callable (that takes ``args`` positional arguments, where its signature says: refused
    before the work starts, not at its first call)."""
    if value is not None and not callable(value):
        raise _bad(key, _shown(value), expected)
    if value is not None and args is not None:
        import inspect

        try:
            sig = inspect.signature(value)
        except (TypeError, ValueError):  # a builtin without one: trusted
            return value
        try:
            sig.bind(*([None] * args))
        except TypeError:
            raise _bad(key, f"a callable{sig}", f"{expected} ({args} argument{'s' if args != 1 else ''})") from None
    return value


# -- ships and files ------------------------------------------------------------------------------
def ship(value: Any, *, key: str = "ship") -> Ship:
    """A :class:`~shipcheck.model.Ship`, or a ship file path (loaded)."""
    from shipcheck.model import Ship

    if isinstance(value, Ship):
        return value
    if isinstance(value, (str, Path)):
        from shipcheck.shipfile import load_ship

        return load_ship(value)
    raise _bad(key, _shown(value), "a Ship or a ship file path")


def opponents(value: Any, *, key: str = "opponents", at_most: int = 4) -> list[Ship] | None:
    """None (the default field), or a list of at most ``at_most`` Ships or ship file paths (loaded)."""
    if value is None:
        return None
    expected = f"None (the default field) or a list of at most {at_most} Ships or ship file paths"
    if isinstance(value, (str, Path, bytes)) or not isinstance(value, Iterable) or isinstance(value, Mapping):
        from shipcheck.model import Ship

        hint = "a list: [the ship]" if isinstance(value, (Ship, str, Path)) else None
        raise _bad(key, _shown(value), expected + (f"; {hint}" if hint else ""))
    items = list(value)
    if len(items) > at_most:
        raise _bad(key, len(items), f"at most {at_most} opponents (five players)", what="too many opponents")
    return [ship(o, key=key) for o in items]


def rules(value: Any, *, key: str = "rules") -> Path | None:
    """None (the packaged numbers) or the path of a rules file (read by
    :func:`shipcheck.round.rulebook.round_rules`)."""
    if value is None:
        return None
    if isinstance(value, (str, Path)) and str(value):
        return Path(value)
    raise _bad(key, _shown(value), "None or the path of a TOML rules file")


def deck(value: Any, *, edition: str | None = None, key: str = "deck") -> Deck | None:
    """None (decks drawn as the rules build them), a :class:`~shipcheck.round.deck.Deck`, a deck
    file path (loaded; its edition must be ``edition`` when one is asked for) or a non-empty list of
    card ids (in ``edition``)."""
    if value is None:
        return None
    from shipcheck.round.deck import Deck, fixed_deck, load_deck_file

    if isinstance(value, Deck):
        return value
    if isinstance(value, (str, Path)):
        d = load_deck_file(value)
        if edition is not None and d.edition != edition:
            raise InputError("the deck file's edition is not the one asked for", file=str(value), key="edition",
                             value=d.edition, expected=edition)
        return d
    if isinstance(value, Sequence) and all(isinstance(c, str) for c in value):
        if not value:
            raise _bad(key, "[]", "at least one card id, e.g. ['I-05']", what="an empty deck")
        return fixed_deck(list(value), edition)
    raise _bad(key, _shown(value), "None (drawn), a Deck, a deck file path or a non-empty list of card ids")


#: a fresh seed fits a JSON number that any script holds exactly (IEEE double)
SEED_BITS = 53


def positive_int(name: str, v: Any) -> int:
    """``v`` as an int >= 1, or an :class:`InputError` naming the argument (:func:`count`)."""
    from shipcheck.validate import count

    return count(v, key=name, minimum=1)


def fresh_seed() -> int:
    """A new random seed below 2**53, so JSON readers hold it exactly and a run can be repeated."""
    import secrets

    return secrets.randbits(SEED_BITS)


def seed_of(rng: Any, seed: Any) -> int:
    """The integer seed of a run: from ``seed``, from ``rng`` (int, SeedSequence or Generator) or fresh."""
    import numpy as np

    if rng is not None and seed is not None:
        raise InputError("give either `rng` or `seed`, not both", key="seed", expected="one of `rng` and `seed`")
    src = seed if seed is not None else rng
    name = "seed" if seed is not None else "rng"
    if src is None:
        return fresh_seed()
    if isinstance(src, (bool, np.bool_, int, np.integer)) or name == "seed":
        from shipcheck.validate import seed as valid_seed

        return valid_seed(src, key=name)  # type: ignore[return-value]
    if name == "rng" and isinstance(src, np.random.SeedSequence):
        if not src.spawn_key and isinstance(src.entropy, (int, np.integer)) and int(src.entropy) <= MAX_SEED:
            return int(src.entropy)
        words = src.generate_state(4, np.uint32)  # a spawned or list-seeded sequence: fold to 128 bits
        return sum(int(w) << (32 * i) for i, w in enumerate(words))
    if name == "rng" and isinstance(src, np.random.Generator):
        return int.from_bytes(src.bytes(16), "little")
    raise InputError(f"bad `{name}`", key=name, value=src,
                     expected="an int seed" + (", a numpy SeedSequence or a numpy Generator" if name == "rng" else ""))


_DASK_SCHEMES = ("tcp", "tls", "inproc", "ucx", "ws", "wss")


def check_scheduler(scheduler: Any) -> None:
    """An :class:`InputError` for a ``scheduler`` that is neither None, ``"local"``, a scheduler
    address (``tcp://host:port``, ``host:port``) nor a ``distributed.Client``."""
    if scheduler is None or scheduler == "local":
        return
    if isinstance(scheduler, str):
        scheme, sep, rest = scheduler.partition("://")
        if not sep:
            scheme, rest = "tcp", scheduler
        host, colon, port = rest.rpartition(":")
        if scheme not in _DASK_SCHEMES or (scheme != "inproc" and (not colon or not host or not port.isdecimal()
                                                                    or not port.isascii())):
            raise InputError("bad Dask scheduler address", key="scheduler", value=scheduler,
                             expected="'local', or an address like tcp://127.0.0.1:8786 "
                                      f"(schemes {', '.join(_DASK_SCHEMES)})")
        return
    if type(scheduler).__name__ != "Client":
        raise InputError("bad `scheduler`", key="scheduler", value=type(scheduler).__name__,
                         expected="None, 'local', a scheduler address or a distributed.Client")
