"""A learning-rate scheduler in static mode: step() between runs changes the rate."""
import numpy as np

import pylayer
from pylayer.optimizer import lr


def test_a_scheduler_drives_static_training_between_runs(static, exe):
    sched = lr.StepDecay(0.5, step_size=1, gamma=0.5)
    x = pylayer.static.data("x", [1, 1], "float32")
    w = pylayer.static.create_parameter([1, 1], "float32",
                                        default_initializer=pylayer.nn.initializer.Constant(0.0))
    loss = pylayer.mean(pylayer.matmul(x, w))
    pylayer.optimizer.SGD(learning_rate=sched).minimize(loss)
    exe.run(pylayer.static.default_startup_program())
    scope = pylayer.static.global_scope()
    values = []
    for _ in range(3):
        exe.run(pylayer.static.default_main_program(), feed={"x": np.ones([1, 1], "float32")},
                fetch_list=[loss])
        values.append(float(np.array(scope.find_var(w.name).get_tensor()).item()))
        sched.step()
    np.testing.assert_allclose(values, [-0.5, -0.75, -0.875])
