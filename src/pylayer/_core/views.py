"""Views and in-place writes through them: the history of a view's base.

A view (``x[0]``, ``x.reshape(...)``, ``x.T``, ...) shares its base's memory and
version counter (``tensor.make_alias``). Writing into a view while a graph is
recorded changes its base too, so the base's history is remade here as PyTorch
does: the base becomes the output of a ``copy_slices`` node whose gradient sends
the part under the view to the written value and the rest to the base's old
history; the view becomes a ``view_of_base`` read of the new base. A view whose
memory changed through another alias gets its history remade the same way the
next time it is used (``tensor.refresh_view``).

Where a view sits in its base is worked out from the two arrays' memory
(:func:`geometry`), so every view op is covered without replaying it. Gradients
are laid out in a scratch buffer with the base's strides, where the view's
part is the same strided window as in the base.
"""
import numpy as np

from pylayer._core.graph import Op, make_output, set_history
from pylayer._core.tensor import make_tensor, mark_view_current, view_kind

__all__ = ["geometry", "view_of_base", "copy_slices", "remake_history", "rebase",
           "is_differentiable_view"]

# A scratch buffer may span at most this many times the base's bytes (a base that
# is itself a sparse window of a larger array is refused, not copied whole).
MAX_SPAN_RATIO = 4


class Geometry:
    """Where a view's elements sit in its base's memory: both arrays' shape, strides
    (in bytes) and dtype, and the view's offset from the base's first element."""
    __slots__ = ("base_shape", "base_strides", "base_dtype", "view_shape", "view_strides",
                 "view_dtype", "offset", "low", "span")

    def scratch(self, fill=None):
        """A buffer laid out as the base, and the base's and the view's windows into it."""
        buffer = np.zeros(self.span, np.uint8)
        base = np.ndarray(self.base_shape, self.base_dtype, buffer, -self.low, self.base_strides)
        view = np.ndarray(self.view_shape, self.view_dtype, buffer, self.offset - self.low,
                          self.view_strides)
        return base, view


def _extent(array):
    """The lowest and one past the highest byte ``array`` reaches, from its first element."""
    low = high = 0
    if array.size == 0:
        return 0, 0
    for size, stride in zip(array.shape, array.strides):
        reach = (size - 1) * stride
        low, high = (low + reach, high) if reach < 0 else (low, high + reach)
    return low, high + array.itemsize


def geometry(base, view, fn):
    """The :class:`Geometry` of ndarray ``view`` inside ndarray ``base``'s memory."""
    g = Geometry()
    g.base_shape, g.base_strides, g.base_dtype = base.shape, base.strides, base.dtype
    g.view_shape, g.view_strides, g.view_dtype = view.shape, view.strides, view.dtype
    g.offset = view.__array_interface__["data"][0] - base.__array_interface__["data"][0]
    g.low, high = _extent(base)
    g.span = high - g.low
    view_low, view_high = _extent(view)
    if view.size and not (g.low <= g.offset + view_low and g.offset + view_high <= high):
        raise RuntimeError(f"{fn}: the view does not lie inside its base's memory")
    if g.span > MAX_SPAN_RATIO * base.nbytes + 4096:
        raise RuntimeError(f"{fn}: cannot write in place into a view while a gradient is "
                           f"recorded when its base is a sparse window of a larger array; "
                           f"write into a copy (x.clone()) instead")
    return g


def _read(g, geo):
    """The view's window of a base-shaped array ``g`` (a copy)."""
    base, view = geo.scratch()
    base[...] = g
    return np.array(view, copy=True)


def _scatter(g, geo):
    """A base-shaped array of zeros with the view-shaped ``g`` in the view's window."""
    base, view = geo.scratch()
    view[...] = g
    return np.array(base, copy=True)


VIEW_OF_BASE = Op("view_of_base", attrs=("geometry",),
                  vjp=(lambda g, geometry: _scattered(g, geometry),))
VIEW_OF_BASE_GRAD = Op("view_of_base_grad", attrs=("geometry",),
                       vjp=(lambda g, geometry: view_of_base(g, geometry),))


def view_of_base(base, geo):
    """The view's window of tensor ``base`` (differentiable; its gradient scatters)."""
    return make_output(VIEW_OF_BASE, _read(base.numpy(), geo), (base,), (geo,))


def _scattered(g, geo):
    return make_output(VIEW_OF_BASE_GRAD, _scatter(g.numpy(), geo), (g,), (geo,))


def _outside_view(g, geometry):
    """The base's old values get the gradient outside the view's window."""
    keep, window = geometry.scratch()
    keep[...] = 1
    window[...] = 0
    return g * make_tensor(np.array(keep, g.numpy().dtype))


COPY_SLICES = Op("copy_slices", inputs=("base", "value"), attrs=("geometry",),
                 vjp=(_outside_view, lambda g, geometry: view_of_base(g, geometry)))


def _as_read_of(view, base, geo):
    """Give ``view`` the history of a ``view_of_base`` read of ``base`` (its values are
    that read already: nothing is computed)."""
    read = make_output(VIEW_OF_BASE, view.numpy(), (base,), (geo,))
    set_history(view, read.grad_fn, 0)
    view.stop_gradient = read.stop_gradient


def copy_slices(base, value, geo):
    """The node of ``base`` after ``value`` was written into the view ``geo`` of it:
    a tensor sharing ``base``'s array whose gradient reaches both."""
    return make_output(COPY_SLICES, base.numpy(), (base, value), (geo,))


def remake_history(view):
    """Make ``view`` a read of its base's current state (after an in-place change
    through another alias). A base that needs no gradient leaves it alone."""
    base = view._base
    if base.stop_gradient:
        return
    _as_read_of(view, base, geometry(base.numpy(), view.numpy(), "view"))


def rebase(view, result, name):
    """``view`` (a differentiable view) now holds ``result``'s values, written into its
    memory by the caller: give its base a ``copy_slices`` history and the view a
    read of that new base."""
    base = view._base
    geo = geometry(base.numpy(), view.numpy(), name)
    before = _history_of(base)
    new_base = copy_slices(before, result, geo)
    set_history(base, new_base.grad_fn, 0)
    base.stop_gradient = new_base.stop_gradient
    _as_read_of(view, base, geo)
    mark_view_current(view)


def _history_of(t):
    """A new tensor with ``t``'s array and place in the graph (no copy)."""
    alias = make_tensor(t.numpy(), t.stop_gradient)
    set_history(alias, t.grad_fn, t._out_index)
    return alias



def is_differentiable_view(t):
    """Whether ``t`` is a view whose writes reach its base's history (not ``detach``)."""
    return view_kind(t) == "view"
