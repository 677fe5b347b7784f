"""``DistributedStrategy``: the settings of a fleet job, Paddle's attributes and defaults."""
import copy
import warnings

__all__ = ["DistributedStrategy"]


class _Config(dict):
    """A settings dict whose keys are fixed and readable as attributes too (Paddle's
    ``hybrid_configs["mp_configs"].mp_async_allreduce``)."""

    def __getattr__(self, key):
        try:
            return self[key]
        except KeyError:
            raise AttributeError(f"the configuration has no field {key!r}; its fields are "
                                 f"{sorted(self)}") from None

    def __deepcopy__(self, memo):
        return _Config(copy.deepcopy(dict(self), memo))


_NCCL = ("nccl_config",)
_HYBRID = {
    "dp_degree": -1, "mp_degree": 1, "pp_degree": 1, "sharding_degree": 1, "sep_degree": 1,
    "mp_configs": {"sync_param": True, "sync_grad": False, "sync_moment": False,
                   "sync_mode": "broadcast", "mp_async_allreduce": False,
                   "mp_skip_c_identity": False, "mp_fused_linear_param_grad_add": False,
                   "need_broadcast_data": True, "recompute_allgather": False,
                   "sp_async_reduce_scatter": False, "nccl_config": {}},
    "pp_configs": {"dp_comm_overlap": False, "delay_scale_loss": False, "enable_timer": False,
                   "sharding_comm_overlap": False, "profiling": False,
                   "release_gradients": False, "overlap_p2p_comm": False,
                   "clear_every_step_cache": False, "use_batch_p2p_comm": True,
                   "best_unbalanced_scheduler": False, "enable_offload_queue": False,
                   "enable_dynamic_shape": False, "use_dualpipev": False,
                   "forward_backward_overlap_scheduler": False, "coll_nccl_config": {},
                   "p2p_nccl_config": {}, "shared_nccl_config": {}, "sync_param": False,
                   "sync_moment": False, "sync_mode": "broadcast"},
    "sharding_configs": {"tensor_fusion": False, "accumulate_steps": 1, "comm_overlap": False,
                         "split_param": False, "fuse_optimizer": True, "use_reduce_avg": True,
                         "comm_buffer_size_MB": 256, "release_gradients": False,
                         "free_grads_in_comm": False, "enable_fuse_optimizer_states": False,
                         "nccl_config": {}, "check_nccl_config": {},
                         "offload_opt_buffer_size": -1},
    "enable_optimizer_timer": False, "split_norm_comm": False, "ep_degree": 1,
    "moe_sharding_degree": 1,
    "dp_configs": {"nccl_config": {}, "check_nccl_config": {}},
    "sep_configs": {"nccl_config": {}}, "dp_sep_configs": {"nccl_config": {}},
    "pp_tp_configs": {"nccl_config": {}},
    "ep_configs": {"nccl_config": {}, "grad_nccl_config": {}},
    "moe_sharding_configs": {"nccl_config": {}, "check_nccl_config": {}},
    "default_comm_group_configs": {"nccl_config": {}},
    "cp_degree": 1, "cp_sharding_degree": 1, "cp_configs": {"nccl_config": {}},
    "cp_sharding_configs": {"nccl_config": {}}, "dp_cp_configs": {"nccl_config": {}},
    "cp_mp_configs": {"nccl_config": {}},
}

