"""pylayer.load treats a file as untrusted bytes: it decides what it builds before building it.

The hostile files are written here opcode by opcode (protocol 2, the
simplest encoding numpy's pickles use), so each test shows exactly what
the file asks for. A file that could crash the interpreter or take its
memory is loaded in a child process, so that a crash fails the test
instead of ending the run.
"""
import io
import pickle
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import pylayer


# ------------------------------------------------------- writing pickles by hand
def glob(module, name):
    return b"c" + module.encode() + b"\n" + name.encode() + b"\n"


def text(value):
    data = value.encode()
    return b"X" + len(data).to_bytes(4, "little") + data


def raw(data):
    return b"B" + len(data).to_bytes(4, "little") + data


def num(value):
    return b"J" + value.to_bytes(4, "little", signed=True)


def tup(*items):
    return b"(" + b"".join(items) + b"t"


def dtype(name, state=None):
    """numpy.dtype(name, False, True), then BUILD with ``state`` (numpy's own by default)."""
    made = glob("numpy", "dtype") + text(name) + b"\x89\x88\x87R"
    order = "|" if name in ("b1", "u1", "i1") else "<"
    state = state if state is not None else tup(num(3), text(order), b"NNN", num(-1),
                                                num(-1), num(0))
    return made + state + b"b"


def array(shape, dtype_bytes, data, core="numpy.core.multiarray"):
    """_reconstruct(ndarray, (0,), b'b'), then BUILD with (1, shape, dtype, False, data)."""
    return (glob(core, "_reconstruct") + glob("numpy", "ndarray") + num(0) + b"\x85"
            + b"C\x01b" + b"\x87R" + tup(num(1), tup(*map(num, shape)), dtype_bytes, b"\x89",
                                         data) + b"b")


def pickled(body):
    return b"\x80\x02" + body + b"."


def load_bytes(payload, **configs):
    return pylayer.load(io.BytesIO(payload), **configs)


def run_child(code, path):
    """Run ``code`` in a fresh interpreter with ``path`` as sys.argv[1]."""
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code), str(path)],
                          capture_output=True, text=True, timeout=300)


# ------------------------------------------------ the two repros of issue 18
def void_with_an_object_field():
    """A numpy scalar of a structured dtype whose one field is a Python object,
    made from 8 bytes of the file: printing it reads those bytes as a pointer."""
    object_dtype = dtype("O", tup(num(3), text("|"), b"NNN", num(-1), num(-1), num(63)))
    fields = b"}" + text("a") + object_dtype + num(0) + b"\x86s"
    state = tup(num(3), text("|"), b"N", text("a") + b"\x85", fields, num(8), num(1), num(0))
    return pickled(glob("numpy.core.multiarray", "scalar") + dtype("V8", state)
                   + b"C\x08" + b"A" * 8 + b"\x86R")


def test_a_numpy_scalar_of_a_dtype_built_from_the_file_is_refused_not_a_crash(tmp_path):
    path = tmp_path / "scalar.pdparams"
    path.write_bytes(void_with_an_object_field())
    child = run_child("""
        import pickle, sys, pylayer
        try:
            print(pylayer.load(sys.argv[1]))
        except pickle.UnpicklingError as error:
            print("refused:", error)
    """, path)
    assert child.returncode == 0, f"the child died (return code {child.returncode})"
    assert "refused: load(): " in child.stdout and "scalar.pdparams" in child.stdout
    assert "'V8'" in child.stdout


@pytest.mark.parametrize("data", [b"]Na", raw(b"")], ids=["list of items", "bytes"])
def test_an_array_declared_larger_than_its_data_takes_no_memory(tmp_path, data):
    # An object array of 2**27 items (1 GiB of pointers) declared in ~100 bytes.
    path = tmp_path / "huge.pdparams"
    path.write_bytes(pickled(array([2 ** 27], dtype("O"), data)))
    child = run_child("""
        import pickle, resource, sys, pylayer
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        try:
            pylayer.load(sys.argv[1])
            print("loaded")
        except pickle.UnpicklingError as error:
            print("refused:", error)
        grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
        print("grown KiB:", grown)
    """, path)
    assert child.returncode == 0, f"the child died (return code {child.returncode})"
    assert "refused: load(): " in child.stdout and "huge.pdparams" in child.stdout
    grown = int(child.stdout.split("grown KiB:")[1])
    assert grown < 32 * 1024, f"peak memory grew by {grown} KiB"


def test_a_float_array_declared_larger_than_its_data_is_refused_before_allocation(tmp_path):
    path = tmp_path / "short.pdparams"
    path.write_bytes(pickled(array([2 ** 28], dtype("f8"), raw(b"\0" * 16))))
    child = run_child("""
        import pickle, resource, sys, pylayer
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        try:
            pylayer.load(sys.argv[1])
        except pickle.UnpicklingError as error:
            print("refused:", error)
        print("grown KiB:", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before)
    """, path)
    assert child.returncode == 0, f"the child died (return code {child.returncode})"
    assert "(2147483648 bytes) but holds 16 bytes" in child.stdout
    assert int(child.stdout.split("grown KiB:")[1]) < 32 * 1024


