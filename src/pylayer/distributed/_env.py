"""The process environment: MPI when the program runs under ``mpiexec`` with ``mpi4py``
installed (the ``distributed`` extra), else one process of world size 1.

``mpi4py`` is imported only when the program runs under an MPI launcher (its
variables are set) or :func:`init_parallel_env` is called, so that a one-process
program never starts MPI. Paddle's launcher variables (``PADDLE_TRAINER_ID``,
``PADDLE_TRAINERS_NUM``, ``PADDLE_RANK_IN_NODE``, ``PADDLE_LOCAL_SIZE``,
``PADDLE_CURRENT_ENDPOINT``, ``PADDLE_TRAINER_ENDPOINTS``) are read before MPI is
started and written from MPI's ranks once it is.
"""
import os
import sys
import traceback

__all__ = ["ReduceOp", "ParallelEnv", "init_parallel_env", "is_initialized",
           "is_available", "get_rank", "get_world_size", "new_group", "get_group",
           "get_backend", "destroy_process_group", "barrier", "shutdown_process_group",
           "restart_process_group"]

# Variables that MPI launchers set in each process they start (MPICH's Hydra, Open MPI,
# Slurm's PMI); their presence means the program runs under mpiexec.
_RANK_VARIABLES = ("PMI_RANK", "OMPI_COMM_WORLD_RANK", "PMIX_RANK")
_SIZE_VARIABLES = ("PMI_SIZE", "OMPI_COMM_WORLD_SIZE")
_LOCAL_RANK_VARIABLES = ("MPI_LOCALRANKID", "OMPI_COMM_WORLD_LOCAL_RANK")
_LOCAL_SIZE_VARIABLES = ("MPI_LOCALNRANKS", "OMPI_COMM_WORLD_LOCAL_SIZE")


class ReduceOp:
    """The reductions of :func:`all_reduce`, :func:`reduce` and :func:`reduce_scatter`
    (Paddle's values).

    >>> import pylayer.distributed as dist
    >>> dist.ReduceOp.SUM, dist.ReduceOp.AVG
    (0, 4)
    """
    SUM = 0
    MAX = 1
    MIN = 2
    PROD = 3
    AVG = 4

    def __repr__(self):
        return "ReduceOp(SUM=0, MAX=1, MIN=2, PROD=3, AVG=4)"


_OP_NAMES = {0: "SUM", 1: "MAX", 2: "MIN", 3: "PROD", 4: "AVG"}


def _mpi():
    """mpi4py's MPI module, or None where the extra is not installed."""
    try:
        from mpi4py import MPI
    except ImportError:
        return None
    return MPI


def under_mpi_launcher():
    return any(v in os.environ for v in _RANK_VARIABLES)


def _first_int(names, default):
    for name in names:
        if name in os.environ:
            try:
                return int(os.environ[name])
            except ValueError:
                pass
    return default


class _State:
    MPI = None          # mpi4py's MPI once started
    world = None        # the world Group once initialised
    groups = {}         # id -> Group
    next_id = 1


_state = _State()


def _mpi_operations(MPI):
    """MPI's operation for each ReduceOp (SUM, MAX, MIN, PROD, AVG: a sum, divided
    afterwards) on numbers, and on booleans reduced as uint8 (SUM and AVG as any, PROD
    as all), indexed ``[is_bool][op]``."""
    return ((MPI.SUM, MPI.MAX, MPI.MIN, MPI.PROD, MPI.SUM),
            (MPI.MAX, MPI.MAX, MPI.MIN, MPI.MIN, MPI.MAX))


