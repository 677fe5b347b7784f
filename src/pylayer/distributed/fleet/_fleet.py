"""``Fleet``: starting a collective job (:meth:`Fleet.init`), the hybrid-parallel groups,
the worker queries, and the role makers and ``UtilBase`` that Paddle's fleet has."""
import copy
import os

import numpy as np

import pylayer.distributed as dist
from pylayer.distributed.fleet._strategy import DistributedStrategy
from pylayer.distributed.fleet.base.topology import CommunicateTopology, HybridCommunicateGroup

__all__ = ["Role", "PaddleCloudRoleMaker", "UserDefinedRoleMaker", "UtilBase", "Fleet"]


class Role:
    """The roles of a process in a fleet job (Paddle's values); a collective job has
    workers only.

    >>> from pylayer.distributed import fleet
    >>> fleet.Role.WORKER, fleet.Role.SERVER
    (1, 2)
    """
    WORKER = 1
    SERVER = 2
    HETER_WORKER = 3
    ALL = 4
    COORDINATOR = 5

    def __repr__(self):
        return "Role(WORKER=1, SERVER=2, HETER_WORKER=3, ALL=4, COORDINATOR=5)"


def _bool(value, what):
    if not isinstance(value, bool):
        raise TypeError(f"{what} must be a bool, got {type(value).__name__}")
    return value


class PaddleCloudRoleMaker:
    """The role of this process read from the launcher (``PADDLE_TRAINER_ID``,
    ``PADDLE_TRAINERS_NUM``, ``PADDLE_TRAINER_ENDPOINTS``, which pylayer's launcher and
    :func:`pylayer.distributed.init_parallel_env` set). Every process is a worker: pylayer
    has no parameter server. Other keyword arguments of Paddle's are accepted and kept.

    >>> from pylayer.distributed import fleet
    >>> role = fleet.PaddleCloudRoleMaker(is_collective=True)
    >>> role._worker_index(), role._worker_num(), role._is_first_worker()
    (0, 1, True)
    """

    def __init__(self, is_collective=False, **kwargs):
        self._is_collective = _bool(is_collective, f"{type(self).__name__}(): argument "
                                                   f"'is_collective' (position 1)")
        self._kwargs = dict(kwargs)
        self._role = Role.WORKER

    def _worker_index(self):
        return dist.get_rank()

    def _worker_num(self):
        return dist.get_world_size()

    def _role_id(self):
        return self._worker_index()

    def _is_worker(self):
        return self._role == Role.WORKER

    def _is_server(self):
        return self._role == Role.SERVER

    def _is_coordinator(self):
        return self._role == Role.COORDINATOR

    def _is_first_worker(self):
        return self._is_worker() and self._worker_index() == 0

    def _get_trainer_endpoints(self):
        value = os.environ.get("PADDLE_TRAINER_ENDPOINTS", "")
        return value.split(",") if value else []

    def _get_trainer_endpoint(self):
        return os.environ.get("PADDLE_CURRENT_ENDPOINT", "")

    def _get_pserver_endpoints(self):
        return []

    def _server_num(self):
        return 0

    def _server_index(self):
        return -1

    def _node_num(self):
        hosts = {e.split(":")[0] for e in self._get_trainer_endpoints()}
        return max(len(hosts), 1)

    def _get_local_rank(self):
        return os.environ.get("PADDLE_RANK_IN_NODE")

    def _get_local_device_ids(self):
        return os.environ.get("PADDLE_LOCAL_DEVICE_IDS")

    def _get_world_device_ids(self):
        return os.environ.get("PADDLE_WORLD_DEVICE_IDS")

    def _barrier(self, comm_world="worker"):
        dist.barrier()

    def __repr__(self):
        return (f"{type(self).__name__}(is_collective={self._is_collective}, "
                f"worker_index={self._worker_index()}, worker_num={self._worker_num()})")

    def to_string(self):
        return (f"role: {'WORKER' if self._is_worker() else self._role}, rank: "
                f"{self._worker_index()}, world size: {self._worker_num()}")


