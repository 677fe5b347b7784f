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


def test_spirals_are_the_per_class_spirals_drawn_in_order():
    import numpy as np
    x, y = demo.make_spirals(50, 3, seed=4)
    rng = np.random.default_rng(4)
    for k in range(3):
        radius = np.linspace(0.0, 1.0, 50)
        angle = np.linspace(4.0 * k, 4.0 * (k + 1), 50) + rng.normal(0.0, 0.2, 50)
        expected = np.stack([radius * np.sin(angle), radius * np.cos(angle)], 1)
        np.testing.assert_allclose(x[50 * k:50 * (k + 1)], expected, rtol=1e-6, atol=1e-7)
        assert (y[50 * k:50 * (k + 1)] == k).all()


def test_main_refuses_bad_settings_before_training():
    import pytest
    out = io.StringIO()
    with pytest.raises(ValueError, match=r"main\(\): argument 'batch_size' must be at most the "
                                         r"number of training points \(600\), got 601"):
        demo.main(epochs=1, batch_size=601, out=out)
    with pytest.raises(ValueError, match=r"main\(\): argument 'epochs' must be at least 1"):
        demo.main(epochs=0, out=out)
    with pytest.raises(TypeError, match=r"main\(\): argument 'out' must be a text stream"):
        demo.main(epochs=1, out=[])
    assert out.getvalue() == ""
