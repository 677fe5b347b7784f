"""What a reader of the built sites gets beyond working links: a Chinese
search index that holds Chinese words, a search script that runs, a Chinese
interface on the Chinese site, and section anchors that are the same in both
languages (so that the language switch keeps the section).

Every test name holds ``built_html`` so that ``-k built_html`` selects them.
"""
import html.parser
import json
import re

import pytest

from docs_source import LANGUAGES
from test_links import html_pages

CJK = re.compile(r"[\u4e00-\u9fff]")
# The theme's interface strings, and what the Chinese catalogue makes of them.
INTERFACE = {"On this page": "本页目录", "Back to top": "回到顶部", "Skip to content": "跳到正文",
             "Next": "下一页", "Previous": "上一页", "Made with": "本站使用"}


def search_terms(out):
    text = (out / "searchindex.js").read_text(encoding="utf-8")
    index = json.loads(text[text.index("(") + 1:text.rindex(")")])
    return set(index["terms"]) | set(index["titleterms"])


def test_the_chinese_search_index_holds_chinese_words_built_html(sites):
    chinese = {term for term in search_terms(sites["zh"][0]) if CJK.search(term)}
    assert len(chinese) > 500, f"only {len(chinese)} Chinese terms in the zh search index"
    for word in ("梯度", "算子", "反向", "暂存"):
        assert word in chinese, f"the zh search index has no {word!r}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_search_stemmer_is_defined_built_html(sites, lang):
    """Sphinx 9.0 set ``window.Stemmer = ChineseStemmer``, a class it never defines."""
    script = (sites[lang][0] / "_static" / "language_data.js").read_text(encoding="utf-8")
    assigned = re.findall(r"Stemmer\s*=\s*(\w+)", script)
    for name in assigned:
        assert name == "function" or re.search(rf"\b(class|function|var|let|const)\s+{name}\b",
                                               script), \
            f"{lang}: language_data.js assigns the undefined {name}"


class Visible(html.parser.HTMLParser):
    """The text of a page outside <script>, <style> and <svg>."""

    def __init__(self, text):
        super().__init__()
        self.parts, self.hidden = [], 0
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.hidden += tag in ("script", "style", "svg")

    def handle_endtag(self, tag):
        self.hidden -= tag in ("script", "style", "svg")

    def handle_data(self, data):
        if not self.hidden:
            self.parts.append(data)

    def text(self):
        return " ".join(" ".join(self.parts).split())


def test_the_chinese_site_has_a_chinese_interface_built_html(sites):
    en_text = Visible((sites["en"][0] / "api" / "pylayer.html").read_text("utf-8")).text()
    zh_text = Visible((sites["zh"][0] / "api" / "pylayer.html").read_text("utf-8")).text()
    for english, chinese in INTERFACE.items():
        assert english in en_text, f"the English page lacks {english!r}"
        assert chinese in zh_text and english not in zh_text, \
            f"the Chinese page says {english!r} instead of {chinese!r}"


# Labels a reader (or a screen reader) meets: attribute values and <title> elements.
LABELS = re.compile(r'(?:aria-label|title|placeholder)="([^"]*)"|<title>([^<]*)</title>')
ENGLISH_PHRASE = re.compile(r"[A-Za-z]{2,}[ /]+[A-Za-z]{2,}")


def test_no_chinese_page_labels_anything_in_english_built_html(sites):
    """furo writes some labels in English without gettext (the theme switch, the
    sidebar switches, its icons' titles); Sphinx's own catalogue lacks "Link to
    this heading". docs/_shared/chinese_site.py and the zh catalogue cover them."""
    out = sites["zh"][0]
    english = {}
    for name in html_pages(out):
        for label in (a or b for a, b in LABELS.findall((out / name).read_text("utf-8"))):
            if ENGLISH_PHRASE.search(label) and not CJK.search(label):
                english.setdefault(label, name)
    assert english == {}, f"English labels on the Chinese site (label: first page): {english}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_page_shows_literal_double_backticks_built_html(sites, lang):
    """Inline markup does not nest in reST: ``code`` inside **bold** showed its backticks."""
    out = sites[lang][0]
    shown = [name for name in html_pages(out)
             if "``" in Visible((out / name).read_text("utf-8")).text()]
    assert shown == [], f"{lang}: pages showing ``: {shown}"


class Sections(html.parser.HTMLParser):
    def __init__(self, text):
        super().__init__()
        self.ids = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "section" and "id" in attrs:
            self.ids.append(attrs["id"])


def test_sections_have_the_same_anchors_in_both_languages_built_html(sites):
    en_out, zh_out = sites["en"][0], sites["zh"][0]
    for name in html_pages(en_out):
        english = Sections((en_out / name).read_text("utf-8")).ids
        chinese = Sections((zh_out / name).read_text("utf-8")).ids
        assert english == chinese, f"{name}: section anchors differ between en and zh"
        generated = [anchor for anchor in chinese if re.fullmatch(r"id\d+", anchor)]
        assert not generated, f"{name}: sections without a label get anchors {generated}"
