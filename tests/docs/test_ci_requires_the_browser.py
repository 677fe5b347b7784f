"""A green CI run means both sites were checked in a browser: .ci/run installs
Chromium or fails, and sets PYLAYER_REQUIRE_BROWSER, which turns the browser
tests' skip into a failure."""
import pathlib

import pytest

import browser

CI_SCRIPT = pathlib.Path(__file__).resolve().parents[2] / ".ci" / "run"


def test_a_missing_browser_skips_outside_ci(monkeypatch):
    monkeypatch.delenv(browser.REQUIRE_BROWSER, raising=False)
    with pytest.raises(pytest.skip.Exception, match="no Chromium here"):
        browser.unavailable("no Chromium here")


def test_a_missing_browser_fails_where_it_is_required(monkeypatch):
    monkeypatch.setenv(browser.REQUIRE_BROWSER, "1")
    with pytest.raises(pytest.fail.Exception, match="no Chromium here; PYLAYER_REQUIRE_BROWSER"):
        browser.unavailable("no Chromium here")


def test_ci_requires_the_browser_before_any_test_runs():
    script = CI_SCRIPT.read_text()
    required = script.index(f"export {browser.REQUIRE_BROWSER}=1")
    assert required < script.index("python -m pytest")
    install = script[:required]
    assert "apt-get install -y -qq chromium chromium-driver" in install
    assert "exit 1" in install and "skipped" not in script
