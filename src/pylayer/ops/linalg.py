"""Linear algebra: ``matmul``, ``addmm``, ``bmm``, ``dot``, ``einsum`` and the products
built on them (``mm``, ``mv``, ``baddbmm``, ``outer``/``ger``, ``inner``, ``kron``,
``tensordot``, ``cross``).

``matmul``, ``dot`` and ``einsum`` are declared as records next to their forwards,
with gradient rules written with the recorded ops, so every order of derivative is
recorded. ``addmm``, ``bmm`` and the other products check Paddle's shape and dtype
rules and are then written with ``matmul``, ``multiply``, ``reshape``, ``transpose``,
``scale`` and ``add``, whose gradients they take. ``einsum`` records one
node per contraction of one or two operands (the gradient of each operand is again
an einsum); ``dot`` keeps both inputs.
"""
import string

import numpy as np

from pylayer._core.graph import Op, make_output
from pylayer._core.tensor import Tensor, make_tensor
from pylayer._kernels.conv import pooled_empty
from pylayer.ops._arguments import check_number, check_str, describe, float_tensor
from pylayer.ops._operands import (accumulating, as_tensor_arg as tensor_arg, conjugate,
                                   float32_default, holds_complex, is_bfloat16_array, real_part_if,
                                   unbroadcast)
from pylayer._kernels.dtypes import is_complex, is_floating
from pylayer.ops._arguments import check_axis, check_int
from pylayer.ops.arithmetic import add, multiply, scale, subtract
from pylayer.ops.dispatch import op
from pylayer.ops.inplace import inplace_twin
from pylayer.ops.manipulation import roll
from pylayer.ops.reduction import sum as reduce_sum
from pylayer.ops.selection import _write_out
from pylayer.ops.shape import reshape, reshape_exact, transpose, unsqueeze

__all__ = ["matmul", "addmm", "bmm", "dot", "einsum", "mm", "mv", "baddbmm", "ger", "outer",
           "inner", "kron", "tensordot", "cross", "addmm_", "baddbmm_"]


# ------------------------------------------------------------------- matmul
def _matmul_vjp(g, x, y, transpose_x, transpose_y, needs_input_grad):
    """Both gradients of matmul (the matrix forms they share are worked out once)."""
    tx, ty, needs = transpose_x, transpose_y, needs_input_grad
    xs = x._array.shape
    ys = y._array.shape
    gs = g._array.shape
    # Work with matrices: a vector x is a row [1, k], a vector y a column [k, 1].
    a = reshape_exact(x, (1,) + xs) if len(xs) == 1 else x
    b = reshape_exact(y, ys + (1,)) if len(ys) == 1 else y
    if len(xs) == 1 and len(ys) == 1:
        g = reshape_exact(g, (1, 1))
    elif len(xs) == 1:
        g = reshape_exact(g, gs[:-1] + (1,) + gs[-1:])
    elif len(ys) == 1:
        g = reshape_exact(g, gs + (1,))
    gx = gy = None
    if needs[0]:
        conjugate_b = conjugate(b)
        if tx:
            gx = _matmul(conjugate_b, g, ty, True)
        else:
            gx = _matmul(g, conjugate_b, False, not ty)
        gx = real_part_if(gx, not holds_complex(x._array))
        gx = reshape_exact(unbroadcast(gx, a._array.shape), xs)
    if needs[1]:
        conjugate_a = conjugate(a)
        if ty:
            gy = _matmul(g, conjugate_a, True, tx)
        else:
            gy = _matmul(conjugate_a, g, not tx, False)
        gy = real_part_if(gy, not holds_complex(y._array))
        gy = reshape_exact(unbroadcast(gy, b._array.shape), ys)
    return (gx, gy)


MATMUL = Op("matmul", inputs=("x", "y"), keeps=("x", "y"), attrs=("transpose_x", "transpose_y"),
            vjp=_matmul_vjp)