class Group:
    """A set of processes that take part in a collective together (made by
    :func:`new_group`; the world group has id 0). ``ranks`` are global ranks, ``rank``
    is this process's rank in the group (-1 where it is not a member).

    >>> import pylayer.distributed as dist
    >>> g = dist.init_parallel_env()
    >>> g.id, g.ranks, g.nranks, g.rank, g.is_member()
    (0, [0], 1, 0, True)
    """

    def __init__(self, rank_in_group, id, ranks, comm=None, name=None):
        self._rank = rank_in_group
        self._id = id
        self._ranks = list(ranks)
        self.comm = comm
        self.messages = ([], [])      # a world of one's own messages (tensors, objects)
        self._shut_down = False
        self.cheap_all_reduce = None  # see shut_down
        self.shut_down = False
        self._name = name if name is not None else f"_default_pg{id}" if id == 0 else f"group_{id}"

    @property
    def shut_down(self):
        """Whether :func:`shutdown_process_group` shut the group down (until restarted)."""
        return self._shut_down

    @shut_down.setter
    def shut_down(self, value):
        self._shut_down = value
        # all_reduce's cheap path in the world of several processes: MPI's all-reduce,
        # its in-place marker and its operations by ReduceOp, looked up once
        self.cheap_all_reduce = None if value or self._id != 0 or self.comm is None else (
            self.comm.Allreduce, _state.MPI.IN_PLACE, _mpi_operations(_state.MPI)[False])

    @property
    def rank(self):
        return self._rank

    @property
    def ranks(self):
        return list(self._ranks)

    @property
    def nranks(self):
        return len(self._ranks)

    world_size = nranks

    @property
    def id(self):
        return self._id

    @property
    def name(self):
        return self._name

    @property
    def backend(self):
        return "MPI"

    @property
    def process_group(self):
        return self

    def is_member(self):
        return self._rank >= 0

    def get_group_rank(self, rank):
        """The rank in this group of global rank ``rank``; -1 where it is not a member."""
        return self._ranks.index(rank) if rank in self._ranks else -1

    def get_global_rank(self, group_rank):
        """The global rank of the group's rank ``group_rank``; -1 where there is none."""
        if isinstance(group_rank, bool) or not isinstance(group_rank, int):
            raise TypeError(f"Group.get_global_rank(): argument 'group_rank' must be an int, "
                            f"got {type(group_rank).__name__}")
        return self._ranks[group_rank] if 0 <= group_rank < len(self._ranks) else -1

    def __repr__(self):
        return (f"rank: {self.rank}, nranks: {self.nranks}, id: {self.id}, ranks: "
                f"{', '.join(map(str, self._ranks))}; name: {self.name}")


def _write_launcher_variables(rank, size, local_rank, local_size):
    os.environ["PADDLE_TRAINER_ID"] = str(rank)
    os.environ["PADDLE_TRAINERS_NUM"] = str(size)
    os.environ["PADDLE_RANK_IN_NODE"] = str(local_rank)
    os.environ["PADDLE_LOCAL_RANK"] = str(local_rank)
    os.environ["PADDLE_LOCAL_SIZE"] = str(local_size)
    os.environ["PADDLE_WORLD_DEVICE_IDS"] = ",".join(map(str, range(local_size)))
    endpoints = os.environ.get("PADDLE_TRAINER_ENDPOINTS", "").split(",")
    if len(endpoints) != size or not all(endpoints):
        endpoints = [f"127.0.0.1:{6170 + r}" for r in range(size)]
        os.environ["PADDLE_TRAINER_ENDPOINTS"] = ",".join(endpoints)
    os.environ["PADDLE_CURRENT_ENDPOINT"] = endpoints[rank]


def _abort_on_uncaught(MPI):
    """An exception that ends one process of several aborts them all (MPI_Abort), so that
    the others fail at once instead of waiting for it in a collective."""
    previous = sys.excepthook

    def hook(kind, value, tb):
        comm = MPI.COMM_WORLD
        if comm.Get_size() > 1 and not issubclass(kind, KeyboardInterrupt):
            text = "".join(traceback.format_exception(kind, value, tb))
            sys.stderr.write(f"pylayer.distributed: rank {comm.Get_rank()} of "
                             f"{comm.Get_size()} raised an exception; aborting every "
                             f"process of the job\n{text}")
            sys.stderr.flush()
            comm.Abort(1)
        previous(kind, value, tb)
    sys.excepthook = hook


