"""The hybrid-parallel topology: the processes laid out on a grid of axes (data, pipe,
sharding, sep, context, model), and the process groups of each axis."""
import collections
import itertools
import math

import pylayer.distributed as dist

__all__ = ["CommunicateTopology", "HybridCommunicateGroup"]


class ParallelMode:
    """The kinds of parallelism of :meth:`HybridCommunicateGroup.get_parallel_mode`
    (Paddle's values).

    >>> from pylayer.distributed import ParallelMode
    >>> ParallelMode.DATA_PARALLEL, ParallelMode.TENSOR_PARALLEL, ParallelMode.SEGMENT_PARALLEL
    (0, 1, 4)
    """
    DATA_PARALLEL = 0
    TENSOR_PARALLEL = 1
    PIPELINE_PARALLEL = 2
    SHARDING_PARALLEL = 3
    SEGMENT_PARALLEL = 4

    def __repr__(self):
        return ("ParallelMode(DATA_PARALLEL=0, TENSOR_PARALLEL=1, PIPELINE_PARALLEL=2, "
                "SHARDING_PARALLEL=3, SEGMENT_PARALLEL=4)")


def _check_int(value, what, minimum):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} must be an int, got {type(value).__name__}")
    if value < minimum:
        raise ValueError(f"{what} must be at least {minimum}, got {value}")
    return value


