"""How the sites look in headless Chromium: the performance plots are readable
in dark mode, a 390 px phone keeps code indented and reaches the language
switch without the menu, and the Chinese site shows no English interface.
Every test name holds ``built_html``."""
import re

import pytest

from browser import errors_logged, search, url, wait_until
from docs_source import LANGUAGES

PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True}
PHONE_PAGES = ["index.html", "getting_started.html", "api/pylayer.html",
               "guides/custom_operators.html"]
WCAG_AA = 4.5   # the least contrast of normal text with what is behind it

# For each SVG plot: the colour of each kind of its text as the reader sees it
# (through the image's CSS filter) and the colour behind it, as [r, g, b].
PLOT_TEXT_COLOURS = """
const done = arguments[arguments.length - 1];
const opaque = (colour) => colour !== "transparent" && !/rgba\\(.*, 0\\)$/.test(colour);
const paint = (ctx, colour, filter) => {
  ctx.filter = filter; ctx.fillStyle = colour; ctx.fillRect(0, 0, 1, 1); ctx.filter = "none";
};
(async () => {
  const found = [];
  for (const img of document.querySelectorAll('article img[src$=".svg"]')) {
    const style = getComputedStyle(img);
    const filter = style.filter === "none" ? "none" : style.filter;
    let behind = null, owner = img.parentElement;
    while (owner && !behind) {
      const colour = getComputedStyle(owner).backgroundColor;
      if (opaque(colour)) behind = colour;
      owner = owner.parentElement;
    }
    const svg = await (await fetch(img.src)).text();
    const fills = new Set([...svg.matchAll(/<text[^>]*fill="(#[0-9a-fA-F]{3,6})"/g)]
                          .map(m => m[1]));
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = 1;
    const ctx = canvas.getContext("2d", {willReadFrequently: true});
    for (const fill of fills) {
      paint(ctx, behind || "white", "none");
      if (opaque(style.backgroundColor)) paint(ctx, style.backgroundColor, filter);
      const backdrop = [...ctx.getImageData(0, 0, 1, 1).data.slice(0, 3)];
      paint(ctx, fill, filter);
      found.push({image: img.src.split("/").pop(), fill, backdrop,
                  seen: [...ctx.getImageData(0, 0, 1, 1).data.slice(0, 3)]});
    }
  }
  return found;
})().then(done, (error) => done("error: " + error));
"""


