"""Deformable convolution: ``pylayer.vision.ops.deform_conv2d``, ``DeformConv2D`` and
``pylayer.static.nn.deform_conv2d``, against numbers recorded from Paddle 3.3.1 (CPU).

``data/deform_conv2d_paddle.npz`` was made with the scratch Paddle: numpy's
``default_rng(7)`` drew float64 ``x`` [2, 4, 5, 6], ``offset`` [2, 24, 5, 2] in
[-2.5, 2.5], ``mask`` [2, 12, 5, 2] in [0, 1], ``weight`` [4, 2, 2, 3], ``bias`` [4] and
``grad_out`` [2, 4, 5, 2]; ``paddle.vision.ops.deform_conv2d`` ran with stride (1, 2),
padding (1, 0), dilation (2, 1), deformable_groups=2, groups=2, once with the mask
(``v2_*``) and once without (``v1_*``); ``(y * grad_out).sum().backward()`` gave the
gradients ``<v>_grad_<input>``.

``data/deform_conv2d.pdparams`` is the ``state_dict`` of Paddle's
``DeformConv2D(4, 4, (2, 3), stride=(1, 2), padding=(1, 0), dilation=(2, 1),
deformable_groups=2, groups=2)`` after ``paddle.seed(3)``, saved with ``paddle.save``;
``data/deform_conv2d_layer.npz`` holds its float32 outputs for the inputs above with the
mask (``out``) and without (``out_v1``).
"""
import pathlib

import numpy as np
import pytest

import pylayer
from pylayer.vision.ops import DeformConv2D, deform_conv2d

DATA = pathlib.Path(__file__).parent / "data"
SETTINGS = dict(stride=(1, 2), padding=(1, 0), dilation=(2, 1), deformable_groups=2, groups=2)


@pytest.fixture(scope="module")
def recorded():
    return dict(np.load(DATA / "deform_conv2d_paddle.npz"))


@pytest.mark.parametrize("version", ["v1", "v2"])
def test_values_and_gradients_match_paddle(recorded, version):
    names = ["x", "offset", "weight", "bias"] + (["mask"] if version == "v2" else [])
    t = {k: pylayer.to_tensor(recorded[k], stop_gradient=False) for k in names}
    y = deform_conv2d(t["x"], t["offset"], t["weight"], t["bias"], mask=t.get("mask"),
                      **SETTINGS)
    assert y.dtype == pylayer.float64
    np.testing.assert_allclose(y.numpy(), recorded[f"{version}_out"], rtol=1e-12, atol=1e-12)
    (y * pylayer.to_tensor(recorded["grad_out"])).sum().backward()
    for k in names:
        np.testing.assert_allclose(t[k].grad.numpy(), recorded[f"{version}_grad_{k}"],
                                   rtol=1e-12, atol=1e-12, err_msg=k)


def test_whole_pixel_offsets_take_the_gradient_toward_the_next_pixel():
    # Paddle 3.3.1: an offset of exactly (1, -1) reads whole pixels; the offset's gradient
    # is the difference to the next row / column, and points on the ring around the
    # image (row 4 of 4 rows, column -1) read zero with a zero gradient.
    x = pylayer.to_tensor(np.arange(16.0).reshape(1, 1, 4, 4), stop_gradient=False)
    pair = np.array([1.0, -1.0]).reshape(1, 2, 1, 1)
    offset = pylayer.to_tensor(np.tile(pair, (1, 1, 4, 4)), stop_gradient=False)
    y = deform_conv2d(x, offset, pylayer.ones([1, 1, 1, 1], dtype="float64"))
    y.sum().backward()
    np.testing.assert_array_equal(y.numpy()[0, 0], [[0, 4, 5, 6], [0, 8, 9, 10],
                                                    [0, 12, 13, 14], [0, 0, 0, 0]])
    np.testing.assert_array_equal(offset.grad.numpy()[0], [
        [[0, 4, 4, 4], [0, 4, 4, 4], [0, -12, -13, -14], [0, 0, 0, 0]],
        [[0, 1, 1, 1], [0, 1, 1, 1], [0, 1, 1, 1], [0, 0, 0, 0]]])


def test_a_point_on_the_ring_around_the_image_has_no_gradient():
    # y = -1 exactly: the lower neighbour (row 0) has weight 0, and Paddle gives the
    # offset a zero gradient there too (not the difference to row 0).
    x = pylayer.to_tensor(np.arange(1.0, 5.0).reshape(1, 1, 2, 2))
    offset = pylayer.to_tensor(np.array([-1.0, 0.0]).reshape(1, 2, 1, 1).repeat(2, 2)
                               .repeat(2, 3), stop_gradient=False)
    y = deform_conv2d(x, offset, pylayer.ones([1, 1, 1, 1], dtype="float64"))
    y.sum().backward()
    np.testing.assert_array_equal(y.numpy()[0, 0], [[0, 0], [1, 2]])
    np.testing.assert_array_equal(offset.grad.numpy()[0, 0], [[0, 0], [2, 2]])


