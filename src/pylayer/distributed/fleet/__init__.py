"""``pylayer.distributed.fleet`` (Paddle's ``paddle.distributed.fleet``): hybrid data- and
tensor-parallel jobs on MPI.

:func:`init` lays the processes out on the grid of ``DistributedStrategy.hybrid_configs``
(data, pipe, sharding, sep, model: Paddle's order) and builds each axis's process
groups (:func:`get_hybrid_communicate_group`); ``meta_parallel`` holds the
tensor-parallel layers, ``utils.sequence_parallel_utils`` the sequence-parallel ones,
``utils.recompute``/``recompute`` activation recompute. The module's functions are the
methods of one :class:`Fleet`, as in Paddle. Pipeline schedules, sharding and the
parameter server are not part of pylayer: such programs move to Paddle.

>>> from pylayer.distributed import fleet
>>> strategy = fleet.DistributedStrategy()
>>> strategy.hybrid_configs = {"dp_degree": 1, "mp_degree": 1, "pp_degree": 1}
>>> _ = fleet.init(is_collective=True, strategy=strategy)
>>> hcg = fleet.get_hybrid_communicate_group()
>>> hcg.get_model_parallel_world_size(), fleet.worker_num(), fleet.worker_index()
(1, 1, 0)
"""
from pylayer.distributed.fleet._strategy import DistributedStrategy
from pylayer.distributed.fleet.base.topology import CommunicateTopology, HybridCommunicateGroup
from pylayer.distributed.fleet._fleet import (Fleet, PaddleCloudRoleMaker, Role,
                                             UserDefinedRoleMaker, UtilBase, fleet, util)
from pylayer.distributed.fleet._model import distributed_model, distributed_optimizer
from pylayer.distributed.fleet.data_generator import (MultiSlotDataGenerator,
                                                     MultiSlotStringDataGenerator)
from pylayer.distributed.fleet import (base, data_generator, layers, meta_parallel,  # noqa: F401
                                      recompute, utils)

__all__ = ["CommunicateTopology", "UtilBase", "HybridCommunicateGroup", "UserDefinedRoleMaker",
           "DistributedStrategy", "Role", "PaddleCloudRoleMaker", "Fleet",
           "MultiSlotDataGenerator", "MultiSlotStringDataGenerator"]

init = fleet.init
is_first_worker = fleet.is_first_worker
worker_index = fleet.worker_index
worker_num = fleet.worker_num
node_num = fleet.node_num
rank = fleet.worker_index
nranks = fleet.worker_num
world_size = fleet.worker_num
local_rank = fleet.local_rank
rank_in_node = local_rank
local_device_ids = fleet.local_device_ids
world_device_ids = fleet.world_device_ids
is_worker = fleet.is_worker
is_server = fleet.is_server
is_coordinator = fleet.is_coordinator
worker_endpoints = fleet.worker_endpoints
server_num = fleet.server_num
server_index = fleet.server_index
server_endpoints = fleet.server_endpoints
barrier_worker = fleet.barrier_worker
all_reduce = fleet.all_reduce
get_hybrid_communicate_group = fleet.get_hybrid_communicate_group
get_hybrid_parallel_topology = fleet.get_hybrid_parallel_topology