def luminance(rgb):
    def linear(channel):
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = map(linear, rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(first, second):
    light, dark = sorted((luminance(first), luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


@pytest.fixture
def scheme(driver):
    """Set the system's colour scheme and the theme the reader chose in furo."""
    def set_scheme(system, chosen, page):
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
            "features": [{"name": "prefers-color-scheme", "value": system}]})
        driver.get(page)
        driver.execute_script("localStorage.setItem('theme', arguments[0])", chosen)
        driver.refresh()
    yield set_scheme
    driver.execute_script("localStorage.removeItem('theme')")
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("system, chosen", [("dark", "auto"), ("light", "dark"),
                                            ("light", "auto"), ("dark", "light")])
def test_the_plots_text_is_readable_in_every_theme_built_html(driver, server, scheme, lang,
                                                               system, chosen):
    scheme(system, chosen, url(server, lang, "guides/performance.html"))
    dark_page = driver.execute_script(
        "return getComputedStyle(document.body).backgroundColor")
    colours = driver.execute_async_script(PLOT_TEXT_COLOURS)
    assert isinstance(colours, list) and len(colours) >= 14, colours
    for colour in colours:
        ratio = contrast(colour["seen"], colour["backdrop"])
        assert ratio >= WCAG_AA, (f"{lang}, system {system}, theme {chosen} (page "
                                  f"{dark_page}): {colour} has contrast {ratio:.2f}")
    assert errors_logged(driver) == []


@pytest.fixture
def phone(driver):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
    yield
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


# For every code block: the lines whose wrapped rows start left of the line's
# own indentation, its prompt included (none may), and whether the page itself
# scrolls sideways.
WRAPPED_LINES = r"""
const pres = [...document.querySelectorAll("article .highlight pre")];
const bad = [];
for (const pre of pres) {
  const walker = document.createTreeWalker(pre, NodeFilter.SHOW_TEXT);
  const pieces = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) pieces.push(node);
  const text = pieces.map(node => node.data).join("");
  const locate = (index) => {
    for (const node of pieces) {
      if (index <= node.data.length) return [node, index];
      index -= node.data.length;
    }
  };
  let start = 0;
  for (const line of text.split("\n")) {
    // Indentation: a doctest prompt (">>> ", "... ") and the spaces after it.
    const indent = line.match(/^(?:(?:>>>|\.\.\.) ?)?\s*/)[0].length;
    if (line.trim()) {
      const range = document.createRange();
      range.setStart(...locate(start + indent));
      range.setEnd(...locate(start + line.length));
      const rows = [...range.getClientRects()].filter(r => r.width > 0);
      const top = Math.min(...rows.map(r => r.top));
      const first = Math.min(...rows.filter(r => r.top <= top + 2).map(r => r.left));
      const later = rows.filter(r => r.top > top + 2);
      if (later.some(r => r.left < first - 1)) bad.push(line.slice(0, 50));
    }
    start += line.length + 1;
  }
}
return {bad, blocks: pres.length,
        sideways: document.documentElement.scrollWidth > window.innerWidth + 1};
"""


@pytest.mark.parametrize("page", PHONE_PAGES)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_code_keeps_its_indentation_on_a_phone_built_html(driver, server, phone, lang, page):
    driver.get(url(server, lang, page))
    found = driver.execute_script(WRAPPED_LINES)
    assert found["blocks"] > 0
    assert found["bad"] == [], f"{lang}/{page}: wrapped lines lose their indentation"
    assert not found["sideways"], f"{lang}/{page} scrolls sideways at 390 px"


@pytest.mark.parametrize("lang, other", [("en", "zh"), ("zh", "en")])
def test_the_language_switch_is_in_a_phones_header_built_html(driver, server, phone, lang,
                                                               other):
    from selenium.webdriver.common.by import By
    driver.get(url(server, lang, "api/pylayer.html", "api-pylayer-context"))
    sidebar_link = driver.find_element(By.CSS_SELECTOR, ".sidebar-drawer a.language-link")
    assert not sidebar_link.is_displayed() or not driver.execute_script(
        "const r = arguments[0].getBoundingClientRect(); return r.right > 0 && r.left < "
        "innerWidth", sidebar_link), "the sidebar is open on a phone"
    link = driver.find_element(By.CSS_SELECTOR, ".mobile-header a.language-link-header")
    assert link.is_displayed()
    on_top = driver.execute_script(
        "const r = arguments[0].getBoundingClientRect();"
        "return r.top >= 0 && r.right <= innerWidth && "
        "arguments[0].contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2));",
        link)
    assert on_top, "the header's language link is hidden or covered"
    link.click()
    wait_until(driver, lambda: f"/{other}/" in driver.current_url,
               "the header's language link did not open the other site")
    assert driver.current_url == url(server, other, "api/pylayer.html", "api-pylayer-context")


# Labels and tooltips of the page as the browser has them, scripts run: attributes
# a reader (or a screen reader) meets, and the text outside the article.
INTERFACE_TEXT = """
const found = [];
const labelled = "[aria-label], [title], [data-tooltip], [placeholder]";
for (const element of document.querySelectorAll(labelled))
  for (const name of ["aria-label", "title", "data-tooltip", "placeholder"])
    if (element.hasAttribute(name)) found.push(element.getAttribute(name));
for (const title of document.querySelectorAll("svg title")) found.push(title.textContent);
const summary = document.querySelector("p.search-summary");
if (summary) found.push(summary.textContent);
return found;
"""
ENGLISH_PHRASE = re.compile(r"[A-Za-z]{2,}[ /]+[A-Za-z]{2,}")
CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.mark.parametrize("page", ["index.html", "api/pylayer.html", "search.html"])
def test_the_chinese_interface_has_no_english_built_html(driver, server, page):
    if page == "search.html":
        search(driver, server, "zh", "上下文")
    else:
        driver.get(url(server, "zh", page))
    labels = driver.execute_script(INTERFACE_TEXT)
    english = sorted({text for text in labels
                      if ENGLISH_PHRASE.search(text) and not CJK.search(text)})
    assert english == [], f"zh/{page}: English interface strings {english}"
    assert len(labels) > 10
