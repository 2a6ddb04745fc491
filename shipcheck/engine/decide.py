"""Where a player decides: the built-in policies' code, or a question to the player's own policy.

A decision point asks :func:`asked` whether this player's policy answers it in Python (a
:class:`~shipcheck.round.policy.RoundPolicy` subclass overriding that method, or a flight policy of
its own); if so :func:`python` calls back (numba's ``objmode``) with the state row and the
question's numbers, and the Python side (:mod:`shipcheck.round.decisions`) answers once per distinct
question; otherwise the built-in code next to the decision point answers. The rules that act on
the answer are the same either way.

Part of the one home of the rules of flight (:mod:`shipcheck.engine`): plain functions in the
subset of Python numba compiles (:func:`shipcheck.runtime.jit`).
"""

from __future__ import annotations

from shipcheck.runtime import call_back, jit, objmode_for

from .layout import ASK, POLICY, TID, V

objmode = objmode_for(__name__)


@jit(inline=True)
def asked(S, p, d):  # type: ignore[no-untyped-def]
    """Whether player ``p``'s own policy answers decision ``d`` (see :data:`layout.DECISIONS`)."""
    return (S[p, V, ASK] >> d) & 1


@jit(inline=True)
def racing(S, p):  # type: ignore[no-untyped-def]
    """Whether player ``p`` flies the built-in racing policy (else the default one)."""
    return S[p, V, POLICY] == 1


@jit(nogil=False)
def python(S, p, d, x, a0, a1, a2, tmp):  # type: ignore[no-untyped-def]
    """Player ``p``'s own policy's answer to decision ``d`` about state row ``x`` (and the question's
    numbers ``a0``-``a2``; answers longer than a number go into ``tmp``)."""
    key = S[0, V, TID]
    with objmode(r="int64"):
        r = call_back(key, d, p, x, a0, a1, a2, tmp)
    return r
