"""``CompiledProgram`` and ``BuildStrategy``: a program with the settings of Paddle's
graph compiler.

Paddle compiles a program into a graph and applies passes (operator fusion,
in-place reuse, all-reduce strategies) whose results equal the program's.
pylayer's Executor runs programs as they are and has none of these passes:
a CompiledProgram runs its program, and the settings of a BuildStrategy are
kept (checked as Paddle checks them) so that code written for Paddle runs,
without changing any result.
"""
import enum

from pylayer.extend import describe, settings_repr
from pylayer.static._program import Program

__all__ = ["BuildStrategy", "CompiledProgram"]


class _ReduceStrategy(enum.IntEnum):
    AllReduce = 0
    Reduce = 1
    _NoReduce = 2


# Paddle 3.3.1's settings and their defaults
_SETTINGS = {
    "allow_cuda_graph_capture": False, "async_mode": False, "bkcl_comm_num": 1,
    "build_cinn_pass": False, "cache_runtime_context": False, "debug_graphviz_path": "",
    "enable_addto": False, "enable_auto_fusion": False,
    "enable_backward_optimizer_op_deps": True, "enable_inplace": True, "fuse_adamw": False,
    "fuse_all_optimizer_ops": False, "fuse_all_reduce_ops": True, "fuse_bn_act_ops": False,
    "fuse_bn_add_act_ops": True, "fuse_broadcast_ops": True,
    "fuse_dot_product_attention": False, "fuse_elewise_add_act_ops": False,
    "fuse_gemm_epilogue": False, "fuse_relu_depthwise_conv": False, "fuse_resunit": False,
    "fused_attention": False, "fused_feedforward": False,
    "hierarchical_allreduce_inter_nranks": 0, "memory_optimize": None,
    "mkldnn_enabled_op_types": set(), "nccl_comm_num": 1, "num_trainers": 1,
    "onednn_enabled_op_types": set(), "reduce_strategy": _ReduceStrategy.AllReduce,
    "sequential_run": False, "sync_batch_norm": False, "trainer_id": 0,
    "trainers_endpoints": [], "use_hierarchical_allreduce": False,
}


def _kind_of(default):
    if isinstance(default, bool) or default is None:
        return (bool,) if default is not None else (bool, type(None))
    if isinstance(default, _ReduceStrategy):
        return (_ReduceStrategy,)
    return (type(default),)


class BuildStrategy:
    """The settings of Paddle's graph compiler, with Paddle's defaults.

    pylayer's Executor applies no graph passes, so these settings change no
    result; they are kept, and checked, so that code written for Paddle runs.
    Unknown names raise ``AttributeError`` and values of the wrong type
    ``TypeError``, as in Paddle.

    >>> import pylayer as paddle
    >>> strategy = paddle.static.BuildStrategy()
    >>> strategy.fuse_all_reduce_ops, strategy.reduce_strategy.name
    (True, 'AllReduce')
    >>> strategy.enable_inplace = False
    """

    ReduceStrategy = _ReduceStrategy

    def __init__(self):
        for name, default in _SETTINGS.items():
            object.__setattr__(self, name, default.copy() if isinstance(
                default, (set, list)) else default)

    def __setattr__(self, name, value):
        if name not in _SETTINGS:
            raise AttributeError(f"BuildStrategy has no setting {name!r}; the settings are "
                                 f"{sorted(_SETTINGS)}")
        kinds = _kind_of(_SETTINGS[name])
        if not isinstance(value, kinds) or (bool not in kinds and isinstance(value, bool)):
            raise TypeError(f"BuildStrategy.{name} must be "
                            f"{' or '.join(k.__name__ for k in kinds)}, got {describe(value)}")
        object.__setattr__(self, name, value)

    def __repr__(self):
        changed = {k: getattr(self, k) for k, v in _SETTINGS.items() if getattr(self, k) != v}
        return settings_repr(self, changed)


class CompiledProgram:
    """A program to run with :class:`Executor`, with the settings of a BuildStrategy.

    >>> import numpy as np, pylayer as paddle
    >>> paddle.enable_static()
    >>> main = paddle.static.Program()
    >>> with paddle.static.program_guard(main):
    ...     x = paddle.static.data("x", [2], "float32")
    ...     y = x * 2.0
    >>> compiled = paddle.static.CompiledProgram(main, paddle.static.BuildStrategy())
    >>> paddle.static.Executor().run(compiled, feed={"x": np.ones(2, "float32")},
    ...                              fetch_list=[y])
    [array([2., 2.], dtype=float32)]
    >>> paddle.disable_static()
    """

    def __init__(self, program_or_graph, build_strategy=None):
        if not isinstance(program_or_graph, Program):
            raise TypeError(f"CompiledProgram(): argument 'program_or_graph' must be a "
                            f"Program, got {describe(program_or_graph)}")
        if build_strategy is not None and not isinstance(build_strategy, BuildStrategy):
            raise TypeError(f"CompiledProgram(): argument 'build_strategy' must be a "
                            f"BuildStrategy or None, got {describe(build_strategy)}")
        self._program = program_or_graph
        self._build_strategy = build_strategy if build_strategy is not None \
            else BuildStrategy()

    def __repr__(self):
        return f"CompiledProgram({self._program!r})"
