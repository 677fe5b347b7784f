"""Two test tiers: ``python -m pytest`` (the README's command) runs the fast one, the
tests marked ``slow`` run with ``-m slow``, and CI (.ci/run) runs both, the fast tier
on every further supported CPython too."""
import json
import os
import pathlib
import re
import subprocess
import sys
import tomllib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
CI_SCRIPT = (ROOT / ".ci" / "run").read_text()
README_COMMAND = "python -m pytest -q -p no:cacheprovider\n"


def pytest_settings():
    with open(ROOT / "pyproject.toml", "rb") as f:
        return tomllib.load(f)["tool"]["pytest"]["ini_options"]


def test_the_slow_marker_is_registered_and_deselected_by_default():
    settings = pytest_settings()
    assert any(marker.startswith("slow:") for marker in settings["markers"])
    assert "-m 'not slow'" in settings["addopts"]
    assert "--strict-markers" in settings["addopts"], "a misspelt marker must be an error"


def test_ci_runs_the_fast_tier_then_the_slow_tier_with_the_browser_required():
    fast = CI_SCRIPT.index(README_COMMAND)
    slow = CI_SCRIPT.index("run_pytest -m slow\n")
    assert CI_SCRIPT.index("export PYLAYER_REQUIRE_BROWSER=1") < fast < slow


def test_ci_runs_the_fast_tier_on_every_further_supported_python():
    loop = re.search(r"for version in ([\d. ]+); do\n(.*?\n)done\n", CI_SCRIPT, re.S)
    assert loop and loop.group(1).split() == ["3.12", "3.13"]
    body = loop.group(2)
    assert 'pip install --quiet ".[test]"' in body and README_COMMAND in body
    assert "exit 1" in body, "a missing interpreter fails CI"


def test_ci_runs_the_fast_tier_in_the_debug_build_and_both_tiers_under_the_sanitizer():
    debug = CI_SCRIPT.index("PYLAYER_CYTHON_DEBUG=1")
    asan = CI_SCRIPT.index("PYLAYER_SANITIZE=address")
    assert debug < CI_SCRIPT.index("python -m pytest -q -p no:cacheprovider -x\n", debug) < asan
    assert 'run_pytest -x -m "slow or not slow" tests/reliability' in CI_SCRIPT[asan:]


@pytest.mark.parametrize("status,survives", [(0, True), (5, True), (1, False), (2, False)])
def test_ci_takes_no_test_selected_for_a_pass_and_any_other_error_for_a_failure(
        tmp_path, status, survives):
    function = re.search(r"^run_pytest\(\) \{\n.*?^\}\n", CI_SCRIPT, re.S | re.M).group(0)
    fake = tmp_path / "python"
    fake.write_text(f"#!/bin/sh\nexit {status}\n")
    fake.chmod(0o755)
    done = subprocess.run(["bash", "-c", f"set -euo pipefail\n{function}run_pytest -m slow\n"
                           "echo survived"], capture_output=True, text=True, timeout=60,
                          env={"PATH": f"{tmp_path}:/usr/bin:/bin"})
    assert ("survived" in done.stdout) is survives
    assert done.returncode == (0 if survives else status)


TIER_PLUGIN = """
import json, os

def pytest_collection_finish(session):
    with open(os.environ["TIERS_OUT"], "w") as out:
        json.dump({item.nodeid: item.get_closest_marker("slow") is not None
                   for item in session.items}, out)
"""


def tiers(tmp_path, *paths):
    """``{test id: marked slow}`` for the tests of ``paths``, from one collection."""
    (tmp_path / "tier_plugin.py").write_text(TIER_PLUGIN)
    out = tmp_path / "tiers.json"
    environment = dict(os.environ, TIERS_OUT=str(out), PYTHONPATH=os.pathsep.join(
        filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")])))
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "-p", "tier_plugin", "--collect-only", "-m", "slow or not slow",
                           *paths], cwd=ROOT, env=environment, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads(out.read_text())


def test_the_heavy_families_are_in_the_slow_tier_with_a_fast_representative(tmp_path):
    marked = tiers(tmp_path, "tests/reliability/test_internal_surface.py",
                   "tests/autograd/test_opcheck_corpus.py", "tests/reliability/test_memory.py",
                   "tests/reliability/test_round3_trust.py", "tests/docs/test_browser.py",
                   "tests/docs/test_links.py")
    slow = {test for test, is_slow in marked.items() if is_slow}
    fast = set(marked) - slow
    for family in ("test_hostile_use_of_the_internal_surface_never_crashes[",
                   "test_opcheck_corpus.py::", "test_five_thousand_training_steps",
                   "test_search_finds_results_built_html[",
                   "test_site_builds_without_warnings_built_html["):
        assert any(family in test for test in slow), family
        assert not any(family in test for test in fast), family
    chains = "test_freeing_a_long_chain_does_not_overflow_the_c_stack["
    assert {test for test in fast if chains in test} == {
        f"tests/reliability/test_round3_trust.py::{chains}graph]"}
    assert sum(chains in test for test in slow) >= 5
    assert "tests/reliability/test_internal_surface.py::" \
           "test_the_sweep_sees_every_compiled_module" in fast


@pytest.mark.parametrize("page", ["README.md", "docs/en/contributing/architecture.rst",
                                  "docs/zh/contributing/architecture.rst"])
def test_the_tiers_are_documented(page):
    text = (ROOT / page).read_text(encoding="utf-8")
    assert "-m slow" in text and '-m "slow or not slow"' in text
