"""``python -m pylayer run``: a Paddle script or module runs on pylayer, unchanged.

Each run is a child process (sys.executable), as a user would start it.
"""
import pathlib
import subprocess
import sys
import textwrap

SCRIPT = pathlib.Path(__file__).with_name("data") / "paddle_style_script.py"


def pylayer_command(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "pylayer", *map(str, args)],
                          capture_output=True, text=True, timeout=300, cwd=cwd)


def test_an_unedited_paddle_script_runs_and_prints_what_it_prints_on_paddle(tmp_path):
    # The script imports paddle, paddle.nn, paddle.nn.functional, paddle.autograd,
    # paddle.static, paddle.optimizer and paddle.framework; Paddle 3.3.1 prints
    # the same lines for it.
    run = pylayer_command("run", SCRIPT, "--epochs", "3", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == ["loss 0.0331", "restored True", "static 3.0464",
                                       "grad 0.7864", "arguments ['--epochs', '3']"]


def test_the_script_sees_itself_as_main_with_its_arguments_and_directory(tmp_path):
    folder = tmp_path / "project"
    folder.mkdir()
    (folder / "helper.py").write_text("VALUE = 7\n")
    (folder / "main.py").write_text(textwrap.dedent("""
        import sys
        import helper                     # found next to the script, as with python
        import paddle
        print(__name__, sys.argv, helper.VALUE, paddle.__name__)
    """))
    run = pylayer_command("run", folder / "main.py", "-x", "1", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == f"__main__ ['{folder / 'main.py'}', '-x', '1'] 7 pylayer"


def test_a_module_runs_with_dash_m_as_python_runs_it(tmp_path):
    (tmp_path / "paddle_job.py").write_text(textwrap.dedent("""
        import sys
        import paddle
        import paddle.nn.functional as F
        if __name__ == "__main__":
            print(sys.argv[1:], F.relu(paddle.to_tensor([-1.0, 2.0])).numpy().tolist())
    """))
    run = pylayer_command("run", "-m", "paddle_job", "--fast", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "['--fast'] [0.0, 2.0]"


def test_a_paddle_module_runs_with_dash_m_as_its_pylayer_module(tmp_path):
    """``python -m pylayer run -m paddle.distributed.launch ...`` is how Paddle's launcher
    is started: a ``paddle.`` module runs as the pylayer module it stands for."""
    run = pylayer_command("run", "-m", "paddle.distributed.launch", "--help", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "nproc_per_node" in run.stdout


def test_a_paddle_test_suite_runs_under_pytest(tmp_path):
    (tmp_path / "test_paddle_code.py").write_text(textwrap.dedent("""
        import paddle
        from paddle.autograd import PyLayer

        class Double(PyLayer):
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            def backward(ctx, dy):
                return dy * 2

        def test_double():
            x = paddle.to_tensor([1.0], stop_gradient=False)
            Double.apply(x).sum().backward()
            assert x.grad.numpy().tolist() == [2.0]
    """))
    run = pylayer_command("run", "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          "test_paddle_code.py", cwd=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 passed" in run.stdout


def test_the_exit_status_of_the_script_is_the_commands(tmp_path):
    (tmp_path / "exits.py").write_text("import sys\nsys.exit(3)\n")
    (tmp_path / "fails.py").write_text("import paddle\nraise KeyError('boom')\n")
    assert pylayer_command("run", tmp_path / "exits.py").returncode == 3
    failed = pylayer_command("run", tmp_path / "fails.py")
    assert failed.returncode == 1 and "KeyError: 'boom'" in failed.stderr


def test_usage_and_mistakes():
    helped = pylayer_command("run", "--help")
    assert helped.returncode == 0 and "python -m pylayer run -m module" in helped.stdout
    bare = pylayer_command("run")
    assert bare.returncode == 2 and "usage: python -m pylayer run" in bare.stderr
    missing = pylayer_command("run", "/nonexistent/train.py")
    assert missing.returncode == 2
    assert "can't open file '/nonexistent/train.py'" in missing.stderr
    option = pylayer_command("run", "--fast", "train.py")
    assert option.returncode == 2 and "unknown option '--fast'" in option.stderr
    no_module = pylayer_command("run", "-m")
    assert no_module.returncode == 2 and "-m needs a module name" in no_module.stderr


def test_the_command_line_lists_its_commands():
    listed = pylayer_command("--help")
    assert listed.returncode == 0 and "run" in listed.stdout and "check" in listed.stdout
    assert pylayer_command().returncode == 2
    unknown = pylayer_command("train")
    assert unknown.returncode == 2 and "unknown command 'train'" in unknown.stderr
