"""Sphinx extension of the Chinese site: a search that splits a query the way
the index was split, and an interface without English.

Search: Sphinx indexes Chinese pages with jieba, but its search page splits a
query only at spaces and punctuation, so "自定义算子" was one unknown word.
``splitQuery`` below cuts each run of Chinese characters into the longest
words the index itself holds, left to right ("自定义算子" -> "自定义", "算子"):
the same words jieba made of the pages, with nothing more to download (the
index is already loaded when a query runs). Single characters, which the
index never holds, are dropped; an unknown run of two or more stays whole and
finds nothing, as it should.

Interface: every string comes from docs/zh/locales/zh_CN/LC_MESSAGES/sphinx.po.
Sphinx translates its own through gettext; the browser gets the catalogue's
messages as ``site_translations.js`` (the search summary, which Sphinx's own
Chinese catalogue lacks); and the labels furo writes in English without
gettext (icons, theme and sidebar switches) are translated in each rendered
page's ``aria-label``, ``title`` attributes and ``<title>`` elements.
"""
import json
import os
import re

from babel.messages.pofile import read_po
from sphinx.locale import get_translation
from sphinx.search.zh import SearchChinese

SPLIT_QUERY = r"""
// docs/_shared/chinese_site.py: split a query into the index's own words.
var splitQuery = (query) => {
  const index = Search._index || {terms: {}, titleterms: {}};
  const known = (word) => word in index.terms || word in index.titleterms;
  const longest = 12;
  const words = [];
  for (const part of query.split(/[^\p{Letter}\p{Number}_\p{Emoji_Presentation}]+/gu)) {
    for (const run of part.match(/\p{Script=Han}+|[^\p{Script=Han}]+/gu) || []) {
      if (!/\p{Script=Han}/u.test(run)) { words.push(run); continue; }
      let unknown = "";
      for (let start = 0; start < run.length;) {
        let size = Math.min(longest, run.length - start);
        while (size > 1 && !known(run.substr(start, size))) size--;
        if (size > 1) {
          if (unknown.length > 1) words.push(unknown);
          unknown = "";
          words.push(run.substr(start, size));
        } else {
          unknown += run[start];
        }
        start += size;
      }
      if (unknown.length > 1) words.push(unknown);
    }
  }
  return words;
};
"""


class SearchChineseAsIndexed(SearchChinese):
    """Sphinx's Chinese search, with the query split into the index's words."""
    js_splitter_code = SPLIT_QUERY


CATALOGUE = os.path.join("locales", "zh_CN", "LC_MESSAGES", "sphinx.po")
# furo's English labels: attribute values and <title> elements of a rendered page.
_LABEL = re.compile(r'(?P<before>(?:aria-label|title)=")(?P<text>[^"<>]+)(?P<after>")'
                    r'|(?P<open><title>)(?P<title>[^<]+)(?P<close></title>)')
_NAVIGATION = re.compile(r"Toggle navigation of (?P<title>.+)")


def browser_catalogue(app):
    """``Documentation.addTranslations`` of the site's catalogue, as JavaScript."""
    with open(os.path.join(app.srcdir, CATALOGUE), encoding="utf-8") as stream:
        catalogue = read_po(stream, locale="zh_CN")
    messages = {}
    for message in catalogue:
        if not message.id or not message.string:
            continue
        if isinstance(message.id, tuple):  # singular and plural -> one form per plural
            messages[message.id[0]] = list(message.string)
        else:
            messages[message.id] = message.string
    data = {"messages": messages, "plural_expr": catalogue.plural_expr, "locale": "zh_CN"}
    return ("// The site's own Chinese interface strings (docs/zh/locales), after Sphinx's.\n"
            f"Documentation.addTranslations({json.dumps(data, ensure_ascii=False, indent=1)});\n")


def write_browser_catalogue(app, exception):
    if exception is None and app.builder.format == "html":
        path = os.path.join(app.outdir, "_static", "site_translations.js")
        with open(path, "w", encoding="utf-8") as stream:
            stream.write(browser_catalogue(app))


def translate_labels(html):
    """The page with furo's English labels in Chinese (where the catalogue has them)."""
    translate = get_translation("sphinx")

    def label(match):
        text = match["text"] or match["title"]
        navigation = _NAVIGATION.fullmatch(text)
        if navigation:
            chinese = translate("Toggle navigation of %(title)s") % navigation.groupdict()
        else:
            chinese = translate(text)
        if match["text"]:
            return match["before"] + chinese + match["after"]
        return match["open"] + chinese + match["close"]
    return _LABEL.sub(label, html)


def translate_rendered_pages(app):
    if app.builder.format != "html":
        return
    render = app.builder.templates.render

    def render_in_chinese(template, context):
        return translate_labels(render(template, context))
    app.builder.templates.render = render_in_chinese


def setup(app):
    app.add_search_language(SearchChineseAsIndexed)
    # After Sphinx's translations.js (500), whose missing messages it adds.
    app.add_js_file("site_translations.js", priority=600)
    app.connect("build-finished", write_browser_catalogue)
    app.connect("builder-inited", translate_rendered_pages)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
