"""opcheck has no false positive on the PyLayers of the docs, the demo and the test suite.

The PyLayers are collected by running those tests and doc examples in a pytest
run of their own, with the ``_opcheck_corpus`` plugin: the first call of each
PyLayer class that could be checked is run through opcheck with the arguments
the test gave it (see the plugin). Every layer passes every check, except the
ones listed in ``DELIBERATELY_BROKEN``: layers written to break a rule, or to
probe pylayer's machinery with a backward that is not a derivative. Each entry
says why, and must be flagged by exactly the checks it lists, so the table
cannot go stale.

Not collected: ``tests/reliability`` (fuzzed and hostile layers, whose tests
take about 20 s), the benchmark smoke test, the docs' own tests, and the
opcheck tests (their broken layers are checked one by one there). The demo's
layer (``pylayer.demo.Swish``) is collected through the docstring examples.
"""
import json
import os
import pathlib
import subprocess
import sys

import pytest

# Runs a pytest session over the docs and the tests: the slow tier.
pytestmark = pytest.mark.slow

ROOT = pathlib.Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"

NOT_A_DERIVATIVE = "its backward returns marker values to show how gradients are wired, " \
                   "not the derivative"
SHOWS_AN_ERROR = "its backward is wrong on purpose, to show the error pylayer gives"
PROBES_INPUTS = "its backward asserts that it receives exactly the gradients its test sends"

