"""Edge cases of the compiled hot ops: permutation checks, 0-d results, silent overflow, int inputs."""
import warnings
import numpy as np
import pytest
import pylayer


@pytest.mark.parametrize("perm", [[2, 1], [0, 3], [0, -3]], ids=str)
def test_transpose_rejects_out_of_range_axes(perm):
    with pytest.raises(ValueError, match=r"transpose\(\)"):
        pylayer.transpose(pylayer.ones([2, 3]), perm)


@pytest.mark.parametrize("op", [pylayer.exp, pylayer.log, pylayer.sqrt, pylayer.neg,
                                pylayer.square, pylayer.scale], ids=lambda f: f.__name__)
def test_unary_ops_on_zero_d_tensors_store_ndarrays(op):
    out = op(pylayer.to_tensor(1.0))
    assert isinstance(out.numpy(), np.ndarray)


@pytest.mark.parametrize("make", [lambda: pylayer.exp(pylayer.to_tensor([1000.0])),
                                  lambda: pylayer.square(pylayer.to_tensor([1e30])),
                                  lambda: pylayer.mean(pylayer.zeros([0]))],
                         ids=["exp-overflow", "square-overflow", "mean-empty"])
def test_overflow_and_empty_mean_are_silent_like_log_sqrt_divide(make):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        make()


@pytest.mark.parametrize("op", [pylayer.tanh, pylayer.exp, pylayer.log, pylayer.sigmoid,
                                pylayer.sqrt], ids=lambda f: f.__name__)
def test_float_only_ops_compute_integers_in_float32_and_refuse_bool(op):
    out = op(pylayer.to_tensor([1, 2]))
    assert out.dtype == "float32"
    np.testing.assert_allclose(out.numpy(), op(pylayer.to_tensor([1.0, 2.0])).numpy())
    with pytest.raises(TypeError, match=rf"{op.__name__}\(\): argument 'x' \(position 1\) "
                                        r"must be a floating-point (or complex )?Tensor"
                                        r".*got dtype bool"):
        op(pylayer.to_tensor([True]))


def test_bitwise_operators_on_ints_and_bools():
    a, b = pylayer.to_tensor([12, 10]), pylayer.to_tensor([10, 6])
    assert (a & b).tolist() == [8, 2] and (a | b).tolist() == [14, 14]
    assert (a ^ b).tolist() == [6, 12] and (~a).tolist() == [-13, -11]
    t, f = pylayer.to_tensor([True, False]), pylayer.to_tensor([True, True])
    assert (~t).tolist() == [False, True] and (t & f).tolist() == [True, False]
    with pytest.raises(TypeError, match="bitwise_and.*integer or bool"):
        pylayer.ones([2]) & pylayer.ones([2])


def test_reduction_gradients_on_empty_shapes():
    z = pylayer.zeros([0, 2])
    z.stop_gradient = False
    pylayer.broadcast_to(z, [3, 0, 2]).sum().backward()
    assert z.grad.shape == [0, 2]
