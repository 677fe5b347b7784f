"""No op allocates much more than its inputs plus its result (issue 31, part 4).

Each op of the op database (``tests/ops/opinfo.py``) that takes an argument
sizing its result (a shape, a count of classes or bins, a padding, an output
size...) is called with the largest sizes that still look legal, from tiny
inputs, in a child process whose address space is limited
(``RLIMIT_AS``): every call must give its result or a clear ``ValueError`` /
``MemoryError`` naming the op, never a kill. :data:`HUGE_CALLS` holds the
calls of each op; an op of the database whose hostile-input ``call`` has a
sizing argument and no entry there fails :func:`test_every_sizing_op_has_huge_calls`.
"""
import json
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from opinfo import OPS

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="reads /proc/self/status and limits RLIMIT_AS")

#: The address space a child may add to what it uses after its imports.
BUDGET = 2 ** 30

#: The kinds of hostile-input arguments (``tests/reliability/_hostile_values.py``)
#: that size an op's result or its work.
SIZING_KINDS = {"size", "size_or_none", "count", "count_or_none", "shape", "shape_or_none",
                "target_shape", "int_list", "repeats", "sections"}

_PRELUDE = """
import json, resource, sys
import numpy as np
import pylayer as paddle
import pylayer.nn.functional as F

def address_space():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024

resource.setrlimit(resource.RLIMIT_AS, (address_space() + {budget}, resource.RLIM_INFINITY))
"""


def run_under_limit(code, budget=BUDGET, timeout=120):
    """Run ``code`` (after the prelude: ``np``, ``paddle``, ``F`` imported) in a child
    whose address space may grow by ``budget`` bytes; returns what it printed. A kill, a
    crash or an uncaught exception fails the test."""
    source = _PRELUDE.format(budget=budget) + textwrap.dedent(code)
    done = subprocess.run([sys.executable, "-c", source], capture_output=True, text=True,
                          timeout=timeout)
    assert done.returncode == 0, f"child exited with {done.returncode}:\n{done.stderr[-3000:]}"
    return done.stdout