def _start():
    """Start the world: MPI's COMM_WORLD under mpiexec with mpi4py, else a world of one
    process. Idempotent."""
    if _state.world is not None:
        return _state.world
    MPI = _mpi() if under_mpi_launcher() else None
    if MPI is not None:
        comm = MPI.COMM_WORLD
        rank, size = comm.Get_rank(), comm.Get_size()
        local = comm.Split_type(MPI.COMM_TYPE_SHARED, key=rank)
        local_rank, local_size = local.Get_rank(), local.Get_size()
        local.Free()
        _state.MPI = MPI
        if size > 1:
            _abort_on_uncaught(MPI)
        _write_launcher_variables(rank, size, local_rank, local_size)
        _state.world = Group(rank, 0, range(size), comm)
    else:
        if under_mpi_launcher() and _first_int(_SIZE_VARIABLES, 1) > 1:
            raise RuntimeError(
                "pylayer.distributed: this process was started by mpiexec with "
                f"{_first_int(_SIZE_VARIABLES, 1)} processes, but mpi4py is not installed: "
                "install the extra (pip install \"pylayer-autograd[distributed]\")")
        _write_launcher_variables(0, 1, 0, 1)
        _state.world = Group(0, 0, [0])
    _state.groups = {0: _state.world}
    _state.next_id = 1
    return _state.world


def world(what):
    """The world group; before :func:`init_parallel_env` a RuntimeError, as in Paddle."""
    if _state.world is None:
        raise RuntimeError(f"{what}: the global group is not initialized: call "
                           f"pylayer.distributed.init_parallel_env() first")
    return _state.world


def init_parallel_env(nccl_config=None):
    """Start the parallel environment and return the world group: under ``mpiexec`` the
    processes join MPI's world (``mpi4py``), elsewhere this process is a world of one.
    Paddle's launcher variables (``PADDLE_TRAINER_ID``, ``PADDLE_TRAINERS_NUM``, ...)
    are set from it. ``nccl_config`` is accepted for Paddle's signature and ignored
    (there are no GPUs).

    >>> import pylayer.distributed as dist
    >>> group = dist.init_parallel_env()
    >>> dist.is_initialized(), dist.get_world_size(), group.nranks
    (True, 1, 1)
    """
    return _start()


def is_initialized():
    """Whether :func:`init_parallel_env` has started the environment and
    :func:`destroy_process_group` has not ended it.

    >>> import pylayer.distributed as dist
    >>> isinstance(dist.is_initialized(), bool)
    True
    """
    return _state.world is not None


def is_available():
    """Whether distributed communication is available: always True (without MPI the
    collectives run in a world of one process).

    >>> import pylayer.distributed as dist
    >>> dist.is_available()
    True
    """
    return True


def _check_group(group, what):
    if group is None:
        group = world(what)
    elif not isinstance(group, Group):
        raise TypeError(f"{what}: argument 'group' must be a Group (from "
                        f"pylayer.distributed.new_group) or None, got {type(group).__name__}")
    elif group.id not in _state.groups or _state.groups[group.id] is not group:
        raise RuntimeError(f"{what}: the group {group.id} was destroyed "
                           f"(destroy_process_group)")
    if group.shut_down:
        raise RuntimeError(f"{what}: the group {group.id} was shut down "
                           f"(shutdown_process_group); restart it with "
                           f"restart_process_group() first")
    return group


def get_rank(group=None):
    """This process's rank: in the world (``PADDLE_TRAINER_ID`` or the MPI launcher's
    variable before the environment is started), or in ``group`` (-1 where it is not
    a member).

    >>> import pylayer.distributed as dist
    >>> dist.get_rank()
    0
    """
    if group is None and _state.world is None:
        return _first_int(("PADDLE_TRAINER_ID",) + _RANK_VARIABLES, 0)
    return _check_group(group, "get_rank()").rank


def get_world_size(group=None):
    """The number of processes: of the world (``PADDLE_TRAINERS_NUM`` or the MPI
    launcher's variable before the environment is started), or of ``group``.

    >>> import pylayer.distributed as dist
    >>> dist.get_world_size()
    1
    """
    if group is None and _state.world is None:
        return _first_int(("PADDLE_TRAINERS_NUM",) + _SIZE_VARIABLES, 1)
    return _check_group(group, "get_world_size()").nranks


