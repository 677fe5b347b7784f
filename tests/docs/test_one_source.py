"""An example is written once, in the docstring, and both language sites show
it: a function's entry is ``.. api:: pylayer.name`` with the page's prose
(docs/_shared/api_entries.py adds the signature, the docstring's example and
the method and in-place forms), and no entry repeats its docstring's example."""
import doctest
import re

import pytest

from docs_source import LANGUAGES, api_entries, function_entries, pages, read, resolve

PAGES = pages("en")
_IMPORT = re.compile(r"^(import|from) ")


def spelling(text):
    """The name the examples of ``text`` import pylayer as (``paddle``), or None."""
    match = re.search(r"^\s*>>> (?:import|from) .*\bpylayer as (\w+)", text, re.MULTILINE)
    return match[1] if match else None


def examples(text, alias=None):
    """``{(source, output)}`` of the examples of ``text``, imports left out, spaces
    and the spelling ``alias.`` of ``pylayer.`` aside."""
    found = set()
    for example in doctest.DocTestParser().get_examples(text):
        source = example.source.strip()
        if _IMPORT.match(source):
            continue
        if alias:
            source = re.sub(rf"\b{alias}\.", "pylayer.", source)
        found.add((" ".join(source.split()), " ".join(example.want.split())))
    return found


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("page", PAGES)
def test_api_entries_show_the_docstring_s_example_only(lang, page):
    written = [directive.fullname for directive, body in function_entries(read(lang, page))
               if directive.line.startswith(".. api::") and ">>>" in body]
    assert not written, (f"docs/{lang}/{page}: these api entries have their own example; "
                         f"it belongs in the docstring: {written}")


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("page", PAGES)
def test_no_entry_repeats_its_docstring_s_example(lang, page):
    text = read(lang, page)
    repeated = []
    for directive, body in function_entries(text):
        if directive.line.startswith(".. api::"):
            continue
        try:
            doc = (resolve(directive.fullname).__doc__ or "")
        except LookupError:
            continue  # test_parity reports it
        # A statement of the setup (``x = ...``) may be the same; a use of the function not.
        call = re.compile(rf"\b{re.escape(directive.name)}\(")
        shown = [source for source, _ in examples(body, spelling(text))
                 & examples(doc, spelling(doc)) if call.search(source)]
        if shown:
            repeated.append(f"{directive.fullname}: {sorted(shown)[0]}")
    assert not repeated, (
        f"docs/{lang}/{page}: entries that repeat their docstring's example; write them as "
        f"'.. api:: <full name>' with the prose only (/work/briefs/convert_pages.py does it):\n"
        + "\n".join(repeated))


def test_an_api_entry_is_the_function_s_entry_with_its_docstring_example():
    import pylayer
    lines = api_entries.entry_lines("pylayer.cos", ["Elementwise cosine."], "en", "pylayer")
    assert lines[:3] == [".. py:function:: cos(x, name=None)", "   :module: pylayer", ""]
    assert "   Elementwise cosine." in lines
    example = [line.strip() for line in lines if line.strip().startswith(">>>")]
    assert example == [line for block in api_entries.docstring_examples(pylayer.cos)
                       for line in block if line.startswith(">>>")] and example
    assert lines[-1] == "   Also ``x.cos()``; in place: ``x.cos_()``, ``pylayer.cos_(x)``."
    chinese = api_entries.entry_lines("pylayer.cos", ["逐元素余弦。"], "zh_CN", "pylayer")
    assert chinese[-1] == "   也可写作 ``x.cos()``；原地版本：``x.cos_()``、``pylayer.cos_(x)``。"


def test_an_api_entry_keeps_the_name_relative_to_the_current_module():
    lines = api_entries.entry_lines("pylayer.autograd.grad", [], "en", "pylayer")
    assert lines[0].startswith(".. py:function:: autograd.grad(outputs, inputs, ")
    assert lines[1] == "   :module: pylayer"
    lines = api_entries.entry_lines("pylayer.autograd.grad", [], "en", "pylayer.static")
    assert lines[1] == "   :module: pylayer.autograd"
    assert not any("Also" in line or "In place" in line for line in lines)


@pytest.mark.parametrize("name,problem", [("pylayer.Tensor", "not a function"),
                                          ("pylayer.no_such_name", "has no")])
def test_an_api_entry_of_a_class_or_a_missing_name_is_an_error(name, problem):
    with pytest.raises((ValueError, LookupError), match=problem):
        api_entries.entry_lines(name, [], "en")


def api_entries_of(lang):
    return [(page, directive.fullname) for page in pages(lang)
            for directive, _ in function_entries(read(lang, page))
            if directive.line.startswith(".. api::")]


def test_an_api_entry_s_example_runs_by_itself():
    """The page shows the docstring's example alone, so it imports what it uses."""
    import pylayer
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    failed = []
    for page, fullname in api_entries_of("en"):
        obj, _ = api_entries.resolve(fullname)
        text = "\n".join(line for block in api_entries.docstring_examples(obj)
                         for line in block)
        test = parser.get_doctest(text, {"__name__": "__example__"}, fullname, None, 0)
        pylayer.seed(0)
        try:
            result = runner.run(test, out=lambda _: None)
        finally:
            pylayer.disable_static()
        if result.failed:
            failed.append(f"{page}: {fullname}")
    assert not failed, ("api entries whose docstring example needs names it does not "
                        "import:\n" + "\n".join(failed))
