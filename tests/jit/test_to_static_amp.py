"""A to_static function or Layer follows the auto_cast it is called in, as its dynamic
form does: one program per mixed-precision state (found by the Done-when script of
issue 36, tests/compat/data/beginner_full.py, where a to_static model ignored
auto_cast and computed in float32)."""
import numpy as np

import pylayer
from pylayer.static import InputSpec


def model_and_input():
    pylayer.seed(0)
    net = pylayer.nn.Sequential(pylayer.nn.Linear(4, 8), pylayer.nn.Tanh(),
                                pylayer.nn.Linear(8, 2))
    return net, pylayer.randn([3, 4])


def test_a_to_static_layer_computes_as_its_dynamic_form_under_auto_cast():
    net, x = model_and_input()
    with pylayer.amp.auto_cast(dtype="bfloat16"):
        dynamic = net(x)
    full = net(x)
    pylayer.jit.to_static(net, input_spec=[InputSpec([None, 4], "float32")])
    for _ in range(2):                  # captured, then replayed
        with pylayer.amp.auto_cast(dtype="bfloat16"):
            mixed = net(x)
        assert mixed.dtype == pylayer.bfloat16
        np.testing.assert_array_equal(mixed.astype("float32").numpy(),
                                      dynamic.astype("float32").numpy())
        plain = net(x)
        assert plain.dtype == pylayer.float32
        np.testing.assert_array_equal(plain.numpy(), full.numpy())
    assert net.forward.get_traced_count() == 2


def test_the_auto_cast_lists_and_level_choose_the_program():
    net, x = model_and_input()
    static = pylayer.jit.to_static(lambda t: net(t))
    settings = [{}, {"custom_black_list": {"matmul_v2"}}, {"level": "OD"}]
    for kwargs in settings * 2:
        with pylayer.amp.auto_cast(dtype="bfloat16", **kwargs):
            got, want = static(x), net(x)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got.astype("float32").numpy(),
                                      want.astype("float32").numpy())
    assert [net(x).dtype for _ in "ab"] == [pylayer.float32] * 2
    assert static.get_traced_count() == 3


def test_parameters_are_cast_at_each_run_and_receive_gradients():
    pylayer.seed(1)
    net = pylayer.nn.Sequential(pylayer.nn.Conv2D(2, 3, 3), pylayer.nn.Flatten(),
                                pylayer.nn.Linear(12, 2))
    x = pylayer.randn([2, 2, 4, 4])
    static = pylayer.jit.to_static(lambda t: net(t))

    def outputs_and_grads(function):
        with pylayer.amp.auto_cast(dtype="bfloat16"):
            out = function(x)
        out.astype("float32").sum().backward()
        grads = [p.grad.numpy().copy() for p in net.parameters()]
        net.clear_gradients()
        return out.astype("float32").numpy(), grads

    for step in range(2):
        got, got_grads = outputs_and_grads(static)
        want, want_grads = outputs_and_grads(net)
        np.testing.assert_array_equal(got, want)
        for g, w in zip(got_grads, want_grads):
            np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-6)
        with pylayer.no_grad():         # the replayed program sees the new values
            for p in net.parameters():
                p.set_value(p.numpy() * 0.5)