# -------------------------------------------------------------- dtypes
@pytest.mark.parametrize("name", ["O", "V8", "U3", "S4", "M8[s]", "c8", "u2", "f16"])
def test_an_array_of_a_dtype_pylayer_does_not_hold_is_refused(name):
    with pytest.raises(pickle.UnpicklingError,
                       match=rf"load\(\): the file object is not a checkpoint.*"
                             rf"numpy dtype '{re_escape(name)}'.*float64 data only"):
        load_bytes(pickled(array([1], dtype(name, b"N"), raw(b"\0" * 8))))


def re_escape(value):
    import re
    return re.escape(value)


@pytest.mark.parametrize("state", [
    tup(num(3), text("<"), b"NNN", num(1 << 20), num(1), num(0)),     # a size
    tup(num(3), text("<"), b"NNN", num(-1), num(-1), num(63)),        # flags
    tup(num(3), text("<"), b"N", text("a") + b"\x85", b"}", num(-1), num(-1), num(0)),
    tup(num(3), text("|"), b"NNN", num(-1), num(-1), num(0)),         # no order for f8
    tup(num(4), text("<"), b"NNN", num(-1), num(-1), num(0)),         # another version
], ids=["itemsize", "flags", "fields", "byte order", "version"])
def test_a_dtype_takes_no_state_from_the_file_but_its_byte_order(state):
    with pytest.raises(pickle.UnpicklingError, match=r"dtype float64 the state .*no checkpoint"):
        load_bytes(pickled(array([1], dtype("f8", state), raw(b"\0" * 8))))


@pytest.mark.parametrize("protocol", [2, 4, 5])
def test_both_byte_orders_and_both_layouts_load_as_native_arrays(protocol):
    values = np.arange(6, dtype=">f4").reshape(2, 3)
    for source in (values, np.asfortranarray(values), values.astype("<i2")):
        loaded = load_bytes(pickle.dumps(source, protocol=protocol), return_numpy=True)
        assert loaded.dtype.isnative and loaded.flags.writeable
        np.testing.assert_array_equal(loaded, source)


def test_an_array_from_a_buffer_is_checked_like_any_other():
    # protocol 5: _frombuffer(data, dtype, shape, order)
    short = (glob("numpy._core.numeric", "_frombuffer") + tup(raw(b"\0" * 8), dtype("f8"),
                                                             tup(num(2)), text("C")) + b"R")
    with pytest.raises(pickle.UnpicklingError, match=r"\(16 bytes\) but holds 8 bytes"):
        load_bytes(pickled(short))
    odd = (glob("numpy._core.numeric", "_frombuffer") + tup(raw(b"\0" * 8), dtype("f8"),
                                                           tup(num(1)), text("K")) + b"R")
    with pytest.raises(pickle.UnpicklingError, match="from a buffer"):
        load_bytes(pickled(odd))


def test_numpy_numbers_load_and_a_number_of_the_wrong_size_is_refused():
    assert load_bytes(pickle.dumps({"lr": np.float32(0.5), "on": np.bool_(True)})) == \
        {"lr": 0.5, "on": True}
    bad = pickled(glob("numpy.core.multiarray", "scalar") + dtype("f4") + b"C\x02ab\x86R")
    with pytest.raises(pickle.UnpicklingError, match=r"float32 \(4 bytes\) but holds 2 bytes"):
        load_bytes(bad)


# --------------------------------------------------------- arrays and shapes
@pytest.mark.parametrize("shape, data, message", [
    ([3], raw(b"\0" * 16), r"shape \[3\] and dtype float64 \(24 bytes\) but holds 16"),
    ([1], raw(b"\0" * 16), r"\(8 bytes\) but holds 16"),
    ([-1], raw(b""), r"shape \(-1,\)"),
    ([2 ** 30, 2 ** 30], raw(b""), r"but holds 0 bytes"),
    ([1] * 40, raw(b"\0" * 8), r"at most 32 sizes"),
    ([1], num(5), r"data that is not bytes"),
], ids=["short", "long", "negative", "huge", "too many dims", "not bytes"])
def test_an_array_whose_shape_does_not_match_its_bytes_is_refused(shape, data, message):
    with pytest.raises(pickle.UnpicklingError, match=message):
        load_bytes(pickled(array(shape, dtype("f8"), data)))


def test_an_array_given_its_state_twice_is_refused():
    twice = (glob("numpy.core.multiarray", "_reconstruct") + glob("numpy", "ndarray") + num(0)
             + b"\x85C\x01b\x87R" + b"2"      # DUP: the same array, built twice
             + tup(num(1), tup(num(1)), dtype("f8"), b"\x89", raw(b"\0" * 8)) + b"b0"
             + tup(num(1), tup(num(1)), dtype("f8"), b"\x89", raw(b"\0" * 8)) + b"b")
    with pytest.raises(pickle.UnpicklingError, match="one array two states"):
        load_bytes(pickled(twice))


