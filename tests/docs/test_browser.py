"""The two sites in a real browser (headless Chromium through selenium).

Both built sites are served over loopback, as a reader's web server would.
In each language: a search typed into the sidebar finds results, the
language switch lands on the same page and section, the copy button copies
an example without its prompts, examples do not scroll sideways, and no
page logs a JavaScript error. Skipped, with the reason, when Chromium or its
driver is not installed, except where PYLAYER_REQUIRE_BROWSER is set (.ci/run
installs them and sets it), where that fails instead. Every test name holds
``built_html`` so that ``-k built_html`` selects them.
"""
import pytest

from browser import (copy_with_the_button, errors_logged, settled_results, url,
                     wait_until)
from docs_source import LANGUAGES

# A word of each language that several pages use, and a page that must be among the results.
SEARCHES = {"en": ("context", "api/pylayer.html"), "zh": ("上下文", "api/pylayer.html")}
# Pages and sections the language switch is tried on.
SECTIONS = [("api/pylayer.html", "api-pylayer-context"),
            ("guides/custom_operators.html", "guide-custom-operators-higher-order-gradients"),
            ("getting_started.html", "getting-started-training")]
PAGES = ["index.html", "getting_started.html", "api/pylayer.html", "api/py_func.html",
         "guides/performance.html", "contributing/documentation.html"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_search_finds_results_built_html(driver, server, lang):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    word, expected_page = SEARCHES[lang]
    driver.get(url(server, lang, "index.html"))
    box = driver.find_element(By.CSS_SELECTOR, "input.sidebar-search")
    box.send_keys(word, Keys.ENTER)
    wait_until(driver, lambda: "search.html" in driver.current_url, "the search page did not open")
    results = wait_until(driver, settled_results(driver),
                         f"{lang}: searching for {word!r} found nothing")
    links = [item.find_element(By.TAG_NAME, "a").get_attribute("href") for item in results]
    assert any(link.split("?")[0].endswith(expected_page) for link in links), \
        f"{lang}: {expected_page} is not among the results for {word!r}: {links}"
    assert errors_logged(driver) == []


@pytest.mark.parametrize("page, anchor", SECTIONS)
@pytest.mark.parametrize("lang, other", [("en", "zh"), ("zh", "en")])
def test_language_switch_keeps_page_and_section_built_html(driver, server, lang, other, page,
                                                            anchor):
    from selenium.webdriver.common.by import By
    driver.get(url(server, lang, page, anchor))
    driver.find_element(By.CSS_SELECTOR, "a.language-link").click()
    wait_until(driver, lambda: f"/{other}/" in driver.current_url,
               "the language switch did not open the other site")
    assert driver.current_url == url(server, other, page, anchor)
    assert driver.find_elements(By.ID, anchor), f"{other}/{page} has no section #{anchor}"
    assert driver.execute_script("return document.documentElement.lang").startswith(other)
    assert errors_logged(driver) == []


@pytest.mark.parametrize("lang, other", [("en", "zh"), ("zh", "en")])
def test_language_switch_keeps_the_section_being_read_built_html(driver, server, lang, other):
    """Without an #anchor in the URL, the section the table of contents marks as
    being read after scrolling is the one the other language opens at."""
    from selenium.webdriver.common.by import By
    page, anchor = "api/pylayer.html", "api-pylayer-context"
    driver.get(url(server, lang, page))
    driver.execute_script("document.getElementById(arguments[0]).scrollIntoView()", anchor)
    wait_until(driver, lambda: driver.find_elements(
        By.CSS_SELECTOR, f'.toc-tree li.scroll-current > a[href="#{anchor}"]'),
        "the table of contents did not mark the section scrolled to")
    driver.find_element(By.CSS_SELECTOR, "a.language-link").click()
    wait_until(driver, lambda: f"/{other}/" in driver.current_url,
               "the language switch did not open the other site")
    assert driver.current_url == url(server, other, page, anchor)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_copy_button_copies_code_without_prompts_built_html(driver, server, lang):
    _, copied = copy_with_the_button(driver, server, lang, "index.html", "home-quick-start")
    lines = copied.splitlines()
    assert lines[:2] == ["import pylayer as paddle", "from pylayer.autograd import PyLayer"], copied
    assert not any(line.startswith((">>>", "...")) for line in lines), copied
    assert "True" not in lines and "[1.     0.7864 0.42  ]" not in lines, \
        f"the output lines were copied too:\n{copied}"
    assert "    @staticmethod" in lines


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_pages_load_without_errors_or_sideways_scrolling_built_html(driver, server, lang, page):
    driver.get(url(server, lang, page))
    wide = driver.execute_script(
        "return Array.from(document.querySelectorAll('article pre'))"
        ".filter(pre => pre.scrollWidth > pre.clientWidth + 1)"
        ".map(pre => pre.textContent.slice(0, 60));")
    assert wide == [], f"{lang}/{page}: examples that scroll sideways: {wide}"
    assert errors_logged(driver) == [], f"{lang}/{page} logged JavaScript errors"
