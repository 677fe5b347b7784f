"""Every module setup.py compiles has its measured reason on the architecture page.

The page (docs/{en,zh}/contributing/architecture.rst) lists each compiled module as a
bullet that names its file and says what was measured; a module that becomes plain
Python loses its bullet, and a newly compiled one needs one (issue 32).
"""
import ast
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
MEASURED = {"en": "measured:", "zh": "实测："}


def compiled_modules():
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "MODULES" for t in node.targets):
            return ast.literal_eval(node.value)
    raise AssertionError("setup.py has no MODULES list")


def module_bullets(lang):
    """{file named by a bullet: the bullet's text} for bullets that start with a .pyx file."""
    text = (ROOT / "docs" / lang / "contributing" / "architecture.rst").read_text(encoding="utf-8")
    bullets = {}
    for match in re.finditer(r"^\* ``([\w/]+\.pyx)``(.*?)(?=^\* |^\S|\Z)", text, re.M | re.S):
        bullets[match.group(1)] = match.group(2)
    return bullets


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_each_compiled_module_has_one_measured_reason(lang):
    bullets = module_bullets(lang)
    modules = compiled_modules()
    missing = [m for m in modules if m not in bullets]
    assert not missing, (f"docs/{lang}/contributing/architecture.rst: no 'compiled because' "
                         f"bullet (* ``<file>``: ... ({MEASURED[lang]} ...)) for {missing}")
    unmeasured = [m for m in modules if MEASURED[lang] not in bullets[m]]
    assert not unmeasured, f"docs/{lang}: the bullets of {unmeasured} give no measurement"
    stale = sorted(set(bullets) - set(modules))
    assert not stale, f"docs/{lang}: bullets for modules setup.py no longer compiles: {stale}"
