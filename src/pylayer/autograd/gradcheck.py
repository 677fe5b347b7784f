"""Numerical gradient checks by central differences (use float64 or complex128 inputs).

A complex input or output counts as two real ones, its real and imaginary parts
(interleaved, as ``array.view(float64)`` lays them out). Backward's gradient of a
complex input ``z = a + ib`` is ``dL/da + i dL/db`` (Paddle's and PyTorch's
convention), so its parts are the two columns of the real Jacobian; a complex
output is seeded with 1 for its real part and 1j for its imaginary part.
"""
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np

from pylayer._kernels.dtypes import is_complex
from pylayer._core.tensor import Tensor, make_tensor
from pylayer.autograd.functional import grad

__all__ = ["gradcheck", "gradgradcheck", "GradcheckError"]


class GradcheckError(AssertionError):
    """An analytical gradient disagrees with the numerical one.

    >>> import pylayer
    >>> x = pylayer.to_tensor([1.0], dtype='float64', stop_gradient=False)
    >>> try:
    ...     pylayer.autograd.gradcheck(lambda t: t + t.detach(), x)
    ... except pylayer.autograd.GradcheckError as error:
    ...     print(str(error).splitlines()[0][:60])
    gradcheck failed for <lambda>: the gradient of output elemen
    """


def _tensor_outputs(result):
    if isinstance(result, Tensor):
        return [result]
    if isinstance(result, (list, tuple)):
        return [r for r in result if isinstance(r, Tensor)]
    raise TypeError(f"gradcheck: func must return a Tensor or a tuple of Tensors, "
                    f"got {type(result).__name__}")


def _differentiable(outputs):
    return [o for o in outputs if o.dtype.is_floating_point or o.dtype.is_complex]


def _as_real(array):
    """A copy of an array's values as float64, a complex element as its two parts,
    flattened (a copy: an output may be a view of the input gradcheck perturbs)."""
    if is_complex(array.dtype):
        return np.array(array, dtype=np.complex128).reshape(-1).view(np.float64)
    return array.astype(np.float64).reshape(-1)


def _real_size(tensor):
    return tensor.size * (2 if tensor.dtype.is_complex else 1)


def _flat_outputs(func, inputs):
    # Grad mode stays on: func may itself differentiate (gradgradcheck).
    return [_as_real(o.numpy()) for o in _differentiable(_tensor_outputs(func(*inputs)))]


def _numerical_jacobians(func, inputs, targets, eps):
    """Per input: an array [n_out_total, n_in] of central differences."""
    base = _differentiable(_tensor_outputs(func(*inputs)))
    sizes = [_real_size(o) for o in base]
    jacobians = []
    for t in targets:
        original = t._array
        # C order, so that the flat view below writes into the array func reads (a
        # complex element is two entries of it: its real and imaginary parts).
        work = np.array(original, dtype=original.dtype, copy=True, order="C")
        flat = work.reshape(-1)
        if is_complex(work.dtype):
            flat = flat.view(work.real.dtype)
        jac = np.zeros((int(sum(sizes)), flat.size))
        t._exchange_array(work)
        try:
            for k in range(flat.size):
                keep = flat[k]
                flat[k] = keep + eps
                plus = _flat_outputs(func, inputs)
                flat[k] = keep - eps
                minus = _flat_outputs(func, inputs)
                flat[k] = keep
                jac[:, k] = np.concatenate([(p - m) / (2 * eps) for p, m in zip(plus, minus)]) \
                    if plus else np.zeros(0)
        finally:
            t._exchange_array(original)
        jacobians.append(jac)
    return jacobians


def _analytical_jacobians(func, inputs, targets):
    outputs = _differentiable(_tensor_outputs(func(*inputs)))
    sizes = [_real_size(o) for o in outputs]
    jacobians = [np.zeros((int(sum(sizes)), _real_size(t))) for t in targets]
    row = 0
    for index, out in enumerate(outputs):
        if out.stop_gradient:
            row += _real_size(out)
            continue
        parts = (1, 1j) if out.dtype.is_complex else (1,)
        for m in range(out.size):
            for part in parts:
                seed = np.zeros(out.shape, dtype=out.numpy().dtype)
                seed.reshape(-1)[m] = part
                grads = grad([out], targets, grad_outputs=[make_tensor(seed)],
                             retain_graph=True, allow_unused=True)
                for j, g in enumerate(grads):
                    if g is not None:
                        jacobians[j][row, :] = _as_real(g.numpy())
                row += 1
    return jacobians, outputs


