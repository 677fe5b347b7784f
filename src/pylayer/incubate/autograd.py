"""Paddle's ``paddle.incubate.autograd``: derivatives of a function, in dynamic mode.

Unlike :func:`pylayer.autograd.jacobian`, which differentiates tensors
already computed, these take a function ``func`` and its inputs ``xs`` (a
Tensor, or a list or tuple of Tensors passed as positional arguments) and
call ``func`` on copies of ``xs`` that require a gradient, as Paddle does.
The copies stay in the caller's graph (Paddle's ``assign``), and the results
are computed with ``create_graph=True``: they are differentiable with
respect to the caller's tensors, so the functions nest (a ``jvp`` of a
``jvp`` is a Hessian-vector product) and a loss built from them trains.
An input that an output does not depend on gets zeros.

* :func:`vjp` gives ``v^T J``, one backward pass; :func:`jvp` gives
  ``J v``, with two backward passes (the gradient of the gradient with
  respect to its seed, which is linear).
* :func:`grad` and :func:`forward_grad` (with :func:`enable_prim`,
  :func:`disable_prim` and ``prim_enabled``) work in static mode only, as in
  Paddle, on the Variables of the current Program: ``grad`` appends the backward
  of ``outputs`` (:func:`pylayer.static.gradients`), ``forward_grad`` the
  forward-mode product ``J v``. Paddle computes them on its primitive operators
  when "prim" is on and requires it for ``forward_grad``; pylayer keeps the switch
  and the requirement, and computes both with its own gradient rules (the numbers
  are the same).
* :class:`Jacobian` and :class:`Hessian` are the lazy matrices of the
  flattened inputs and outputs: every input is flattened and concatenated
  (after its batch axis with ``is_batched=True``), and so is every output.
  Rows are computed when indexed and cached (through
  :class:`pylayer.autograd.Jacobian`).
"""
from collections.abc import Sequence

from pylayer._core.tensor import Tensor
from pylayer.autograd import autograd as _autograd
from pylayer.autograd.functional import grad as _reverse_grad
from pylayer.ops.creation import ones_like, zeros_like
from pylayer.ops.manipulation import concat, split
from pylayer.ops.shape import assign

__all__ = ["vjp", "jvp", "Jacobian", "Hessian", "grad", "forward_grad", "enable_prim", "disable_prim"]


def _is_sequence(value):
    return isinstance(value, Sequence) and not isinstance(value, (str, bytes))


def _tensors(value, fn, arg, allow_none=False):
    """``value`` as a list of Tensors (None stays None when allowed)."""
    if value is None and allow_none:
        return None
    items = list(value) if _is_sequence(value) else [value]
    if not items or not all(isinstance(item, Tensor) for item in items):
        expected = "a Tensor, a list or tuple of Tensors" + (" or None" if allow_none else "")
        raise TypeError(f"{fn}(): argument '{arg}' must be {expected}, got "
                        f"{type(value).__name__}" + (" (empty)" if _is_sequence(value) else ""))
    return items


def _outputs(ys, fn):
    """What ``func`` returned, as a list of Tensors."""
    items = list(ys) if _is_sequence(ys) else [ys]
    if not items or not all(isinstance(item, Tensor) for item in items):
        raise TypeError(f"{fn}(): func must return a Tensor or a list or tuple of Tensors, got "
                        f"{type(ys).__name__}")
    return items


def _check_func(func, fn):
    if not callable(func):
        raise TypeError(f"{fn}(): argument 'func' must be callable, got {type(func).__name__}")


def _fresh(xs):
    """The inputs as new tensors that require a gradient, as Paddle makes them: a
    differentiable copy (``assign``) of an input that requires one, so that the results
    stay in the caller's graph (nested calls, backward through the results); a detached
    one of an input that does not."""
    copies = []
    for x in xs:
        if x.stop_gradient:
            copy = x.detach()
            copy.stop_gradient = False
        else:
            copy = assign(x)
        copies.append(copy)
    return copies


def _call(func, xs, as_sequence):
    return func(*xs) if as_sequence else func(xs[0])


def _check_seeds(v, like, fn, what):
    """``v`` (a list of Tensors or None) against the tensors ``like``: RuntimeError,
    as in Paddle, when the count or a shape differs."""
    if v is None:
        return [ones_like(t) for t in like]
    if len(v) != len(like):
        raise RuntimeError(f"{fn}(): argument 'v' has {len(v)} tensors, but there are "
                           f"{len(like)} {what}")
    for i, (seed, t) in enumerate(zip(v, like)):
        if seed.shape != t.shape:
            raise RuntimeError(f"{fn}(): argument 'v' item {i} has shape {seed.shape}, but "
                               f"{what} {i} has shape {t.shape}")
    return v


