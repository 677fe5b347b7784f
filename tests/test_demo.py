"""The README's main job: the demo trains, the loss falls, the gradient check passes."""
import io
import re

from pylayer import demo


def test_demo_trains_and_checks_its_custom_layer():
    out = io.StringIO()
    assert demo.main(out=out) == 0
    text = out.getvalue()
    losses = [float(v) for v in re.findall(r"^epoch +\d+/\d+  loss ([0-9.]+)", text, re.M)]
    assert len(losses) == 40
    assert losses[-1] < 0.5 * losses[0]
    assert "gradient check of Swish.backward against central differences: passed" in text


def test_swish_backward_matches_numbers():
    import pylayer as paddle
    x = paddle.to_tensor([-2.0, 0.0, 1.5], dtype="float64", stop_gradient=False)
    assert paddle.autograd.gradcheck(demo.Swish.apply, x)
    assert paddle.autograd.gradgradcheck(demo.Swish.apply, x)
