"""Paddle's ``paddle.incubate``: the part pylayer has, :mod:`pylayer.incubate.autograd`
(``vjp``, ``jvp``, ``Jacobian``, ``Hessian`` in dynamic mode)."""
from pylayer.incubate import autograd
from pylayer.incubate.segment import segment_max, segment_mean, segment_min, segment_sum
from pylayer.incubate.graph import graph_send_recv
from pylayer.incubate.optimizer import LookAhead, ModelAverage

__all__ = ["autograd", "segment_sum", "segment_mean", "segment_max", "segment_min",
           "graph_send_recv", "LookAhead", "ModelAverage"]