def _gradients(outputs, inputs, seeds):
    """Gradients of ``outputs`` (seeded) with respect to ``inputs``, zeros where unused;
    differentiable (``create_graph=True``)."""
    live = [(y, s) for y, s in zip(outputs, seeds) if not y.stop_gradient]
    found = [None] * len(inputs)
    if live:
        found = _reverse_grad([y for y, _ in live], inputs, [s for _, s in live],
                              create_graph=True, allow_unused=True)
    return [g if g is not None else _zeros_with_grad(x) for g, x in zip(found, inputs)]


def _zeros_with_grad(x):
    zeros = zeros_like(x)
    zeros.stop_gradient = False
    return zeros


def vjp(func, xs, v=None):
    """``(func(xs), v^T J)``: the outputs and the vector-Jacobian product.

    ``v`` has one Tensor per output of ``func``, of its shape (ones by
    default); a wrong count or shape is a ``RuntimeError``, as in Paddle.
    The product has one Tensor per input: a Tensor when ``xs`` is one, else
    a tuple.

    >>> import pylayer as paddle
    >>> x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> _, result = paddle.incubate.autograd.vjp(lambda a: paddle.matmul(a, a), x)
    >>> result.numpy()
    array([[ 7., 11.],
           [ 9., 13.]], dtype=float32)
    """
    _check_func(func, "vjp")
    inputs = _fresh(_tensors(xs, "vjp", "xs"))
    seeds = _tensors(v, "vjp", "v", allow_none=True)
    ys = _call(func, inputs, _is_sequence(xs))
    outputs = _outputs(ys, "vjp")
    result = _gradients(outputs, inputs, _check_seeds(seeds, outputs, "vjp", "outputs"))
    return ys, tuple(result) if _is_sequence(xs) else result[0]


def jvp(func, xs, v=None):
    """``(func(xs), J v)``: the outputs and the Jacobian-vector product.

    ``v`` has one Tensor per input, of its shape (ones by default); a wrong
    count or shape is a ``RuntimeError``, as in Paddle. The product has one
    Tensor per output: a Tensor when ``func`` returns one, else a tuple.

    >>> import pylayer as paddle
    >>> x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> _, result = paddle.incubate.autograd.jvp(lambda a: paddle.matmul(a, a), x)
    >>> result.numpy()
    array([[ 7.,  9.],
           [11., 13.]], dtype=float32)
    """
    _check_func(func, "jvp")
    inputs = _fresh(_tensors(xs, "jvp", "xs"))
    seeds = _check_seeds(_tensors(v, "jvp", "v", allow_none=True), inputs, "jvp", "inputs")
    ys = _call(func, inputs, _is_sequence(xs))
    outputs = _outputs(ys, "jvp")
    # u -> J^T u is linear in u, so its gradient with respect to u, seeded with v, is J v.
    dummies = [_zeros_with_grad(y) for y in outputs]
    transposed = _gradients(outputs, inputs, dummies)
    result = _gradients(transposed, dummies, seeds)
    return ys, tuple(result) if _is_sequence(ys) else result[0]


def _joined(tensors, batched):
    """The tensors flattened (after the batch axis) and concatenated."""
    flat = [t.reshape([t.shape[0], -1] if batched else [-1]) for t in tensors]
    return flat[0] if len(flat) == 1 else concat(flat, axis=1 if batched else 0)