@op(method=True)
def matmul(x, y, transpose_x=False, transpose_y=False, name=None):
    """Matrix product with numpy's broadcasting of batch dimensions.

    >>> import pylayer
    >>> a = pylayer.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> pylayer.matmul(a, a, transpose_y=True).numpy()
    array([[ 5., 11.],
           [11., 25.]], dtype=float32)
    >>> (a @ pylayer.to_tensor([1.0, 1.0])).numpy()
    array([3., 7.], dtype=float32)
    """
    return _matmul(x, y, transpose_x, transpose_y)


def _matmul(x, y, transpose_x, transpose_y):
    x = tensor_arg(x, "matmul", "x", 1)
    y = tensor_arg(y, "matmul", "y", 2)
    a = x._array
    b = y._array
    if transpose_x and a.ndim > 1:
        a = a.T if a.ndim == 2 else a.swapaxes(-1, -2)
    if transpose_y and b.ndim > 1:
        b = b.T if b.ndim == 2 else b.swapaxes(-1, -2)
    try:
        out = matrix_product(a, b, _pooled_product(a, b))
    except ValueError:
        raise ValueError(f"matmul(): x of shape {list(x._array.shape)} and y of shape "
                         f"{list(y._array.shape)} do not fit a matrix product: the "
                         f"last dimension of x must equal the first matrix dimension of y "
                         f"(transpose_x={transpose_x}, transpose_y={transpose_y})") from None
    if out.dtype.kind == "c" or is_bfloat16_array(a) or is_bfloat16_array(b):
        # int64 @ complex64 is complex64; numpy multiplies bfloat16 in float32
        out = float32_default(out, a, b)
    return make_output(MATMUL, out, (x, y), (bool(transpose_x and a.ndim > 1),
                                             bool(transpose_y and b.ndim > 1)))


_POOLED_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))


def matrix_product(a, b, out=None):
    """``np.matmul(a, b, out=out)``; for float32 or float64 matrices of one dtype whose
    inner dimension is 1 (an outer product), the elementwise product instead: numpy's
    matmul runs its scalar loop for those (25 against 4 us at [64, 1] @ [1, 256]), and
    each element is the one product either way.

    >>> matrix_product(np.ones((2, 1)), np.full((1, 3), 2.0))
    array([[2., 2., 2.],
           [2., 2., 2.]])
    """
    if (a.ndim >= 2 and b.ndim >= 2 and a.shape[-1] == 1 and b.shape[-2] == 1
            and a.dtype == b.dtype and a.dtype in _POOLED_DTYPES):
        return np.multiply(a, b, out=out)
    return np.matmul(a, b, out=out)


def _pooled_product(a, b):
    """Where to write ``a @ b`` for two float32 or two float64 arrays of at least two
    dimensions whose shapes fit a product: a new array on pooled memory when large;
    None (numpy allocates, or raises for shapes that do not fit) otherwise."""
    if (a.ndim < 2 or b.ndim < 2 or a.dtype != b.dtype or a.dtype not in _POOLED_DTYPES
            or a.shape[-1] != b.shape[-2]):
        return None
    if a.ndim == 2 and b.ndim == 2:
        batch = ()
    else:
        try:
            batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
        except ValueError:
            return None
    return pooled_empty(batch + (a.shape[-2], b.shape[-1]), a.dtype)


def _same_dtype(fn, tensors):
    dtypes = [t.dtype.name for t in tensors]
    if len(set(dtypes)) > 1:
        raise TypeError(f"{fn}(): all operands must have the same dtype, got {dtypes}")


# -------------------------------------------------------------------- addmm
@op(method=True, inplace=True)
def addmm(input, x, y, beta=1.0, alpha=1.0, name=None):
    """``beta * input + alpha * (x @ y)`` for 2-D ``x`` ``[M, K]`` and ``y`` ``[K, N]``.

    ``input`` broadcasts to ``[M, N]`` (for example a bias of shape ``[N]``).
    Gradients reach all three tensors. ``input.addmm_(x, y)`` (or
    ``pylayer.addmm_``) is the in-place form.

    >>> import pylayer
    >>> bias = pylayer.to_tensor([1.0, 2.0])
    >>> x = pylayer.ones([3, 4])
    >>> w = pylayer.ones([4, 2])
    >>> pylayer.addmm(bias, x, w, beta=2.0, alpha=0.5).numpy()
    array([[4., 6.],
           [4., 6.],
           [4., 6.]], dtype=float32)
    """
    input = float_tensor(input, "addmm", "input", 1, complex_too=True)
    x = float_tensor(x, "addmm", "x", 2, complex_too=True)
    y = float_tensor(y, "addmm", "y", 3, complex_too=True)
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
    return add(scale(input, beta), scale(_matmul(x, y, False, False), alpha))


