"""``pylayer.nn.utils``: gradient clipping in place, parameters as one vector, and the
weight- and spectral-norm reparameterisations."""
import numpy as np

import pylayer
from pylayer.autograd import no_grad
from pylayer.extend import Tensor, check_number, describe, make_tensor

from pylayer.nn.utils.spectral_norm_hook import spectral_norm
from pylayer.nn.utils.weight_norm_hook import remove_weight_norm, weight_norm

__all__ = ["clip_grad_norm_", "clip_grad_value_", "parameters_to_vector",
           "vector_to_parameters", "weight_norm", "remove_weight_norm", "spectral_norm"]

_NORM_TYPES = (float("inf"), 0.0, 1.0, 2.0)


def _dynamic_only(fn):
    if not pylayer.in_dynamic_mode():
        raise RuntimeError(f"{fn}(): this API can only run in dynamic mode")


def _tensors(parameters, fn, position=1, allow_single=True):
    """The list of tensors in ``parameters`` (one Tensor counts as a list of one)."""
    if allow_single and isinstance(parameters, Tensor):
        return [parameters]
    if isinstance(parameters, (str, bytes, dict, Tensor)) or \
            not hasattr(parameters, "__iter__"):
        expected = "a Tensor or an iterable of Tensors" if allow_single else \
            "an iterable of Tensors"
        raise TypeError(f"{fn}(): argument 'parameters' (position {position}) must be "
                        f"{expected}, got {describe(parameters)}")
    tensors = list(parameters)
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise TypeError(f"{fn}(): item {i} of argument 'parameters' (position "
                            f"{position}) must be a Tensor, got {describe(t)}")
    return tensors


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False):
    """Scale the gradients of ``parameters`` in place so that their joint norm is at most
    ``max_norm``; returns that joint norm (before scaling).

    The joint norm is the ``norm_type``-norm (2, 1, 0 or ``inf``) of the
    gradients' own norms, as if all were one vector. Each gradient is
    multiplied by ``min(max_norm / (norm + 1e-6), 1)``. Parameters without
    a gradient are skipped; with none at all the result is ``0.0``. With
    ``error_if_nonfinite=True`` a NaN or infinite norm raises
    ``RuntimeError`` before anything changes.

    >>> import pylayer
    >>> p = pylayer.create_parameter([2], 'float32')
    >>> _ = p.set_value(pylayer.to_tensor([3.0, 4.0]))
    >>> (p * p).sum().backward()
    >>> float(pylayer.nn.utils.clip_grad_norm_([p], max_norm=1.0))
    10.0
    >>> p.grad.numpy().round(4)
    array([0.6, 0.8], dtype=float32)
    """
    fn = "clip_grad_norm_"
    _dynamic_only(fn)
    tensors = _tensors(parameters, fn)
    max_norm = check_number(max_norm, fn, "max_norm")
    norm_type = check_number(norm_type, fn, "norm_type")
    if float(norm_type) not in _NORM_TYPES:
        raise ValueError(f"{fn}(): argument 'norm_type' must be one of inf, 0, 1 or 2, got "
                         f"{norm_type!r}")
    if not isinstance(error_if_nonfinite, (bool, np.bool_)):
        raise TypeError(f"{fn}(): argument 'error_if_nonfinite' must be a bool, got "
                        f"{describe(error_if_nonfinite)}")
    grads = [t.grad for t in tensors if t.grad is not None]
    if not grads:
        return make_tensor(np.array(0.0, dtype=np.float32))
    arrays = [g.numpy() for g in grads]
    dtype = np.result_type(*arrays)
    norm_type = float(norm_type)
    if norm_type == float("inf"):
        total = max(np.max(np.abs(a)) if a.size else dtype.type(0) for a in arrays)
    else:
        each = np.array([np.linalg.norm(a.ravel(), norm_type) for a in arrays], dtype=dtype)
        total = np.linalg.norm(each, norm_type)
    total = np.asarray(total, dtype=dtype)
    if error_if_nonfinite and not np.isfinite(total):
        raise RuntimeError(f"{fn}(): the total norm of order {norm_type} of the gradients "
                           f"of 'parameters' is non-finite, so it cannot be clipped; pass "
                           f"error_if_nonfinite=False to scale them by it anyway")
    scale = np.minimum(np.asarray(max_norm, dtype=dtype) / (total + dtype.type(1e-6)),
                       dtype.type(1.0))
    with no_grad(), np.errstate(invalid="ignore"):
        for g, a in zip(grads, arrays):
            g.set_value((a * scale).astype(a.dtype, copy=False))
    return make_tensor(total)


