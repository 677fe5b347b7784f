"""``paddle.Size``: the type of ``Tensor.shape``, a list of ints that also equals the
tuple of the same ints.

>>> import pylayer
>>> shape = pylayer.ones([2, 3]).shape
>>> shape == (2, 3), shape == [2, 3], shape.numel(), type(shape[1:]).__name__
(True, True, 6, 'Size')
"""
import math

__all__ = ["Size"]


class Size(list):
    """A shape: a ``list`` of ints (so ``x.shape[0]``, ``list(x.shape)`` and
    ``x.shape == [2, 3]`` work as they always did) that also equals a tuple of the
    same ints, and whose slices, sums and repeats are Sizes again. It prints as the
    list does.

    >>> Size([2, 3]) == (2, 3), Size([2, 3]) + [4], Size([2, 3]).numel()
    (True, [2, 3, 4], 6)
    """
    __slots__ = ()
    __hash__ = None     # a list: mutable, so not hashable (tuple(shape) is)

    def __eq__(self, other):
        if isinstance(other, tuple):
            other = list(other)
        return list.__eq__(self, other)

    def __ne__(self, other):
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    def __getitem__(self, index):
        item = list.__getitem__(self, index)
        return Size(item) if isinstance(index, slice) else item

    def __add__(self, other):
        return Size(list.__add__(self, list(other) if isinstance(other, tuple) else other))

    def __radd__(self, other):
        return Size(list(other) + list(self))

    def __mul__(self, count):
        return Size(list.__mul__(self, count))

    __rmul__ = __mul__

    def numel(self):
        """The number of elements a tensor of this shape holds.

        >>> Size([2, 3, 4]).numel(), Size([]).numel()
        (24, 1)
        """
        return math.prod(self)

    def __reduce__(self):
        return Size, (list(self),)