# ------------------------------------------------------------ the huge calls
# Each entry: op name -> a list of source expressions (evaluated in the child, with
# ``x`` a small float32 tensor made by the setup) or a str saying why the op has none.
_NCHW = "paddle.ones([1, 1, 2, 2])"
_NCL = "paddle.ones([1, 1, 4])"
HUGE_CALLS = {
    "reshape": ["paddle.reshape(paddle.ones([2]), [2 ** 40, 2 ** 40])"],
    "broadcast_to": ["paddle.broadcast_to(paddle.ones([1]), [2 ** 31, 2 ** 31])",
                     "paddle.broadcast_to(paddle.ones([1]), [2 ** 20, 2 ** 20])"],
    "expand": ["paddle.expand(paddle.ones([1]), [2 ** 31, 2 ** 31])",
               "paddle.expand(paddle.ones([1]), [2 ** 20, 2 ** 20])"],
    "tile": ["paddle.tile(paddle.ones([2]), [2 ** 31, 2 ** 31])",
             "paddle.tile(paddle.ones([2]), [2 ** 18, 2 ** 18])"],
    "split": ["paddle.split(paddle.ones([4]), [2 ** 40, -2 ** 40 + 4])"],
    "chunk": ["paddle.chunk(paddle.ones([4]), 2 ** 40)"],
    "scatter_nd": ["paddle.scatter_nd(paddle.to_tensor([[0]]), paddle.ones([1]), "
                   "[2 ** 40, 2 ** 20])",
                   "paddle.scatter_nd(paddle.to_tensor([[0]]), paddle.ones([1, 2 ** 18]), "
                   "[2 ** 20, 2 ** 18])"],
    "bincount": ["paddle.bincount(paddle.to_tensor([2 ** 40]))",
                 "paddle.bincount(paddle.to_tensor([1]), minlength=2 ** 38)"],
    "histogram": ["paddle.histogram(paddle.ones([2]), bins=2 ** 40, min=0, max=1)",
                  "paddle.histogram(paddle.ones([2]), bins=2 ** 38, min=0, max=1)"],
    "one_hot": ["F.one_hot(paddle.to_tensor([3]), 100000)",
                "F.one_hot(paddle.to_tensor([3]), 2 ** 40)",
                "F.one_hot(paddle.arange(1000), 2 ** 30)"],
    "interpolate": [f"F.interpolate({_NCHW}, size=[2 ** 24, 2 ** 24])",
                    f"F.interpolate({_NCHW}, size=[2 ** 31, 2 ** 31])",
                    f"F.interpolate({_NCHW}, scale_factor=2 ** 30)",
                    "F.interpolate(paddle.ones([1, 1, 1, 2 ** 17]), size=[2 ** 17, 1])",
                    "F.interpolate(paddle.ones([1, 1, 1, 2 ** 17]), size=[2 ** 17, 1], "
                    "mode='bilinear')"],
    "pad": [f"F.pad({_NCHW}, [2 ** 40, 0, 2 ** 40, 0])",
            f"F.pad({_NCHW}, [2 ** 20, 0, 2 ** 20, 0])",
            f"F.pad({_NCHW}, [2 ** 20, 0, 2 ** 20, 0], mode='replicate')"],
    "pixel_shuffle": ["F.pixel_shuffle(paddle.ones([1, 4, 1, 1]), 2 ** 40)"],
    "adaptive_avg_pool1d": [f"F.adaptive_avg_pool1d({_NCL}, 2 ** 40)",
                            f"F.adaptive_avg_pool1d({_NCL}, 2 ** 28)"],
    "adaptive_avg_pool2d": [f"F.adaptive_avg_pool2d({_NCHW}, [2 ** 20, 2 ** 20])",
                            f"F.adaptive_avg_pool2d({_NCHW}, [2 ** 14, 2 ** 14])"],
    "max_pool1d": [f"F.max_pool1d({_NCL}, 2, padding=2 ** 40)",
                   f"F.max_pool1d({_NCL}, 2 ** 40)"],
    "max_pool2d": [f"F.max_pool2d({_NCHW}, 2, padding=[2 ** 20, 2 ** 20])",
                   f"F.max_pool2d({_NCHW}, 2 ** 40)"],
    "avg_pool1d": [f"F.avg_pool1d({_NCL}, 2, padding=2 ** 40)",
                   f"F.avg_pool1d({_NCL}, 2 ** 40)"],
    "avg_pool2d": [f"F.avg_pool2d({_NCHW}, 2, padding=[2 ** 20, 2 ** 20])",
                   f"F.avg_pool2d({_NCHW}, 2 ** 40)"],
    "conv1d": [f"F.conv1d({_NCL}, paddle.ones([1, 1, 1]), padding=2 ** 40)",
               f"F.conv1d({_NCL}, paddle.ones([1, 1, 1]), dilation=2 ** 40)"],
    "conv2d": [f"F.conv2d({_NCHW}, paddle.ones([1, 1, 1, 1]), padding=2 ** 20)",
               f"F.conv2d({_NCHW}, paddle.ones([1, 1, 2, 2]), dilation=2 ** 40)"],
    "conv1d_transpose": [f"F.conv1d_transpose({_NCL}, paddle.ones([1, 1, 1]), stride=2 ** 40)",
                         f"F.conv1d_transpose({_NCL}, paddle.ones([1, 1, 2]), "
                         f"dilation=2 ** 40)"],
    "conv2d_transpose": [f"F.conv2d_transpose({_NCHW}, paddle.ones([1, 1, 1, 1]), "
                         f"stride=2 ** 20)",
                         f"F.conv2d_transpose({_NCHW}, paddle.ones([1, 1, 2, 2]), "
                         f"dilation=2 ** 40)"],
    "layer_norm": ["F.layer_norm(paddle.ones([2, 3]), [2 ** 40])"],
    "group_norm": ["F.group_norm(paddle.ones([1, 4, 3]), 2 ** 40)"],
    "topk": ["paddle.topk(paddle.ones([5]), 2 ** 40)"],
    "histogram_bin_edges": ["paddle.histogram_bin_edges(paddle.ones([2]), bins=2 ** 40)",
                            "paddle.histogram_bin_edges(paddle.ones([2]), bins=2 ** 38)"],
    "histogramdd": ["paddle.histogramdd(paddle.ones([2, 2]), bins=2 ** 40)",
                    "paddle.histogramdd(paddle.ones([2, 2]), bins=[2 ** 20, 2 ** 20])"],
    "as_strided": ["paddle.as_strided(paddle.ones([3]), [2 ** 40, 2 ** 40], [0, 0])",
                   "paddle.as_strided(paddle.ones([3]), [2 ** 20, 2 ** 20], [0, 0])"],
    "combinations": ["paddle.combinations(paddle.ones([60]), 30)",
                     "paddle.combinations(paddle.ones([6]), 2 ** 31)",
                     "paddle.combinations(paddle.ones([2 ** 12]), 3)"],
    "repeat_interleave": ["paddle.repeat_interleave(paddle.ones([2]), 2 ** 40)",
                          "paddle.repeat_interleave(paddle.ones([2]), 2 ** 33)"],
    "tensor_split": ["paddle.tensor_split(paddle.ones([4]), 2 ** 40)",
                     "paddle.tensor_split(paddle.ones([4]), 2 ** 33)"],
    "hsplit": ["paddle.hsplit(paddle.ones([4]), 2 ** 40)"],
    "vsplit": ["paddle.vsplit(paddle.ones([4, 1]), 2 ** 40)"],
    "dsplit": ["paddle.dsplit(paddle.ones([1, 1, 4]), 2 ** 40)"],
    "tril_indices": ["paddle.tril_indices(2 ** 20, 2 ** 20)",
                     "paddle.tril_indices(2 ** 17, 2 ** 17)"],
    "triu_indices": ["paddle.triu_indices(2 ** 20, 2 ** 20)",
                     "paddle.triu_indices(2 ** 17)"],
    "vander": ["paddle.vander(paddle.ones([3]), 2 ** 40)",
               "paddle.vander(paddle.ones([2 ** 10]), 2 ** 20)"],
    "view": ["paddle.view(paddle.ones([2]), [2 ** 40, 2 ** 40])"],
    "unfold": ["paddle.ones([2 ** 16]).unfold(0, 2 ** 15, 1)"],
    "linalg.svd_lowrank": ["paddle.linalg.svd_lowrank(paddle.ones([3, 2]), q=2 ** 40)"],
    "linalg.pca_lowrank": ["paddle.linalg.pca_lowrank(paddle.ones([3, 2]), q=2 ** 40)"],
    "fft.fft": ["paddle.fft.fft(paddle.ones([2]), n=2 ** 40)",
                "paddle.fft.fft(paddle.ones([2]), n=2 ** 28)"],
    "fft.ifft": ["paddle.fft.ifft(paddle.ones([2]), n=2 ** 28)"],
    "fft.rfft": ["paddle.fft.rfft(paddle.ones([2]), n=2 ** 29)"],
    "fft.irfft": ["paddle.fft.irfft(paddle.ones([2]), n=2 ** 29)"],
    "fft.hfft": ["paddle.fft.hfft(paddle.ones([2]), n=2 ** 29)"],
    "fft.ihfft": ["paddle.fft.ihfft(paddle.ones([2]), n=2 ** 29)"],
    "fft.fft2": ["paddle.fft.fft2(paddle.ones([2, 2]), s=[2 ** 20, 2 ** 20])",
                 "paddle.fft.fft2(paddle.ones([2, 2]), s=[2 ** 14, 2 ** 14])"],
    "fft.ifft2": ["paddle.fft.ifft2(paddle.ones([2, 2]), s=[2 ** 14, 2 ** 14])"],
    "fft.rfft2": ["paddle.fft.rfft2(paddle.ones([2, 2]), s=[2 ** 14, 2 ** 15])"],
    "fft.irfft2": ["paddle.fft.irfft2(paddle.ones([2, 2]), s=[2 ** 14, 2 ** 15])"],
    "fft.hfft2": ["paddle.fft.hfft2(paddle.ones([2, 2]), s=[2 ** 14, 2 ** 15])"],
    "fft.ihfft2": ["paddle.fft.ihfft2(paddle.ones([2, 2]), s=[2 ** 14, 2 ** 15])"],
    "fft.fftn": ["paddle.fft.fftn(paddle.ones([2, 2]), s=[2 ** 30, 2 ** 30])",
                 "paddle.fft.fftn(paddle.ones([2, 2]), s=[2 ** 14, 2 ** 14])"],
    "fft.ifftn": ["paddle.fft.ifftn(paddle.ones([2, 2]), s=[2 ** 14, 2 ** 14])"],
    "fft.rfftn": ["paddle.fft.rfftn(paddle.ones([2, 2]), s=[2 ** 14, 2 ** 15])"],
    "fft.irfftn": ["paddle.fft.irfftn(paddle.ones([2, 2]), s=[2 ** 14, 2 ** 15])"],
    "fft.hfftn": ["paddle.fft.hfftn(paddle.ones([2, 2]), s=[2 ** 14, 2 ** 15])"],
    "fft.ihfftn": ["paddle.fft.ihfftn(paddle.ones([2, 2]), s=[2 ** 14, 2 ** 15])"],
    # the frames of a long signal: n_fft values every hop_length
    "signal.stft": ["paddle.signal.stft(paddle.ones([2 ** 17]), 2 ** 16, hop_length=1)"],
    "signal.istft": ["paddle.signal.istft(paddle.ones([5, 9], dtype='complex64'), 8, "
                     "length=2 ** 40)",
                     "paddle.signal.istft(paddle.ones([5, 9], dtype='complex64'), 8, "
                     "length=2 ** 28)"],
    # gradients whose work grows with the input: the input is as large as the result
    "prod": ["prod_backward([2 ** 17])", "prod_backward([64, 2 ** 12], axis=1)"],
    # 3-D convolutions and the poolings added with them (convpool)
    "conv3d": ["F.conv3d(paddle.ones([1, 1, 2, 2, 2]), paddle.ones([1, 1, 1, 1, 1]), "
               "padding=2 ** 14)",
               "F.conv3d(paddle.ones([1, 1, 2, 2, 2]), paddle.ones([1, 1, 2, 2, 2]), "
               "dilation=2 ** 40)",
               "F.conv3d(paddle.ones([1, 1, 2, 2, 2]), paddle.ones([1, 1, 1, 1, 1]), "
               "stride=2 ** 40, padding=2 ** 10)"],
    "conv3d_transpose": ["F.conv3d_transpose(paddle.ones([1, 1, 2, 2, 2]), "
                         "paddle.ones([1, 1, 1, 1, 1]), stride=2 ** 14)",
                         "F.conv3d_transpose(paddle.ones([1, 1, 2, 2, 2]), "
                         "paddle.ones([1, 1, 2, 2, 2]), dilation=2 ** 40)",
                         "F.conv3d_transpose(paddle.ones([1, 1, 2, 2, 2]), "
                         "paddle.ones([1, 1, 1, 1, 1]), stride=2 ** 12, "
                         "output_size=[2 ** 12 + 1] * 3)"],
    "max_pool3d": ["F.max_pool3d(paddle.ones([1, 1, 2, 2, 2]), 2, padding=[2 ** 12] * 3)",
                   "F.max_pool3d(paddle.ones([1, 1, 2, 2, 2]), 2 ** 40)",
                   "F.max_pool3d(paddle.ones([1, 1, 2 ** 9, 2 ** 9, 2]), [2 ** 8, 2 ** 8, 1], "
                   "stride=1)",
                   "F.max_pool3d(paddle.ones([1, 1, 2, 2, 2]), 2, stride=2 ** 40)"],
    "avg_pool3d": ["F.avg_pool3d(paddle.ones([1, 1, 2, 2, 2]), 2, padding=[2 ** 12] * 3)",
                   "F.avg_pool3d(paddle.ones([1, 1, 2, 2, 2]), 2 ** 40)",
                   "F.avg_pool3d(paddle.ones([1, 1, 2, 2, 2]), 2, stride=2 ** 40)"],
    "adaptive_avg_pool3d": ["F.adaptive_avg_pool3d(paddle.ones([1, 1, 2, 2, 2]), 2 ** 14)",
                            "F.adaptive_avg_pool3d(paddle.ones([1, 1, 2, 2, 2]), 2 ** 40)"],
    "adaptive_max_pool1d": [f"F.adaptive_max_pool1d({_NCL}, 2 ** 40)",
                            f"F.adaptive_max_pool1d({_NCL}, 2 ** 28)"],
    "adaptive_max_pool2d": [f"F.adaptive_max_pool2d({_NCHW}, [2 ** 20, 2 ** 20])",
                            f"F.adaptive_max_pool2d({_NCHW}, 2 ** 14)"],
    "adaptive_max_pool3d": ["F.adaptive_max_pool3d(paddle.ones([1, 1, 2, 2, 2]), 2 ** 14)",
                            "F.adaptive_max_pool3d(paddle.ones([1, 1, 2 ** 9, 2 ** 9, 2]), "
                            "[2, 2, 1])"],
    "max_unpool1d": [f"F.max_unpool1d({_NCL}, paddle.zeros([1, 1, 4], 'int32'), 2 ** 40)",
                     f"F.max_unpool1d({_NCL}, paddle.zeros([1, 1, 4], 'int32'), 2, "
                     f"stride=2 ** 28)",
                     f"F.max_unpool1d({_NCL}, paddle.zeros([1, 1, 4], 'int32'), 2, "
                     f"output_size=[2 ** 40])"],
    "max_unpool2d": [f"F.max_unpool2d({_NCHW}, paddle.zeros([1, 1, 2, 2], 'int32'), "
                     f"2 ** 20)",
                     f"F.max_unpool2d({_NCHW}, paddle.zeros([1, 1, 2, 2], 'int32'), 2, "
                     f"stride=2 ** 40)"],
    "max_unpool3d": ["F.max_unpool3d(paddle.ones([1, 1, 2, 2, 2]), "
                     "paddle.zeros([1, 1, 2, 2, 2], 'int32'), 2 ** 14)",
                     "F.max_unpool3d(paddle.ones([1, 1, 2, 2, 2]), "
                     "paddle.zeros([1, 1, 2, 2, 2], 'int32'), 2, stride=2 ** 40)"],
    "lp_pool1d": [f"F.lp_pool1d({_NCL}, 2.0, 2, padding=2 ** 40)",
                  f"F.lp_pool1d({_NCL}, 2.0, 2 ** 40)"],
    "lp_pool2d": [f"F.lp_pool2d({_NCHW}, 2.0, 2, padding=[2 ** 20, 2 ** 20])",
                  f"F.lp_pool2d({_NCHW}, 2.0, 2 ** 40)"],
    "fractional_max_pool2d": [f"F.fractional_max_pool2d({_NCHW}, 2 ** 20, random_u=0.5)",
                              "F.fractional_max_pool2d(paddle.ones([1, 1, 2 ** 12, 2 ** 12]), "
                              "2 ** 12 - 1, kernel_size=2, random_u=0.5)",
                              f"F.fractional_max_pool2d({_NCHW}, 1, kernel_size=2 ** 40, "
                              f"random_u=0.5)"],
    "fractional_max_pool3d": ["F.fractional_max_pool3d(paddle.ones([1, 1, 2, 2, 2]), 2 ** 14, "
                              "random_u=0.5)"],
    "nn.functional.unfold": [f"F.unfold({_NCHW}, 2, paddings=2 ** 20)",
                             "F.unfold(paddle.ones([1, 1, 2 ** 10, 2 ** 10]), 2 ** 9)",
                             f"F.unfold({_NCHW}, 2 ** 40)"],
    "fold": ["F.fold(paddle.ones([1, 4, 1]), 2 ** 20, 2, strides=2 ** 20)",
             "F.fold(paddle.ones([1, 4, 1]), 2 ** 14, 2, strides=2 ** 14)",
             "F.fold(paddle.ones([1, 1, 1]), 2 ** 40, 2 ** 40)"],
}