def test_float32_stays_float32_and_double_backward_runs():
    x = pylayer.randn([1, 2, 3, 3])
    x.stop_gradient = False
    offset = pylayer.full([1, 8, 2, 2], 0.3)
    y = deform_conv2d(x, offset, pylayer.ones([1, 2, 2, 2]))
    assert y.dtype == pylayer.float32 and y.shape == [1, 1, 2, 2]
    (g,) = pylayer.grad((y * y).sum(), x, create_graph=True)
    g.sum().backward()
    assert x.grad.shape == [1, 2, 3, 3]


@pytest.mark.parametrize("call, error, words", [
    (lambda: deform_conv2d(pylayer.ones([1, 2, 4, 4], "int32"), pylayer.zeros([1, 18, 2, 2]),
                           pylayer.ones([3, 2, 3, 3])), TypeError, "'x'"),
    (lambda: deform_conv2d(pylayer.ones([1, 2, 4, 4]), pylayer.zeros([1, 18, 2, 2], "float64"),
                           pylayer.ones([3, 2, 3, 3])), TypeError, "'offset'"),
    (lambda: deform_conv2d(pylayer.ones([1, 2, 4, 4]), pylayer.zeros([1, 16, 2, 2]),
                           pylayer.ones([3, 2, 3, 3])), ValueError, "'offset'"),
    (lambda: deform_conv2d(pylayer.ones([1, 2, 4, 4]), pylayer.zeros([1, 18, 3, 3]),
                           pylayer.ones([3, 2, 3, 3])), ValueError, "'offset'"),
    (lambda: deform_conv2d(pylayer.ones([1, 2, 4, 4]), pylayer.zeros([1, 18, 2, 2]),
                           pylayer.ones([3, 2, 3, 3]), mask=pylayer.ones([1, 8, 2, 2])),
     ValueError, "'mask'"),
    (lambda: deform_conv2d(pylayer.ones([1, 2, 4, 4]), pylayer.zeros([1, 18, 2, 2]),
                           pylayer.ones([3, 2, 3, 3]), groups=2), ValueError, "groups"),
    (lambda: deform_conv2d(pylayer.ones([1, 2, 4, 4]), pylayer.zeros([1, 18, 2, 2]),
                           pylayer.ones([3, 2, 3, 3]), deformable_groups=3),
     ValueError, "deformable_groups"),
    (lambda: deform_conv2d(pylayer.ones([2, 4, 4]), pylayer.zeros([1, 18, 2, 2]),
                           pylayer.ones([3, 2, 3, 3])), ValueError, "'x'"),
    (lambda: deform_conv2d(pylayer.ones([1, 2, 4, 4]), pylayer.zeros([1, 18, 2, 2]),
                           pylayer.ones([3, 2, 3, 3]), bias=pylayer.ones([2])),
     ValueError, "'bias'"),
    (lambda: deform_conv2d(pylayer.ones([1, 2, 4, 4]), pylayer.zeros([1, 18, 2, 2]),
                           pylayer.ones([3, 2, 3, 3]), stride=0), ValueError, "'stride'"),
    (lambda: deform_conv2d(pylayer.ones([1, 2, 2, 2]), pylayer.zeros([1, 18, 1, 1]),
                           pylayer.ones([3, 2, 3, 3])), ValueError, "empty"),
])
def test_bad_arguments_are_refused(call, error, words):
    with pytest.raises(error, match="deform_conv2d") as info:
        call()
    assert words in str(info.value)


def test_layer_parameters_repr_and_initialisation_follow_paddle():
    pylayer.seed(0)
    layer = DeformConv2D(8, 16, 3, groups=2)
    assert list(layer.state_dict()) == ["weight", "bias"]
    assert layer.weight.shape == [16, 4, 3, 3] and layer.bias.shape == [16]
    assert abs(layer.weight.numpy().std() - (2.0 / (9 * 8)) ** 0.5) < 0.02
    assert not layer.bias.numpy().any()
    assert repr(layer) == "DeformConv2D()"          # Paddle's layer shows no arguments
    assert DeformConv2D(2, 2, 1, bias_attr=False).bias is None
    with pytest.raises(ValueError, match="DeformConv2D"):
        DeformConv2D(3, 2, 1, groups=2)
    with pytest.raises(ValueError, match="weight_attr"):
        DeformConv2D(2, 2, 1, weight_attr=False)