_CONFIGS = {
    "a_sync_configs": {"k_steps": -1, "max_merge_var_num": 1, "send_queue_size": 16,
                       "independent_recv_thread": False, "min_send_grad_num_before_recv": 1,
                       "thread_pool_size": 1, "send_wait_times": 1,
                       "runtime_split_send_recv": False, "launch_barrier": True,
                       "heter_worker_device_guard": "cpu", "lr_decay_steps": 10,
                       "use_ps_gpu": 0, "use_gpu_graph": 0},
    "adaptive_localsgd_configs": {"init_k_steps": 1, "begin_step": 1},
    "amp_configs": {"init_loss_scaling": 32768.0, "incr_every_n_steps": 1000,
                    "decr_every_n_nan_or_inf": 2, "incr_ratio": 2.0, "decr_ratio": 0.8,
                    "use_dynamic_loss_scaling": True, "custom_white_list": [],
                    "custom_black_list": [], "custom_black_varnames": [],
                    "use_pure_fp16": False, "use_fp16_guard": True,
                    "use_optimizer_fp16": False, "use_pure_bf16": False},
    "dgc_configs": {"rampup_begin_step": 0, "rampup_step": 1, "sparsity": []},
    "gradient_merge_configs": {"k_steps": 1, "avg": True},
    "gradient_scale_configs": {"scale_strategy": "avg", "scale_gradient": False},
    "lamb_configs": {"lamb_weight_decay": 0.01, "exclude_from_weight_decay": []},
    "lars_configs": {"lars_coeff": 0.001, "lars_weight_decay": 0.0005, "epsilon": 0.0,
                     "exclude_from_weight_decay": []},
    "localsgd_configs": {"k_steps": 1, "begin_step": 1},
    "pipeline_configs": {"micro_batch_size": 1, "accumulate_steps": 1,
                         "schedule_mode": "1F1B", "p2p_cache_shape": True,
                         "enable_partial_send_recv": True},
    "qat_configs": {"channel_wise_abs_max": True, "weight_bits": 8, "activation_bits": 8,
                    "not_quant_pattern": [], "algo": ""},
    "recompute_configs": {"checkpoints": [], "enable_offload": False, "checkpoint_shape": [],
                          "enable_tuning": False, "refined_ops_patterns": []},
    "sharding_configs": {"sharding_segment_strategy": "segment_broadcast_MB",
                         "segment_broadcast_MB": 32.0, "segment_anchors": [],
                         "sharding_degree": 8, "mp_degree": 1, "dp_degree": 1,
                         "hybrid_dp": False, "gradient_merge_acc_step": 1,
                         "optimize_offload": False, "pp_allreduce_in_optimize": False,
                         "pp_degree": 1, "optimize_cast": False,
                         "_dp_as_optimizer_sharding": False, "stage": 1,
                         "enable_tuning": False, "use_calc_stream": False},
    "tensor_parallel_configs": {"tensor_parallel_degree": 1, "tensor_init_seed": -1},
    "trainer_desc_configs": {"dump_fields_path": "", "dump_fields": [], "dump_param": [],
                             "stat_var_names": [], "trainer": "", "device_worker": "",
                             "local_sparse": [], "remote_sparse": []},
}

_FLAGS = {
    "a_sync": True, "adam_d2sum": False, "adaptive_localsgd": False, "amp": False,
    "asp": False, "auto": False, "auto_search": False, "cudnn_batchnorm_spatial_persistent":
    False, "cudnn_exhaustive_search": False, "dgc": False, "elastic": False,
    "find_unused_parameters": False, "fp16_allreduce": False, "fuse_all_reduce_ops": True,
    "fuse_grad_merge": False, "gradient_merge": False, "heter_ccl_mode": False,
    "is_fl_ps_mode": False, "is_with_coordinator": False, "lamb": False, "lars": False,
    "localsgd": False, "pipeline": False, "qat": False, "recompute": False,
    "semi_auto": False, "sharding": False, "split_data": True, "sync_batch_norm": False,
    "sync_nccl_allreduce": True, "tensor_parallel": False, "use_hierarchical_allreduce":
    False, "without_graph_optimization": True,
}
_VALUES = {
    "conv_workspace_size_limit": 512, "fuse_grad_size_in_MB": 32, "fuse_grad_size_in_num": 8,
    "hierarchical_allreduce_inter_nranks": 1, "last_comm_group_size_MB": 1.0,
    "nccl_comm_num": 1, "fs_client_param": "",
    "sync_param_name": ["embedding", "layer_norm", ".b_"],
    "hybrid_parallel_order": ["dp", "pp", "sharding", "sep", "cp", "mp"],
}


def _as_config(value):
    if isinstance(value, dict):
        return _Config({k: _as_config(v) for k, v in value.items()})
    return copy.deepcopy(value)


