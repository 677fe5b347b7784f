"""Searching the sites in headless Chromium: a Chinese query is split the way
the index was split, a search finds the page about it first, and the language
switch keeps the query. Every test name holds ``built_html``."""
import re

import pytest

from browser import errors_logged, search, url, wait_until

CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.mark.parametrize("joined, spaced", [("自定义算子", "自定义 算子"),
                                            ("梯度检查", "梯度 检查"),
                                            ("暂存张量", "暂存 张量")])
def test_a_chinese_query_is_split_like_the_index_built_html(driver, server, joined, spaced):
    """Written without a space, a query finds what its words find."""
    found_joined, _ = search(driver, server, "zh", joined)
    found_spaced, _ = search(driver, server, "zh", spaced)
    assert set(found_joined) >= set(found_spaced), (joined, found_joined, found_spaced)
    assert errors_logged(driver) == []


# The two guides about custom operators: writing one, and checking one.
GUIDES = ("guides/custom_operators.html", "guides/checking_custom_operators.html")


def test_the_custom_operator_guide_comes_first_in_chinese_built_html(driver, server):
    found, summary = search(driver, server, "zh", "自定义算子")
    assert found[0] in GUIDES, found
    assert CJK.search(summary) and "Search" not in summary, summary


def test_characters_the_index_cannot_hold_are_not_required_built_html(driver, server):
    """Single characters are never indexed: "的算子" finds the pages "算子" finds
    (a section titled exactly 算子 matches only the second, by its title)."""
    with_particle, _ = search(driver, server, "zh", "的算子")
    alone, _ = search(driver, server, "zh", "算子")
    assert {link.split("#")[0] for link in with_particle} == {
        link.split("#")[0] for link in alone}


def test_an_unknown_chinese_word_finds_nothing_built_html(driver, server):
    from selenium.webdriver.common.by import By
    driver.get(url(server, "zh", "search.html") + "?q=量子计算")
    summary = wait_until(driver, lambda: driver.find_element(
        By.CSS_SELECTOR, "p.search-summary").text, "no summary")
    assert driver.find_elements(By.CSS_SELECTOR, "#search-results ul.search li") == []
    assert CJK.search(summary), summary


def test_pylayer_does_not_match_every_api_name_built_html(driver, server):
    """Every API name starts with "pylayer.": only names holding the word after
    that prefix (PyLayer, PyLayerContext and their methods) are API results."""
    found, _ = search(driver, server, "en", "PyLayer")
    assert len(found) < 150, len(found)     # pages that mention it; the API has ~2,000 names
    api_results = [link for link in found if "#pylayer." in link]
    assert api_results and all("pylayer" in link.split("#pylayer.", 1)[1].lower()
                               for link in api_results), api_results
    assert "api/pylayer.html#pylayer.autograd.PyLayer" in found[:5], found[:5]
    assert errors_logged(driver) == []


@pytest.mark.parametrize("lang, query", [("en", "custom operator"), ("en", "custom operators"),
                                         ("zh", "自定义 算子")])
def test_the_guide_ranks_above_the_contributor_page_built_html(driver, server, lang, query):
    found, _ = search(driver, server, lang, query)
    assert found[0] in GUIDES, found
    pages = [link.split("#")[0] for link in found]
    assert pages.index("guides/custom_operators.html") < pages.index(
        "contributing/architecture.html")


@pytest.mark.parametrize("lang, other, query", [("en", "zh", "saved tensor hooks"),
                                                ("zh", "en", "梯度检查")])
def test_the_language_switch_keeps_the_query_built_html(driver, server, lang, other, query):
    from selenium.webdriver.common.by import By
    search(driver, server, lang, query)
    driver.find_element(By.CSS_SELECTOR, ".language-switch a.language-link").click()
    wait_until(driver, lambda: f"/{other}/" in driver.current_url,
               "the language switch did not open the other site")
    shown = driver.execute_script("return new URLSearchParams(location.search).get('q')")
    assert shown == query
    assert driver.current_url.split("?")[0] == url(server, other, "search.html")
    wait_until(driver, lambda: driver.find_elements(By.CSS_SELECTOR,
                                                    "#search-results ul.search li"),
               f"the {other} search page did not search for {query!r} again")
