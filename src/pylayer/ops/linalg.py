"""Linear algebra: ``matmul`` (compiled in ``_linalg.pyx``), ``addmm``, ``bmm``,
``dot`` and ``einsum``.

``addmm`` and ``bmm`` check Paddle's shape rules and are then written with
the recorded ops ``matmul``, ``scale`` and ``add``, so their gradients (and
gradients of gradients) come from those. ``einsum`` records one node whose
backward is again an ``einsum``, so every order of derivative is recorded.
``dot`` records one node that saves both inputs.
"""
import string

import numpy as np

from pylayer._core.graph import make_output_legacy
from pylayer._core.tensor import Tensor, make_tensor
from pylayer.ops import _linalg
from pylayer.ops._arguments import check_number, check_str, describe, float_tensor
from pylayer.ops._operands import as_tensor_arg
from pylayer.ops._shape import reshape_exact
from pylayer.ops.arithmetic import add, multiply, scale
from pylayer.ops.dispatch import op

__all__ = ["matmul", "addmm", "bmm", "dot", "einsum"]

# The compiled matmul (_linalg.pyx), public from here: wrapped once by
# pylayer.ops.dispatch.op (the compiled ops call each other unwrapped).
matmul = op(_linalg.matmul)


def _same_dtype(fn, tensors):
    dtypes = [t.dtype.name for t in tensors]
    if len(set(dtypes)) > 1:
        raise TypeError(f"{fn}(): all operands must have the same dtype, got {dtypes}")


# -------------------------------------------------------------------- addmm
@op
def addmm(input, x, y, beta=1.0, alpha=1.0, name=None):
    """``beta * input + alpha * (x @ y)`` for 2-D ``x`` ``[M, K]`` and ``y`` ``[K, N]``.

    ``input`` broadcasts to ``[M, N]`` (for example a bias of shape ``[N]``).
    Gradients reach all three tensors.

    >>> import pylayer
    >>> bias = pylayer.to_tensor([1.0, 2.0])
    >>> x = pylayer.ones([3, 4])
    >>> w = pylayer.ones([4, 2])
    >>> pylayer.addmm(bias, x, w, beta=2.0, alpha=0.5).numpy()
    array([[4., 6.],
           [4., 6.],
           [4., 6.]], dtype=float32)
    """
    input = float_tensor(input, "addmm", "input", 1)
    x = float_tensor(x, "addmm", "x", 2)
    y = float_tensor(y, "addmm", "y", 3)
    beta = check_number(beta, "addmm", "beta")
    alpha = check_number(alpha, "addmm", "alpha")
    _same_dtype("addmm", (input, x, y))
    if x.ndim != 2 or y.ndim != 2 or x.shape[1] != y.shape[0]:
        raise ValueError(f"addmm(): x and y must be 2-D with x's columns equal to y's rows, "
                         f"got x of shape {x.shape} and y of shape {y.shape}")
    target = (x.shape[0], y.shape[1])
    try:
        fits = np.broadcast_shapes(tuple(input.shape), target) == target
    except ValueError:
        fits = False
    if not fits:
        raise ValueError(f"addmm(): argument 'input' of shape {input.shape} does not broadcast "
                         f"to the shape {list(target)} of x @ y")
    return add(scale(input, beta), scale(matmul(x, y), alpha))


# ---------------------------------------------------------------------- bmm
@op
def bmm(x, y, name=None):
    """Batched matrix product of ``x`` ``[B, M, K]`` and ``y`` ``[B, K, N]``: ``[B, M, N]``.

    Unlike :func:`pylayer.matmul`, the batch sizes must be equal (no broadcasting).

    >>> import pylayer
    >>> pylayer.bmm(pylayer.ones([2, 3, 4]), pylayer.ones([2, 4, 5])).shape
    [2, 3, 5]
    """
    x = float_tensor(x, "bmm", "x", 1)
    y = float_tensor(y, "bmm", "y", 2)
    _same_dtype("bmm", (x, y))
    if x.ndim != 3 or y.ndim != 3:
        raise ValueError(f"bmm(): x and y must be 3-D, got x of shape {x.shape} and y of "
                         f"shape {y.shape}")
    if x.shape[0] != y.shape[0] or x.shape[2] != y.shape[1]:
        raise ValueError(f"bmm(): x [B, M, K] and y [B, K, N] must have the same B and K, got "
                         f"x of shape {x.shape} and y of shape {y.shape}")
    return matmul(x, y)


