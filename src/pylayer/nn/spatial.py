"""The ``PixelShuffle`` layer (its functional form is in :mod:`pylayer.ops.spatial`)."""
from pylayer.extend import check_choice, check_count, check_int
from pylayer.nn.layer import Layer
from pylayer.ops.spatial import pixel_shuffle

__all__ = ["PixelShuffle"]


class PixelShuffle(Layer):
    """Layer form of :func:`pylayer.nn.functional.pixel_shuffle`.

    >>> import pylayer
    >>> pylayer.nn.PixelShuffle(2)(pylayer.zeros([1, 8, 3, 3])).shape
    [1, 2, 6, 6]
    """

    def __init__(self, upscale_factor, data_format="NCHW", name=None):
        super().__init__()
        self.upscale_factor = check_int(upscale_factor, "PixelShuffle", "upscale_factor",
                                        minimum=1)
        check_count(self.upscale_factor ** 2, "PixelShuffle", "upscale_factor")
        self.data_format = check_choice(data_format, "PixelShuffle", "data_format",
                                        ["NCHW", "NHWC"])

    def forward(self, x):
        return pixel_shuffle(x, self.upscale_factor, self.data_format)

    def extra_repr(self):
        return f"upscale_factor={self.upscale_factor}"
