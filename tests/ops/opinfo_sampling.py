"""The op database's entries of random sampling: none, since random values have no
numpy reference; tests/ops/test_sampling.py checks their distributions, shapes, dtypes
and errors, and the hostile-input table (tests/reliability/_hostile_calls.py) their
argument checks."""
_RANDOM = "draws random numbers: there is no numpy reference for its values"
_STATE = "reads or sets the random generator's state: not an op on Tensors"

ENTRIES = []
NOT_IN_DATABASE = {
    **dict.fromkeys(["multinomial", "poisson", "randperm", "standard_normal", "standard_gamma",
                     "binomial", "log_normal", "rand_like", "randn_like", "randint_like",
                     "normal_", "cauchy_", "geometric_", "log_normal_", "bernoulli_"], _RANDOM),
    **dict.fromkeys(["get_rng_state", "set_rng_state", "manual_seed"], _STATE),
}
