"""One ship through a sequence of attacks: the flight model, exact odds (and the optimal policy),
Monte Carlo, exact counts, the ship's parameters and the on-disk odds cache."""