# key -> (the checks that flag it, why the layer breaks them on purpose)
DELIBERATELY_BROKEN = {
    "docs/en/guides/train_a_model.rst::ClipGrad": (
        {"gradient"}, "training guide: clips the gradient on purpose (a custom gradient, not "
                      "the derivative)"),
    "tests/jit/test_jit.py::Doubled": (
        {"gradient"}, "to_static keeps a PyLayer's own backward: it is deliberately not the "
                      "forward's derivative, so that the test can tell them apart"),
    "docs/en/api/autograd.rst::Bad": (
        {"gradient"}, "detect_anomaly example: its backward returns NaN"),
    "docs/en/api/pylayer.rst::Passthrough": (
        {"gradient"}, "mark_not_inplace example: backward doubles the gradient of an identity"),
    "docs/en/api/pylayer.rst::ScaleBy": (
        {"gradient"}, "backward example: returns None for factor, which needs a gradient, to "
                      "show that None means no gradient"),
    "docs/en/api/pylayer.rst::Two": (
        {"gradient", "missing output gradients"},
        "set_materialize_grads example: backward ignores the None second gradient"),
    "docs/en/guides/custom_operators.rst::ScaleGrad": (
        {"gradient"}, "scales the gradient on purpose (a custom gradient, not the derivative)"),
    "docs/en/guides/custom_operators.rst::Unstable": (
        {"gradient"}, "detect_anomaly example: the gradient of sqrt at 0 is NaN"),
    "docs/en/guides/custom_operators.rst::WrongTanh": (
        {"gradient"}, "gradcheck example: a wrong derivative"),
    "docs/en/guides/migration.rst::Scale": (
        {"gradient contract"}, "migration example: returns PyTorch's extra None, which pylayer "
                               "refuses (the fixed Scale follows and passes)"),
    "tests/api/test_docstrings.py[pylayer.autograd.PyLayerContext]::Passthrough": (
        {"gradient"}, "mark_not_inplace docstring: backward doubles the gradient of an identity"),
    "tests/api/test_docstrings.py[pylayer.autograd.PyLayerContext]::Two": (
        {"gradient", "missing output gradients"},
        "set_materialize_grads docstring: backward ignores the None second gradient"),
    "tests/api/test_docstrings.py[pylayer.autograd.detect_anomaly]::Bad": (
        {"gradient"}, "detect_anomaly docstring: its backward returns NaN"),
    "tests/autograd/test_anomaly.py::FailingBackward": (
        {"gradient"}, "its backward raises, to test the anomaly traceback"),
    "tests/autograd/test_anomaly.py::NanBackward": (
        {"gradient"}, "its backward returns NaN, to test detect_anomaly"),
    "tests/autograd/test_autograd_doctests.py[pylayer.autograd.anomaly]::Bad": (
        {"gradient"}, "detect_anomaly docstring: its backward returns NaN"),
    "tests/autograd/test_autograd_doctests.py[pylayer.autograd.py_layer]::Passthrough": (
        {"gradient"}, "mark_not_inplace docstring: backward doubles the gradient of an identity"),
    "tests/autograd/test_autograd_doctests.py[pylayer.autograd.py_layer]::Two": (
        {"gradient", "missing output gradients"},
        "set_materialize_grads docstring: backward ignores the None second gradient"),
    "tests/autograd/test_context.py::test_the_last_save_for_backward_call_wins.<locals>.Twice": (
        {"gradient"}, NOT_A_DERIVATIVE),
    "tests/autograd/test_once_differentiable.py::PairOnce": ({"gradient"}, NOT_A_DERIVATIVE),
    "tests/autograd/test_py_layer.py::AddOneInPlace": (
        {"gradient", "inputs left unchanged"},
        "adds one to its input in place, to test in-place outputs; " + NOT_A_DERIVATIVE),
    "tests/autograd/test_py_layer.py::Pair": (
        {"gradient contract"}, "its backward returns what each test asks, to test the "
                               "gradient-count errors"),
    "tests/autograd/test_py_layer.py::Probe": ({"gradient"}, NOT_A_DERIVATIVE),
    "tests/autograd/test_py_layer.py::TwoOut": (
        {"gradient"}, "its backward ignores the second output, to test what it receives"),
    "tests/autograd/test_py_layer.py::test_a_list_or_tuple_holding_tensors_is_one_slot_whose_"
    "gradient_is_a_list.<locals>.SumList": ({"gradient"}, NOT_A_DERIVATIVE),
    "tests/autograd/test_py_layer.py::test_forward_runs_with_recording_off_and_its_errors_"
    "propagate_unchanged.<locals>.Inside": ({"gradient"}, NOT_A_DERIVATIVE),
    "tests/autograd/test_py_layer.py::test_gradcheck_reports_the_input_and_element_of_a_wrong_"
    "backward.<locals>.Wrong": ({"gradient"}, "a wrong backward, to test gradcheck's message"),
    "tests/autograd/test_py_layer.py::test_keyword_tensors_are_slots_in_the_order_the_caller_"
    "passed_them.<locals>.AB": ({"gradient"}, NOT_A_DERIVATIVE),
    "tests/autograd/test_py_layer.py::test_mark_not_inplace_gives_a_new_connected_tensor_and_"
    "keeps_the_input_as_it_was.<locals>.Pass": ({"gradient"}, NOT_A_DERIVATIVE),
    "tests/autograd/test_py_layer.py::test_missing_forward_or_backward_is_not_implemented."
    "<locals>.NoBackward": ({"gradient"}, "has no backward, to test the error"),
    "tests/autograd/test_py_layer.py::test_no_node_when_no_input_needs_a_gradient_or_recording_"
    "is_off.<locals>.Count": (
        {"gradient contract"}, "returns a gradient for an input that needs none: its test "
                               "checks that backward is never called"),
    "tests/autograd/test_py_layer.py::test_the_same_output_twice_gives_two_connected_tensors."
    "<locals>.Twice": ({"gradient"}, NOT_A_DERIVATIVE),
    "tests/autograd/test_pylayer_drivers.py::FakeQuant": (
        {"gradient"}, "a straight-through estimator: the gradient is 1 where rounding has "
                      "derivative 0, on purpose"),
    "tests/autograd/test_pylayer_drivers.py::GradientReversal": (
        {"gradient"}, "gradient reversal: the gradient is -coeff times the derivative, on "
                      "purpose"),
    "tests/autograd/test_pylayer_gradients_reaching.py::Drop": (
        {"gradient"}, "its backward returns None, to test that no gradient arrives"),
    "tests/autograd/test_pylayer_gradients_reaching.py::Returns": (
        {"gradient", "gradient contract"}, "returns gradients of other shapes, to test the "
                                           "lenient shape rule; " + NOT_A_DERIVATIVE),
    "tests/autograd/test_pylayer_gradients_reaching.py::test_reshaped_gradients_pass_gradcheck_"
    "and_gradgradcheck.<locals>.Quantize": (
        {"gradient", "gradient contract"}, "a straight-through estimator that returns a 0-D "
                                           "gradient for a [1] input, to test the lenient shape "
                                           "rule"),
    "tests/autograd/test_pylayer_gradients_reaching.py::test_reshaped_gradients_pass_gradcheck_"
    "and_gradgradcheck.<locals>.Square": (
        {"gradient contract"}, "returns a 0-D gradient for a [1] input, to test the lenient "
                               "shape rule"),
    "tests/autograd/test_pylayer_gradients_reaching.py::test_without_materialized_grads_the_"
    "upstream_pylayer_gets_none.<locals>.Up": (
        {"gradient", "missing output gradients"}, "its backward returns None when it gets "
                                                  "None, to test materialization"),
    "tests/autograd/test_saved_hooks.py::test_save_for_backward_uses_the_hooks_active_where_it_"
    "was_called.<locals>.InnerBlock": (
        {"gradient", "saved tensors"}, "packs under its own hooks and returns their marker "
                                       "values, to test which hooks apply"),
    "tests/core/test_engine.py::_Returns": ({"gradient"}, NOT_A_DERIVATIVE),
    "tests/seeds/test_seed_000_001_pylayercontext.py::example_mark_non_differentiable.<locals>."
    "Tanh": ({"gradient"}, PROBES_INPUTS),
    "tests/seeds/test_seed_000_001_pylayercontext.py::example_mark_not_inplace.<locals>.Exp": (
        {"gradient"}, "Paddle's example: backward returns exp(gradient) for an identity"),
    "tests/seeds/test_seed_000_001_pylayercontext.py::example_set_materialize_grads.<locals>."
    "Tanh": ({"gradient"}, PROBES_INPUTS),
    "tests/seeds/test_seed_000_001_pylayercontext.py::example_set_materialize_grads.<locals>."
    "Tanh2": ({"gradient"}, PROBES_INPUTS),
    "tests/seeds/test_seed_003_saved_tensors_hooks.py::test_example2_pylayer.<locals>."
    "cus_multiply": (
        {"gradient"}, "Paddle's own example has swapped gradients (dy * a for a); the test "
                      "reproduces it"),
}