# the padding, resampling and pairwise ops (spatial2)
HUGE_CALLS.update({
    "zeropad2d": [f"F.zeropad2d({_NCHW}, [2 ** 40, 0, 2 ** 40, 0])",
                  f"F.zeropad2d({_NCHW}, [2 ** 20, 0, 2 ** 20, 0])",
                  f"F.zeropad2d({_NCHW}, [2 ** 14, 0, 2 ** 14, 0])"],
    "upsample": [f"F.upsample({_NCHW}, size=[2 ** 24, 2 ** 24])",
                 f"F.upsample({_NCHW}, scale_factor=2 ** 30, mode='bilinear')",
                 "F.upsample(paddle.ones([1, 1, 2, 2, 2]), size=[2 ** 12, 2 ** 12, 2 ** 12], "
                 "mode='trilinear')"],
    "affine_grid": ["F.affine_grid(paddle.ones([1, 2, 3]), [1, 1, 2 ** 20, 2 ** 20])",
                    "F.affine_grid(paddle.ones([1, 3, 4]), [1, 1, 2 ** 14, 2 ** 14, 2 ** 14])",
                    "F.affine_grid(paddle.ones([1, 2, 3]), [1, 1, 2 ** 40, 2 ** 40])",
                    "F.affine_grid(paddle.ones([1, 2, 3]), [1, 1, 2 ** 13, 2 ** 13])",
                    "F.affine_grid(paddle.ones([1, 2, 3]), [1, 1, 2 ** 12, 2 ** 12])"],
})

