"""Round 3 (issue 31), parts 5 and 8: checkpoints lose no data, and the paddle alias
reaches the child processes of a program run with ``python -m pylayer run``.

Part 9 (``paddle.incubate.autograd`` keeps the caller's graph) is tested with
the rest of incubate.autograd, in ``tests/compat/test_incubate_autograd.py``.
"""
import io
import os
import pathlib
import pickle
import random
import re
import signal
import stat
import struct
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import pylayer as paddle
from pylayer.framework import _tensor_file

SOURCE = pathlib.Path(paddle.__file__).parent


def child_env():
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(SOURCE.parent), env.get("PYTHONPATH", "")])
    return env


# ------------------------------------------------- a killed save loses nothing
SAVER = textwrap.dedent("""
    import sys
    import numpy as np
    import pylayer as paddle
    path = sys.argv[1]
    weights = [paddle.full([3_000_000], float(i)) for i in range(2)]    # 12 MB each
    i = 0
    while True:
        paddle.save({"w": weights[i % 2], "step": paddle.to_tensor(np.int64(i))}, path)
        print(i, flush=True)
        i += 1
""")


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
@pytest.mark.slow
def test_a_save_killed_at_any_moment_leaves_the_previous_checkpoint_loadable(tmp_path):
    script = tmp_path / "saver.py"
    script.write_text(SAVER)
    path = tmp_path / "model.pdparams"
    rng = random.Random(31)
    for attempt in range(8):
        child = subprocess.Popen([sys.executable, str(script), str(path)], env=child_env(),
                                 stdout=subprocess.PIPE, text=True)
        try:
            first = int(child.stdout.readline())        # one checkpoint is complete
            time.sleep(rng.uniform(0.0, 0.4))
        finally:
            child.kill()
            finished = child.stdout.read().split()
            child.wait(timeout=30)
        last = int(finished[-1]) if finished else first
        state = paddle.load(str(path))              # never a truncated file
        step = int(state["step"].item())
        assert last <= step <= last + 1, (attempt, first, last, step)
        w = state["w"].numpy()
        assert w.shape == (3_000_000,) and (w == step % 2).all(), attempt
        path.unlink()
    leftovers = [p.name for p in tmp_path.iterdir() if p.name != "saver.py"]
    # A temporary file of the killed write may be left; nothing else is.
    assert all(name.startswith(".model.pdparams.") for name in leftovers), leftovers