def _merge(target, update, where):
    """Assign ``update``'s keys into ``target`` (nested dicts merged), refusing keys that
    ``target`` does not have, as Paddle does."""
    if not isinstance(update, dict):
        raise TypeError(f"DistributedStrategy.{where} must be a dict, got "
                        f"{type(update).__name__}")
    for key, value in update.items():
        if key not in target:
            raise ValueError(f"DistributedStrategy.{where}: key {key!r} is not one of its "
                             f"fields {sorted(target)}")
        if isinstance(target[key], dict):
            _merge(target[key], value, f"{where}[{key!r}]")
            continue
        old = target[key]
        if isinstance(old, bool):
            ok = isinstance(value, bool)
        elif isinstance(old, int):
            ok = isinstance(value, int) and not isinstance(value, bool)
        elif isinstance(old, float):
            ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        elif isinstance(old, list):
            ok = isinstance(value, (list, tuple))
        else:
            ok = isinstance(value, type(old))
        if not ok:
            raise TypeError(f"DistributedStrategy.{where}[{key!r}] must be a "
                            f"{type(old).__name__}, got {type(value).__name__}")
        target[key] = list(value) if isinstance(old, list) else \
            float(value) if isinstance(old, float) else value


class DistributedStrategy:
    """The settings of a fleet job (Paddle's attributes, names and defaults). pylayer
    acts on ``hybrid_configs`` (the data/model/pipeline/sharding/sep degrees that
    :func:`pylayer.distributed.fleet.init` lays the processes out by, and ``order``),
    ``find_unused_parameters`` and ``tensor_parallel_configs["tensor_init_seed"]``; the
    other attributes (AMP, recompute, sharding, the parameter server's) are stored and
    read back as set. A ``*_configs`` attribute is assigned a dict whose keys update the
    current ones (an unknown key is a ValueError); a flag given a non-bool is ignored with
    a warning, as in Paddle.

    >>> from pylayer.distributed import fleet
    >>> strategy = fleet.DistributedStrategy()
    >>> strategy.hybrid_configs = {"dp_degree": 1, "mp_degree": 1, "pp_degree": 1}
    >>> strategy.hybrid_configs["mp_degree"], strategy.hybrid_parallel_order
    (1, ['dp', 'pp', 'sharding', 'sep', 'cp', 'mp'])
    >>> strategy.recompute = True
    >>> strategy.recompute, strategy.recompute_configs["checkpoints"]
    (True, [])
    """

    def __init__(self):
        state = {name: value for name, value in _FLAGS.items()}
        state.update(copy.deepcopy(_VALUES))
        state.update({name: _as_config(value) for name, value in _CONFIGS.items()})
        state["hybrid_configs"] = _as_config(_HYBRID)
        object.__setattr__(self, "_state", state)

    def __getattr__(self, name):
        state = self.__dict__.get("_state")
        if state is None or name not in state:
            raise AttributeError(f"'DistributedStrategy' object has no attribute {name!r}")
        return state[name]

    def __setattr__(self, name, value):
        state = self._state
        if name not in state:
            raise TypeError(f"{name} is not a attribute of DistributedStrategy")
        if name == "hybrid_configs":
            if not isinstance(value, dict):
                raise TypeError(f"DistributedStrategy.hybrid_configs must be a dict, got "
                                f"{type(value).__name__}")
            value = dict(value)
            order = value.pop("order", None)
            merged = copy.deepcopy(state["hybrid_configs"])
            _merge(merged, value, "hybrid_configs")
            if order is not None:
                self.hybrid_parallel_order = order
            state["hybrid_configs"] = merged
        elif name.endswith("_configs"):
            merged = copy.deepcopy(state[name])
            _merge(merged, value, name)
            state[name] = merged
        elif name in _FLAGS:
            if not isinstance(value, bool):
                warnings.warn(f"DistributedStrategy.{name} should have value of bool type; "
                              f"got {type(value).__name__}, ignored", stacklevel=2)
                return
            state[name] = value
        elif name == "hybrid_parallel_order":
            known = list(_VALUES["hybrid_parallel_order"])
            if not isinstance(value, (list, tuple)) or not all(
                    isinstance(v, str) and v in known for v in value) \
                    or len(set(value)) != len(value):
                raise ValueError(f"DistributedStrategy.hybrid_parallel_order must list "
                                 f"distinct axes of {known}, got {value!r}")
            state[name] = list(value)
        else:
            scratch = {name: state[name]}
            _merge(scratch, {name: value}, "")
            state[name] = scratch[name]

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self._state))

    def __deepcopy__(self, memo):
        other = DistributedStrategy()
        object.__setattr__(other, "_state", copy.deepcopy(self._state, memo))
        return other

    def __repr__(self):
        fresh = DistributedStrategy()._state
        changed = {name: value for name, value in self._state.items() if value != fresh[name]}
        settings = ", ".join(f"{k}={v!r}" for k, v in sorted(changed.items()))
        return f"DistributedStrategy({settings})"