def corpus_paths():
    """The doc pages, the README, the docstring examples and every test file that uses
    PyLayer, except those named in the module docstring."""
    skipped = ("tests/reliability/", "tests/docs/", "tests/test_benchmarks_smoke.py",
               "tests/autograd/test_opcheck")
    tests = sorted(str(path.relative_to(ROOT)) for path in TESTS.rglob("test_*.py")
                   if "PyLayer" in path.read_text(encoding="utf-8"))
    return ["docs/en", "README.md", "tests/api/test_docstrings.py"] + \
        [path for path in tests if not path.startswith(skipped)]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    out = tmp_path_factory.mktemp("opcheck") / "corpus.json"
    environment = dict(os.environ, OPCHECK_CORPUS_OUT=str(out),
                       PYTHONPATH=os.pathsep.join(filter(None, [
                           str(TESTS / "autograd"), os.environ.get("PYTHONPATH")])))
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "-m", "slow or not slow", "-p", "_opcheck_corpus", *corpus_paths()],
                          cwd=ROOT, env=environment, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return json.loads(out.read_text(encoding="utf-8"))


def test_the_corpus_holds_the_layers_of_the_docs_the_demo_and_the_tests(corpus):
    assert len(corpus) >= 140
    sources = {key.split("::")[0].split("[")[0] for key in corpus}
    assert {"README.md", "docs/en/index.rst", "docs/en/getting_started.rst",
            "docs/en/guides/custom_operators.rst", "docs/en/api/pylayer.rst",
            "tests/autograd/test_py_layer.py", "tests/seeds/test_seed_002_pylayer.py"} <= sources
    assert any(key.startswith("tests/api/test_docstrings.py[pylayer.demo.")
               and key.endswith("::Swish") for key in corpus)


def test_no_false_positive_on_the_correct_layers(corpus):
    wrong = {key: outcome.get("error") or outcome["report"] for key, outcome in corpus.items()
             if key not in DELIBERATELY_BROKEN and (outcome.get("error") or outcome["failures"])}
    assert not wrong, "\n\n".join(f"{key}\n{text}" for key, text in wrong.items())


def test_the_deliberately_broken_layers_are_flagged_by_exactly_their_checks(corpus):
    missing = sorted(set(DELIBERATELY_BROKEN) - set(corpus))
    assert not missing, f"no longer in the corpus (remove them from the table): {missing}"
    wrong = {key: (sorted(corpus[key].get("failures", [])), sorted(checks))
             for key, (checks, _) in DELIBERATELY_BROKEN.items()
             if set(corpus[key].get("failures", [])) != checks}
    assert not wrong, f"flagged by other checks than the table says (got, table): {wrong}"