def _check_arguments(fn, func, inputs, eps, atol, rtol):
    """Validate gradcheck's arguments; return the inputs as a tuple."""
    if not callable(func):
        raise TypeError(f"{fn}(): argument 'func' (position 1) must be callable, "
                        f"got {type(func).__name__}")
    args = tuple(inputs) if isinstance(inputs, (list, tuple)) else (inputs,)
    for i, value in enumerate(args):
        if not isinstance(value, (Tensor, int, float, bool)):
            raise TypeError(f"{fn}(): argument 'inputs' (position 2) must be a Tensor or a "
                            f"tuple of Tensors and numbers, but item {i} is a "
                            f"{type(value).__name__}")
    for name, value, strictly in (("eps", eps, True), ("atol", atol, False),
                                  ("rtol", rtol, False)):
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise TypeError(f"{fn}(): argument '{name}' must be a number, "
                            f"got {type(value).__name__}")
        if value < 0 or (strictly and value == 0):
            raise ValueError(f"{fn}(): argument '{name}' must be "
                             f"{'positive' if strictly else 'non-negative'}, got {value}")
    return args


def _function_name(func):
    """``MyLayer.apply`` for a PyLayer, else the function's qualified name."""
    owner = getattr(func, "__self__", None)
    if isinstance(owner, type):
        return f"{owner.__name__}.{func.__name__}"
    return getattr(func, "__qualname__", repr(func))


class _Mismatch(NamedTuple):
    """Where backward and central differences first disagree."""
    input: int            # position in the inputs
    index: tuple          # the element of that input
    element: int          # the same element, counted in C order
    part: str             # "", or which part of a complex element: " (real part)"...
    output: int           # the output entry, over all differentiable outputs (a complex
                          # element counts as two, its real and imaginary parts)
    analytical: float
    numerical: float
    coarse: tuple         # "input 0 is float32"-style notes on what is not float64
    matrices: tuple       # the analytical and numerical Jacobians of that input


def _find_mismatch(func, args, eps, atol, rtol):
    """The first element where ``func``'s backward and central differences disagree, or None."""
    positions = [i for i, a in enumerate(args) if isinstance(a, Tensor) and not a.stop_gradient]
    targets = [args[i] for i in positions]
    analytical, outputs = _analytical_jacobians(func, args, targets)
    numerical = _numerical_jacobians(func, args, targets, eps)
    for j, (a, n) in enumerate(zip(analytical, numerical)):
        bad = ~np.isclose(a, n, rtol=rtol, atol=atol, equal_nan=True)
        if bad.any():
            row, elem = (int(v) for v in np.argwhere(bad)[0])
            coarse = tuple(f"{what} {k} is {t.dtype.name}" for what, group in
                           (("input", zip(positions, targets)), ("output", enumerate(outputs)))
                           for k, t in group if t.dtype.name not in ("float64", "complex128"))
            element, part = elem, ""
            if targets[j].dtype.is_complex:
                element, part = elem // 2, (" (real part)", " (imaginary part)")[elem % 2]
            index = tuple(int(i) for i in np.unravel_index(element, targets[j].shape))
            return _Mismatch(positions[j], index, element, part, row, float(a[row, elem]),
                             float(n[row, elem]), coarse, (a, n))
    return None


def _use_float64(coarse, eps):
    """The advice for a mismatch seen in a dtype coarser than float64 ('' when none is)."""
    if not coarse:
        return ""
    return (f"{'; '.join(coarse)}: below float64, central differences (eps={eps}) are "
            f"too coarse, so the numbers may be wrong rather than backward; check with "
            f"float64 inputs (x.astype('float64')), complex128 ones for complex inputs.")