#: Ops with a sizing argument whose result cannot outgrow their inputs.
NOT_RESULT_SIZING = {
    "unstack": "'num' must equal the size of the axis",
    "slice": "'starts' and 'ends' are clipped to the input",
    "roll": "'shifts' moves elements without adding any",
    "kthvalue": "'k' must not exceed the size of the axis",
    "diff": "'n' only shortens the axis",
    "crop": "'shape' and 'offsets' must fit in the input",
    "narrow": "'start' and 'length' must fit in the input",
    "strided_slice": "'starts' and 'ends' are clipped to the input",
    "slice_scatter": "'starts', 'ends' and 'strides' pick positions of x: the result has x's shape",
    "shard_index": "'index_num', 'nshards' and 'shard_id' map values: the result has input's shape",
    "adaptive_log_softmax_with_loss": "'cutoffs' must match head_weight and tail_weights: the "
                                      "result has label's shape",
}

# the normalizations (normdrop): local_response_norm pads the squares by size - 1
# channels, as Paddle does; rms_norm's normalized_shape must be input's last dimensions
HUGE_CALLS["local_response_norm"] = [
    "F.local_response_norm(paddle.ones([1, 4, 2]), 2 ** 40)",
    "F.local_response_norm(paddle.ones([1, 4, 2]), 2 ** 24)",
    "F.local_response_norm(paddle.ones([1, 4, 2 ** 10, 2 ** 10]), 2 ** 30)"]