def clip_grad_value_(parameters, clip_value):
    """Clamp every gradient element of ``parameters`` into ``[-clip_value, clip_value]``,
    in place; parameters without a gradient are skipped.

    >>> import pylayer
    >>> p = pylayer.create_parameter([2], 'float32')
    >>> _ = p.set_value(pylayer.to_tensor([3.0, -0.25]))
    >>> (p * p).sum().backward()
    >>> pylayer.nn.utils.clip_grad_value_(p, 1.0)
    >>> p.grad.numpy()
    array([ 1. , -0.5], dtype=float32)
    """
    fn = "clip_grad_value_"
    _dynamic_only(fn)
    tensors = _tensors(parameters, fn)
    clip_value = check_number(clip_value, fn, "clip_value")
    if not clip_value >= 0:
        raise ValueError(f"{fn}(): argument 'clip_value' (position 2) must be a non-negative "
                         f"number, got {clip_value!r}")
    with no_grad():
        for t in tensors:
            g = t.grad
            if g is not None:
                g.set_value(np.clip(g.numpy(), -clip_value, clip_value))


def parameters_to_vector(parameters, name=None):
    """The values of ``parameters`` flattened and joined into one new 1-D tensor.

    The result is a fresh leaf (``stop_gradient=False``), not linked to the
    parameters; all must share one dtype.

    >>> import pylayer
    >>> layer = pylayer.nn.Linear(3, 2)
    >>> pylayer.nn.utils.parameters_to_vector(layer.parameters()).shape
    [8]
    """
    fn = "parameters_to_vector"
    tensors = _tensors(parameters, fn, allow_single=False)
    if not tensors:
        raise ValueError(f"{fn}(): argument 'parameters' (position 1) must hold at least "
                         f"one Tensor, got an empty iterable")
    dtypes = {t.dtype for t in tensors}
    if len(dtypes) > 1:
        raise TypeError(f"{fn}(): the tensors of argument 'parameters' (position 1) must "
                        f"share one dtype, got {sorted(str(d) for d in dtypes)}")
    out = make_tensor(np.concatenate([t.numpy().ravel() for t in tensors]))
    out.stop_gradient = False
    return out


def vector_to_parameters(vec, parameters, name=None):
    """Copy consecutive pieces of the 1-D tensor ``vec`` into ``parameters``, in place.

    Each parameter keeps its shape and dtype and takes the next
    ``numel`` values; ``vec`` may be longer than needed (the rest is
    unused), not shorter.

    >>> import pylayer
    >>> layer = pylayer.nn.Linear(2, 1)
    >>> pylayer.nn.utils.vector_to_parameters(pylayer.arange(3, dtype='float32'),
    ...                                       layer.parameters())
    >>> layer.weight.numpy(), layer.bias.numpy()
    (array([[0.],
           [1.]], dtype=float32), array([2.], dtype=float32))
    """
    fn = "vector_to_parameters"
    _dynamic_only(fn)
    if not isinstance(vec, Tensor):
        raise TypeError(f"{fn}(): argument 'vec' (position 1) must be a Tensor, got "
                        f"{describe(vec)}")
    if len(vec.shape) != 1:
        raise ValueError(f"{fn}(): argument 'vec' (position 1) must be 1-D, got shape "
                         f"{vec.shape}")
    tensors = _tensors(parameters, fn, position=2, allow_single=False)
    sizes = [int(np.prod(t.shape, dtype=np.int64)) for t in tensors]
    if sum(sizes) > vec.shape[0]:
        raise ValueError(f"{fn}(): argument 'vec' (position 1) has {vec.shape[0]} elements, "
                         f"fewer than the {sum(sizes)} of argument 'parameters'")
    values = vec.numpy()
    start = 0
    with no_grad():
        for t, size in zip(tensors, sizes):
            piece = values[start:start + size].reshape(t.shape)
            t.set_value(piece.astype(t.numpy().dtype, copy=False))
            start += size