# ---------------------------------------------------------------------- bmm
@op(method=True)
def bmm(x, y, name=None):
    """Batched matrix product of ``x`` ``[B, M, K]`` and ``y`` ``[B, K, N]``: ``[B, M, N]``.

    Unlike :func:`pylayer.matmul`, the batch sizes must be equal (no broadcasting).

    >>> import pylayer
    >>> pylayer.bmm(pylayer.ones([2, 3, 4]), pylayer.ones([2, 4, 5])).shape
    [2, 3, 5]
    """
    x = float_tensor(x, "bmm", "x", 1, complex_too=True)
    y = float_tensor(y, "bmm", "y", 2, complex_too=True)
    _same_dtype("bmm", (x, y))
    if x.ndim != 3 or y.ndim != 3:
        raise ValueError(f"bmm(): x and y must be 3-D, got x of shape {x.shape} and y of "
                         f"shape {y.shape}")
    if x.shape[0] != y.shape[0] or x.shape[2] != y.shape[1]:
        raise ValueError(f"bmm(): x [B, M, K] and y [B, K, N] must have the same B and K, got "
                         f"x of shape {x.shape} and y of shape {y.shape}")
    return _matmul(x, y, False, False)


# ---------------------------------------------------------------------- dot
def _column(g):
    """The gradient of ``dot`` with a trailing axis of size 1, to scale the other operand's rows."""
    return reshape_exact(g, g._array.shape + (1,))


DOT = Op("dot", inputs=("x", "y"), keeps=("x", "y"),
         vjp=(lambda g, x, y: real_part_if(multiply(_column(g), conjugate(y)),
                                           not holds_complex(x.numpy())),
              lambda g, x, y: real_part_if(multiply(_column(g), conjugate(x)),
                                           not holds_complex(y.numpy()))))


@op(method=True)
def dot(x, y, name=None):
    """Inner product of two 1-D tensors, or of matching rows of two 2-D tensors.

    For 2-D inputs of shape ``[N, K]`` the result has shape ``[N]``. Saves both
    inputs.

    >>> import pylayer
    >>> pylayer.dot(pylayer.to_tensor([1.0, 2.0]), pylayer.to_tensor([3.0, 4.0])).numpy()
    array(11., dtype=float32)
    """
    x = tensor_arg(x, "dot", "x", 1)
    y = tensor_arg(y, "dot", "y", 2)
    a, b = x._array, y._array
    if a.ndim not in (1, 2) or b.ndim not in (1, 2):
        raise ValueError(f"dot(): x and y must be 1-D or 2-D tensors, got shapes "
                         f"{list(a.shape)} and {list(b.shape)}")
    if a.shape != b.shape:
        raise ValueError(f"dot(): x and y must have the same shape, got {list(a.shape)} "
                         f"and {list(b.shape)}")
    with np.errstate(all="ignore"):
        out = np.asarray(np.einsum("...k,...k->...", accumulating(a), accumulating(b)))
    if out.dtype.kind == "c" or is_bfloat16_array(a) or is_bfloat16_array(b):
        out = float32_default(out, a, b)
    return make_output(DOT, out, (x, y))


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
    if set(out) - set("".join(subs)):
        raise ValueError(f"{fn}(): the output term of {equation!r} must name only letters of "
                         f"the inputs")
    renamed = []
    for s, shape in zip(subs, shapes):
        own = {}
        renamed.append("".join(own.setdefault(c, next(spare))
                               if size == 1 and sizes.get(c, 1) != 1 else c
                               for c, size in zip(s, shape)))
    return renamed, out