NOT_RESULT_SIZING["rms_norm"] = "'normalized_shape' must be input's last dimensions"
NOT_RESULT_SIZING.update({
    "pixel_unshuffle": "'downscale_factor' must divide the input: the result has x's size",
    "channel_shuffle": "'groups' must divide the channels: the result has x's shape",
    "temporal_shift": "'seg_num' must divide the batch: the result has x's shape",
})

#: Calls that still end in numpy's bare MemoryError (no size check names the op before
#: it allocates), with the reason; checked strictly: a fix makes the sweep fail until
#: its entry is removed.
KNOWN_UNCLEAR = {}

_SETUP = """
def prod_backward(shape, axis=None):
    values = np.ones(shape)
    values[..., 3] = 0.0
    x = paddle.to_tensor(values, stop_gradient=False)
    paddle.prod(x, axis=axis).sum().backward()
    return x.grad

results = []
for name, call in calls:
    try:
        out = eval(call)
        results.append([name, call, "result", ""])
    except (ValueError, MemoryError) as error:
        results.append([name, call, type(error).__name__, str(error)])
print(json.dumps(results))
"""


def _sizing_ops():
    """Names of the database's ops whose hostile-input call has a sizing argument."""
    names = set()
    for info in OPS:
        call = getattr(info, "call", None)
        if call is not None and any(getattr(a, "kind", None) in SIZING_KINDS
                                    for a in call.args):
            names.add(info.name)
    return names


