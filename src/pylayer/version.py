"""pylayer's version, in the form of ``paddle.version``: the version strings, what
the build was compiled with (no CUDA, cuDNN, NCCL, XPU, HIP, TensorRT or CINN: every
query answers as Paddle's CPU build does), and ``show()``. ``paddle_version`` is the
version of Paddle whose API pylayer follows.

>>> import pylayer
>>> pylayer.version.full_version == pylayer.__version__, pylayer.version.paddle_version
(True, '3.3.1')
>>> pylayer.version.cuda()
'False'
"""
__all__ = ["full_version", "major", "minor", "patch", "rc", "is_tagged", "commit",
           "paddle_version", "with_mkl", "cuda_version", "cudnn_version", "nccl_version",
           "cinn_version", "hip_version", "tensorrt_version", "xpu_xre_version",
           "xpu_xccl_version", "xpu_xhpc_version", "show", "mkl", "cuda", "cudnn", "nccl",
           "cinn", "hip", "tensorrt", "xpu", "xpu_xre", "xpu_xccl", "xpu_xhpc", "cuda_archs"]

full_version = "0.1.0"
major, minor, patch = full_version.split(".")
rc = "0"
is_tagged = True
commit = "Unknown"
paddle_version = "3.3.1"
with_mkl = "OFF"
cuda_version = cudnn_version = cinn_version = "False"
xpu_xre_version = xpu_xccl_version = xpu_xhpc_version = "False"
nccl_version = "0"
hip_version = None
tensorrt_version = "None"


def show():
    """Print the version and what the build was compiled with, one ``key: value``
    a line.

    >>> import pylayer
    >>> pylayer.version.show()  # doctest: +ELLIPSIS
    full_version: 0.1.0
    major: 0
    ...
    paddle_version: 3.3.1
    """
    for key, value in (("full_version", full_version), ("major", major), ("minor", minor),
                       ("patch", patch), ("rc", rc), ("cuda", cuda_version),
                       ("cudnn", cudnn_version), ("hip", hip_version), ("nccl", nccl_version),
                       ("xpu_xre", xpu_xre_version), ("xpu_xccl", xpu_xccl_version),
                       ("xpu_xhpc", xpu_xhpc_version), ("cinn", cinn_version),
                       ("tensorrt_version", tensorrt_version), ("cuda_archs", cuda_archs()),
                       ("paddle_version", paddle_version)):
        print(f"{key}: {value}")


def mkl():
    """'OFF': pylayer computes with NumPy, not with Paddle's MKL kernels.

    >>> import pylayer
    >>> pylayer.version.mkl()
    'OFF'
    """
    return with_mkl


def cuda():
    """'False': no CUDA.

    >>> import pylayer
    >>> pylayer.version.cuda()
    'False'
    """
    return cuda_version


def cudnn():
    """'False': no cuDNN.

    >>> import pylayer
    >>> pylayer.version.cudnn()
    'False'
    """
    return cudnn_version


def nccl():
    """'0': no NCCL.

    >>> import pylayer
    >>> pylayer.version.nccl()
    '0'
    """
    return nccl_version


def cinn():
    """'False': no CINN compiler.

    >>> import pylayer
    >>> pylayer.version.cinn()
    'False'
    """
    return cinn_version


def hip():
    """None: no ROCm (HIP).

    >>> import pylayer
    >>> pylayer.version.hip()
    """
    return hip_version


def tensorrt():
    """'None': no TensorRT.

    >>> import pylayer
    >>> pylayer.version.tensorrt()
    'None'
    """
    return tensorrt_version


def xpu():
    """'False': no XPU.

    >>> import pylayer
    >>> pylayer.version.xpu()
    'False'
    """
    return xpu_xre_version


def xpu_xre():
    """'False': no XPU runtime.

    >>> import pylayer
    >>> pylayer.version.xpu_xre()
    'False'
    """
    return xpu_xre_version


def xpu_xccl():
    """'False': no XPU collective library.

    >>> import pylayer
    >>> pylayer.version.xpu_xccl()
    'False'
    """
    return xpu_xccl_version


def xpu_xhpc():
    """'False': no XPU kernel library.

    >>> import pylayer
    >>> pylayer.version.xpu_xhpc()
    'False'
    """
    return xpu_xhpc_version


def cuda_archs():
    """[]: compiled for no CUDA architecture.

    >>> import pylayer
    >>> pylayer.version.cuda_archs()
    []
    """
    return []
