"""The two HTML sites, built once per test session for the ``built_html`` tests,
served over loopback, and the browser the browser tests drive."""
import functools
import http.server
import subprocess
import sys
import threading

import pytest

from browser import QuietHandler, start_chromium
from docs_source import DOCS, LANGUAGES


def pytest_collection_modifyitems(items):
    """Every test that needs the built sites (the Sphinx builds, and the browser on
    them) is in the slow tier."""
    for item in items:
        if "sites" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.slow)


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


@pytest.fixture(scope="session")
def server(sites):
    """The root URL under which ``en/_build/html`` and ``zh/_build/html`` are served."""
    for lang, (_, returncode, output) in sites.items():
        assert returncode == 0, f"docs/{lang} did not build:\n{output}"
    root = sites["en"][0].parents[2]
    handler = functools.partial(QuietHandler, directory=str(root))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="module")
def driver():
    """A headless Chromium for one test module (skipped, or failed where
    PYLAYER_REQUIRE_BROWSER is set, when it is not installed)."""
    chrome = start_chromium()
    yield chrome
    chrome.quit()