def test_every_sizing_op_has_huge_calls():
    missing = _sizing_ops() - set(HUGE_CALLS) - set(NOT_RESULT_SIZING)
    assert not missing, (f"ops of the database that take a sizing argument have no entry in "
                         f"HUGE_CALLS (or NOT_RESULT_SIZING): {sorted(missing)}")
    unknown = (set(HUGE_CALLS) | set(NOT_RESULT_SIZING)) - {info.name for info in OPS}
    assert not unknown, f"entries for ops not in the database: {sorted(unknown)}"


def _run_sweep(names):
    calls = [(name, call) for name in names for call in HUGE_CALLS[name]]
    out = run_under_limit(f"calls = {calls!r}\n" + _SETUP, timeout=240)
    return json.loads(out.strip().splitlines()[-1])


def test_huge_sizes_give_a_result_or_a_clear_error_under_an_address_space_limit():
    results = _run_sweep(sorted(HUGE_CALLS))
    unclear = {call: message for name, call, kind, message in results
               if kind != "result" and not message.startswith(f"{name.split('.')[-1]}(")}
    assert len(results) == sum(map(len, HUGE_CALLS.values()))
    new = {call: message for call, message in unclear.items() if call not in KNOWN_UNCLEAR}
    assert not new, "errors that do not name their op:\n" + "\n".join(map(str, new.items()))
    fixed = set(KNOWN_UNCLEAR) - set(unclear)
    assert not fixed, f"these calls now give a clear error: remove them from KNOWN_UNCLEAR: {fixed}"


