"""The readable slow reference of the rules of flight, kept in the tests as an oracle, never shipped.

``oracle.flight`` and ``oracle.kernel`` are the flight model as it was before the rules moved to
:mod:`shipcheck.engine` (a state, a roll, the default policy's decision, what is destroyed, the
pieces that fall off, the crew); ``oracle.round`` is the memoised round engine (one module per card
type, Python once per distinct state). The differential tests fly them beside the engine on fixed
examples and seeded random ships, decks and dice, and compare every number.
"""
