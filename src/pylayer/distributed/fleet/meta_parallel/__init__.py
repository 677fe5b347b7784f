"""Paddle's ``paddle.distributed.fleet.meta_parallel``: the tensor-parallel layers and
the named random streams. Pipeline parallelism (``PipelineLayer`` and its schedules) is
not part of pylayer: such programs move to Paddle."""
from pylayer.distributed.fleet.layers.mpu import (ColumnParallelLinear, ParallelCrossEntropy,
                                                 RNGStatesTracker, RowParallelLinear,
                                                 VocabParallelEmbedding,
                                                 get_rng_state_tracker,
                                                 model_parallel_random_seed)

__all__ = ["ColumnParallelLinear", "ParallelCrossEntropy", "RNGStatesTracker",
           "RowParallelLinear", "VocabParallelEmbedding", "get_rng_state_tracker",
           "model_parallel_random_seed"]