def test_the_sweep_keeps_results_that_fit():
    """The calls that fit in memory are computed, not refused."""
    results = {call: kind for _, call, kind, _ in _run_sweep(["one_hot", "prod", "interpolate"])}
    assert results["F.one_hot(paddle.to_tensor([3]), 100000)"] == "result"
    assert results["prod_backward([2 ** 17])"] == "result"
    assert results["F.interpolate(paddle.ones([1, 1, 1, 2 ** 17]), size=[2 ** 17, 1])"] \
        == "result"


def test_check_count_refuses_results_beyond_the_memory_a_process_may_have():
    from pylayer.ops._arguments import check_count
    with pytest.raises(MemoryError, match=r"f\(\): argument 'n' asks for 549755813888 "
                                          r"elements of float32 \(2.0 TiB\), more than"):
        check_count(2 ** 39, "f", "n", np.float32)
    check_count(2 ** 20, "f", "n", np.float32)


#: Creation calls whose result alone is far beyond the child's address space, though
#: below ``MAX_ELEMENTS``: each must be refused by the bytes of its dtype, in its name.
_HUGE_ARRAY = "np.broadcast_to(np.ones(1, np.float32), [2 ** 31])"
HUGE_CREATIONS = [
    ("zeros", "paddle.zeros([2 ** 31])"),
    ("zeros", "paddle.zeros([2 ** 28], dtype='float64')"),
    ("ones", "paddle.ones([2 ** 16, 2 ** 15])"),
    ("full", "paddle.full([2 ** 31], 7.0)"),
    ("empty", "paddle.empty([2 ** 31], dtype='int64')"),
    ("rand", "paddle.rand([2 ** 31])"),
    ("randn", "paddle.randn([2 ** 31])"),
    ("randint", "paddle.randint(0, 5, [2 ** 31])"),
    ("uniform", "paddle.uniform([2 ** 31])"),
    ("normal", "paddle.normal(shape=[2 ** 31])"),
    ("standard_normal", "paddle.standard_normal([2 ** 31])"),
    ("log_normal", "paddle.log_normal(shape=[2 ** 31])"),
    ("randperm", "paddle.randperm(2 ** 31)"),
    ("fftfreq", "paddle.fft.fftfreq(2 ** 31)"),
    ("zeros_like", f"paddle.zeros_like({_HUGE_ARRAY})"),
    ("ones_like", f"paddle.ones_like({_HUGE_ARRAY}, dtype='float64')"),
    ("full_like", f"paddle.full_like({_HUGE_ARRAY}, 2.0)"),
    ("empty_like", f"paddle.empty_like({_HUGE_ARRAY})"),
    ("arange", "paddle.arange(2 ** 31)"),
    ("arange", "paddle.arange(0.0, 2.0 ** 31)"),
    ("linspace", "paddle.linspace(0, 1, 2 ** 31)"),
    ("eye", "paddle.eye(2 ** 16)"),
    ("eye", "paddle.eye(2, 2 ** 31, dtype='float64')"),
]


