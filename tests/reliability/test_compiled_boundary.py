"""What Python can reach of the compiled core cannot corrupt it (issue 18).

Each test is an attack that took the process down or returned a wrong number
on an earlier main. The ones that crashed run in a child process, so that a
segfault fails the test instead of ending the run.
"""
import os
import subprocess
import sys
import textwrap

import pytest


def run_child(code, env=None):
    """Run ``code`` in a fresh interpreter and return what it printed; a crash (a
    signal) or an uncaught exception fails the test."""
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=300, env=env)
    assert done.returncode == 0, f"child exited with {done.returncode}:\n{done.stderr[-3000:]}"
    return done.stdout


# ------------------------------------------- generated pickling and copying
def test_a_copied_pool_block_never_hands_live_memory_back():
    out = run_child("""
        import copy
        import numpy as np
        import pylayer as paddle
        a = paddle.tanh(paddle.full([512, 512], 0.5))
        block = a.numpy().base
        for attempt in (copy.copy, copy.deepcopy):
            try:
                attempt(block)
            except TypeError as exc:
                print("refused:", exc)
        d = paddle.ones([512, 512])
        c = d * 1.0
        assert float(a.numpy()[0, 0]) == float(np.tanh(np.float32(0.5))), a.numpy()[0, 0]
    """)
    assert out.count("refused:") == 2


@pytest.mark.parametrize("module, name", [
    ("pylayer._kernels.buffers", "Block"),
    ("pylayer._core.graph", "GradNode"),
    ("pylayer._core.graph", "SavedTensor"),
    ("pylayer._core.tensor", "VersionCounter"),
    ("pylayer._core.tensor", "Tensor"),
])
def test_compiled_types_have_no_generated_pickling(module, name):
    run_child(f"""
        import copy, importlib, pickle
        import pylayer
        cls = getattr(importlib.import_module({module!r}), {name!r})
        for attribute in ("__setstate_cython__", "__reduce_cython__"):
            assert not hasattr(cls, attribute), attribute
    """)


def test_setstate_of_a_pool_block_cannot_crash():
    run_child("""
        import pylayer as paddle
        a = paddle.tanh(paddle.full([512, 512], 0.5))
        block_type = type(a.numpy().base)
        try:
            block = block_type.__new__(block_type)
        except TypeError:
            block = None
        if block is not None:
            for attack in ("__setstate_cython__", "__setstate__"):
                try:
                    getattr(block, attack)(("str",))
                except (AttributeError, TypeError):
                    pass
            del block
    """)


def test_setstate_of_a_node_cannot_rewrite_its_edges():
    run_child("""
        import pylayer as paddle
        x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
        y = paddle.tanh(x) * 2.0
        node = y.grad_fn
        for attack in ("__setstate_cython__", "__setstate__"):
            try:
                getattr(node, attack)((None,) * 30)
            except (AttributeError, TypeError):
                pass
        y.sum().backward()
        print(x.grad.numpy())
    """)


# ------------------------------------------- a PyLayer's context
def test_a_context_field_assigned_in_backward_cannot_crash_double_backward():
    run_child("""
        import weakref
        import pylayer as paddle
        from pylayer.autograd import PyLayer

        class Other:
            pass
        other = Other()

        class Cube(PyLayer):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x * x * x

            @staticmethod
            def backward(ctx, dy):
                try:
                    ctx._node_ref = weakref.ref(other)
                except AttributeError:
                    pass
                x, = ctx.saved_tensor()
                return 3 * x * x * dy

        x = paddle.to_tensor([2.0], stop_gradient=False)
        y = Cube.apply(x)
        gx, = paddle.grad(y, x, create_graph=True)
        try:
            gx.backward()
        except RuntimeError as exc:
            print("refused:", exc)
        else:
            assert abs(float(x.grad.numpy()[0]) - 12.0) < 1e-6, x.grad
    """)


