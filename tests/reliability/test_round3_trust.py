"""Compiled code trusts nothing that Python can reach (issue 31, part 3).

Three kinds, each with the check that catches its next member:

* a Tensor whose ``__init__`` never ran (a subclass that skipped
  ``Tensor.__init__``) holds data all the same, and where one comes back from user
  code (a PyLayer's backward, a hook, a rule) the engine names the culprit;
* freeing a long chain of objects (through ``.grad``, the graph, saved tensors,
  attributes, hooks) never recurses once per link on the C stack;
* a kernel that runs over raw pointers takes only arrays it may read that way
  (native byte order, aligned, C-contiguous; writeable where it writes).

Whatever crashed on an earlier main runs in a child process, with an address-space
limit, so that a segfault or a blow-up fails the test instead of ending the run.
"""
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import pylayer as paddle

LIMIT = 4 << 30          # address space a child may take (bytes)


def run_child(code, limit=LIMIT, timeout=600):
    """Run ``code`` in a fresh interpreter that may take ``limit`` more bytes of address
    space and return what it printed; a signal or an uncaught exception fails the test."""
    # The limit is what the child may add to the address space it starts with: an
    # AddressSanitizer build (.ci/run) maps terabytes of shadow memory at start.
    prelude = (f"import resource\n"
               f"with open('/proc/self/status') as status:\n"
               f"    start = next(int(line.split()[1]) * 1024 for line in status\n"
               f"                 if line.startswith('VmSize:'))\n"
               f"resource.setrlimit(resource.RLIMIT_AS, (start + {limit}, start + {limit}))\n")
    done = subprocess.run([sys.executable, "-c", prelude + textwrap.dedent(code)],
                          capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"child exited with {done.returncode}:\n{done.stderr[-3000:]}"
    return done.stdout


# ------------------------------------------------ tensors whose __init__ never ran
UNMADE = """
    import pylayer as paddle

    class Unmade(paddle.Tensor):
        def __init__(self):
            pass            # never calls Tensor.__init__
"""


def test_pylayer_backward_returning_an_unmade_tensor_into_a_fan_in_sum():
    out = run_child(UNMADE + """
    calls = []

    class Twice(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            calls.append(1)
            return Unmade() if len(calls) == 3 else g * 2

    x = paddle.to_tensor(1.0, stop_gradient=False)
    h = x * 1.0
    y = Twice.apply(h) + Twice.apply(h) + Twice.apply(h)
    try:
        y.backward()
    except TypeError as exc:
        print("TypeError:", exc)
    """)
    assert "TypeError:" in out and "Twice" in out and "Unmade" in out, out
    assert "__init__" in out, out


def test_a_tensor_whose_init_never_ran_is_an_empty_float32_tensor():
    # PyTorch's Tensor() is an empty float32 tensor too; no op sees missing data.
    class Unmade(paddle.Tensor):
        def __init__(self):
            pass

    t = Unmade()
    assert t.shape == [0] and t.dtype == paddle.float32
    assert (t + 1.0).shape == [0]
    assert paddle.Tensor.__new__(paddle.Tensor).shape == [0]
    with pytest.raises(RuntimeError, match="runs once"):
        paddle.to_tensor([1.0]).__init__([2.0])


@pytest.mark.parametrize("where", ["pylayer", "pylayer-list", "hook", "leaf-hook", "rule",
                                   "grad_outputs"])
def test_user_code_returning_an_unmade_tensor_is_named(where):
    class Unmade(paddle.Tensor):
        def __init__(self):
            pass

    class Layer(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x, y):
            return x * y

        @staticmethod
        def backward(ctx, g):
            return (Unmade(), g) if where == "pylayer" else ([Unmade()][0], None)

    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    y = paddle.to_tensor([3.0, 4.0], stop_gradient=where == "pylayer-list")
    if where.startswith("pylayer"):
        out = Layer.apply(x, y)
        culprit = "Layer"
    elif where == "hook":
        out = x * 1.0
        out.register_hook(lambda g: Unmade())
        out = out * 1.0
        culprit = "hook"
    elif where == "leaf-hook":
        x.register_hook(lambda g: Unmade())
        out = x * 1.0
        culprit = "hook"
    elif where == "rule":
        from pylayer.extend import Op, make_output
        record = Op("unmade_rule", inputs=("x",), vjp=(lambda g: Unmade(),))
        out = make_output(record, x.numpy() * 1.0, (x,))
        culprit = "UnmadeRule"
    else:
        out = x * 1.0
        culprit = "grad_outputs"
    before = x.grad
    if where == "grad_outputs":
        # an empty tensor as a starting gradient: refused as any wrong shape is
        with pytest.raises((TypeError, ValueError), match=culprit):
            paddle.grad(out, x, grad_outputs=Unmade())
        with pytest.raises((TypeError, ValueError), match="grad_tensor"):
            out.backward(Unmade())
        return
    with pytest.raises(TypeError, match=culprit) as info:
        out.sum().backward()
    assert "Unmade" in str(info.value) and "__init__" in str(info.value)
    assert x.grad is before


# ------------------------------------------------------- freeing long chains
CHAIN = 1_000_000

CHAINS = {
    "grad": """
        head = t = paddle.to_tensor([1.0])
        for _ in range(N):
            nxt = make_tensor(one)
            t.grad = nxt
            t = nxt
    """,
    "subclass-grad": """
        class Sub(paddle.Tensor):
            pass
        head = t = Sub([1.0])
        for _ in range(N):
            nxt = Sub([1.0])
            t.grad = nxt
            t = nxt
    """,
    "graph": """
        head = t = paddle.to_tensor([1.0], stop_gradient=False)
        for _ in range(N):
            t = t + 1.0
        head = t
    """,
    "saved": """
        head = t = paddle.to_tensor([1.0], stop_gradient=False)
        for _ in range(N):
            t = t * t
        head = t
    """,
    "attribute": """
        head = t = make_tensor(one)
        for _ in range(N):
            nxt = make_tensor(one)
            t.next = nxt
            t = nxt
    """,
    "subclass-attribute": """
        class Sub(paddle.Tensor):
            pass
        head = t = Sub([1.0])
        for _ in range(N):
            nxt = Sub.__new__(Sub)
            t.next = nxt
            t = nxt
    """,
    "hook": """
        head = t = paddle.to_tensor([1.0], stop_gradient=False)
        for _ in range(N):
            nxt = paddle.to_tensor([1.0], stop_gradient=False)
            t.register_hook(lambda g, keep=nxt: g)
            t = nxt
    """,
    "node-hook": """
        head = t = paddle.to_tensor([1.0], stop_gradient=False) * 1.0
        for _ in range(N):
            nxt = paddle.to_tensor([1.0], stop_gradient=False) * 1.0
            t.register_hook(lambda g, keep=nxt: g)
            t = nxt
    """,
    "pylayer": """
        class Keep(paddle.autograd.PyLayer):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x * 1.0

            @staticmethod
            def backward(ctx, g):
                return g
        head = t = paddle.to_tensor([1.0], stop_gradient=False)
        for _ in range(N):
            t = Keep.apply(t)
        head = t
    """,
}


@pytest.mark.parametrize("kind", [
    pytest.param(kind, marks=() if kind == "graph" else pytest.mark.slow) for kind in sorted(CHAINS)])
def test_freeing_a_long_chain_does_not_overflow_the_c_stack(kind):
    # A limit on the C stack far below the default makes a recursion of one frame
    # per link fail at any length worth testing; the trashcan keeps it flat.
    out = run_child(f"""
        import gc, resource
        resource.setrlimit(resource.RLIMIT_STACK, (8 << 20, 8 << 20))
        import numpy as np
        import pylayer as paddle
        from pylayer.extend import make_tensor
        gc.disable()            # freed by reference counts alone, link by link
        N = {CHAIN}
        one = np.ones(1, np.float32)
    """ + textwrap.indent(textwrap.dedent(CHAINS[kind]), "        ") + """
        del t
        nxt = None
        del head
        print("freed")
    """, limit=8 << 30)
    assert out.strip() == "freed"


# ------------------------------------------------------- raw-pointer kernels
def _hostile(kind, dtype, values=(1.0, 1.0, 1.0)):
    """``values`` as an array of ``dtype`` that a raw loop must not read as a native,
    aligned, writeable one: big-endian, misaligned or read-only."""
    values = np.asarray(values)
    if kind == "big-endian":
        return values.astype(np.dtype(dtype).newbyteorder(">"))
    if kind == "misaligned":
        raw = np.zeros(values.size * np.dtype(dtype).itemsize + 1, np.uint8)[1:]
        array = raw.view(dtype).reshape(values.shape)
        array[...] = values
        assert not array.flags.aligned
        return array
    array = values.astype(dtype)
    array.flags.writeable = False
    return array


@pytest.mark.parametrize("kind", ["big-endian", "misaligned"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("which", ["x", "y"])
def test_axpy_reads_every_array_by_its_own_layout(kind, dtype, which):
    from pylayer.extend import axpy
    x = _hostile(kind, dtype) if which == "x" else np.ones(3, dtype)
    y = _hostile(kind, dtype) if which == "y" else np.ones(3, dtype)
    axpy(2.0, x, y)
    np.testing.assert_array_equal(y, [3.0, 3.0, 3.0])


def test_axpy_refuses_a_read_only_output():
    from pylayer.extend import axpy
    y = _hostile("read-only", "float32")
    with pytest.raises(ValueError, match=r"axpy\(\).*'y'.*writeable"):
        axpy(2.0, np.ones(3, np.float32), y)
    np.testing.assert_array_equal(y, [1.0, 1.0, 1.0])


def _loop_entries():
    """Every op whose fast path runs a raw loop from ``loops.pxd``, as ``(name, call)``
    with ``call(a, b)`` taking two arrays of one shape and returning an array."""
    from pylayer._kernels import loops
    t = paddle.Tensor
    return {
        "add": lambda a, b: paddle.add(t(a), t(b)).numpy(),
        "multiply": lambda a, b: paddle.multiply(t(a), t(b)).numpy(),
        "scale": lambda a, b: paddle.scale(t(a), 2.0).numpy(),
        "add-scalar": lambda a, b: (t(a) + 1.5).numpy(),
        "sigmoid": lambda a, b: paddle.nn.functional.sigmoid(t(a)).numpy(),
        "softmax": lambda a, b: paddle.nn.functional.softmax(t(a)).numpy(),
        "axpy": lambda a, b: (loops.axpy(2.0, a, c := np.array(b)), c)[1],
        "axpy-into": lambda a, b: (loops.axpy(2.0, b, y := a if a.flags.writeable
                                              else np.array(a)), y)[1],
    }


@pytest.mark.parametrize("kind", ["big-endian", "misaligned", "read-only"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("entry", sorted(_loop_entries()))
def test_raw_loop_entries_take_hostile_arrays(entry, dtype, kind):
    call = _loop_entries()[entry]
    a = _hostile(kind, dtype, np.arange(1.0, 9.0))
    native = np.arange(1.0, 9.0).astype(dtype)
    b = np.full(8, 0.5, dtype)
    try:
        got = call(a, b)
    except (TypeError, ValueError) as exc:
        # a refusal must say which function and which argument
        assert "(" in str(exc) and "'" in str(exc), exc
        return
    want = call(native, b)
    np.testing.assert_allclose(np.asarray(got, np.float64), np.asarray(want, np.float64),
                               rtol=1e-6)


@pytest.mark.parametrize("kind", ["big-endian", "misaligned"])
@pytest.mark.parametrize("make", ["Tensor", "to_tensor", "make_tensor", "set_value"])
def test_a_tensor_holds_native_aligned_data(make, kind):
    # every compiled path over a Tensor's data may then read it through a raw pointer
    from pylayer.extend import make_tensor
    data = _hostile(kind, "float32", [1.0, 2.0, 3.0])
    if make == "make_tensor" and kind == "big-endian":
        with pytest.raises(TypeError, match=r"make_tensor\(\).*'array'"):
            make_tensor(data)
        return
    if make == "set_value":
        t = paddle.zeros([3])
        t.set_value(data)
    else:
        t = {"Tensor": paddle.Tensor, "to_tensor": paddle.to_tensor,
             "make_tensor": make_tensor}[make](data)
    array = t.numpy()
    assert array.dtype == np.float32 and array.dtype.isnative and array.flags.aligned
    np.testing.assert_array_equal(array, [1.0, 2.0, 3.0])


@pytest.mark.parametrize("on_leaf", [False, True])
def test_a_hook_that_changes_the_gradients_shape_is_refused_naming_it(on_leaf):
    # A [1] gradient from a hook broadcast in multiply's rule: x.grad was w, silently.
    x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    w = paddle.to_tensor([4.0, 5.0, 6.0])

    def shrink(g):
        return paddle.ones([1])

    if on_leaf:
        x.register_hook(shrink)
        y = x * w
    else:
        y = x * 1.0
        y.register_hook(shrink)
        y = y * w
    with pytest.raises(RuntimeError, match=r"hook .*shrink.* shape \[1\] .* shape \[3\]"):
        y.sum().backward()
