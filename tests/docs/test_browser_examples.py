"""Every example's copy button copies code that runs both ways: pasted at the
plain ``python`` prompt (a real ``python -i`` reading it) and as a script.
Every test name holds ``built_html``."""
import subprocess
import sys

import pytest

from browser import copy_with_the_button, url, wait_until
from test_links import html_pages

# The Python examples of a page, as their copy buttons copy them (examples.js
# exposes the text the button hands to the clipboard as window.exampleText).
COPIED = """
return [...document.querySelectorAll("article div[class*=highlight-] > div.highlight")]
  .filter(block => /highlight-(default|python|pycon)/.test(block.parentElement.className))
  .map(block => window.exampleText(block.querySelector("button.copybtn")));
"""
PROMPT_ERRORS = ("SyntaxError", "IndentationError")


def at_the_prompt(code, cwd):
    """What ``python -i`` writes on stderr for ``code`` typed at its prompt."""
    ran = subprocess.run([sys.executable, "-i", "-q"], input=code + "\n", capture_output=True,
                         text=True, cwd=cwd, timeout=300)
    return ran.stderr


def copied_examples(driver, server, lang, page):
    driver.get(url(server, lang, page))
    wait_until(driver, lambda: driver.execute_script(
        "return window.exampleText !== undefined || !document.querySelector('.copybtn')"),
        "the copy buttons were not made")
    return driver.execute_script(COPIED)


@pytest.fixture(scope="module")
def every_example(driver, server, sites):
    """``{page: [copied text of each Python example]}`` of the English site."""
    return {page: copied_examples(driver, server, "en", page)
            for page in html_pages(sites["en"][0])}


def test_every_page_s_examples_paste_at_the_python_prompt_built_html(every_example, tmp_path):
    """One prompt per page, the examples pasted one after another as a reader
    would, each followed by Enter: no SyntaxError or IndentationError (examples
    that show an error raise at run time, as on the page)."""
    assert sum(map(len, every_example.values())) > 200
    for page, examples in every_example.items():
        if not examples:
            continue
        errors = at_the_prompt("\n\n".join(examples), tmp_path)
        assert not any(error in errors for error in PROMPT_ERRORS), f"{page}:\n{errors}"


def test_every_copied_example_is_a_valid_script_built_html(every_example):
    for page, examples in every_example.items():
        for number, code in enumerate(examples, 1):
            compile(code, f"{page} example {number}", "exec")


def test_the_chinese_examples_copy_the_same_code_built_html(driver, server, every_example):
    for page in ("index.html", "getting_started.html", "guides/custom_operators.html",
                 "api/pylayer.html"):
        assert copied_examples(driver, server, "zh", page) == every_example[page], page


def test_a_real_copy_button_gives_the_pasteable_text_built_html(driver, server, tmp_path):
    """Clicked, the button puts that text on the clipboard; a class body ends in
    a blank line before the next statement, and none is left inside it."""
    button, copied = copy_with_the_button(driver, server, "en", "index.html",
                                          "home-quick-start")
    assert copied == driver.execute_script("return window.exampleText(arguments[0])", button)
    lines = copied.splitlines()
    body_end = next(i for i, line in enumerate(lines) if line.startswith("x = "))
    assert lines[body_end - 1] == "" and lines[body_end - 2].startswith("        return")
    class_body = lines[lines.index("class Tanh(PyLayer):"):body_end - 1]
    assert "" not in class_body, copied
    printed = subprocess.run([sys.executable, "-i", "-q"], input=copied + "\n",
                             capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert not any(error in printed.stderr for error in PROMPT_ERRORS), printed.stderr
    assert "[1.     0.7864 0.42  ]" in printed.stdout, printed.stdout