# ------------------------------------------- saved tensors and private entry points
def test_a_saved_output_cannot_be_attached_to_a_node_with_fewer_outputs():
    # Output 9 of a 10-output PyLayer, saved for backward, was once attached to a
    # 2-output split node through SavedTensor.get: backward then indexed past the
    # node's buffer. Nothing of a saved tensor can be called with another node now.
    run_child("""
        import pylayer as paddle
        from pylayer.autograd import PyLayer

        class Ten(PyLayer):
            @staticmethod
            def forward(ctx, x):
                outs = tuple(x * float(i) for i in range(10))
                ctx.save_for_backward(outs[9])
                return outs

            @staticmethod
            def backward(ctx, *grads):
                return grads[0]

        x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
        outs = Ten.apply(x)
        parts = paddle.split(x * 1.0, 2)
        with paddle.autograd.saved_tensors_hooks(lambda t: t, lambda t: t):
            kept = paddle.multiply(outs[9], outs[9])
        saved = kept.grad_fn.saved
        for item in (saved if isinstance(saved, tuple) else (saved,)):
            for name in dir(item):
                attribute = getattr(item, name, None)
                if callable(attribute) and not name.startswith("__"):
                    try:
                        stray = attribute(parts[0].grad_fn)
                    except (TypeError, ValueError, RuntimeError, IndexError):
                        continue
                    if isinstance(stray, paddle.Tensor):
                        stray.sum().backward()
        parts[1].sum().backward()
        print(x.grad.numpy())
    """)


def test_private_recording_and_backward_entry_points_check_their_arguments():
    run_child("""
        import numpy as np
        import pylayer as paddle
        from pylayer._core import engine as _engine
        from pylayer._core import graph as _graph
        from pylayer.autograd import saved_tensors_hooks

        x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
        with saved_tensors_hooks(lambda t: t, lambda t: t):
            try:
                _graph.make_output(np.ones(2, np.float32), (x,), "attack", lambda n, g: (g,),
                                   save=(12345,))
            except TypeError as exc:
                print("refused:", exc)
        y = x * 2.0
        try:
            _engine.run_backward([y], [np.ones(2, np.float32)])
        except TypeError as exc:
            print("refused:", exc)
    """)


# ------------------------------------------- numbers that reach C
def test_a_self_containing_list_argument_is_an_error_not_a_crash():
    out = run_child("""
        import pylayer as paddle
        t = paddle.ones([2])
        loop = [1.0]
        loop.append(loop)
        for value in (loop, ):
            try:
                paddle.add(t, value)
            except (TypeError, ValueError, RecursionError) as exc:
                print("refused:", type(exc).__name__)
        deep = [1.0]
        for _ in range(300_000):
            deep = [deep]
        try:
            paddle.add(t, deep)
        except (TypeError, ValueError, RecursionError) as exc:
            print("refused:", type(exc).__name__)
    """)
    assert out.count("refused:") == 2


@pytest.mark.parametrize("value", ["nan", "inf", "9e12", "-1", "many"])
def test_an_unusable_pool_size_in_the_environment_is_a_clear_error(value):
    env = dict(os.environ, PYLAYER_BUFFER_POOL_MB=value)
    done = subprocess.run([sys.executable, "-c", "import pylayer"], capture_output=True,
                          text=True, timeout=120, env=env)
    assert done.returncode == 1, done.stderr
    assert "PYLAYER_BUFFER_POOL_MB" in done.stderr and repr(value) in done.stderr


def test_a_usable_pool_size_in_the_environment_is_taken():
    env = dict(os.environ, PYLAYER_BUFFER_POOL_MB="16")
    out = run_child("""
        import pylayer
        print(pylayer.device.memory_stats()["limit_bytes"])
    """, env=env)
    assert int(out) == 16 * 2 ** 20


# ------------------------------------------- also noticed
def test_calling_init_again_on_a_saved_tensor_cannot_change_a_gradient():
    import pylayer as paddle
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    w = paddle.to_tensor([3.0, 4.0])
    y = paddle.multiply(x, w)
    with pytest.raises(RuntimeError, match="Tensor.__init__"):
        w.__init__([30.0, 40.0])
    y.sum().backward()
    assert x.grad.numpy().tolist() == [3.0, 4.0]
    assert w.numpy().tolist() == [3.0, 4.0]


def test_copy_of_a_non_leaf_shares_no_memory():
    import copy
    import numpy as np
    import pylayer as paddle
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    y = x * 2.0
    for make in (copy.copy, copy.deepcopy):
        c = make(y)
        assert c.is_leaf and not c.stop_gradient      # as Paddle 3.3.1 gives
        assert not np.shares_memory(c.numpy(), y.numpy())


def test_clearing_the_hook_stack_from_python_cannot_leave_a_dangling_pair():
    run_child("""
        import gc
        import pylayer as paddle
        from pylayer._core import graph as _graph
        from pylayer.autograd import saved_tensors_hooks

        x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
        with saved_tensors_hooks(lambda t: t, lambda t: t):
            state = getattr(_graph, "_hook_state", None)
            stack = getattr(state, "stack", None)
            if stack is not None:
                stack.clear()
            gc.collect()
            y = x * x
        y.sum().backward()
        print(x.grad.numpy())
    """)