def test_creation_functions_refuse_results_beyond_the_address_space_in_their_name():
    code = f"calls = {HUGE_CREATIONS!r}\n" + textwrap.dedent("""
        results = []
        for name, call in calls:
            try:
                eval(call)
                results.append([name, call, "result", ""])
            except (ValueError, MemoryError) as error:
                results.append([name, call, type(error).__name__, str(error)])
        print(json.dumps(results))
        """)
    results = json.loads(run_under_limit(code).strip().splitlines()[-1])
    unclear = [(call, kind, message) for name, call, kind, message in results
               if kind != "MemoryError" or not message.startswith(f"{name}(")]
    assert not unclear, "creations not refused in their name:\n" + "\n".join(map(str, unclear))


# --------------------------------- deformable convolution (pylayer.vision.ops)
NOT_RESULT_SIZING["vision.ops.deform_conv2d"] = (
    "the output's size must equal the offset's spatial size: stride, padding and dilation "
    "cannot make it outgrow the offset")


# ------------------------------------------------ convolutions' column buffers
def test_a_convolution_needs_room_for_a_blocks_columns_not_the_whole_batchs():
    # [64, 4, 64, 128] float32 with a 7x7 kernel: 8 MB of image and of output, but 411 MB
    # of columns for the whole batch, more than the child may allocate. The columns are
    # made a block of samples at a time, so the convolution runs. (Small arrays: an
    # AddressSanitizer build keeps freed memory in quarantine within the same limit.)
    out = run_under_limit("""
        y = F.conv2d(paddle.ones([64, 4, 64, 128]), paddle.ones([4, 4, 7, 7]), padding=3)
        a = y.numpy()
        print(y.shape, float(a[0, 0, 0, 0]), float(a[63, 3, 1, 1]), float(a[5, 2, 63, 30]),
              float(a[9, 1, 20, 60]))
    """, budget=256 * 2 ** 20)
    # all ones: each output is 4 channels times the kernel taps that fall inside the image
    assert out.strip() == "[64, 4, 64, 128] 64.0 100.0 112.0 196.0"