def new_group(ranks=None, backend=None, timeout=None, nccl_comm_init_option=0,
              nccl_config=None):
    """A new group of the given global ``ranks`` (all of them by default), in their
    order. Every process of the world calls it, members or not, in the same order.
    ``backend`` may be None, ``"mpi"``, or Paddle's GPU/CPU names (the communication
    is MPI's whatever the name); the NCCL arguments and ``timeout`` are accepted and
    ignored.

    >>> import pylayer.distributed as dist
    >>> _ = dist.init_parallel_env()
    >>> g = dist.new_group([0])
    >>> g.ranks, g.rank, dist.get_group(g.id) is g
    ([0], 0, True)
    """
    base = world("new_group()")
    if ranks is None:
        ranks = list(range(base.nranks))
    if isinstance(ranks, (str, bytes)) or not hasattr(ranks, "__iter__"):
        raise TypeError(f"new_group(): argument 'ranks' (position 1) must be a list of ints, "
                        f"got {type(ranks).__name__}")
    ranks = list(ranks)
    for r in ranks:
        if isinstance(r, bool) or not isinstance(r, int):
            raise TypeError(f"new_group(): argument 'ranks' (position 1) must be a list of "
                            f"ints, got an element of type {type(r).__name__}")
        if not 0 <= r < base.nranks:
            raise ValueError(f"new_group(): argument 'ranks' (position 1) has rank {r}, "
                             f"outside the world of {base.nranks} processes")
    if len(set(ranks)) != len(ranks):
        raise ValueError(f"new_group(): argument 'ranks' (position 1) repeats a rank: {ranks}")
    if backend is not None and not isinstance(backend, str):
        raise TypeError(f"new_group(): argument 'backend' (position 2) must be a str or None, "
                        f"got {type(backend).__name__}")
    me = base.rank
    comm = None
    if base.comm is not None:
        MPI = _state.MPI
        color = 0 if me in ranks else MPI.UNDEFINED
        key = ranks.index(me) if me in ranks else 0
        comm = base.comm.Split(color, key)
        if comm == MPI.COMM_NULL:
            comm = None
    group = Group(ranks.index(me) if me in ranks else -1, _state.next_id, ranks, comm)
    _state.groups[group.id] = group
    _state.next_id += 1
    return group


def get_group(id=0):
    """The group of the given id (0: the world), or None where there is none (before
    :func:`init_parallel_env` too), as in Paddle.

    >>> import pylayer.distributed as dist
    >>> _ = dist.init_parallel_env()
    >>> dist.get_group().id, dist.get_group(10 ** 6)
    (0, None)
    """
    if isinstance(id, bool) or not isinstance(id, int):
        raise TypeError(f"get_group(): argument 'id' (position 1) must be an int, got "
                        f"{type(id).__name__}")
    return _state.groups.get(id)


def get_backend(group=None):
    """The communication backend's name: ``"MPI"``.

    >>> import pylayer.distributed as dist
    >>> _ = dist.init_parallel_env()
    >>> dist.get_backend()
    'MPI'
    """
    return _check_group(group, "get_backend()").backend


def destroy_process_group(group=None):
    """Destroy ``group``, or with None every group and the environment
    (:func:`is_initialized` is False after it; MPI itself stays up until the process
    exits, so :func:`init_parallel_env` may start it again).

    >>> import pylayer.distributed as dist
    >>> _ = dist.init_parallel_env()
    >>> g = dist.new_group([0])
    >>> dist.destroy_process_group(g)
    >>> dist.destroy_process_group()
    >>> dist.is_initialized()
    False
    """
    if group is None:
        for g in _state.groups.values():
            if g.id != 0 and g.comm is not None:
                g.comm.Free()
        _state.groups = {}
        _state.world = None
        return
    group = _check_group(group, "destroy_process_group()")
    if group.id == 0:
        destroy_process_group()
        return
    if group.comm is not None:
        group.comm.Free()
    del _state.groups[group.id]


