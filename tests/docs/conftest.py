"""The two HTML sites, built once per test session for the ``built_html`` tests."""
import subprocess
import sys

import pytest

from docs_source import DOCS, LANGUAGES


@pytest.fixture(scope="session")
def sites(tmp_path_factory):
    """``{lang: (output directory, sphinx-build's return code, its output)}``.

    Both sites are built in parallel into a temporary directory laid out like
    the real builds (``<dir>/en/_build/html`` and ``<dir>/zh/_build/html``, so
    that the language links between them work), with the command .ci/run uses.
    """
    root = tmp_path_factory.mktemp("docs")
    builds = {}
    for lang in LANGUAGES:
        out = root / lang / "_build" / "html"
        command = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
                   str(DOCS / lang), str(out)]
        builds[lang] = (out, subprocess.Popen(command, stdout=subprocess.PIPE,
                                              stderr=subprocess.PIPE, text=True))
    results = {}
    for lang, (out, process) in builds.items():
        stdout, stderr = process.communicate(timeout=600)
        results[lang] = (out, process.returncode, stdout + stderr)
    return results
