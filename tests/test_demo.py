"""The README's main job: the demo trains and settles, reports held-out accuracy,
checks its custom layer, and behaves like a command-line tool."""
import io
import re
import subprocess
import sys

import numpy as np
import pytest

import pylayer as paddle
from pylayer import demo


def run(**options):
    out = io.StringIO()
    status = demo.main(out=out, **options)
    return status, out.getvalue()


def epoch_losses(text):
    return [float(v) for v in re.findall(r"^epoch +\d+/\d+  loss ([0-9.]+)", text, re.M)]


def test_demo_trains_settles_and_checks_its_custom_layer():
    status, text = run()
    assert status == 0
    losses = epoch_losses(text)
    assert len(losses) == 40
    assert losses[-1] < 0.1 * losses[0]
    # Settles: once past the first quarter no epoch is more than 10% above the best so far.
    assert all(losses[i] <= 1.1 * min(losses[:i]) for i in range(10, len(losses))), losses
    assert "gradient check       Swish.backward against central differences: passed" in text


def test_the_accuracy_is_measured_on_held_out_points_and_labelled_so():
    _, text = run(epochs=40)
    every_epoch = re.findall(r"held-out accuracy ([0-9.]+)$", text, re.M)
    assert len(every_epoch) == 40
    held_out = re.search(r"^  held-out accuracy +([0-9.]+) on 300 points not used for "
                         r"training$", text, re.M)
    assert held_out and float(held_out[1]) >= 0.95
    assert re.search(r"^  training accuracy +[0-9.]+ on 600 points$", text, re.M)


def test_held_out_points_are_not_the_training_points():
    """Only the spirals' common centre, radius 0, is in both sets."""
    train, _ = demo.make_spirals(seed=3)
    held_out, _ = demo.make_spirals(100, seed=4)
    shared = held_out[(held_out[:, None, :] == train[None, :, :]).all(-1).any(1)]
    assert (shared == 0).all() and len(shared) == 3


def test_the_summary_ends_the_report():
    _, text = run(epochs=3)
    tail = text.splitlines()[-6:]
    assert tail[0] == "summary"
    assert [line.split()[0] for line in tail[1:]] == ["training", "training", "held-out",
                                                      "gradient", "time"]
    assert re.match(r"  training loss +[0-9.]+ -> [0-9.]+ \(", tail[1])


def test_the_rate_decays_from_start_to_end():
    rates = [demo._learning_rate(epoch, 40) for epoch in range(1, 41)]
    assert rates[0] == pytest.approx(0.01) and rates[-1] == pytest.approx(0.001)
    assert all(a > b for a, b in zip(rates, rates[1:]))


def test_the_seed_decides_everything():
    assert run(epochs=2, seed=5)[1].splitlines()[:3] == run(epochs=2, seed=5)[1].splitlines()[:3]
    assert epoch_losses(run(epochs=2, seed=5)[1]) != epoch_losses(run(epochs=2, seed=6)[1])


def test_swish_backward_matches_numbers():
    x = paddle.to_tensor([-2.0, 0.0, 1.5], dtype="float64", stop_gradient=False)
    assert paddle.autograd.gradcheck(demo.Swish.apply, x)
    assert paddle.autograd.gradgradcheck(demo.Swish.apply, x)


def test_spirals_are_the_per_class_spirals_drawn_in_order():
    x, y = demo.make_spirals(50, 3, seed=4)
    rng = np.random.default_rng(4)
    for k in range(3):
        radius = np.linspace(0.0, 1.0, 50)
        angle = np.linspace(4.0 * k, 4.0 * (k + 1), 50) + rng.normal(0.0, 0.2, 50)
        expected = np.stack([radius * np.sin(angle), radius * np.cos(angle)], 1)
        np.testing.assert_allclose(x[50 * k:50 * (k + 1)], expected, rtol=1e-6, atol=1e-7)
        assert (y[50 * k:50 * (k + 1)] == k).all()


def test_main_refuses_bad_settings_before_training():
    out = io.StringIO()
    with pytest.raises(ValueError, match=r"main\(\): argument 'batch_size' must be at most the "
                                         r"number of training points \(600\), got 601"):
        demo.main(epochs=1, batch_size=601, out=out)
    with pytest.raises(ValueError, match=r"main\(\): argument 'epochs' must be at least 1"):
        demo.main(epochs=0, out=out)
    with pytest.raises(ValueError, match=r"main\(\): argument 'seed' must be at least 0"):
        demo.main(epochs=1, seed=-1, out=out)
    with pytest.raises(TypeError, match=r"main\(\): argument 'out' must be a text stream"):
        demo.main(epochs=1, out=[])
    assert out.getvalue() == ""


def test_command_line_options():
    arguments = demo._parse_args(["--epochs", "3", "--seed", "7", "--batch-size", "64"])
    assert (arguments.epochs, arguments.seed, arguments.batch_size) == (3, 7, 64)
    defaults = demo._parse_args([])
    assert (defaults.epochs, defaults.seed, defaults.batch_size) == (40, 0, 32)


@pytest.mark.parametrize("argv, message", [
    (["--epochs", "0"], "argument --epochs: must be at least 1, got 0"),
    (["--seed", "-1"], "argument --seed: must be at least 0, got -1"),
    (["--epochs", "many"], "argument --epochs: must be a whole number, got 'many'"),
    (["--batch-size", "100000"], "argument --batch-size: must be at most 600, got 100000"),
    (["--batch-size", "601"], "argument --batch-size: must be at most 600, got 601"),
    (["--batch-size", "0"], "argument --batch-size: must be at least 1, got 0"),
    (["--epochs", str(2 ** 64)], f"argument --epochs: must be at most 1000, got {2 ** 64}"),
    (["--seed", str(2 ** 32)], f"argument --seed: must be at most {2 ** 32 - 1}, got {2 ** 32}"),
])
def test_command_line_refuses_bad_options(argv, message, capsys):
    with pytest.raises(SystemExit) as exit_info:
        demo._parse_args(argv)
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


def test_the_module_runs_as_a_program():
    helped = subprocess.run([sys.executable, "-m", "pylayer.demo", "--help"],
                            capture_output=True, text=True, timeout=60)
    assert helped.returncode == 0
    for option in ("--epochs", "--seed", "--batch-size"):
        assert option in helped.stdout
    ran = subprocess.run([sys.executable, "-m", "pylayer.demo", "--epochs", "2", "--seed", "1"],
                         capture_output=True, text=True, timeout=120)
    assert len(epoch_losses(ran.stdout)) == 2
    assert "held-out accuracy" in ran.stdout and ran.returncode in (0, 1)


def test_the_largest_accepted_seed_and_batch_run():
    """argparse's bounds are ones main() accepts: no traceback at the extremes."""
    arguments = demo._parse_args(["--epochs", "1", "--seed", str(2 ** 32 - 1),
                                  "--batch-size", "600"])
    status, text = run(epochs=arguments.epochs, seed=arguments.seed,
                       batch_size=arguments.batch_size)
    assert len(epoch_losses(text)) == 1 and status in (0, 1)


def test_an_oversized_batch_is_a_usage_error_not_a_traceback():
    ran = subprocess.run([sys.executable, "-m", "pylayer.demo", "--batch-size", "100000"],
                         capture_output=True, text=True, timeout=60)
    assert ran.returncode == 2
    assert "Traceback" not in ran.stderr
    assert "argument --batch-size: must be at most 600, got 100000" in ran.stderr


def test_the_batch_bound_is_the_training_set_size():
    assert len(demo.make_spirals()[1]) == demo.TRAINING_POINTS
