"""Issue 36's Done-when script (data/beginner_full.py, written as Paddle's beginner
tutorials write one: a Dataset read by a DataLoader with two workers, an nn.Layer with a
custom PyLayer, AdamW, metric.Accuracy, amp.auto_cast with a GradScaler, paddle.save and
paddle.load of the model's and the optimizer's state with a resumed step, jit.to_static,
jit.save and jit.load) runs unchanged under ``python -m pylayer run`` and gives, line for
line, what it gives on Paddle 3.3.1.

PADDLE_OUTPUT is what ``python tests/compat/data/beginner_full.py`` printed with Paddle
3.3.1 (CPU build, Python 3.11) installed as ``paddle``. The script sets the parameters
from numpy and does not shuffle, so both frameworks start from the same weights and see
the same batches. Every line matches to float32 rounding, except the ``amp_`` lines:

* The training loop runs under ``auto_cast()`` with its default dtype, float16, as the
  tutorials write it: Paddle's CPU build warns that auto_cast makes no effect there and
  computes in float32, and so does pylayer (no float16 kernels), so those steps match to
  float32 rounding.
* The ``amp_`` lines run under ``auto_cast(dtype='bfloat16')``. Paddle's CPU build
  ignores that too ("amp_guard can only be enabled on CUDAPlace...") and computes in
  float32, while pylayer computes the white-list ops (the Linear layers) in bfloat16, as
  Paddle does on a device with bfloat16 (docs/en/guides/migration.rst says so). bfloat16
  keeps 8 significant bits (a relative rounding error of at most 2**-8 per rounding);
  each matmul rounds its two operands and its result, and the cross-entropy loss (in
  float32) averages the logits' errors over the batch, so its relative error stays
  within about two roundoffs: the amp lines are compared with rtol = 2**-7 (observed:
  at most 2.5e-3, over four training steps). The GradScaler makes no effect in both:
  Paddle's CPU build disables it when it is made, and pylayer's turns itself off at the
  first ``scale`` after a bfloat16 auto_cast, as Paddle's does on a GPU.
"""
import pathlib
import subprocess
import sys

import numpy as np

SCRIPT = pathlib.Path(__file__).with_name("data") / "beginner_full.py"

PADDLE_OUTPUT = """\
step 0 0.49469712376594543
step 1 0.4020032584667206
step 2 0.3165019750595093
step 3 0.5558435916900635
epoch 0 0.75
step 4 0.1810418963432312
step 5 0.1875056028366089
step 6 0.1713053286075592
step 7 0.22056251764297485
epoch 1 0.9375
continued 0.12285946309566498
resumed 0.12285946309566498
to_static 0.12285946309566498 0.9375
jit_load -2.494664192199707 -0.42592525482177734 -3.4717929363250732 2.5957980155944824 -1.7549452781677246 1.144795298576355 1.7277839183807373 -0.5574325323104858 -1.497631311416626 1.3413634300231934
amp_eval 0.12285946309566498
amp_step 0 0.49469712376594543
amp_step 1 0.4020032584667206
amp_step 2 0.3165019750595093
amp_step 3 0.5558435916900635
amp_trained 0.266360878944397
"""

FLOAT32 = dict(rtol=1e-5, atol=1e-6)
BFLOAT16 = dict(rtol=2 ** -7, atol=0)


def parse(output):
    """``[(label, [numbers])]`` in the order printed."""
    lines = []
    for line in output.splitlines():
        label, *numbers = line.split()
        lines.append((label, [float(n) for n in numbers]))
    return lines


def test_the_beginner_script_gives_paddles_numbers_step_for_step(tmp_path):
    run = subprocess.run([sys.executable, "-m", "pylayer", "run", SCRIPT],
                         capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    got, expected = parse(run.stdout), parse(PADDLE_OUTPUT)
    assert [label for label, _ in got] == [label for label, _ in expected]
    for i, ((label, numbers), (_, wanted)) in enumerate(zip(got, expected)):
        tolerance = BFLOAT16 if label.startswith("amp_") else FLOAT32
        if label in ("step", "amp_step"):       # the step number, then the loss
            assert numbers[0] == wanted[0]
        np.testing.assert_allclose(numbers, wanted, **tolerance,
                                   err_msg=f"line {i}: {label}")