def test_a_failed_write_keeps_the_old_file_and_leaves_no_temporary_file(tmp_path, monkeypatch):
    path = tmp_path / "a.pdparams"
    paddle.save({"w": paddle.ones([2])}, str(path))
    before = path.read_bytes()

    def failing_fsync(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", failing_fsync)
    with pytest.raises(OSError, match="No space left"):
        paddle.save({"w": paddle.zeros([3])}, str(path))
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.pdparams"]


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions and links")
def test_an_atomic_save_keeps_the_files_mode_and_writes_through_a_link(tmp_path):
    path = tmp_path / "a.pdparams"
    paddle.save({"w": paddle.ones([2])}, str(path))
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~umask     # as open() makes it
    path.chmod(0o640)
    paddle.save({"w": paddle.ones([3])}, str(path))
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    link = tmp_path / "latest.pdparams"
    link.symlink_to(path)
    paddle.save({"w": paddle.ones([4])}, str(link))
    assert link.is_symlink() and paddle.load(str(path))["w"].shape == [4]
    paddle.save({"w": paddle.ones([1])}, os.devnull)        # not a regular file: written
    assert os.path.exists(os.devnull) and not os.path.isfile(os.devnull)


def test_every_file_writer_of_the_package_writes_atomically():
    """The check for the next member of the kind: a new ``open(..., "w")`` (or the like)
    anywhere in the package must go through the one atomic writer."""
    writers = re.compile(r"""open\([^)]*["'][wax]b?\+?["']|\.write_(bytes|text)\(|"""
                         r"""np\.save\w*\(|\.tofile\(""")
    allowed = {
        # The atomic writer itself.
        "framework/_files.py",
        # Spilled saved tensors: a new file of a unique name (mkstemp), read by this
        # process only and deleted with it; no earlier data to lose.
        "autograd/graph.py",
        # wave.open(..., "wb") on an in-memory buffer; the file is written by the atomic writer.
        "audio.py",
    }
    found = set()
    for file in SOURCE.rglob("*.py*"):
        if file.suffix in (".py", ".pyx", ".pxd") and writers.search(file.read_text()):
            found.add(file.relative_to(SOURCE).as_posix())
    assert found <= allowed, sorted(found - allowed)


# -------------------------------------------- saves to one path land in call order
def test_a_save_after_an_async_save_to_the_same_path_is_what_the_file_holds(tmp_path):
    big = {"w": paddle.to_tensor(np.zeros(2_000_000, "float32"))}      # 8 MB
    path = str(tmp_path / "a.pdparams")
    for i in range(15):
        paddle.async_save(big, path)
        paddle.save({"w": paddle.full([1], float(i))}, path)
        with open(path, "rb") as f:         # read without load(), which waits for writes
            got = pickle.loads(f.read())
        assert got["w"].tolist() == [float(i)], i
    for i in range(5):                      # two background writes: the later one lands last
        paddle.async_save(big, path)
        paddle.async_save({"w": paddle.full([1], float(i))}, path)
        assert paddle.load(path)["w"].numpy().tolist() == [float(i)], i
    paddle.clear_async_save_task_queue()


def test_async_saves_to_other_paths_still_run_in_the_background(tmp_path):
    path_a, path_b = str(tmp_path / "a.pdparams"), str(tmp_path / "b.pdparams")
    paddle.async_save({"w": paddle.ones([2])}, path_a)
    paddle.save({"w": paddle.ones([3])}, path_b)
    paddle.clear_async_save_task_queue()
    assert paddle.load(path_a)["w"].shape == [2] and paddle.load(path_b)["w"].shape == [3]


# ----------------------------------------- declared shapes checked before allocating
def tensor_file(dims, code=5, data=b""):
    description = b"\x08" + bytes([code]) + b"".join(
        b"\x10" + _tensor_file._varint(d) for d in dims)
    return struct.pack("<IQIi", 0, 0, 0, len(description)) + description + data


@pytest.mark.parametrize("dims", [[0, 2 ** 62], [2 ** 62, 0], [0, 2 ** 40, 2 ** 30],
                                  [2 ** 31, 2 ** 31, 0, 4]])
def test_a_binary_tensor_file_of_an_impossible_shape_is_a_value_error_naming_load(
        tmp_path, dims):
    path = tmp_path / "t.pdtensor"
    path.write_bytes(tensor_file(dims))
    with pytest.raises(ValueError, match=r"^load\(\): .*t\.pdtensor.*shape") as error:
        paddle.load(str(path))
    assert "array is too big" not in str(error.value)


class _ImpossibleArray:
    """Pickles as numpy writes an array, with a shape no array can have."""

    def __init__(self, shape):
        self.shape = shape

    def __reduce__(self):
        from numpy.core.multiarray import _reconstruct
        return (_reconstruct, (np.ndarray, (0,), b"b"),
                (1, self.shape, np.dtype("float32"), False, b""))


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.parametrize("shape", [(0, 2 ** 62), (2 ** 40, 0, 2 ** 40)])
def test_a_pickled_array_of_an_impossible_shape_is_refused_with_its_shape(shape):
    data = io.BytesIO(pickle.dumps({"w": _ImpossibleArray(shape)}, protocol=4))
    with pytest.raises(pickle.UnpicklingError, match=r"^load\(\): .*shape") as error:
        paddle.load(data)
    assert "array is too big" not in str(error.value)


# ------------------------------------------- the paddle alias in child processes
CHILDREN = textwrap.dedent("""
    import concurrent.futures
    import multiprocessing
    import paddle


    def work(n):
        import paddle                  # the child imports paddle itself, too
        return float(paddle.to_tensor([1.0, 2.0]).sum().item()) * n


    def report(queue):
        queue.put(work(1))


    if __name__ == "__main__":
        for method in ("spawn", "forkserver"):
            context = multiprocessing.get_context(method)
            queue = context.Queue()
            process = context.Process(target=report, args=(queue,))
            process.start()
            print(method, "process", queue.get(timeout=60))
            process.join(60)
            assert process.exitcode == 0, process.exitcode
            with context.Pool(2) as pool:
                print(method, "pool", pool.map(work, [1, 2, 3]))
            with concurrent.futures.ProcessPoolExecutor(2, mp_context=context) as executor:
                print(method, "executor", list(executor.map(work, [2, 4])))
        with concurrent.futures.ProcessPoolExecutor(1) as executor:   # the default context
            print("default executor", executor.submit(work, 5).result(timeout=60))
""")


def run_in_own_group(*args, cwd):
    """``python -m pylayer ARGS`` in a process group of its own, all of which is killed
    when it runs out of time (a Pool restarting failing workers forever)."""
    child = subprocess.Popen([sys.executable, "-m", "pylayer", *args], cwd=cwd, env=child_env(),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             start_new_session=True)
    try:
        out, err = child.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        out, err = child.communicate()
        pytest.fail(f"the children hung: {err[-3000:]}")
    return subprocess.CompletedProcess(child.args, child.returncode, out, err)


@pytest.mark.skipif(sys.platform == "win32", reason="forkserver is POSIX only")
@pytest.mark.slow
def test_children_started_through_multiprocessing_import_paddle(tmp_path):
    script = tmp_path / "children.py"
    script.write_text(CHILDREN)
    run = run_in_own_group("run", str(script), cwd=tmp_path)
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.splitlines() == [
        "spawn process 3.0", "spawn pool [3.0, 6.0, 9.0]", "spawn executor [6.0, 12.0]",
        "forkserver process 3.0", "forkserver pool [3.0, 6.0, 9.0]",
        "forkserver executor [6.0, 12.0]", "default executor 15.0"]


def test_children_of_a_module_run_with_dash_m_import_paddle(tmp_path):
    (tmp_path / "paddle_children.py").write_text(CHILDREN.replace('("spawn", "forkserver")',
                                                                  '("spawn",)'))
    run = run_in_own_group("run", "-m", "paddle_children", cwd=tmp_path)
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.splitlines()[:3] == [
        "spawn process 3.0", "spawn pool [3.0, 6.0, 9.0]", "spawn executor [6.0, 12.0]"]
