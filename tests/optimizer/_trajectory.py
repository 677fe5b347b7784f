"""The fixed problem the optimizer tests run for 20 steps, as they ran it in Paddle
3.3.1 (CPU): parameters starting at ``START`` (``-START`` for a second one), loss
``sum(w ** 4 / 4 + sin(3 * w))``."""
import numpy as np

import pylayer

START = np.array([0.5, -1.5, 2.0])


def parameter(values, dtype="float64", is_bias=False, **attr):
    p = pylayer.create_parameter([len(values)], dtype, attr=pylayer.ParamAttr(**attr),
                                 is_bias=is_bias)
    with pylayer.no_grad():
        p.set_value(np.asarray(values, dtype=dtype))
    return p


def trajectory(cls, dtype="float64", steps=20, params=None, scheduler=None, **settings):
    """The parameters' values after each step, and the optimizer."""
    params = params or [parameter(START, dtype)]
    opt = cls(parameters=params, **settings)
    found = []
    for _ in range(steps):
        sum((p ** 4 / 4 + pylayer.sin(3 * p)).sum() for p in params).backward()
        opt.step()
        opt.clear_grad()
        if scheduler is not None:
            scheduler.step()
        found.append([p.numpy().tolist() for p in params] if len(params) > 1
                     else params[0].numpy().tolist())
    return np.array(found), opt


def assert_trajectory(found, expected, dtype):
    if dtype == "float64":
        np.testing.assert_allclose(found, expected, rtol=0, atol=1e-10)
    else:
        np.testing.assert_allclose(found, expected, rtol=0, atol=2e-6)


def assert_state_dict_resumes(cls, **settings):
    """Ten steps, the state dict into a new optimizer on a copy of the parameter, ten more
    steps: exactly where twenty uninterrupted steps end."""
    whole, _ = trajectory(cls, **settings)
    first, opt = trajectory(cls, steps=10, **settings)
    resumed = parameter(first[-1])
    again = cls(parameters=[resumed], **settings)
    again.set_state_dict(opt.state_dict())
    for _ in range(10):
        (resumed ** 4 / 4 + pylayer.sin(3 * resumed)).sum().backward()
        again.step()
        again.clear_grad()
    np.testing.assert_array_equal(resumed.numpy(), whole[-1])
