"""``detect_anomaly``: find where a bad gradient came from."""
from pylayer._core import graph as _graph
from pylayer._core.graph import set_anomaly_enabled
from pylayer._reprs import settings_repr
from pylayer.autograd.grad_mode import decorate_in_mode

__all__ = ["detect_anomaly", "is_anomaly_enabled"]


def is_anomaly_enabled():
    """Whether anomaly detection is on (inside ``detect_anomaly``).

    >>> import pylayer
    >>> from pylayer.autograd.anomaly import is_anomaly_enabled
    >>> with pylayer.autograd.detect_anomaly():
    ...     print(is_anomaly_enabled())
    True
    >>> is_anomaly_enabled()
    False
    """
    return _graph.is_anomaly_enabled()


class detect_anomaly:
    """Record each node's forward stack and check backward results for NaN.

    Inside the block (or a decorated function or generator), every recorded op keeps the
    Python stack of the call that created it. A NaN in the gradient a node
    returns raises RuntimeError with that stack; any other error raised in a
    node's backward (a PyLayer's ``backward`` included) carries the stack as
    a note. It slows everything down: use it to debug.

    >>> import pylayer as paddle
    >>> from pylayer.autograd import PyLayer, detect_anomaly
    >>> class Bad(PyLayer):
    ...     @staticmethod
    ...     def forward(ctx, x):
    ...         return x * 1
    ...     @staticmethod
    ...     def backward(ctx, dy):
    ...         return dy * float("nan")
    >>> x = paddle.ones([1]); x.stop_gradient = False
    >>> with detect_anomaly():
    ...     y = Bad.apply(x)
    ...     try:
    ...         y.backward()
    ...     except RuntimeError as error:
    ...         print(str(error).splitlines()[0])
    anomaly detected: GradNodePyLayer_Bad returned NaN values in its gradient.
    """

    def __init__(self):
        self._previous = []

    def __enter__(self):
        self._previous.append(set_anomaly_enabled(True))
        return self

    def __exit__(self, *exc_info):
        set_anomaly_enabled(self._previous.pop())
        return False

    def __call__(self, function):
        return decorate_in_mode(function, detect_anomaly)

    def __repr__(self):
        return settings_repr(self, {})