def _operand_grad(g, out_subs, others, other_subs, subs, shape):
    """The gradient of the operand with subscripts ``subs`` and ``shape``: an einsum of
    ``g`` (subscripts ``out_subs``) and the ``others`` operands of its contraction.

    A letter found only in the operand comes back through a vector of ones;
    a repeated letter (a diagonal) through an identity matrix.
    """
    terms = [out_subs] + list(other_subs)
    tensors = [g] + list(others)
    dtype = g.numpy().dtype
    used = set(subs + "".join(terms))
    spare = iter(c for c in string.ascii_letters if c not in used)
    available = set("".join(terms))
    target = []
    for letter, size in zip(subs, shape):
        if letter in target:
            fresh = next(spare)
            terms.append(letter + fresh)
            tensors.append(make_tensor(np.eye(size, dtype=dtype)))
            target.append(fresh)
            continue
        if letter not in available:
            terms.append(letter)
            tensors.append(make_tensor(np.ones(size, dtype=dtype)))
            available.add(letter)
        target.append(letter)
    return _contract(terms, "".join(target), tensors)


EINSUM = Op("einsum", inputs=("x", "y"), keeps=("x", "y"),
            attrs=("x_subs", "y_subs", "out_subs", "x_shape", "y_shape"),
            vjp=(lambda g, y, x_subs, y_subs, out_subs, x_shape:
                     _operand_grad(g, out_subs, (conjugate(y),), (y_subs,), x_subs, x_shape),
                 lambda g, x, x_subs, y_subs, out_subs, y_shape:
                     _operand_grad(g, out_subs, (conjugate(x),), (x_subs,), y_subs, y_shape)))
# The einsum of one operand (a transpose, a diagonal, a sum) keeps nothing.
EINSUM_OF_ONE = Op("einsum", attrs=("x_subs", "out_subs", "x_shape"),
                   vjp=(lambda g, x_subs, out_subs, x_shape:
                            _operand_grad(g, out_subs, (), (), x_subs, x_shape),))


def _contract(subs, out_subs, tensors):
    """The einsum of ``tensors`` (subscripts ``subs``, one letter per dimension) into
    ``out_subs``, recorded one contraction of two operands at a time: the first two
    become one that has the letters the others and the output still need."""
    while len(tensors) > 2:
        rest = "".join(subs[2:]) + out_subs
        kept = "".join(dict.fromkeys([c for c in subs[0] + subs[1] if c in rest]))
        tensors = [_einsum(subs[:2], kept, tensors[:2])] + tensors[2:]
        subs = [kept] + subs[2:]
    return _einsum(subs, out_subs, tensors)


def _einsum(subs, out_subs, tensors):
    """One recorded einsum of one or two operands."""
    arrays = [t.numpy() for t in tensors]
    with np.errstate(all="ignore"):
        out = np.asarray(np.einsum(",".join(subs) + "->" + out_subs,
                                   *[accumulating(a) for a in arrays]))
    out = float32_default(out, *arrays)    # bfloat16, summed in float32
    if len(tensors) == 1:
        return make_output(EINSUM_OF_ONE, out, tuple(tensors), (subs[0], out_subs, arrays[0].shape))
    return make_output(EINSUM, out, tuple(tensors),
                       (subs[0], subs[1], out_subs, arrays[0].shape, arrays[1].shape))


