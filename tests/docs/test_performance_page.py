"""The performance page's results are generated from benchmarks/results/latest.json,
once per language: the committed files are what that run renders, every sentence
quotes the run's own numbers, every missed target is explained, and the Chinese
results are in Chinese."""
import copy
import importlib.util
import json
import re

import pytest

from docs_source import DOCS, LANGUAGES, ROOT

SCRIPT = DOCS / "_shared" / "performance" / "update.py"


@pytest.fixture(scope="module")
def update():
    spec = importlib.util.spec_from_file_location("performance_update", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def result():
    return json.loads((ROOT / "benchmarks" / "results" / "latest.json").read_text())


@pytest.mark.parametrize("lang", LANGUAGES)
def test_committed_results_are_what_the_run_renders(update, result, lang):
    text, charts = update.render(result, lang)
    folder = SCRIPT.parent / lang
    assert (folder / "results.rst").read_text(encoding="utf-8") == text, \
        "run python docs/_shared/performance/update.py"
    assert sorted(p.name for p in folder.glob("workload-*.svg")) == sorted(charts)
    for name, svg in charts.items():
        assert (folder / name).read_text(encoding="utf-8") == svg


@pytest.mark.parametrize("lang", LANGUAGES)
def test_sentences_quote_the_runs_medians(update, result, lang):
    text, charts = update.render(result, lang)
    assert len(charts) == len(result["workloads"])
    for workload in result["workloads"].values():
        for entries in workload["cases"].values():
            for lib, entry in entries.items():
                if entry["status"] == "ok":
                    assert f"{lib} " in text or f"{lib}:" in text or f"{lib}：" in text
                    assert update.number(entry["median"]) in text


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("workload", ["3", "6"])
def test_a_missed_target_is_explained(update, result, lang, workload):
    # The recorded run's own misses, and a miss of each workload that has an
    # explanation (a run that meets every target renders none).
    changed = copy.deepcopy(result)
    for target in changed["targets"]:
        if target["workload"] == workload:
            target["status"] = "MISS"
    text, _ = update.render(changed, lang)
    for target in changed["targets"]:
        if target["status"] == "MISS":
            assert update.MISS_EXPLANATIONS[target["workload"]][lang].split("{")[0][:40] in text


def test_a_missed_target_without_an_explanation_stops_the_script(update, result):
    changed = copy.deepcopy(result)
    changed["targets"][0]["status"] = "MISS"
    with pytest.raises(SystemExit, match="no explanation for workload 1"):
        update.render(changed, "en")


def test_the_chinese_results_are_chinese(update, result):
    text, charts = update.render(result, "zh")
    for english in ("Run of", "Not measured", "PASS", "MISS", "Median", "us/op", "worker killed"):
        assert english not in text + "".join(charts.values()), english
    assert re.search(r"微秒/算子", "".join(charts.values()))
