"""The migration guide says what changes on each route, and lists the deliberate
divergences from Paddle in a table, with the reason, in both languages."""
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def section(lang, label):
    text = (ROOT / "docs" / lang / "guides" / "migration.rst").read_text(encoding="utf-8")
    start = text.index(f".. _{label}:")
    end = text.find("\n.. _guide-migration-", start + 1)
    return text[start:end]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_three_routes_are_given(lang):
    routes = section(lang, "guide-migration-from-paddle")
    for route in ("python -m pylayer run train.py", "python -m pylayer run -m pytest",
                  "pylayer.install_as_paddle()", "import pylayer as paddle",
                  "import pylayer.nn.functional as F", "ModuleNotFoundError"):
        assert route in routes, f"docs/{lang}: the Paddle routes do not mention {route!r}"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_divergences_are_a_table_with_paddles_behaviour_and_the_reason(lang):
    table = section(lang, "guide-migration-where-pylayer-differs-from-paddle")
    assert ".. list-table::" in table
    rows = table.split("   * - ")[2:]          # after the header row
    assert all(row.count("\n     - ") == 2 for row in rows), "every row: case, Paddle, pylayer"
    for case, paddle, pylayer in [("PyLayer", "OSError", "NotImplementedError"),
                                  ("FLAGS_retain_grad_for_all_tensor", "ValueError", "retain_grads"),
                                  ("grad_outputs", "", "ValueError"),
                                  ("load", "", "UnpicklingError"),
                                  ("minimize", "", "RuntimeWarning")]:
        assert any(case in row and paddle in row and pylayer in row for row in rows), \
            f"docs/{lang}: no row for {case}"


def test_the_readme_gives_the_three_routes():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for route in ("python -m pylayer run", "pylayer.install_as_paddle()",
                  "import pylayer as paddle"):
        assert route in readme
