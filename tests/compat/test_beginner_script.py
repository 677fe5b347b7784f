"""The training loop of the "Training a model" guide, written as one Paddle script
(data/beginner_script.py: Dataset, DataLoader, an nn.Layer with a PyLayer, AdamW,
metric.Accuracy, paddle.Model), runs unchanged under ``python -m pylayer run`` and
gives the losses Paddle 3.3.1 gives.

PADDLE_OUTPUT is what ``python tests/compat/data/beginner_script.py`` printed with
Paddle 3.3.1 (CPU build, Python 3.11) installed as ``paddle``. The script sets the
parameters from numpy and does not shuffle, so both frameworks start from the same
weights and see the same batches. It uses no auto_cast: Paddle's CPU build ignores
bfloat16 auto_cast and computes in float32, where pylayer computes in bfloat16.
"""
import pathlib
import subprocess
import sys

import numpy as np

SCRIPT = pathlib.Path(__file__).with_name("data") / "beginner_script.py"

PADDLE_OUTPUT = """\
step 0 0.8119950294494629
step 1 0.7906595468521118
step 2 0.49706828594207764
step 3 0.21688099205493927
step 4 0.5783628225326538
step 5 0.21655644476413727
step 6 0.16803184151649475
step 7 0.08866249769926071
step 8 0.4485936760902405
step 9 0.07095643132925034
step 10 0.16528207063674927
step 11 0.04449206963181496
accuracy 0.96875
model 0.1328115165233612 0.96875
"""


def parse(output):
    """``{label: [numbers]}``, the step lines gathered under ``"step"`` in order."""
    values = {}
    for line in output.splitlines():
        label, *numbers = line.split()
        numbers = [float(n) for n in numbers]
        if label == "step":
            values.setdefault("step", []).append(numbers[1])
        else:
            values[label] = numbers
    return values


def test_the_guides_training_script_gives_paddles_losses(tmp_path):
    run = subprocess.run([sys.executable, "-m", "pylayer", "run", SCRIPT],
                         capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    got, expected = parse(run.stdout), parse(PADDLE_OUTPUT)
    assert got.keys() == expected.keys()
    assert len(got["step"]) == 12
    for label in expected:
        np.testing.assert_allclose(got[label], expected[label], rtol=1e-5, atol=1e-6,
                                   err_msg=label)
