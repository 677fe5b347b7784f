"""Helpers of the browser tests: finding headless Chromium, serving the built
sites over loopback, waiting for a page, and reading its console."""
import http.server
import os
import shutil
import time
import urllib.parse

import pytest

WAIT = 30
# Set by .ci/run: there a missing browser fails the browser tests instead of skipping them.
REQUIRE_BROWSER = "PYLAYER_REQUIRE_BROWSER"


def unavailable(reason):
    """Skip a browser test, with ``reason``; fail it instead where the browser is required."""
    if os.environ.get(REQUIRE_BROWSER, "") not in ("", "0"):
        pytest.fail(f"{reason}; {REQUIRE_BROWSER} is set, so the browser tests must run",
                    pytrace=False)
    pytest.skip(reason)


def chromium_paths():
    browser = next(filter(None, map(shutil.which, ("chromium", "chromium-browser",
                                                   "google-chrome"))), None)
    return browser, shutil.which("chromedriver")


def start_chromium():
    """A headless Chromium driven through selenium, 1440 x 900, its console logged."""
    browser, chromedriver = chromium_paths()
    if browser is None or chromedriver is None:
        unavailable("headless Chromium is not installed (apt-get install chromium "
                    "chromium-driver); .ci/run installs it")
    try:
        from selenium import webdriver
    except ImportError:
        unavailable("selenium is not installed; it comes with the test extra: "
                    "pip install '.[test]'")
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu",
                     "--disable-dev-shm-usage", "--window-size=1440,900"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(options=options,
                            service=webdriver.ChromeService(executable_path=chromedriver))


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def url(server, lang, page, anchor=""):
    return f"{server}/{lang}/_build/html/{page}" + (f"#{anchor}" if anchor else "")


def wait_until(driver, condition, message):
    from selenium.webdriver.support.ui import WebDriverWait
    return WebDriverWait(driver, WAIT).until(lambda _: condition(), message=message)


def errors_logged(driver):
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def settled_results(driver):
    """A wait condition: the search results, once some are shown and their
    number has not changed for half a second (Sphinx adds them one by one)."""
    from selenium.webdriver.common.by import By
    seen = {"count": 0, "since": time.monotonic()}

    def condition():
        results = driver.find_elements(By.CSS_SELECTOR, "#search-results ul.search li")
        if len(results) != seen["count"]:
            seen.update(count=len(results), since=time.monotonic())
        return results if results and time.monotonic() - seen["since"] > 0.5 else None
    return condition


def search(driver, server, lang, query):
    """The result links (page paths with their #anchors) of searching ``query``
    on the search page, in the order shown, and the summary line above them."""
    from selenium.webdriver.common.by import By
    driver.get(url(server, lang, "search.html") + "?q=" + urllib.parse.quote(query))
    results = wait_until(driver, settled_results(driver), f"{lang}: {query!r} found nothing")
    links = [item.find_element(By.TAG_NAME, "a").get_attribute("href").split("/_build/html/")[1]
             for item in results]
    wait_until(driver, lambda: driver.find_element(By.CSS_SELECTOR, "p.search-summary").text,
               "the search page wrote no summary")
    return links, driver.find_element(By.CSS_SELECTOR, "p.search-summary").text


def copy_with_the_button(driver, server, lang, page, section):
    """Click the copy button of the first example of ``section`` and return the
    button and the text it put on the clipboard."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    driver.execute_cdp_cmd("Browser.grantPermissions", {
        "origin": server, "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
    driver.get(url(server, lang, page, section))
    block = driver.find_element(By.CSS_SELECTOR, f"#{section} div.highlight")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", block)
    button = block.find_element(By.CSS_SELECTOR, "button.copybtn")

    def copied_by_a_click():  # the button shows on hover; click again if the first missed
        ActionChains(driver).move_to_element(block).click(button).perform()
        time.sleep(0.2)
        return "success" in button.get_attribute("class")
    wait_until(driver, copied_by_a_click, "the copy button did not report a copy")
    return button, driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "navigator.clipboard.readText().then(done, error => done('error: ' + error));")