# ------------------------------------------------------------------- dot
def _dot_bw(node, g):
    x, y = node.saved_tensors()
    g = reshape_exact(g, g._array.shape + (1,))
    gx = multiply(g, y) if node.needs_input_grad[0] else None
    gy = multiply(g, x) if node.needs_input_grad[1] else None
    return (gx, gy)


@op
def dot(x, y, name=None):
    """Inner product of two 1-D tensors, or of matching rows of two 2-D tensors.

    For 2-D inputs of shape ``[N, K]`` the result has shape ``[N]``. Saves both
    inputs.

    >>> import pylayer
    >>> pylayer.dot(pylayer.to_tensor([1.0, 2.0]), pylayer.to_tensor([3.0, 4.0])).numpy()
    array(11., dtype=float32)
    """
    x = as_tensor_arg(x, "dot", "x", 1)
    y = as_tensor_arg(y, "dot", "y", 2)
    a, b = x._array, y._array
    if a.ndim not in (1, 2) or b.ndim not in (1, 2):
        raise ValueError(f"dot(): x and y must be 1-D or 2-D tensors, got shapes "
                         f"{list(a.shape)} and {list(b.shape)}")
    if a.shape != b.shape:
        raise ValueError(f"dot(): x and y must have the same shape, got {list(a.shape)} "
                         f"and {list(b.shape)}")
    with np.errstate(all="ignore"):
        out = np.asarray(np.einsum("...k,...k->...", a, b))
    return make_output_legacy(out, (x, y), "dot", _dot_bw, save=(x, y))


# ------------------------------------------------------------------- einsum
def _parse(equation, shapes):
    """The equation with one letter per dimension: (input subscripts, output subscripts).

    ``...`` becomes letters of their own (aligned from the right), and an
    operand's size-1 dimension that broadcasts against a larger one gets a
    letter of its own, so numpy's einsum needs no broadcasting.
    """
    fn = "einsum"
    text = equation.replace(" ", "")
    inputs_text, arrow, output_text = text.partition("->")
    terms = inputs_text.split(",")
    if len(terms) != len(shapes):
        raise ValueError(f"{fn}(): the equation {equation!r} has {len(terms)} input terms, but "
                         f"{len(shapes)} operands were given")
    allowed = set(string.ascii_letters)
    for term in terms + [output_text]:
        if set(term.replace("...", "")) - allowed or term.count("...") > 1:
            raise ValueError(f"{fn}(): argument 'equation' {equation!r} may hold only letters, "
                             f"',', '->' and at most one '...' per term")
    used = set(text) & allowed
    spare = iter(c for c in string.ascii_letters if c not in used)
    ellipsis_rank = 0
    for term, shape in zip(terms, shapes):
        letters = len(term.replace("...", ""))
        if ("..." in term and letters > len(shape)) or ("..." not in term
                                                         and letters != len(shape)):
            raise ValueError(f"{fn}(): argument 'equation': the term {term!r} of {equation!r} "
                             f"does not fit an operand of shape {list(shape)}")
        if "..." in term:
            ellipsis_rank = max(ellipsis_rank, len(shape) - letters)
    ellipsis_letters = "".join(next(spare) for _ in range(ellipsis_rank))

    def expand(term, rank):
        if "..." not in term:
            return term
        head, _, tail = term.partition("...")
        return head + ellipsis_letters[ellipsis_rank - rank:] + tail

    subs = [expand(term, len(shape) - len(term.replace("...", "")))
            for term, shape in zip(terms, shapes)]
    if arrow:
        out = expand(output_text, ellipsis_rank)  # '...' left out of it is summed over
    else:
        counts = {}
        for s in subs:
            for c in s:
                counts[c] = counts.get(c, 0) + 1
        out = ellipsis_letters + "".join(sorted(c for c, n in counts.items()
                                                if n == 1 and c not in ellipsis_letters))
    sizes = {}
    for s, shape in zip(subs, shapes):
        for c, size in zip(s, shape):
            if size != 1:
                if sizes.get(c, size) != size:
                    raise ValueError(f"{fn}(): the letter {c!r} of {equation!r} stands for "
                                     f"sizes {sizes[c]} and {size}, which do not match")
                sizes[c] = size
    if len(set(out)) != len(out) or set(out) - set("".join(subs)):
        raise ValueError(f"{fn}(): the output term of {equation!r} must name each letter of "
                         f"the inputs at most once")
    renamed = []
    for s, shape in zip(subs, shapes):
        own = {}
        renamed.append("".join(own.setdefault(c, next(spare))
                               if size == 1 and sizes.get(c, 1) != 1 else c
                               for c, size in zip(s, shape)))
    return renamed, out