class CommunicateTopology:
    """The processes laid out on a grid whose axes are ``hybrid_group_names`` with sizes
    ``dims``, the first axis outermost: global rank ``r`` is the position of its
    coordinate in row-major order, as in Paddle.

    >>> from pylayer.distributed.fleet import CommunicateTopology
    >>> topo = CommunicateTopology(["data", "pipe", "sharding", "sep", "model"], [2, 1, 1, 1, 2])
    >>> topo.world_size(), topo.get_coord(3)
    (4, Coordinate(data=1, pipe=0, sharding=0, sep=0, model=1))
    >>> topo.get_comm_list("model"), topo.get_comm_list("data")
    ([[0, 1], [2, 3]], [[0, 2], [1, 3]])
    """

    def __init__(self, hybrid_group_names=("data", "pipe", "sharding", "sep", "context",
                                           "model"), dims=(1, 1, 1, 1, 1, 1)):
        what = "CommunicateTopology()"
        if isinstance(hybrid_group_names, str) or not isinstance(hybrid_group_names,
                                                                  (list, tuple)):
            raise TypeError(f"{what}: argument 'hybrid_group_names' (position 1) must be a "
                            f"list of str, got {type(hybrid_group_names).__name__}")
        if not all(isinstance(n, str) and n.isidentifier() for n in hybrid_group_names):
            raise TypeError(f"{what}: argument 'hybrid_group_names' (position 1) must be a "
                            f"list of names (str), got {list(hybrid_group_names)!r}")
        if len(set(hybrid_group_names)) != len(hybrid_group_names):
            raise ValueError(f"{what}: argument 'hybrid_group_names' (position 1) repeats a "
                             f"name: {list(hybrid_group_names)}")
        if not isinstance(dims, (list, tuple)):
            raise TypeError(f"{what}: argument 'dims' (position 2) must be a list of ints, "
                            f"got {type(dims).__name__}")
        for d in dims:
            _check_int(d, f"{what}: argument 'dims' (position 2) element", 1)
        if len(dims) != len(hybrid_group_names):
            raise ValueError(f"{what}: arguments 'hybrid_group_names' and 'dims' must have the "
                             f"same length, got {len(hybrid_group_names)} and {len(dims)}")
        self._parallel_names = list(hybrid_group_names)
        self._dims = list(dims)
        self.coordinate = collections.namedtuple("Coordinate", self._parallel_names)
        self._world_size = math.prod(self._dims)
        coords = [self.coordinate(*c) for c in itertools.product(*map(range, self._dims))]
        self._coord2rank = {c: r for r, c in enumerate(coords)}
        self._rank2coord = dict(enumerate(coords))

    def _axis(self, axis_name, what):
        if axis_name not in self._parallel_names:
            raise ValueError(f"CommunicateTopology.{what}(): argument 'axis_name' must be one "
                             f"of {self._parallel_names}, got {axis_name!r}")
        return self._parallel_names.index(axis_name)

    def __repr__(self):
        return (f"CommunicateTopology(hybrid_group_names={self._parallel_names}, "
                f"dims={self._dims})")

    def get_hybrid_group_names(self):
        """The axes' names, outermost first."""
        return list(self._parallel_names)

    def get_dim(self, axis_name):
        """The size of the axis ``axis_name``."""
        return self._dims[self._axis(axis_name, "get_dim")]

    def get_dim_size(self, axis_name):
        """The size of the axis ``axis_name`` (as :meth:`get_dim`)."""
        return self._dims[self._axis(axis_name, "get_dim_size")]

    def world_size(self):
        """The number of processes of the grid."""
        return self._world_size

    def get_rank(self, **args):
        """The global rank at the coordinate given by one keyword per axis."""
        if sorted(args) != sorted(self._parallel_names):
            raise ValueError(f"CommunicateTopology.get_rank(): give one keyword per axis "
                             f"{self._parallel_names}, got {sorted(args)}")
        for name, value in args.items():
            _check_int(value, f"CommunicateTopology.get_rank(): argument '{name}'", 0)
        key = self.coordinate(**args)
        if key not in self._coord2rank:
            raise ValueError(f"CommunicateTopology.get_rank(): the coordinate {key} is outside "
                             f"the grid {dict(zip(self._parallel_names, self._dims))}")
        return self._coord2rank[key]

    def get_coord(self, rank):
        """The coordinate (a named tuple) of global rank ``rank``."""
        _check_int(rank, "CommunicateTopology.get_coord(): argument 'rank' (position 1)", 0)
        if rank >= self._world_size:
            raise ValueError(f"CommunicateTopology.get_coord(): argument 'rank' (position 1) "
                             f"must be below the world size {self._world_size}, got {rank}")
        return self._rank2coord[rank]

    def get_axis_list(self, axis_name, index):
        """The global ranks (sorted) whose coordinate on ``axis_name`` is ``index``."""
        axis = self._axis(axis_name, "get_axis_list")
        _check_int(index, "CommunicateTopology.get_axis_list(): argument 'index' (position 2)", 0)
        if index >= self._dims[axis]:
            raise ValueError(f"CommunicateTopology.get_axis_list(): argument 'index' (position 2) "
                             f"must be below the axis size {self._dims[axis]}, got {index}")
        return sorted(r for c, r in self._coord2rank.items() if c[axis] == index)

    def get_comm_list(self, axis_name):
        """The groups along ``axis_name``: one list of global ranks per position of the
        other axes, ordered by their coordinate on ``axis_name``."""
        axis = self._axis(axis_name, "get_comm_list")
        others = [range(d) for i, d in enumerate(self._dims) if i != axis]
        groups = []
        for rest in itertools.product(*others):
            rest = list(rest)
            groups.append([self._coord2rank[self.coordinate(*(rest[:axis] + [i] + rest[axis:]))]
                           for i in range(self._dims[axis])])
        return groups

    def get_fused_ranks(self, fused_axis):
        """The groups that span the axes ``fused_axis`` together: one list per position of
        the other axes."""
        if isinstance(fused_axis, str) or not isinstance(fused_axis, (list, tuple)) or not all(
                name in self._parallel_names for name in fused_axis):
            raise ValueError(f"CommunicateTopology.get_fused_ranks(): argument 'fused_axis' "
                             f"(position 1) must be a list of axes of {self._parallel_names}, "
                             f"got {fused_axis!r}")
        kept = [n for n in self._parallel_names if n not in fused_axis]
        groups = []
        for rest in itertools.product(*(range(self.get_dim(n)) for n in kept)):
            where = dict(zip(kept, rest))
            ranks = []
            for fused in itertools.product(*(range(self.get_dim(n)) for n in fused_axis)):
                where.update(zip(fused_axis, fused))
                ranks.append(self._coord2rank[self.coordinate(**where)])
            groups.append(ranks)
        return groups

    def get_rank_from_stage(self, global_rank, **kwargs):
        """The global rank at ``global_rank``'s coordinate with the axes of ``kwargs``
        replaced."""
        _check_int(global_rank, "CommunicateTopology.get_rank_from_stage(): argument "
                                "'global_rank' (position 1)", 0)
        if global_rank >= self._world_size:
            raise ValueError(f"CommunicateTopology.get_rank_from_stage(): argument "
                             f"'global_rank' (position 1) must be below the world size "
                             f"{self._world_size}, got {global_rank}")
        return self.get_rank(**self.get_coord(global_rank)._replace(**kwargs)._asdict())


_HYBRID_PARALLEL_GROUP = None