def _existing_group(group, what):
    """``group`` (a Group that was not destroyed, shut down or not), or None."""
    if group is None:
        return None
    if not isinstance(group, Group):
        raise TypeError(f"{what}: argument 'group' (position 1) must be a Group or None, got "
                        f"{type(group).__name__}")
    if _state.groups.get(group.id) is not group:
        raise RuntimeError(f"{what}: the group {group.id} was destroyed "
                           f"(destroy_process_group)")
    return group


def shutdown_process_group(group=None):
    """Shut ``group`` down (with None, every group but the world): its MPI
    communicator is freed, and a collective on it raises until
    :func:`restart_process_group`; a group already shut down is left as it is.

    >>> import pylayer.distributed as dist
    >>> _ = dist.init_parallel_env()
    >>> g = dist.new_group([0])
    >>> dist.shutdown_process_group(g)
    >>> dist.barrier(g)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    RuntimeError: barrier(): the group ... was shut down (shutdown_process_group); restart it with restart_process_group() first
    >>> dist.restart_process_group(g)
    >>> dist.barrier(g)
    """
    world("shutdown_process_group()")
    group = _existing_group(group, "shutdown_process_group()")
    for g in [group] if group is not None else [g for g in _state.groups.values() if g.id]:
        if g.shut_down:
            continue
        if g.comm is not None and g.id != 0:      # MPI's world communicator stays
            g.comm.Free()
            g.comm = None
        g.shut_down = True


def restart_process_group(group=None):
    """Restart ``group`` (with None, every group that is shut down, in the order they
    were made) after :func:`shutdown_process_group`: a new MPI communicator of the
    same ranks. As :func:`new_group`, every process of the world calls it, in the same
    order, members or not. A group that is not shut down is left as it is.

    >>> import pylayer.distributed as dist
    >>> _ = dist.init_parallel_env()
    >>> dist.shutdown_process_group()
    >>> dist.restart_process_group()
    """
    base = world("restart_process_group()")
    group = _existing_group(group, "restart_process_group()")
    for g in [group] if group is not None else sorted(_state.groups.values(),
                                                      key=lambda g: g.id):
        if not g.shut_down:
            continue
        if g.id != 0 and base.comm is not None:
            MPI = _state.MPI
            member = g.is_member()
            comm = base.comm.Split(0 if member else MPI.UNDEFINED, g.rank if member else 0)
            g.comm = comm if member else None
        g.shut_down = False


def barrier(group=None):
    """Wait until every process of ``group`` (the world by default) has called it.

    >>> import pylayer.distributed as dist
    >>> _ = dist.init_parallel_env()
    >>> dist.barrier()
    """
    group = _check_group(group, "barrier()")
    if group.comm is not None:
        group.comm.Barrier()


class ParallelEnv:
    """The process's place in the job, as Paddle's launcher describes it (read from its
    variables, which :func:`init_parallel_env` sets under MPI).

    >>> import pylayer.distributed as dist
    >>> env = dist.ParallelEnv()
    >>> env.rank, env.world_size, env.local_rank, env.device_type
    (0, 1, 0, 'cpu')
    """

    @property
    def rank(self):
        return get_rank()

    @property
    def world_size(self):
        return get_world_size()

    nranks = world_size

    @property
    def local_rank(self):
        return _first_int(("PADDLE_RANK_IN_NODE",) + _LOCAL_RANK_VARIABLES, 0)

    @property
    def device_id(self):
        return 0

    dev_id = device_id

    @property
    def device_type(self):
        return "cpu"

    @property
    def current_endpoint(self):
        return os.environ.get("PADDLE_CURRENT_ENDPOINT", "")

    @property
    def trainer_endpoints(self):
        value = os.environ.get("PADDLE_TRAINER_ENDPOINTS", "")
        return value.split(",") if value else []

    @property
    def nrings(self):
        return int(os.environ.get("FLAGS_nccl_nrings", "1"))

    @property
    def pg_timeout(self):
        return int(os.environ.get("PADDLE_PG_TIMEOUT", "1800000"))

    def __repr__(self):
        return (f"ParallelEnv(rank={self.rank}, world_size={self.world_size}, "
                f"local_rank={self.local_rank}, device_type={self.device_type!r})")