def _lazy_matrix(func, xs, batched, fn):
    """The :class:`pylayer.autograd.Jacobian` of ``func`` at ``xs``, inputs and outputs
    flattened and joined; argument errors name ``fn``."""
    _check_func(func, fn)
    inputs = _tensors(xs, fn, "xs")
    if batched:
        for i, x in enumerate(inputs):
            if x.ndim == 0 or x.shape[0] != inputs[0].shape[0]:
                raise ValueError(f"{fn}(): with is_batched=True every input needs the same "
                                 f"batch axis first; input {i} has shape {x.shape}")
    joined = _joined(_fresh(inputs), batched)
    sizes = [x.size // x.shape[0] if batched else x.size for x in inputs]
    parts = split(joined, sizes, axis=1 if batched else 0) if len(inputs) > 1 else [joined]
    parts = [p.reshape(x.shape) for p, x in zip(parts, inputs)]
    outputs = _outputs(_call(func, parts, _is_sequence(xs)), fn)
    if batched and any(y.ndim == 0 or y.shape[0] != inputs[0].shape[0] for y in outputs):
        raise ValueError(f"{fn}(): with is_batched=True every output of func needs the "
                         f"inputs' batch axis first, got shapes {[y.shape for y in outputs]}")
    return _autograd.Jacobian(_joined(outputs, batched), joined, batched)


class Jacobian:
    """The Jacobian of ``func`` at ``xs``: a lazy matrix of the flattened inputs and outputs.

    Its shape is ``(M, N)`` for ``M`` output and ``N`` input elements in all,
    or ``(B, M, N)`` with ``is_batched=True``, where the first axis of every
    input and output is a batch of ``B`` independent entries. ``J[...]``
    (ints and slices; an Ellipsis or an index out of range is an
    ``IndexError``, as in Paddle) computes the rows it needs and returns a
    Tensor.

    >>> import pylayer as paddle
    >>> x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> J = paddle.incubate.autograd.Jacobian(lambda a, b: paddle.matmul(a, b), [x, x])
    >>> J.shape
    (4, 8)
    >>> J[0, :].numpy()
    array([1., 3., 0., 0., 1., 0., 2., 0.], dtype=float32)
    """

    def __init__(self, func, xs, is_batched=False):
        self._matrix = _lazy_matrix(func, xs, bool(is_batched), "Jacobian")

    @classmethod
    def _named(cls, func, xs, is_batched, fn):
        """A Jacobian whose argument errors name ``fn`` (Hessian's)."""
        jacobian = cls.__new__(cls)
        jacobian._matrix = _lazy_matrix(func, xs, is_batched, fn)
        return jacobian

    @property
    def shape(self):
        """The shape of the matrix, a tuple."""
        return tuple(self._matrix.shape)

    def __getitem__(self, index):
        items = index if isinstance(index, tuple) else (index,)
        if any(item is Ellipsis for item in items):
            raise IndexError("Jacobian: an Ellipsis index is not supported (as in Paddle); "
                             "index with ints and slices")
        return self._matrix[index]

    def __repr__(self):
        return f"{type(self).__name__}(shape={self.shape})"


class Hessian:
    """The Hessian of a one-element ``func`` at ``xs``: a lazy matrix, as :class:`Jacobian`.

    ``func`` returns a Tensor with one element (one per batch entry with
    ``is_batched=True``: shape ``[B]`` or ``[B, 1]``); any other result is a
    ``RuntimeError``, as in Paddle. ``H.symbolic`` is the :class:`Jacobian` of
    the gradient of ``func``, which ``H`` is.

    >>> import pylayer as paddle
    >>> x = paddle.to_tensor([1.0, 2.0])
    >>> H = paddle.incubate.autograd.Hessian(lambda a: paddle.sum(a * a * a), x)
    >>> H[:].numpy()
    array([[ 6.,  0.],
           [ 0., 12.]], dtype=float32)
    """

    def __init__(self, func, xs, is_batched=False):
        _check_func(func, "Hessian")
        as_sequence = _is_sequence(xs)

        def gradient(*parts):
            y = _call(func, list(parts), as_sequence)
            if not _one_element(y, is_batched):
                raise RuntimeError(f"Hessian(): func must return a Tensor of one element (one "
                                   f"per batch entry with is_batched=True), got "
                                   f"{_described(y)}")
            return _gradients([y.sum()], list(parts), [None])

        self.symbolic = Jacobian._named(gradient, xs, bool(is_batched), "Hessian")

    @property
    def shape(self):
        """The shape of the matrix, a tuple."""
        return self.symbolic.shape

    def __repr__(self):
        return f"{type(self).__name__}(shape={self.shape})"

    def __getitem__(self, index):
        return self.symbolic[index]


def _one_element(y, batched):
    if not isinstance(y, Tensor):
        return False
    if batched:
        return y.ndim in (1, 2) and y.size == y.shape[0]
    return y.size == 1


def _described(value):
    return f"shape {value.shape}" if isinstance(value, Tensor) else type(value).__name__


# ------------------------------------------------ static mode: grad, forward_grad, prim
_prim = {"enabled": False}


def _static_only(fn):
    from pylayer import in_dynamic_mode
    if in_dynamic_mode():
        raise RuntimeError(f"{fn}() works in static graph mode only, as in Paddle; call "
                           f"pylayer.enable_static() first")


def enable_prim():
    """Turn on automatic differentiation on primitive operators (static mode only), which
    :func:`forward_grad` requires, as in Paddle.

    >>> import pylayer
    >>> pylayer.enable_static()
    >>> pylayer.incubate.autograd.enable_prim()
    >>> pylayer.incubate.autograd.prim_enabled()
    True
    >>> pylayer.incubate.autograd.disable_prim()
    >>> pylayer.disable_static()
    """
    _static_only("enable_prim")
    _prim["enabled"] = True


def disable_prim():
    """Turn off automatic differentiation on primitive operators (static mode only).

    >>> import pylayer
    >>> pylayer.enable_static()
    >>> pylayer.incubate.autograd.disable_prim()
    >>> pylayer.incubate.autograd.prim_enabled()
    False
    >>> pylayer.disable_static()
    """
    _static_only("disable_prim")
    _prim["enabled"] = False


def prim_enabled():
    """Whether :func:`enable_prim` is on (static mode only); off by default."""
    _static_only("prim_enabled")
    return _prim["enabled"]


def _variables(value, fn, arg, allow_none=False):
    from pylayer.static import Variable
    if value is None and allow_none:
        return None
    items = list(value) if _is_sequence(value) else [value]
    if not items or not all(isinstance(item, Variable) for item in items):
        expected = "a Variable or a list of Variables" + (" or None" if allow_none else "")
        raise TypeError(f"{fn}(): argument '{arg}' must be {expected} of the current Program, "
                        f"got {type(value).__name__}")
    return items


def grad(outputs, inputs, grad_outputs=None):
    """Reverse mode in static mode: append to the current Program the gradients of
    ``outputs`` (seeded with ``grad_outputs``, ones by default) with respect to
    ``inputs``; one Variable for one input Variable, else a list (None where an input
    does not affect the outputs).

    >>> import numpy as np, pylayer
    >>> pylayer.enable_static()
    >>> main = pylayer.static.Program()
    >>> with pylayer.static.program_guard(main):
    ...     x = pylayer.static.data('x', [2], 'float32'); x.stop_gradient = False
    ...     dx = pylayer.incubate.autograd.grad(x * x, x)
    >>> pylayer.static.Executor().run(main, feed={'x': np.array([1.0, 3.0], 'float32')},
    ...                               fetch_list=[dx])
    [array([2., 6.], dtype=float32)]
    >>> pylayer.disable_static()
    """
    from pylayer.static import Variable, gradients
    _static_only("grad")
    ys = _variables(outputs, "grad", "outputs")
    xs = _variables(inputs, "grad", "inputs")
    seeds = _variables(grad_outputs, "grad", "grad_outputs", allow_none=True)
    result = gradients(ys, xs, seeds)
    return result[0] if isinstance(inputs, Variable) else result


def forward_grad(outputs, inputs, grad_inputs=None):
    """Forward mode in static mode (with :func:`enable_prim` on, as Paddle requires):
    append to the current Program the products ``J v`` of the Jacobian of ``outputs``
    with respect to ``inputs`` and the tangents ``grad_inputs`` (ones by default); one
    Variable for one output Variable, else a list. pylayer builds ``J v`` from one
    reverse pass per element of the outputs, so their shapes must be known (no -1).

    >>> import numpy as np, pylayer
    >>> pylayer.enable_static()
    >>> pylayer.incubate.autograd.enable_prim()
    >>> main = pylayer.static.Program()
    >>> with pylayer.static.program_guard(main):
    ...     x = pylayer.static.data('x', [2], 'float32'); x.stop_gradient = False
    ...     jv = pylayer.incubate.autograd.forward_grad(x * x, x)
    >>> pylayer.static.Executor().run(main, feed={'x': np.array([1.0, 3.0], 'float32')},
    ...                               fetch_list=[jv])
    [array([2., 6.], dtype=float32)]
    >>> pylayer.incubate.autograd.disable_prim()
    >>> pylayer.disable_static()
    """
    import numpy as np

    from pylayer import ones_like, reshape, stack, to_tensor
    from pylayer.static import Variable, gradients
    _static_only("forward_grad")
    if not _prim["enabled"]:
        raise RuntimeError("forward_grad() works on primitive operators, as in Paddle: call "
                           "pylayer.incubate.autograd.enable_prim() first")
    ys = _variables(outputs, "forward_grad", "outputs")
    xs = _variables(inputs, "forward_grad", "inputs")
    vs = _variables(grad_inputs, "forward_grad", "grad_inputs", allow_none=True)
    if vs is None:
        vs = [ones_like(x) for x in xs]
    elif len(vs) != len(xs):
        raise ValueError(f"forward_grad(): argument 'grad_inputs' must hold one tangent per "
                         f"input ({len(xs)}), got {len(vs)}")
    products = []
    for y in ys:
        shape = list(y.shape)
        if any(size is None or size < 0 for size in shape):
            raise ValueError(f"forward_grad(): the output {y.name} has the unknown shape "
                             f"{shape}; pylayer needs the outputs' shapes to be known")
        size = int(np.prod(shape, dtype=np.int64))
        dtype = str(y.dtype).split(".")[-1]
        entries = []
        for i in range(size):
            seed = np.zeros(size, dtype=dtype)
            seed[i] = 1
            rows = gradients([y], xs, [to_tensor(seed.reshape(shape))])
            terms = [(row * v).sum() for row, v in zip(rows, vs) if row is not None]
            entries.append(sum(terms[1:], terms[0]) if terms else to_tensor(
                np.zeros([], dtype=dtype)))
        products.append(reshape(stack(entries), shape) if entries else to_tensor(
            np.zeros(shape, dtype=dtype)))
    return products[0] if isinstance(outputs, Variable) else products
