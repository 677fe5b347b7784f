"""Tensor parallelism (Paddle's ``paddle.distributed.fleet.layers.mpu``): the split
layers, their collective PyLayers (``mp_ops``) and the named random streams."""
from pylayer.distributed.fleet.layers.mpu import mp_ops  # noqa: F401
from pylayer.distributed.fleet.layers.mpu.mp_layers import (ColumnParallelLinear,
                                                           ParallelCrossEntropy,
                                                           RowParallelLinear,
                                                           VocabParallelEmbedding)
from pylayer.distributed.fleet.layers.mpu.random import (RNGStatesTracker, dropout,
                                                        get_rng_state_tracker,
                                                        model_parallel_random_seed)

__all__ = ["ColumnParallelLinear", "ParallelCrossEntropy", "RowParallelLinear",
           "VocabParallelEmbedding", "RNGStatesTracker", "dropout", "get_rng_state_tracker",
           "model_parallel_random_seed"]