@op
def einsum(equation, *operands):
    """Sum of products over the letters of ``equation`` (Einstein summation).

    ``"ij,jk->ik"`` is a matrix product, ``"bij->bji"`` a transpose,
    ``"ii->i"`` a diagonal, and a letter repeated in the output puts the values on
    a diagonal (``"i->ii"``), as in Paddle. Without ``->`` the output holds the letters that
    appear once, in alphabetical order. ``...`` stands for the leading
    dimensions, and size-1 dimensions broadcast. Operands must share one
    floating-point or complex dtype. Three or more operands are contracted two at a
    time, from the left. The gradient of each operand is itself an einsum,
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
        tensors.append(float_tensor(value, "einsum", f"operands[{i}]", i + 2, complex_too=True))
    _same_dtype("einsum", tensors)
    in_subs, out_subs = _parse(equation, [tuple(t.shape) for t in tensors])
    return _contract(*_repeated_output(in_subs, out_subs, tensors))


def _repeated_output(subs, out_subs, tensors):
    """A letter repeated in the output (``'i->ii'``) puts the values on a diagonal, as
    in Paddle: each repeat becomes a letter of its own, tied to the first by an
    identity matrix."""
    if len(set(out_subs)) == len(out_subs):
        return subs, out_subs, tensors
    sizes = {c: n for s, t in zip(subs, tensors) for c, n in zip(s, t.shape)}
    used = set("".join(subs) + out_subs)
    spare = iter(c for c in string.ascii_letters if c not in used)
    subs, tensors, out, seen = list(subs), list(tensors), [], set()
    for c in out_subs:
        if c in seen:
            fresh = next(spare)
            subs.append(c + fresh)
            tensors.append(make_tensor(np.eye(sizes[c], dtype=tensors[0].numpy().dtype)))
            c = fresh
        seen.add(c)
        out.append(c)
    return subs, "".join(out), tensors


# ----------------------------------------------------------- more products
def _kind(t):
    dtype = t.numpy().dtype
    return "complex" if is_complex(dtype) else "float" if is_floating(dtype) else "integer"


def _one_kind(fn, named):
    """Refuse an integer (or bool) operand beside a floating-point or complex one, as
    Paddle does; float32 beside float64 is promoted. ``named``: {argument: Tensor}."""
    kinds = {_kind(t) for t in named.values()}
    if "integer" in kinds and len(kinds) > 1:
        raise TypeError(f"{fn}(): " + " and ".join(f"'{arg}' ({t.dtype.name})" for arg, t in
                                                   named.items())
                        + " must be all integer or all floating-point")


def _one_dtype(fn, named):
    """Refuse operands of different dtypes. ``named``: {argument: Tensor}."""
    if len({t.dtype.name for t in named.values()}) > 1:
        raise TypeError(f"{fn}(): " + " and ".join(f"'{arg}' ({t.dtype.name})" for arg, t in
                                                   named.items())
                        + " must have one dtype")


@op(method=True)
def mm(input, mat2, name=None):
    """The matrix product ``input @ mat2`` (as :func:`pylayer.matmul` without transposes:
    batch dimensions broadcast, a 1-D operand is a vector). Both operands have one dtype.

    >>> import pylayer
    >>> a = pylayer.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> pylayer.mm(a, pylayer.to_tensor([[1.0, 0.0], [2.0, 1.0]])).numpy()
    array([[ 5.,  2.],
           [11.,  4.]], dtype=float32)
    """
    input = tensor_arg(input, "mm", "input", 1)
    mat2 = tensor_arg(mat2, "mm", "mat2", 2)
    _one_dtype("mm", {"input": input, "mat2": mat2})
    a, b = input.shape, mat2.shape
    inner_a = a[-1] if a else None
    inner_b = (b[0] if len(b) == 1 else b[-2]) if b else None
    if inner_a is None or inner_b is None or inner_a != inner_b:
        raise ValueError(f"mm(): input of shape {a} and mat2 of shape {b} do not fit a matrix "
                         f"product")
    return _matmul(input, mat2, False, False)


@op(method=True)
def mv(x, vec, name=None):
    """The product of the matrix ``x`` ``[M, N]`` and the vector ``vec`` ``[N]``: ``[M]``.
    Floating-point operands of one dtype, as in Paddle.

    >>> import pylayer
    >>> x = pylayer.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> pylayer.mv(x, pylayer.to_tensor([1.0, 2.0])).numpy()
    array([ 5., 11.], dtype=float32)
    """
    x = float_tensor(x, "mv", "x", 1, complex_too=True)
    vec = float_tensor(vec, "mv", "vec", 2, complex_too=True)
    _one_dtype("mv", {"x": x, "vec": vec})
    if x.ndim != 2 or vec.ndim != 1 or x.shape[1] != vec.shape[0]:
        raise ValueError(f"mv(): x must be 2-D [M, N] and vec 1-D [N], got x of shape {x.shape} "
                         f"and vec of shape {vec.shape}")
    return _matmul(x, vec, False, False)


@op(method=True, inplace=True)
def baddbmm(input, x, y, beta=1.0, alpha=1.0, name=None):
    """``beta * input + alpha * (x @ y)`` for batches of matrices ``x`` ``[B, M, K]`` and
    ``y`` ``[B, K, N]``.

    ``input`` is ``[B, M, N]`` or broadcasts to it from size-1 dimensions; a
    2-D ``input`` ``[B, N]`` (or ``[B, 1]``) is one row per batch, as in Paddle.
    Floating-point operands of one dtype. Gradients reach all three tensors.
    ``input.baddbmm_(x, y)`` (or ``pylayer.baddbmm_``) is the in-place form.

    >>> import pylayer
    >>> input = pylayer.ones([2, 1, 2])
    >>> pylayer.baddbmm(input, pylayer.ones([2, 1, 3]), pylayer.ones([2, 3, 2]),
    ...                 beta=2.0, alpha=0.5).numpy()
    array([[[3.5, 3.5]],
    <BLANKLINE>
           [[3.5, 3.5]]], dtype=float32)
    """
    fn = "baddbmm"
    input = float_tensor(input, fn, "input", 1)
    x = float_tensor(x, fn, "x", 2)
    y = float_tensor(y, fn, "y", 3)
    beta = check_number(beta, fn, "beta")
    alpha = check_number(alpha, fn, "alpha")
    _one_dtype(fn, {"input": input, "x": x, "y": y})
    if x.ndim != 3 or y.ndim != 3 or x.shape[0] != y.shape[0] or x.shape[2] != y.shape[1]:
        raise ValueError(f"{fn}(): x [B, M, K] and y [B, K, N] must be 3-D with the same B and "
                         f"K, got x of shape {x.shape} and y of shape {y.shape}")
    target = (x.shape[0], x.shape[1], y.shape[2])
    if input.ndim == 2:
        if input.shape[0] != target[0] or input.shape[1] not in (target[2], 1):
            raise ValueError(f"{fn}(): a 2-D 'input' must have the shape [B, N] or [B, 1] "
                             f"({[target[0], target[2]]}), got {input.shape}")
        input = unsqueeze(input, 1)
    elif input.ndim != 3 or any(i not in (t, 1) for i, t in zip(input.shape, target)):
        raise ValueError(f"{fn}(): argument 'input' of shape {input.shape} must be 2-D or 3-D "
                         f"and broadcast to the shape {list(target)} of x @ y")
    return add(scale(input, beta), scale(_matmul(x, y, False, False), alpha))


@op(method=True)
def outer(x, y, name=None, *, out=None):
    """The outer product of the flattened ``x`` and ``y``: ``out[i][j] = x[i] * y[j]``.

    Integer operands stay integer; an integer operand beside a floating-point
    one is refused, as in Paddle. Gradients reach both operands. Also a Tensor
    method.

    >>> import pylayer
    >>> pylayer.outer(pylayer.to_tensor([1.0, 2.0]), pylayer.to_tensor([3.0, 4.0, 5.0])).numpy()
    array([[ 3.,  4.,  5.],
           [ 6.,  8., 10.]], dtype=float32)
    """
    return _write_out(_outer("outer", x, y), out, "outer")


def _outer(fn, x, y):
    x = tensor_arg(x, fn, "x", 1)
    y = tensor_arg(y, fn, "y", 2)
    _one_kind(fn, {"x": x, "y": y})
    return multiply(reshape(x, [x.size, 1]), reshape(y, [1, y.size]))


@op
def ger(x, y, name=None, *, out=None):
    """The outer product of ``x`` and ``y`` (flattened): :func:`pylayer.outer` under its
    BLAS name.

    >>> import pylayer
    >>> pylayer.ger(pylayer.to_tensor([1, 2]), pylayer.to_tensor([3, 4])).numpy()
    array([[3, 4],
           [6, 8]])
    """
    return _write_out(_outer("ger", x, y), out, "ger")


@op(method=True)
def inner(x, y, name=None):
    """Sums of products over the last dimension of ``x`` and of ``y``: the result has the
    shape ``x.shape[:-1] + y.shape[:-1]``. A 0-d operand multiplies the other.
    Both operands have one dtype.

    >>> import pylayer
    >>> x = pylayer.to_tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    >>> pylayer.inner(x, pylayer.to_tensor([[1.0, 0.0], [2.0, 1.0]])).numpy()
    array([[ 1.,  4.],
           [ 3., 10.],
           [ 5., 16.]], dtype=float32)
    """
    fn = "inner"
    x = tensor_arg(x, fn, "x", 1)
    y = tensor_arg(y, fn, "y", 2)
    _one_dtype(fn, {"x": x, "y": y})
    if x.ndim == 0 or y.ndim == 0:
        return multiply(x, y)
    if x.shape[-1] != y.shape[-1]:
        raise ValueError(f"{fn}(): the last dimensions of x (shape {x.shape}) and y (shape "
                         f"{y.shape}) must be equal")
    k = x.shape[-1]
    product = _matmul(reshape(x, [x.size // k if k else 0, k]),
                      reshape(y, [y.size // k if k else 0, k]), False, True)
    return reshape(product, x.shape[:-1] + y.shape[:-1])


@op(method=True)
def kron(x, y, name=None):
    """The Kronecker product of ``x`` and ``y``: every element of ``x`` times the whole of
    ``y``, laid out in blocks. The operand of lower rank gets leading dimensions of
    size 1. Both operands have one dtype.

    >>> import pylayer
    >>> x = pylayer.to_tensor([[1, 2], [3, 4]])
    >>> pylayer.kron(x, pylayer.to_tensor([[1, 0, 1]])).numpy()
    array([[1, 0, 1, 2, 0, 2],
           [3, 0, 3, 4, 0, 4]])
    """
    fn = "kron"
    x = tensor_arg(x, fn, "x", 1)
    y = tensor_arg(y, fn, "y", 2)
    _one_dtype(fn, {"x": x, "y": y})
    rank = max(x.ndim, y.ndim)
    xs = [1] * (rank - x.ndim) + x.shape
    ys = [1] * (rank - y.ndim) + y.shape
    spread_x = reshape(x, [n for d in xs for n in (d, 1)])
    spread_y = reshape(y, [n for d in ys for n in (1, d)])
    return reshape(multiply(spread_x, spread_y), [a * b for a, b in zip(xs, ys)])


def _tensordot_axes(axes, x, y, fn):
    """(axes of x, axes of y) to contract, by Paddle's rules for ``axes``."""
    if isinstance(axes, Tensor):
        axes = axes.numpy().tolist()
    if isinstance(axes, (int, np.integer)) and not isinstance(axes, bool):
        n = check_int(axes, fn, "axes", minimum=0)
        if n > x.ndim or n > y.ndim:
            raise ValueError(f"{fn}(): argument 'axes' ({n}) must be at most the rank of x "
                             f"({x.ndim}) and of y ({y.ndim})")
        return list(range(x.ndim - n, x.ndim)), list(range(n))
    if not isinstance(axes, (list, tuple)):
        raise TypeError(f"{fn}(): argument 'axes' must be an int, a list of ints or a pair of "
                        f"lists of ints, got {describe(axes)}")
    if all(isinstance(a, (list, tuple)) for a in axes) and axes:
        if len(axes) > 2:
            raise ValueError(f"{fn}(): argument 'axes' may hold at most two lists, got "
                             f"{len(axes)}")
        lists = [list(a) for a in axes] + [list(axes[0])] * (2 - len(axes))
        short, long = sorted(range(2), key=lambda i: len(lists[i]))
        lists[short] = lists[short] + lists[long][len(lists[short]):]
    else:
        lists = [list(axes), list(axes)]
    return ([check_axis(a, x.ndim, fn, "axes") for a in lists[0]],
            [check_axis(a, y.ndim, fn, "axes") for a in lists[1]])