def test_layer_loads_paddles_pdparams_and_gives_its_output(recorded):
    layer = DeformConv2D(4, 4, (2, 3), **SETTINGS)
    layer.set_state_dict(pylayer.load(str(DATA / "deform_conv2d.pdparams")))
    expected = np.load(DATA / "deform_conv2d_layer.npz")
    x, offset, mask = (pylayer.to_tensor(recorded[k].astype("float32"))
                       for k in ("x", "offset", "mask"))
    np.testing.assert_allclose(layer(x, offset, mask).numpy(), expected["out"], rtol=1e-5,
                               atol=1e-5)
    np.testing.assert_allclose(layer(x=x, offset=offset).numpy(), expected["out_v1"],
                               rtol=1e-5, atol=1e-5)


def test_a_small_model_trains_and_round_trips_through_save_and_load(tmp_path):
    pylayer.seed(1)
    offsets = pylayer.nn.Conv2D(2, 18, 3, padding=1)
    deform = DeformConv2D(2, 3, 3, padding=1)
    params = offsets.parameters() + deform.parameters()
    opt = pylayer.optimizer.Adam(learning_rate=0.02, parameters=params)
    x = pylayer.randn([4, 2, 5, 5])
    target = pylayer.randn([4, 3, 5, 5])
    losses = []
    for _ in range(15):
        loss = ((deform(x, offsets(x) * 0.1) - target) ** 2).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    assert losses[-1] < losses[0]
    path = str(tmp_path / "deform.pdparams")
    pylayer.save(deform.state_dict(), path)
    again = DeformConv2D(2, 3, 3, padding=1)
    again.set_state_dict(pylayer.load(path))
    offset = offsets(x) * 0.1
    np.testing.assert_array_equal(again(x, offset).numpy(), deform(x, offset).numpy())


def test_static_deform_conv2d_runs_the_op_and_names_parameters_as_paddle():
    pylayer.enable_static()
    try:
        main, startup = pylayer.static.Program(), pylayer.static.Program()
        with pylayer.static.program_guard(main, startup):
            x = pylayer.static.data("x", [-1, 2, 4, 4], "float64")
            offset = pylayer.static.data("offset", [-1, 18, 4, 4], "float64")
            mask = pylayer.static.data("mask", [-1, 9, 4, 4], "float64")
            one = pylayer.ParamAttr(initializer=pylayer.nn.initializer.Constant(0.5))
            y = pylayer.static.nn.deform_conv2d(x, offset, mask, num_filters=3, filter_size=3,
                                                padding=1, weight_attr=one, name="dcn")
            y1 = pylayer.static.nn.deform_conv2d(x, offset, None, num_filters=3,
                                                 filter_size=3, padding=1, weight_attr=one,
                                                 bias_attr=False)
        names = [p.name for p in main.all_parameters()]
        assert names[:2] == ["dcn.w_0", "dcn.b_0"]
        assert names[2].startswith("deformable_conv_") and names[2].endswith(".w_0")
        assert len(names) == 3 and y.shape == [-1, 3, 4, 4]
        rng = np.random.default_rng(0)
        feed = {"x": rng.standard_normal((2, 2, 4, 4)),
                "offset": rng.uniform(-1, 1, (2, 18, 4, 4)),
                "mask": rng.uniform(0, 1, (2, 9, 4, 4))}
        exe = pylayer.static.Executor()
        exe.run(startup)
        got, got_v1 = exe.run(main, feed=feed, fetch_list=[y, y1])
    finally:
        pylayer.disable_static()
    t = {k: pylayer.to_tensor(v) for k, v in feed.items()}
    weight = pylayer.full([3, 2, 3, 3], 0.5, dtype="float64")
    np.testing.assert_allclose(got, deform_conv2d(t["x"], t["offset"], weight, padding=1,
                                                  mask=t["mask"]).numpy(), rtol=1e-12)
    np.testing.assert_allclose(got_v1, deform_conv2d(t["x"], t["offset"], weight,
                                                     padding=1).numpy(), rtol=1e-12)


def test_static_deform_conv2d_refuses_tensors():
    with pytest.raises(RuntimeError, match="deform_conv2d"):
        pylayer.static.nn.deform_conv2d(pylayer.ones([1, 2, 4, 4]), pylayer.zeros([1, 18, 2, 2]),
                                        None, num_filters=2, filter_size=3)