class UserDefinedRoleMaker(PaddleCloudRoleMaker):
    """A role given by the program instead of the launcher: ``current_id`` (the worker
    index), ``role`` (:class:`Role`), ``worker_num`` and ``worker_endpoints`` keywords,
    as in Paddle; ``server_endpoints`` are accepted (pylayer has no parameter server, so
    a role other than ``Role.WORKER`` is a ValueError).

    >>> from pylayer.distributed import fleet
    >>> role = fleet.UserDefinedRoleMaker(is_collective=True, current_id=1,
    ...                                   role=fleet.Role.WORKER, worker_num=2)
    >>> role._worker_index(), role._worker_num(), role._is_first_worker()
    (1, 2, False)
    """

    def __init__(self, is_collective=False, init_gloo=False, **kwargs):
        super().__init__(is_collective, **kwargs)
        _bool(init_gloo, "UserDefinedRoleMaker(): argument 'init_gloo' (position 2)")
        what = "UserDefinedRoleMaker()"
        self._current_id = kwargs.get("current_id", 0)
        self._num = kwargs.get("worker_num", None)
        for key, value in (("current_id", self._current_id), ("worker_num", self._num)):
            if (value is not None or key == "current_id") and (
                    isinstance(value, bool) or not isinstance(value, int) or value < 0):
                raise TypeError(f"{what}: keyword '{key}' must be a non-negative int, got "
                                f"{value!r}")
        role = kwargs.get("role", Role.WORKER)
        if role != Role.WORKER:
            raise ValueError(f"{what}: keyword 'role' must be Role.WORKER (pylayer runs "
                             f"collective jobs, without parameter servers), got {role!r}")
        endpoints = kwargs.get("worker_endpoints", None)
        if endpoints is not None and (isinstance(endpoints, str) or not all(
                isinstance(e, str) for e in endpoints)):
            raise TypeError(f"{what}: keyword 'worker_endpoints' must be a list of "
                            f"'host:port' strings, got {endpoints!r}")
        self._endpoints = list(endpoints) if endpoints is not None else None
        if self._num is None:
            self._num = len(self._endpoints) if self._endpoints else 1
        if self._current_id >= self._num:
            raise ValueError(f"{what}: keyword 'current_id' ({self._current_id}) must be below "
                             f"'worker_num' ({self._num})")

    def _worker_index(self):
        return self._current_id

    def _worker_num(self):
        return self._num

    def _get_trainer_endpoints(self):
        if self._endpoints is not None:
            return list(self._endpoints)
        return super()._get_trainer_endpoints()


_MODES = ("sum", "min", "max")
_COMM_WORLDS = ("worker", "server", "all")


class UtilBase:
    """Helpers of a fleet job on plain Python and NumPy values (``fleet.util``):
    reductions and gathers over the workers, a barrier, and the share of a file list
    each worker reads. In a job of one process :meth:`all_reduce` and :meth:`all_gather`
    return their input as it is, as Paddle's do.

    >>> from pylayer.distributed import fleet
    >>> fleet.util.get_file_shard(["a.txt", "b.txt", "c.txt"])
    ['a.txt', 'b.txt', 'c.txt']
    """

    def __init__(self):
        self.role_maker = None

    def __repr__(self):
        return "UtilBase()"

    def _set_role_maker(self, role_maker):
        self.role_maker = role_maker

    @staticmethod
    def _comm_world(comm_world, what):
        if comm_world not in _COMM_WORLDS:
            raise ValueError(f"UtilBase.{what}(): argument 'comm_world' must be one of "
                             f"{_COMM_WORLDS}, got {comm_world!r}")

    def all_reduce(self, input, mode="sum", comm_world="worker"):
        """The ``mode`` reduction (``"sum"``, ``"min"``, ``"max"``) of ``input`` (a number,
        a nested list or an array) over the workers, as a NumPy array."""
        if mode not in _MODES:
            raise ValueError(f"UtilBase.all_reduce(): argument 'mode' (position 2) must be "
                             f"one of {_MODES}, got {mode!r}")
        self._comm_world(comm_world, "all_reduce")
        if dist.get_world_size() == 1:
            return input
        values = np.asarray(input)
        if not dist.is_initialized():
            dist.init_parallel_env()
        gathered = []
        dist.all_gather_object(gathered, values)
        return getattr(np, mode)(np.stack(gathered), axis=0)

    def all_gather(self, input, comm_world="worker"):
        """The list of every worker's ``input`` (any picklable value), in rank order."""
        self._comm_world(comm_world, "all_gather")
        if dist.get_world_size() == 1:
            return input
        if not dist.is_initialized():
            dist.init_parallel_env()
        gathered = []
        dist.all_gather_object(gathered, input)
        return gathered

    def barrier(self, comm_world="worker"):
        """Wait until every worker has called it."""
        self._comm_world(comm_world, "barrier")
        if dist.get_world_size() > 1:
            if not dist.is_initialized():
                dist.init_parallel_env()
            dist.barrier()

    def get_file_shard(self, files):
        """This worker's share of ``files``: contiguous blocks, the first
        ``len(files) % worker_num`` workers taking one file more."""
        if not isinstance(files, list):
            raise TypeError("UtilBase.get_file_shard(): argument 'files' (position 1) should "
                            f"be a list of file need to be read, got {type(files).__name__}")
        index, count = dist.get_rank(), dist.get_world_size()
        if self.role_maker is not None:
            index, count = self.role_maker._worker_index(), self.role_maker._worker_num()
        size, extra = divmod(len(files), count)
        begin = index * size + min(index, extra)
        return files[begin:begin + size + (1 if index < extra else 0)]

    def print_on_rank(self, message, rank_id):
        """Print ``message`` on the worker of index ``rank_id`` only."""
        if isinstance(rank_id, bool) or not isinstance(rank_id, int):
            raise TypeError(f"UtilBase.print_on_rank(): argument 'rank_id' (position 2) must "
                            f"be an int, got {type(rank_id).__name__}")
        if rank_id < 0:
            raise ValueError(f"UtilBase.print_on_rank(): argument 'rank_id' (position 2) must "
                             f"be a rank (at least 0), got {rank_id}")
        if dist.get_rank() == rank_id:
            print(message)