@op(method=True)
def tensordot(x, y, axes=2, name=None):
    """Sums of products of ``x`` and ``y`` over the pairs of axes ``axes`` names.

    ``axes`` is an int ``n`` (the last ``n`` axes of ``x`` with the first ``n``
    of ``y``), one list of axes used for both, or two lists (the shorter one is
    completed from the longer); a Tensor of those works too. The result has the
    remaining axes of ``x``, then those of ``y``. A contracted axis of size 1
    broadcasts against the other's. Both operands have one dtype.

    >>> import pylayer
    >>> x = pylayer.ones([2, 3, 4])
    >>> pylayer.tensordot(x, pylayer.ones([3, 4, 5])).shape
    [2, 5]
    >>> pylayer.tensordot(x, pylayer.ones([4, 3]), axes=[[1, 2], [1, 0]]).numpy()
    array([12., 12.], dtype=float32)
    """
    fn = "tensordot"
    x = tensor_arg(x, fn, "x", 1)
    y = tensor_arg(y, fn, "y", 2)
    _one_dtype(fn, {"x": x, "y": y})
    ax, ay = _tensordot_axes(axes, x, y, fn)
    if len(set(ax)) != len(ax) or len(set(ay)) != len(ay):
        raise ValueError(f"{fn}(): argument 'axes' names an axis twice: {ax} of x, {ay} of y")
    for i, j in zip(ax, ay):
        if x.shape[i] != y.shape[j]:
            if x.shape[i] == 1:
                y = reduce_sum(y, axis=j, keepdim=True)
            elif y.shape[j] == 1:
                x = reduce_sum(x, axis=i, keepdim=True)
            else:
                raise ValueError(f"{fn}(): argument 'axes' pairs axis {i} of x (size "
                                 f"{x.shape[i]}) with axis {j} of y (size {y.shape[j]}), whose "
                                 f"sizes do not match")
    free_x = [d for d in range(x.ndim) if d not in ax]
    free_y = [d for d in range(y.ndim) if d not in ay]
    k = int(np.prod([x.shape[d] for d in ax], dtype=np.int64))
    m = int(np.prod([x.shape[d] for d in free_x], dtype=np.int64))
    n = int(np.prod([y.shape[d] for d in free_y], dtype=np.int64))
    a = reshape(transpose(x, free_x + ax) if free_x + ax != list(range(x.ndim)) else x, [m, k])
    b = reshape(transpose(y, ay + free_y) if ay + free_y != list(range(y.ndim)) else y, [k, n])
    return reshape(_matmul(a, b, False, False),
                   [x.shape[d] for d in free_x] + [y.shape[d] for d in free_y])