class HybridCommunicateGroup:
    """This process's place in a :class:`CommunicateTopology` and the process groups of
    each axis (made with :func:`pylayer.distributed.new_group`, every process calling in
    the same order: pipe, data, model, sharding, then sep where its degree is above 1, then
    the check group). The product of the degrees must be the world size.
    ``hybrid_configs`` is accepted for Paddle's signature (its NCCL settings do not apply).

    >>> import pylayer.distributed as dist
    >>> from pylayer.distributed import fleet
    >>> _ = dist.init_parallel_env()
    >>> hcg = fleet.HybridCommunicateGroup(fleet.CommunicateTopology())
    >>> hcg.get_model_parallel_world_size(), hcg.get_data_parallel_rank()
    (1, 0)
    >>> hcg.get_model_parallel_group().ranks
    [0]
    """

    def __init__(self, topology, hybrid_configs=None):
        if not isinstance(topology, CommunicateTopology):
            raise TypeError(f"HybridCommunicateGroup(): argument 'topology' (position 1) must "
                            f"be a CommunicateTopology, got {type(topology).__name__}")
        if not dist.is_initialized():
            dist.init_parallel_env()
        self.nranks = dist.get_world_size()
        self.global_rank = dist.get_rank()
        self._topo = topology
        names = topology.get_hybrid_group_names()

        def degree(axis):
            return topology.get_dim(axis) if axis in names else 1
        self._dp_degree = degree("data")
        self._mp_degree = degree("model")
        self._pp_degree = degree("pipe")
        self._sharding_degree = degree("sharding")
        self._sep_degree = degree("sep")
        if topology.world_size() != self.nranks:
            raise ValueError(
                f"HybridCommunicateGroup(): the degrees {dict(zip(names, topology._dims))} "
                f"make {topology.world_size()} processes, but the world has {self.nranks}")
        coord = topology.get_coord(self.global_rank)._asdict()
        self._data_parallel_id = coord.get("data", 0)
        self._model_parallel_id = coord.get("model", 0)
        self._sharding_parallel_id = coord.get("sharding", 0)
        self._sep_parallel_id = coord.get("sep", 0)
        self.stage_id = coord.get("pipe", 0)
        self._pp_group, self._pp_comm_group = self._comm_groups("pipe")
        self._dp_group, self._dp_comm_group = self._comm_groups("data")
        self._mp_group, self._mp_comm_group = self._comm_groups("model")
        self._sharding_group, self._sharding_comm_group = self._comm_groups("sharding")
        self._sep_group = self._sep_comm_group = None
        if self._sep_degree > 1:
            self._sep_group, self._sep_comm_group = self._comm_groups("sep")
        self._check_group, self._check_comm_group = self._check_groups("data")
        self.sharding_check_group = self.sharding_check_comm_group = None
        if self._sharding_degree > 1:
            self.sharding_check_group, self.sharding_check_comm_group = \
                self._check_groups("sharding")
        if self._sep_degree > 1:
            self._dp_sep_group, self._dp_sep_comm_group = self.create_fuse_group(["data", "sep"])
            self._pp_mp_group, self._pp_mp_comm_group = self.create_fuse_group(["pipe", "model"])
        self.is_first_stage = self.stage_id == 0
        self.is_last_stage = self.stage_id == self._pp_degree - 1
        global _HYBRID_PARALLEL_GROUP
        _HYBRID_PARALLEL_GROUP = self

    def _made(self, lists):
        mine = None
        for ranks in lists:
            group = dist.new_group(ranks)
            if self.global_rank in ranks:
                mine = (list(ranks), group)
        return mine

    def _comm_groups(self, axis):
        if axis not in self._topo.get_hybrid_group_names():
            return self._made([[r] for r in range(self.nranks)])
        return self._made(self._topo.get_comm_list(axis))

    def _check_groups(self, axis):
        if axis not in self._topo.get_hybrid_group_names():
            return self._made([list(range(self.nranks))])
        return self._made([self._topo.get_axis_list(axis, i)
                           for i in range(self._topo.get_dim(axis))])

    def create_fuse_group(self, fused_strategy_list, nccl_config=None):
        """The group that spans the axes of ``fused_strategy_list`` together, and its
        ranks: ``(ranks, group)``."""
        names = self._topo.get_hybrid_group_names()
        if isinstance(fused_strategy_list, str):
            fused_strategy_list = [fused_strategy_list]
        if not isinstance(fused_strategy_list, (list, tuple)) or not all(
                name in names for name in fused_strategy_list):
            raise ValueError(f"HybridCommunicateGroup.create_fuse_group(): argument "
                             f"'fused_strategy_list' (position 1) must be a list of axes of "
                             f"{names}, got {fused_strategy_list!r}")
        return self._made(self._topo.get_fused_ranks(list(fused_strategy_list)))

    def get_parallel_mode(self):
        """The kind of parallelism (:class:`ParallelMode`) the degrees make, as Paddle
        decides it (None at world size 1)."""
        pp, mp, sep, sharding = (self._pp_degree, self._mp_degree, self._sep_degree,
                                 self._sharding_degree)
        if pp == 1 and mp == 1 and sep == 1 and sharding == 1 and self._dp_degree > 1:
            return ParallelMode.DATA_PARALLEL
        if pp == 1 and mp == 1 and sep == 1 and sharding > 1:
            return ParallelMode.SHARDING_PARALLEL
        if pp == 1 and mp == 1 and sep > 1:
            return ParallelMode.SEGMENT_PARALLEL
        if pp == 1 and mp > 1:
            return ParallelMode.TENSOR_PARALLEL
        if pp > 1:
            return ParallelMode.PIPELINE_PARALLEL
        return None

    def topology(self):
        return self._topo

    def get_global_rank(self):
        return self.global_rank

    def get_data_parallel_rank(self):
        return self._data_parallel_id

    def get_data_parallel_world_size(self):
        return self._dp_degree

    def get_data_parallel_group(self):
        return self._dp_comm_group

    def get_data_parallel_group_src_rank(self):
        return self._dp_comm_group.ranks[0]

    def get_model_parallel_rank(self):
        return self._model_parallel_id

    def get_model_parallel_world_size(self):
        return self._mp_degree

    def get_model_parallel_group(self):
        return self._mp_comm_group

    def get_model_parallel_group_src_rank(self):
        return self._mp_comm_group.ranks[0]

    def get_stage_id(self):
        return self.stage_id

    def get_pipe_parallel_world_size(self):
        return self._pp_degree

    def get_pipe_parallel_group(self):
        return self._pp_comm_group

    def get_sharding_parallel_rank(self):
        return self._sharding_parallel_id

    def get_sharding_parallel_world_size(self):
        return self._sharding_degree

    def get_sharding_parallel_group(self):
        return self._sharding_comm_group

    def get_sharding_parallel_group_src_rank(self):
        return self._sharding_comm_group.ranks[0]

    def _check_sep_exist(self, what):
        if self._sep_degree <= 1:
            raise AssertionError(f"HybridCommunicateGroup.{what}(): sep not exist (the sep "
                                 f"degree is {self._sep_degree})")

    def get_sep_parallel_rank(self):
        return self._sep_parallel_id

    def get_sep_parallel_world_size(self):
        return self._sep_degree

    def get_sep_parallel_group(self):
        self._check_sep_exist("get_sep_parallel_group")
        return self._sep_comm_group

    def get_sep_parallel_group_src_rank(self):
        self._check_sep_exist("get_sep_parallel_group_src_rank")
        return self._sep_comm_group.ranks[0]

    def get_dp_sep_parallel_group(self):
        self._check_sep_exist("get_dp_sep_parallel_group")
        return self._dp_sep_comm_group

    def get_pp_mp_parallel_group(self):
        self._check_sep_exist("get_pp_mp_parallel_group")
        return self._pp_mp_comm_group

    def get_moe_sharding_parallel_world_size(self):
        return 1

    def get_check_parallel_group(self, sharding=False):
        """The group over which a global quantity (the gradient norm of clipping) is
        reduced: every process of this data-parallel replica (with ``sharding``, of this
        sharding position)."""
        if sharding:
            return self.sharding_check_comm_group
        return self._check_comm_group

    def get_rank_from_stage(self, stage_id, **kwargs):
        _check_int(stage_id, "HybridCommunicateGroup.get_rank_from_stage(): argument "
                             "'stage_id' (position 1)", 0)
        if stage_id >= self._pp_degree:
            raise ValueError(f"HybridCommunicateGroup.get_rank_from_stage(): argument "
                             f"'stage_id' (position 1) must be below the pipeline degree "
                             f"{self._pp_degree}, got {stage_id}")
        return self._topo.get_rank_from_stage(self.global_rank, pipe=stage_id, **kwargs)

    def __repr__(self):
        return (f"HybridCommunicateGroup(rank={self.global_rank}, dp_degree={self._dp_degree}, "
                f"mp_degree={self._mp_degree}, pp_degree={self._pp_degree}, "
                f"sharding_degree={self._sharding_degree}, sep_degree={self._sep_degree})")
