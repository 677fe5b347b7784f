"""Both HTML sites build without a warning, every internal link and anchor in them
resolves, and every page links to the same page in the other language.

The sites are built once per test session (the ``sites`` fixture of
conftest.py). Every test name holds ``built_html`` so that ``-k built_html``
selects them.
"""
import html.parser
import pathlib
import posixpath
from urllib.parse import unquote, urlsplit

import pytest

from docs_source import LANGUAGES

LINK_ATTRIBUTES = {"a": "href", "link": "href", "script": "src", "img": "src"}


class Page(html.parser.HTMLParser):
    """The anchors (ids) and outgoing links of one HTML file."""

    def __init__(self, path):
        super().__init__()
        self.ids, self.links, self.language_links = set(), [], []
        self.feed(path.read_text(encoding="utf-8"))

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        if tag == "a" and "name" in attrs:
            self.ids.add(attrs["name"])
        target = attrs.get(LINK_ATTRIBUTES.get(tag, ""))
        if target is not None:
            self.links.append(target)
            if "language-link" in (attrs.get("class") or "").split():
                self.language_links.append(target)


def html_pages(out):
    return sorted(p.relative_to(out).as_posix() for p in out.rglob("*.html"))


def parsed_sites(sites):
    return {path: Page(path) for out, _, _ in sites.values() for path in out.rglob("*.html")}


def is_external(url):
    parts = urlsplit(url)
    return bool(parts.scheme or parts.netloc)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_site_builds_without_warnings_built_html(sites, lang):
    out, returncode, output = sites[lang]
    assert returncode == 0, f"sphinx-build -W failed for docs/{lang}:\n{output}"
    assert output.strip() == "", f"sphinx-build printed for docs/{lang}:\n{output}"
    assert (out / "index.html").is_file() and (out / "api" / "index.html").is_file()


def test_both_sites_have_the_same_pages_built_html(sites):
    (en_out, _, _), (zh_out, _, _) = sites["en"], sites["zh"]
    assert html_pages(en_out) == html_pages(zh_out)
    assert "api/tensor.html" in html_pages(en_out)


def test_internal_links_and_anchors_resolve_built_html(sites):
    parsed = parsed_sites(sites)
    broken = []
    for path, page in parsed.items():
        for url in page.links:
            if is_external(url):
                continue
            parts = urlsplit(url)
            target = path if not parts.path else \
                pathlib.Path(posixpath.normpath(posixpath.join(path.parent.as_posix(),
                                                               unquote(parts.path))))
            if not target.exists():
                broken.append(f"{path}: {url} (no file {target})")
            elif parts.fragment and target.suffix == ".html":
                ids = parsed[target].ids if target in parsed else Page(target).ids
                if unquote(parts.fragment) not in ids:
                    broken.append(f"{path}: {url} (no anchor #{parts.fragment})")
    assert not broken, f"{len(broken)} broken links:\n" + "\n".join(broken[:50])


def test_every_page_links_to_its_translation_built_html(sites):
    for lang, other in (("en", "zh"), ("zh", "en")):
        out, other_out = sites[lang][0], sites[other][0]
        for name in html_pages(out):
            page = Page(out / name)
            assert len(page.language_links) == 1, f"{lang}/{name}: no single language link"
            href = page.language_links[0]
            target = posixpath.normpath(posixpath.join((out / name).parent.as_posix(), href))
            assert pathlib.Path(target) == other_out / name, \
                f"{lang}/{name} links to {href}, not to the {other} version of the page"
