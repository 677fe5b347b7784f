"""Named random streams for tensor parallelism (Paddle's ``mpu.random``): the
model-parallel stream differs per model-parallel rank (the parts of a split weight,
dropout inside a split layer), the global one is the same in every process."""
import contextlib

import pylayer
import pylayer.nn.functional as F

__all__ = ["RNGStatesTracker", "get_rng_state_tracker", "model_parallel_random_seed",
           "dropout"]

MODEL_PARALLEL_RNG = "model_parallel_rng"


class RNGStatesTracker:
    """Named random streams: :meth:`add` starts one from a seed, :meth:`rng_state`
    draws from it for the duration of a ``with`` block (the global stream is put back
    after it, unchanged).

    >>> import pylayer
    >>> from pylayer.distributed.fleet.meta_parallel import RNGStatesTracker
    >>> tracker = RNGStatesTracker()
    >>> tracker.add("mine", 7)
    >>> with tracker.rng_state("mine"):
    ...     a = pylayer.rand([2])
    >>> tracker.reset(); tracker.add("mine", 7)
    >>> with tracker.rng_state("mine"):
    ...     b = pylayer.rand([2])
    >>> bool((a == b).all())
    True
    """

    def __init__(self):
        self.states_ = {}
        self.seeds_ = set()

    def __repr__(self):
        return f"RNGStatesTracker(states={sorted(self.states_)})"

    def reset(self):
        """Forget every stream."""
        self.states_ = {}
        self.seeds_ = set()

    def add(self, name, seed):
        """Start the stream ``name`` from ``seed`` (each name and seed used once)."""
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise TypeError(f"RNGStatesTracker.add(): argument 'seed' (position 2) must be an "
                            f"int, got {type(seed).__name__}")
        if not 0 <= seed < 2 ** 63:
            raise ValueError(f"RNGStatesTracker.add(): argument 'seed' (position 2) must be in "
                             f"[0, 2**63), got {seed}")
        if seed in self.seeds_:
            raise ValueError(f"RNGStatesTracker.add(): seed {seed} already exists")
        if not isinstance(name, str):
            raise TypeError(f"RNGStatesTracker.add(): argument 'name' (position 1) must be a "
                            f"str, got {type(name).__name__}")
        if name in self.states_:
            raise ValueError(f"RNGStatesTracker.add(): state {name!r} already exists")
        self.seeds_.add(seed)
        saved = pylayer.get_rng_state()
        pylayer.seed(seed)
        self.states_[name] = pylayer.get_rng_state()
        pylayer.set_rng_state(saved)

    def get_states_tracker(self):
        """A copy of the streams' positions, for :meth:`set_states_tracker`."""
        return dict(self.states_)

    def set_states_tracker(self, states):
        """Move the streams to positions from :meth:`get_states_tracker`."""
        if not isinstance(states, dict):
            raise TypeError(f"RNGStatesTracker.set_states_tracker(): argument 'states' "
                            f"(position 1) must be a dict, got {type(states).__name__}")
        self.states_ = dict(states)

    def rng_state(self, name=MODEL_PARALLEL_RNG):
        """Draw from the stream ``name`` inside the ``with`` block."""
        try:
            known = name in self.states_
        except TypeError:
            known = False
        if not known:
            raise ValueError(f"RNGStatesTracker.rng_state(): argument 'name' (position 1): "
                             f"state {name!r} does not exist (add it first; fleet.init adds "
                             f"{MODEL_PARALLEL_RNG!r} where mp_degree > 1)")
        return self._drawing(name)

    @contextlib.contextmanager
    def _drawing(self, name):
        saved = pylayer.get_rng_state()
        pylayer.set_rng_state(self.states_[name])
        try:
            yield
        finally:
            self.states_[name] = pylayer.get_rng_state()
            pylayer.set_rng_state(saved)


RNG_STATE_TRACKER = RNGStatesTracker()


def get_rng_state_tracker():
    """The process's :class:`RNGStatesTracker`.

    >>> from pylayer.distributed.fleet.meta_parallel import get_rng_state_tracker
    >>> type(get_rng_state_tracker()).__name__
    'RNGStatesTracker'
    """
    return RNG_STATE_TRACKER


def model_parallel_random_seed(seed=None):
    """Start the model-parallel stream (a different seed per model-parallel rank) and,
    with a ``seed``, seed the global stream with it (the same in every process).
    Without one the seeds come from the global stream, which is left as it was (Paddle
    draws a new global seed there).

    >>> import pylayer.distributed as dist
    >>> from pylayer.distributed import fleet
    >>> from pylayer.distributed.fleet.meta_parallel import model_parallel_random_seed
    >>> _ = fleet.init(is_collective=True)
    >>> model_parallel_random_seed(100)
    """
    from pylayer.distributed import fleet
    hcg = fleet.fleet._hcg
    rank = hcg.get_model_parallel_rank() if hcg is not None else 0
    pp_rank = hcg.get_stage_id() if hcg is not None else 0
    if seed is None:
        base = int(pylayer.randint(0, 2 ** 20, [1]).item())
        local = base * 1024 + 1 + rank * 10 + pp_rank * 1000
    else:
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise TypeError(f"model_parallel_random_seed(): argument 'seed' (position 1) must "
                            f"be an int or None, got {type(seed).__name__}")
        if not 0 <= seed < 2 ** 50:
            raise ValueError(f"model_parallel_random_seed(): argument 'seed' (position 1) must "
                             f"be in [0, 2**50), got {seed}")
        local = seed * 1024 + 1 + rank * 10 + pp_rank * 1000
        pylayer.seed(seed)
    RNG_STATE_TRACKER.reset()
    RNG_STATE_TRACKER.add(MODEL_PARALLEL_RNG, local)


def dropout(x, p=0.5, axis=None, rng_name=None, training=True, mode="upscale_in_train",
            name=None):
    """:func:`pylayer.nn.functional.dropout` drawing its mask from the tracker's stream
    ``rng_name`` (the global stream where it is None).

    >>> import pylayer
    >>> from pylayer.distributed.fleet.layers.mpu import dropout
    >>> dropout(pylayer.ones([3]), p=0.0).numpy()
    array([1., 1., 1.], dtype=float32)
    """
    scope = contextlib.nullcontext() if rng_name is None else \
        RNG_STATE_TRACKER.rng_state(rng_name)
    with scope:
        return F.dropout(x, p=p, axis=axis, training=training, mode=mode, name=name)