@op(method=True)
def cross(x, y, axis=9, name=None):
    """The cross product of 3-vectors along ``axis`` of ``x`` and ``y`` (of one shape).

    The default ``axis=9`` (Paddle's marker for "not given") takes the first
    axis of size 3. ``out[i] = x[i+1] * y[i+2] - x[i+2] * y[i+1]`` (indices modulo
    3). An integer operand beside a floating-point one is refused.

    >>> import pylayer
    >>> x = pylayer.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> y = pylayer.to_tensor([[1.0, 0.0, 1.0], [2.0, 1.0, 0.0]])
    >>> pylayer.cross(x, y, axis=1).numpy()
    array([[ 2.,  2., -2.],
           [-6., 12., -6.]], dtype=float32)
    """
    fn = "cross"
    x = tensor_arg(x, fn, "x", 1)
    y = tensor_arg(y, fn, "y", 2)
    _one_kind(fn, {"x": x, "y": y})
    if x.shape != y.shape:
        raise ValueError(f"{fn}(): x and y must have the same shape, got {x.shape} and "
                         f"{y.shape}")
    if isinstance(axis, int) and not isinstance(axis, bool) and axis == 9:
        threes = [d for d, n in enumerate(x.shape) if n == 3]
        if not threes:
            raise ValueError(f"{fn}(): x of shape {x.shape} has no axis of size 3")
        axis = threes[0]
    else:
        axis = check_axis(axis, x.ndim, fn)
        if x.ndim == 0 or x.shape[axis] != 3:
            raise ValueError(f"{fn}(): axis {axis} of x (shape {x.shape}) must have size 3")
    return subtract(multiply(roll(x, -1, axis), roll(y, -2, axis)),
                    multiply(roll(x, -2, axis), roll(y, -1, axis)))


# ----------------------------------------- Paddle's function-level in-place twins
addmm_ = inplace_twin(addmm)
baddbmm_ = inplace_twin(baddbmm)