def _einsum_bw(node, g):
    in_subs, out_subs, shapes = node.attrs
    operands = node.saved_tensors()
    return tuple(_operand_grad(i, g, operands, in_subs, out_subs, shapes[i]) if needed else None
                 for i, needed in enumerate(node.needs_input_grad))


def _operand_grad(i, g, operands, in_subs, out_subs, shape):
    """The gradient of operand ``i``: an einsum of ``g`` and the other operands.

    A letter found only in operand ``i`` comes back through a vector of ones;
    a repeated letter (a diagonal) through an identity matrix.
    """
    subs = [out_subs] + [s for j, s in enumerate(in_subs) if j != i]
    tensors = [g] + [t for j, t in enumerate(operands) if j != i]
    dtype = g.numpy().dtype
    used = set("".join(in_subs) + out_subs)
    spare = iter(c for c in string.ascii_letters if c not in used)
    available = set("".join(subs))
    target = []
    for letter, size in zip(in_subs[i], shape):
        if letter in target:
            fresh = next(spare)
            subs.append(letter + fresh)
            tensors.append(make_tensor(np.eye(size, dtype=dtype)))
            target.append(fresh)
            continue
        if letter not in available:
            subs.append(letter)
            tensors.append(make_tensor(np.ones(size, dtype=dtype)))
            available.add(letter)
        target.append(letter)
    return _einsum(subs, "".join(target), tensors)


def _einsum(in_subs, out_subs, tensors):
    arrays = [t.numpy() for t in tensors]
    equation = ",".join(in_subs) + "->" + out_subs
    with np.errstate(all="ignore"):
        out = np.asarray(np.einsum(equation, *arrays, optimize=len(arrays) > 2))
    shapes = tuple(a.shape for a in arrays)
    return make_output_legacy(out, tuple(tensors), "einsum", _einsum_bw, save=tuple(tensors),
                       attrs=(tuple(in_subs), out_subs, shapes))


@op
def einsum(equation, *operands):
    """Sum of products over the letters of ``equation`` (Einstein summation).

    ``"ij,jk->ik"`` is a matrix product, ``"bij->bji"`` a transpose,
    ``"ii->i"`` a diagonal. Without ``->`` the output holds the letters that
    appear once, in alphabetical order. ``...`` stands for the leading
    dimensions, and size-1 dimensions broadcast. Operands must share one
    floating-point dtype. The gradient of each operand is itself an einsum,
    so it can be differentiated again.

    >>> import pylayer
    >>> a = pylayer.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> pylayer.einsum("ij,j->i", a, pylayer.to_tensor([1.0, 1.0])).numpy()
    array([3., 7.], dtype=float32)
    >>> pylayer.einsum("ii", a).numpy()
    array(5., dtype=float32)
    """
    check_str(equation, "einsum", "equation")
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    if not operands:
        raise ValueError("einsum(): give at least one operand after the equation")
    tensors = []
    for i, value in enumerate(operands):
        if not isinstance(value, Tensor):
            raise TypeError(f"einsum(): argument 'operands' item {i} must be a Tensor, got "
                            f"{describe(value)}")
        tensors.append(float_tensor(value, "einsum", f"operands[{i}]", i + 2))
    _same_dtype("einsum", tensors)
    in_subs, out_subs = _parse(equation, [tuple(t.shape) for t in tensors])
    return _einsum(in_subs, out_subs, tensors)