class Fleet:
    """A fleet job: :meth:`init` lays the processes out by the strategy's
    ``hybrid_configs`` and builds the process groups
    (:meth:`get_hybrid_communicate_group`). ``pylayer.distributed.fleet`` holds one
    instance and exposes its methods as functions (``fleet.init``, ``fleet.worker_index``,
    ...). Every job is collective (pylayer has no parameter server): ``is_collective=False``
    runs as ``True``, as Paddle's dynamic mode does. :meth:`init` keeps a copy of the
    strategy, as Paddle's does; called again, it lays the processes out anew (Paddle keeps
    the first layout and warns).

    >>> from pylayer.distributed import fleet
    >>> job = fleet.Fleet()
    >>> job.init(is_collective=True) is job
    True
    >>> job.worker_num(), job.worker_index(), job.is_first_worker()
    (1, 0, True)
    """

    def __init__(self):
        self._role_maker = None
        self._user_defined_strategy = DistributedStrategy()
        self._hcg = None
        self._topology = None
        self._is_collective = True

    def __repr__(self):
        if self._hcg is None:
            return "Fleet(initialized=False)"
        hcg = self._hcg
        return (f"Fleet(worker_index={self.worker_index()}, worker_num={self.worker_num()}, "
                f"dp_degree={hcg.get_data_parallel_world_size()}, "
                f"mp_degree={hcg.get_model_parallel_world_size()}, "
                f"pp_degree={hcg.get_pipe_parallel_world_size()}, "
                f"sharding_degree={hcg.get_sharding_parallel_world_size()}, "
                f"sep_degree={hcg.get_sep_parallel_world_size()})")

    def init(self, role_maker=None, is_collective=False, strategy=None, log_level="INFO"):
        """Start the job: the parallel environment (MPI under ``mpiexec``), the role, and
        the hybrid topology of ``strategy.hybrid_configs`` with its process groups. The
        degrees must multiply to the world size (``dp_degree=-1`` takes what the others
        leave); returns this Fleet."""
        what = "fleet.init()"
        # Paddle refuses a wrong role maker or is_collective with a ValueError
        if role_maker is not None and not isinstance(role_maker, PaddleCloudRoleMaker):
            raise ValueError(f"{what}: argument 'role_maker' (position 1) must be a "
                             f"PaddleCloudRoleMaker or UserDefinedRoleMaker, got "
                             f"{type(role_maker).__name__}")
        if not isinstance(is_collective, bool):
            raise ValueError(f"{what}: argument 'is_collective' (position 2) should be "
                             f"instance of `bool`, but got {type(is_collective).__name__}")
        if strategy is not None and not isinstance(strategy, DistributedStrategy):
            raise TypeError(f"{what}: argument 'strategy' (position 3) must be a "
                            f"DistributedStrategy, got {type(strategy).__name__}")
        if not isinstance(log_level, (int, str)) or isinstance(log_level, bool):
            raise TypeError(f"{what}: argument 'log_level' (position 4) must be an int or a "
                            f"str, got {type(log_level).__name__}")
        strategy = copy.deepcopy(strategy) if strategy is not None else DistributedStrategy()
        degrees = self._degrees(strategy, what)
        self._role_maker = role_maker if role_maker is not None else \
            PaddleCloudRoleMaker(is_collective=True)
        self._user_defined_strategy = strategy
        dist.init_parallel_env()
        order = strategy.hybrid_parallel_order
        names = {"dp": "data", "pp": "pipe", "sharding": "sharding", "sep": "sep",
                 "cp": "context", "mp": "model"}
        topology = CommunicateTopology([names[o] for o in order], [degrees[o] for o in order])
        if topology.world_size() != dist.get_world_size():
            raise ValueError(f"{what}: the degrees {degrees} make {topology.world_size()} "
                             f"processes, but the job has {dist.get_world_size()}")
        self._topology = topology
        self._hcg = HybridCommunicateGroup(topology, strategy.hybrid_configs)
        util._set_role_maker(self._role_maker)
        if degrees["mp"] > 1:
            from pylayer.distributed.fleet.layers.mpu.random import model_parallel_random_seed
            seed = strategy.tensor_parallel_configs["tensor_init_seed"]
            model_parallel_random_seed(None if seed == -1 else seed)
        return self

    @staticmethod
    def _degrees(strategy, what):
        configs = strategy.hybrid_configs
        degrees = {"dp": configs["dp_degree"], "mp": configs["mp_degree"],
                   "pp": configs["pp_degree"], "sharding": configs["sharding_degree"],
                   "sep": configs["sep_degree"], "cp": configs["cp_degree"]}
        for key, value in degrees.items():
            if key != "dp" and value < 0:
                raise ValueError(f"{what}: hybrid_configs['{key}_degree'] should be greater or "
                                 f"equal to 0, got {value}")
            degrees[key] = max(value, 1) if key != "dp" else value
        for key in ("ep_degree", "moe_sharding_degree", "cp_sharding_degree"):
            if configs[key] > 1:
                raise ValueError(f"{what}: hybrid_configs['{key}'] above 1 (expert parallel, "
                                 f"context parallel) is not supported by pylayer; such "
                                 f"programs move to Paddle")
        if degrees["cp"] > 1:
            raise ValueError(f"{what}: hybrid_configs['cp_degree'] above 1 (context parallel) "
                             f"is not supported by pylayer; such programs move to Paddle")
        if degrees["dp"] < 0:
            degrees["dp"] = dist.get_world_size() // (degrees["mp"] * degrees["pp"])
        degrees["dp"] = max(degrees["dp"], 1)
        return degrees

    def _check_initialized(self, what):
        if self._hcg is None:
            raise RuntimeError(f"fleet.{what}(): call fleet.init(is_collective=True, "
                               f"strategy=...) first")

    def get_hybrid_communicate_group(self):
        """The :class:`HybridCommunicateGroup` that :meth:`init` built."""
        self._check_initialized("get_hybrid_communicate_group")
        return self._hcg

    def get_hybrid_parallel_topology(self):
        """The :class:`CommunicateTopology` that :meth:`init` laid the processes out by."""
        self._check_initialized("get_hybrid_parallel_topology")
        return self._topology

    def _role(self):
        return self._role_maker if self._role_maker is not None else PaddleCloudRoleMaker()

    def is_first_worker(self):
        """Whether this process is worker 0."""
        return self._role()._is_first_worker()

    def worker_index(self):
        """This worker's index (its rank)."""
        return self._role()._worker_index()

    def worker_num(self):
        """The number of workers (the world size)."""
        return self._role()._worker_num()

    def node_num(self):
        """The number of machines of the job."""
        return self._role()._node_num()

    def local_rank(self):
        """This process's rank on its machine (a str, as Paddle's launcher sets it)."""
        return self._role()._get_local_rank()

    def local_device_ids(self):
        return self._role()._get_local_device_ids()

    def world_device_ids(self):
        return self._role()._get_world_device_ids()

    def is_worker(self):
        """True: every process of a collective job is a worker."""
        return self._role()._is_worker()

    def is_server(self):
        """False: pylayer has no parameter server."""
        return self._role()._is_server()

    def is_coordinator(self):
        return self._role()._is_coordinator()

    def server_num(self):
        return self._role()._server_num()

    def server_index(self):
        return self._role()._server_index()

    def worker_endpoints(self, to_string=False):
        """The workers' ``host:port`` endpoints, as a list or joined by commas."""
        _bool(to_string, "fleet.worker_endpoints(): argument 'to_string' (position 1)")
        endpoints = self._role()._get_trainer_endpoints()
        return ",".join(endpoints) if to_string else endpoints

    def server_endpoints(self, to_string=False):
        _bool(to_string, "fleet.server_endpoints(): argument 'to_string' (position 1)")
        return "" if to_string else []

    def barrier_worker(self):
        """Wait until every worker has called it."""
        util.barrier("worker")

    def all_reduce(self, input, mode="sum"):
        """The ``mode`` reduction (``"sum"``, ``"mean"``, ``"max"``, ``"min"``) of ``input``
        over the workers, as a NumPy array."""
        if mode not in ("sum", "mean", "max", "min"):
            raise ValueError(f"fleet.all_reduce(): argument 'mode' (position 2) must be one of "
                             f"('sum', 'mean', 'max', 'min'), got {mode!r}")
        values = np.asarray(input)
        if dist.get_world_size() > 1:
            gathered = util.all_gather(values)
            values = getattr(np, mode)(np.stack(gathered), axis=0)
        return values

    def distributed_model(self, model):
        from pylayer.distributed.fleet._model import distributed_model
        return distributed_model(model)

    def distributed_optimizer(self, optimizer, strategy=None):
        from pylayer.distributed.fleet._model import distributed_optimizer
        return distributed_optimizer(optimizer, strategy)


util = UtilBase()
fleet = Fleet()
