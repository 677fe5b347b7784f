"""Paddle's ``paddle.incubate``: :mod:`pylayer.incubate.autograd` (``vjp``, ``jvp``,
``Jacobian``, ``Hessian`` in dynamic mode; ``grad``, ``forward_grad`` in static mode),
the segment reductions (:mod:`pylayer.incubate.segment`), the graph ops
(:mod:`pylayer.incubate.graph`) and the optimizers ``LookAhead`` and ``ModelAverage``
(:mod:`pylayer.incubate.optimizer`)."""
from pylayer.incubate import autograd
from pylayer.incubate.segment import segment_max, segment_mean, segment_min, segment_sum
from pylayer.incubate.graph import (graph_khop_sampler, graph_reindex, graph_sample_neighbors,
                                    graph_send_recv)
from pylayer.incubate.optimizer import LookAhead, ModelAverage

__all__ = ["autograd", "segment_sum", "segment_mean", "segment_max", "segment_min",
           "graph_send_recv", "graph_sample_neighbors",
           "graph_reindex", "graph_khop_sampler", "LookAhead", "ModelAverage"]