def gradcheck(func: Callable[..., Any], inputs: Tensor | Sequence[Any], eps: float = 1e-6,
              atol: float = 1e-5, rtol: float = 1e-3, raise_exception: bool = True) -> bool:
    """Compare ``func``'s backward with central differences.

    ``inputs`` is a Tensor or a tuple of arguments; the Tensors with
    ``stop_gradient=False`` are checked (use float64 or complex128: in
    float32 the differences are too coarse, and the message of a failure
    says so). A complex input is perturbed in its real and its imaginary
    part, and its gradient read in Paddle's convention (see the module).
    Returns True, or raises :class:`GradcheckError` naming the input, output
    and element that differ (returns False instead when ``raise_exception=False``).

    >>> import pylayer
    >>> x = pylayer.to_tensor([0.5, -1.0], dtype='float64', stop_gradient=False)
    >>> pylayer.autograd.gradcheck(pylayer.tanh, x)
    True
    """
    args = _check_arguments("gradcheck", func, inputs, eps, atol, rtol)
    targets = [a for a in args if isinstance(a, Tensor) and not a.stop_gradient]
    if not targets:
        raise ValueError("gradcheck: no input has stop_gradient=False, so there is nothing "
                         "to check")
    for i, t in enumerate(targets):
        if not (t.dtype.is_floating_point or t.dtype.is_complex):
            raise TypeError(f"gradcheck: input {i} has dtype {t.dtype.name}; gradients need "
                            f"floating-point or complex inputs (float64 or complex128 is "
                            f"recommended)")
    mismatch = _find_mismatch(func, args, eps, atol, rtol)
    if mismatch is None:
        return True
    if not raise_exception:
        return False
    advice = _use_float64(mismatch.coarse, eps)
    raise GradcheckError(
        f"gradcheck failed for {_function_name(func)}: the gradient of output element "
        f"{mismatch.output} with respect to input {mismatch.input} (element "
        f"{mismatch.element}, index {mismatch.index}{mismatch.part}) is "
        f"{mismatch.analytical!r} by backward but "
        f"{mismatch.numerical!r} by central differences.\n"
        + (advice + "\n" if advice else "")
        + f"analytical:\n{mismatch.matrices[0]}\nnumerical:\n{mismatch.matrices[1]}")


def _first_derivative(func, args, grad_outputs):
    """The gradient of ``func`` (weighted by ``grad_outputs``) as a function of
    ``args + grad_outputs``, and those arguments: what gradgradcheck checks."""
    n_args = len(args)
    positions = [i for i, a in enumerate(args) if isinstance(a, Tensor) and not a.stop_gradient]

    def first_derivative(*all_args):
        call_args = all_args[:n_args]
        outs = _differentiable(_tensor_outputs(func(*call_args)))
        return tuple(g for g in grad(outs, [call_args[i] for i in positions],
                                     grad_outputs=list(all_args[n_args:]), create_graph=True,
                                     allow_unused=True) if g is not None)

    first_derivative.__qualname__ = f"gradient of {_function_name(func)}"
    return first_derivative, args + tuple(grad_outputs)


def _random_like(rng, tensor):
    """Random float64 values of ``tensor``'s shape (complex128 for a complex tensor)."""
    values = rng.standard_normal(tensor.shape)
    if tensor.dtype.is_complex:
        values = values + 1j * rng.standard_normal(tensor.shape)
    return values


def gradgradcheck(func: Callable[..., Any], inputs: Tensor | Sequence[Any],
                  grad_outputs: Tensor | Sequence[Tensor] | None = None, eps: float = 1e-6,
                  atol: float = 1e-5, rtol: float = 1e-3, raise_exception: bool = True) -> bool:
    """Check second derivatives: gradcheck on the gradient of ``func``.

    >>> import pylayer
    >>> x = pylayer.to_tensor([0.5, -1.0], dtype='float64', stop_gradient=False)
    >>> pylayer.autograd.gradgradcheck(pylayer.tanh, x)
    True
    """
    args = _check_arguments("gradgradcheck", func, inputs, eps, atol, rtol)
    if grad_outputs is None:
        rng = np.random.default_rng(0)
        grad_outputs = [make_tensor(_random_like(rng, o), False)
                        for o in _differentiable(_tensor_outputs(func(*args)))]
    elif isinstance(grad_outputs, Tensor):
        grad_outputs = [grad_outputs]
    elif not isinstance(grad_outputs, (list, tuple)) or \
            not all(isinstance(g, Tensor) for g in grad_outputs):
        raise TypeError(f"gradgradcheck(): argument 'grad_outputs' must be a Tensor or a list "
                        f"of Tensors, got {type(grad_outputs).__name__}")
    first_derivative, all_args = _first_derivative(func, args, grad_outputs)
    return gradcheck(first_derivative, all_args, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception)
