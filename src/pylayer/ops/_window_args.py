"""Argument forms shared by the convolutions and the poolings: sizes and padding.

Both checks work for windows of 1 to 3 spatial dimensions (``count``), and check
their own settings in their own name.
"""
import math

from pylayer._core.size import Size
from pylayer.ops._arguments import check_choice, check_ints, describe

__all__ = []

#: Sizes, strides, paddings and dilations stay below this: the compiled kernels
#: refuse larger ones (so that no index they form can overflow).
WINDOW_LIMIT = 2 ** 31


def _check_limit(values, fn, arg):
    if max(values, default=0) >= WINDOW_LIMIT:
        raise ValueError(f"{fn}(): argument '{arg}' must hold values below 2**31, got "
                         f"{max(values)}")


def _check_count(checker, count):
    if count.__class__ is not int:
        raise TypeError(f"{checker}(): argument 'count' must be an int (the number of spatial "
                        f"dimensions), got {describe(count)}")
    if not 1 <= count <= 3:
        raise ValueError(f"{checker}(): argument 'count' must be 1, 2 or 3 (the number of "
                         f"spatial dimensions), got {count}")


def _check_sizes(values, count, arg, minimum):
    """A setting of window_padding: ``count`` ints, each at least ``minimum``."""
    if values.__class__ not in (list, tuple, Size):
        raise TypeError(f"window_padding(): argument '{arg}' must be a list of {count} ints, "
                        f"got {describe(values)}")
    if len(values) != count or not all(v.__class__ is int and v >= minimum for v in values):
        raise ValueError(f"window_padding(): argument '{arg}' must hold {count} ints of at "
                         f"least {minimum}, got {values}")


def window_sizes(value, count, fn, arg, minimum=1):
    """An int or ``count`` ints, each at least ``minimum`` (0 or 1), as a list of ``count``
    ints.

    >>> from pylayer.extend import window_sizes
    >>> window_sizes(3, 2, "f", "kernel_size"), window_sizes([1, 2], 2, "f", "stride")
    ([3, 3], [1, 2])
    """
    _check_count("window_sizes", count)
    if minimum.__class__ is not int or minimum not in (0, 1):
        raise ValueError(f"window_sizes(): argument 'minimum' must be 0 or 1, got "
                         f"{describe(minimum)}")
    if value.__class__ is int and minimum <= value < WINDOW_LIMIT:   # the common cases, fast
        return [value] * count
    if value.__class__ in (list, Size) and len(value) == count and all(
            v.__class__ is int and minimum <= v < WINDOW_LIMIT for v in value):
        return value[:]
    sizes = check_ints(value, fn, arg)
    if len(sizes) == 1:
        sizes = sizes * count
    if len(sizes) != count or min(sizes) < minimum:
        word = "positive" if minimum == 1 else "non-negative"
        raise ValueError(f"{fn}(): argument '{arg}' must be a {word} int or {count} of them, "
                         f"got {describe(value) if not isinstance(value, list) else value}")
    _check_limit(sizes, fn, arg)
    return sizes


def is_same(padding):
    return isinstance(padding, str) and padding.lower() == "same"


def window_padding(padding, count, in_sizes, kernel, stride, channel_last, fn):
    """``[(before, after)]`` per spatial dimension, from Paddle's padding forms, for an
    input of spatial sizes ``in_sizes`` and a window ``kernel`` moved by ``stride``.

    ``'same'`` (any case) makes the output size ``ceil(in / stride)``, with
    any odd padding after; as in Paddle it does not account for dilation.
    ``'valid'`` is no padding. Numbers: one for all, one per dimension, or
    ``before, after`` per dimension; or a pair per dimension of the data
    format (channel-last when ``channel_last``), ``[0, 0]`` for the batch and
    channel ones.

    >>> from pylayer.extend import window_padding
    >>> window_padding("same", 2, [5, 5], [2, 2], [1, 1], False, "f")
    [(0, 1), (0, 1)]
    >>> window_padding([1, 2], 2, [5, 5], [3, 3], [1, 1], False, "f")
    [(1, 1), (2, 2)]
    """
    _check_count("window_padding", count)
    _check_sizes(in_sizes, count, "in_sizes", 0)
    _check_sizes(kernel, count, "kernel", 0)
    _check_sizes(stride, count, "stride", 1)
    if padding.__class__ is int and 0 <= padding < WINDOW_LIMIT:       # the common case, fast
        return [(padding, padding)] * count
    if isinstance(padding, str):
        check_choice(padding.lower(), fn, "padding", ["same", "valid"])
        if padding.lower() == "valid":
            return [(0, 0)] * count
        result = []
        for size, k, s in zip(in_sizes, kernel, stride):
            total = max((math.ceil(size / s) - 1) * s + k - size, 0)
            result.append((total // 2, total - total // 2))
        return result
    if isinstance(padding, (list, tuple)) and padding and all(
            isinstance(p, (list, tuple)) for p in padding):
        pairs = [tuple(check_ints(list(p), fn, "padding")) for p in padding]
        others = (0, count + 1) if channel_last else (0, 1)
        if len(pairs) != count + 2 or any(len(p) != 2 for p in pairs) or \
                any(pairs[i] != (0, 0) for i in others):
            raise ValueError(f"{fn}(): a padding of pairs must hold {count + 2} pairs, those "
                             f"of the batch and channel dimensions [0, 0], got {padding}")
        pairs = pairs[1:-1] if channel_last else pairs[2:]
    else:
        values = check_ints(padding, fn, "padding")
        if len(values) == 1:
            values = values * count
        if len(values) == count:
            pairs = [(v, v) for v in values]
        elif len(values) == 2 * count:
            pairs = [(values[2 * i], values[2 * i + 1]) for i in range(count)]
        else:
            raise ValueError(f"{fn}(): argument 'padding' must be 'same', 'valid', an int, "
                             f"{count} or {2 * count} ints, or pairs, got {values}")
    if any(v < 0 for pair in pairs for v in pair):
        raise ValueError(f"{fn}(): argument 'padding' must be non-negative, got {padding}")
    _check_limit([v for pair in pairs for v in pair], fn, "padding")
    return pairs