def test_an_array_without_its_state_is_refused():
    bare = (glob("numpy.core.multiarray", "_reconstruct") + glob("numpy", "ndarray") + num(0)
            + b"\x85C\x01b\x87R")
    with pytest.raises(pickle.UnpicklingError, match="array without giving its data"):
        load_bytes(pickled(bare))


@pytest.mark.parametrize("body, message", [
    (glob("numpy.core.multiarray", "_reconstruct") + glob("numpy", "matrix") + num(0)
     + b"\x85C\x01b\x87R", r"numpy\.matrix"),
    (glob("numpy.core.multiarray", "_reconstruct") + glob("builtins", "list") + num(0)
     + b"\x85C\x01b\x87R", "in a way numpy never writes"),
    (glob("numpy", "ndarray") + b"}" + text("x") + num(1) + b"sb", "gives numpy.ndarray a state"),
    (glob("numpy", "dtype") + b"(" + text("__call__") + num(1) + b"d" + b"}\x86b",
     "gives numpy.dtype a state"),
    (glob("numpy.core.numeric", "_frombuffer"), r"numpy\.core\.numeric\._frombuffer"),
    (glob("numpy", "dtype"), "holds numpy.dtype"),
    (dtype("f4"), "holds a numpy dtype"),
    (glob("_codecs", "encode") + text("x") + text("utf-8") + b"\x86R", "other than latin-1"),
    (b"\x80\x02" + b"P0\n", "persistent"),
], ids=["matrix", "list", "ndarray state", "dtype state", "frombuffer", "bare dtype name",
        "bare dtype", "utf-8", "persistent id"])
def test_anything_outside_the_format_is_refused_with_the_reason(body, message):
    with pytest.raises(pickle.UnpicklingError, match=rf"load\(\): .*{message}"):
        load_bytes(pickled(body))


@pytest.mark.parametrize("payload", [
    b"", b"\x80", pickle.dumps([1, 2, 3])[:-3], b"\x80\x04garbage", b"not a pickle at all",
    pickle.dumps(np.arange(4))[:40],
], ids=["empty", "proto only", "cut list", "garbage opcodes", "text", "cut array"])
def test_a_truncated_or_garbled_file_is_an_unpickling_error_naming_the_file(tmp_path, payload):
    path = tmp_path / "broken.pdparams"
    path.write_bytes(payload)
    with pytest.raises(pickle.UnpicklingError, match=r"load\(\): '.*broken\.pdparams' is not"):
        pylayer.load(str(path))


def test_nesting_too_deep_to_rebuild_is_an_unpickling_error():
    deep = pickled(b"]" * 100_000 + b"a" * 99_999)
    with pytest.raises(pickle.UnpicklingError, match="nests containers too deeply"):
        load_bytes(deep)


def test_shared_and_cyclic_containers_are_rebuilt_once(tmp_path):
    # 64 levels of [x, x]: 2**64 leaves if the sharing were expanded. Loaded in a
    # child, so that an expansion fails by the time limit rather than hanging.
    path = tmp_path / "shared.pdparams"
    path.write_bytes(pickled(b"".join(level_chain())))
    child = run_child("""
        import sys, pylayer
        value = pylayer.load(sys.argv[1])
        depth = 0
        while isinstance(value, list) and len(value) == 2:
            assert value[0] is value[1]
            value, depth = value[0], depth + 1
        print(depth, value)
    """, path)
    assert child.returncode == 0, child.stderr
    assert child.stdout.split()[0] == "64"


def level_chain():
    """[array] then 64 lists, each holding the previous one twice (memo slots 0..64)."""
    yield b"]" + b"r" + (0).to_bytes(4, "little") + array([1], dtype("f8"), raw(b"\0" * 8)) \
        + b"a"
    for i in range(1, 65):
        yield (b"]" + b"r" + i.to_bytes(4, "little") + b"(" + b"j" + (i - 1).to_bytes(4, "little")
               + b"j" + (i - 1).to_bytes(4, "little") + b"e")
    yield b"0" * 65 + b"j" + (64).to_bytes(4, "little")     # POP all, GET the last


def test_a_list_that_holds_itself_loads_as_such():
    value = [1.0]
    value.append(value)
    loaded = load_bytes(pickle.dumps(value))
    assert loaded[0] == 1.0 and loaded[1] is loaded


def test_an_array_as_a_dict_key_is_refused():
    body = b"}" + tup(array([1], dtype("f8"), raw(b"\0" * 8))) + num(1) + b"s"
    with pytest.raises(pickle.UnpicklingError, match="array as a dict key"):
        load_bytes(pickled(body))


def test_a_saved_array_of_a_dtype_load_refuses_is_refused_by_save_first(tmp_path):
    with pytest.raises(TypeError, match=r"save\(\).*dtype uint16.*\['x'\]"):
        pylayer.save({"x": np.zeros(2, np.uint16)}, tmp_path / "u.pd")
    with pytest.raises(TypeError, match=r"save\(\).*dtype complex128"):
        pylayer.save([np.complex128(1j)], tmp_path / "c.pd")
    assert not list(tmp_path.iterdir())
