"""The English and Chinese documentation mirror each other and the package.

Both trees have the same pages; each page pair has the same Python-domain
directives in the same order, the same section labels in the same order
(the language switch keeps the reader's section through them) and
byte-identical doctest examples (only the prose is translated); every public name of pylayer is documented in both
languages; and every documented signature is the real one.
"""
import inspect

import pytest

from pylayer.ops.inplace import twin_of

import pylayer
from docs_source import (LANGUAGES, directives, examples, owner_and_member, pages, public_names,
                         read, real_signature, resolve, same_signature, section_labels,
                         tensor_method)

PAGES = pages("en")
API_KINDS = {"function", "class", "exception", "method", "property", "attribute", "data",
             "decorator"}


def documented(lang):
    """``[(page, directive)]`` of the API directives of one language."""
    return [(page, d) for page in pages(lang) for d in directives(read(lang, page))
            if d.kind in API_KINDS]


def test_both_languages_have_the_same_pages():
    assert "api/index.rst" in PAGES and "index.rst" in PAGES
    assert pages("en") == pages("zh"), "docs/en and docs/zh must hold the same .rst files"


@pytest.mark.parametrize("page", PAGES)
def test_same_signature_directives_in_the_same_order(page):
    english, chinese = ([d.header() for d in directives(read(lang, page))] for lang in LANGUAGES)
    assert english == chinese, f"{page}: the py: directive lines differ between en and zh"


@pytest.mark.parametrize("page", PAGES)
def test_every_section_has_the_same_label_in_both_languages(page):
    english, chinese = (section_labels(read(lang, page)) for lang in LANGUAGES)
    unlabelled = [f"{lang}: {title}" for lang, sections in zip(LANGUAGES, (english, chinese))
                  for title, label in sections if label is None]
    assert not unlabelled, f"{page}: sections without an explicit label: {unlabelled}"
    assert [label for _, label in english] == [label for _, label in chinese], \
        f"{page}: the section labels differ between en and zh"


@pytest.mark.parametrize("page", PAGES)
def test_examples_are_byte_identical(page):
    english, chinese = (examples(read(lang, page)) for lang in LANGUAGES)
    assert len(english) == len(chinese), f"{page}: {len(english)} en vs {len(chinese)} zh examples"
    for (en_source, en_want), (zh_source, zh_want) in zip(english, chinese):
        assert (en_source, en_want) == (zh_source, zh_want), f"{page}: examples differ"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_documented_name_exists(lang):
    missing = []
    for page, directive in documented(lang):
        try:
            resolve(directive.fullname)
        except LookupError as error:
            missing.append(f"{page}: {error}")
    assert not missing, "documented names that pylayer does not have:\n" + "\n".join(missing)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_public_name_is_documented(lang):
    ids = {id(resolve(d.fullname)) for _, d in documented(lang)}
    # An in-place twin (pylayer.abs_) is documented by its op's entry.
    missing = sorted(qualname for key, (qualname, obj) in public_names().items()
                     if key not in ids and (twin_of(obj) is None or id(twin_of(obj)) not in ids))
    assert not missing, f"public names with no entry in docs/{lang}: {missing}"


def public_members(cls):
    """Names defined by ``cls`` itself that a user may call or read."""
    for name, member in vars(cls).items():
        if name.startswith("_"):
            continue
        if isinstance(member, (staticmethod, classmethod, property)) or callable(member) \
                or inspect.isdatadescriptor(member) or inspect.ismemberdescriptor(member):
            yield name


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_member_of_a_documented_class_is_documented(lang):
    entries = documented(lang)
    names = {d.fullname for _, d in entries}
    classes = {d.fullname: resolve(d.fullname) for _, d in entries
               if d.kind in ("class", "exception")}
    documented_classes = {cls: fullname for fullname, cls in classes.items()}
    missing = []
    for fullname, cls in classes.items():
        for member in public_members(cls):
            if f"{fullname}.{member}" in names:
                continue
            # Tensor's methods from the method table: test_every_tensor_method_is_documented.
            if cls is pylayer.Tensor and member in pylayer.tensor_methods():
                continue
            # An override is described by the documented base class that defines it.
            if any(member in vars(base) and f"{documented_classes[base]}.{member}" in names
                   for base in cls.__mro__[1:] if base in documented_classes):
                continue
            missing.append(f"{fullname}.{member}")
    assert not missing, f"class members with no entry in docs/{lang}: {missing}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_tensor_method_is_documented(lang):
    """``x.name()`` is either a documented Tensor method or a documented function
    ``pylayer.name`` or ``pylayer.linalg.name`` (whose in-place form is ``x.name_()``,
    unless ``pylayer.name_`` is a function of its own)."""
    names = {d.fullname for _, d in documented(lang)}
    missing = []
    for method in pylayer.tensor_methods():
        base = method[:-1] if method.endswith("_") else method
        if f"pylayer.Tensor.{method}" in names:
            continue
        if f"pylayer.{base}" in names and tensor_method(base) is getattr(pylayer, base, None):
            continue
        if f"pylayer.linalg.{base}" in names and \
                tensor_method(base) is getattr(pylayer.linalg, base, None):
            continue
        if f"pylayer.{method}" in names and tensor_method(method) is getattr(pylayer, method, None):
            continue        # a function of its own (pylayer.normal_, the method x.normal_)
        missing.append(method)
    assert not missing, f"Tensor methods with no entry in docs/{lang}: {missing}"


@pytest.mark.parametrize("page", PAGES)
def test_documented_signatures_are_the_real_ones(page):
    wrong = []
    for directive in directives(read("en", page)):
        if directive.kind not in API_KINDS:
            continue
        if directive.kind in ("property", "attribute", "data"):
            if directive.signature is not None:
                wrong.append(f"{directive.fullname}: a {directive.kind} has no signature")
            continue
        real, method_kind = real_signature(directive)
        if not same_signature(directive.signature, real):
            wrong.append(f"{directive.fullname}: documented {directive.signature}, real {real}")
        options = {option.strip().strip(":") for option in directive.options}
        for kind in ("staticmethod", "classmethod"):
            if (kind in options) != (method_kind == kind):
                wrong.append(f"{directive.fullname}: :{kind}: option does not match the code")
    assert not wrong, f"{page}:\n" + "\n".join(wrong)


def test_members_are_documented_where_their_class_is():
    """A method or property entry sits inside its class's entry."""
    for page in PAGES:
        for directive in directives(read("en", page)):
            if directive.kind in ("method", "property", "attribute"):
                owner, member = owner_and_member(directive.fullname)
                assert inspect.isclass(owner), f"{page}: {directive.fullname} is not in a class"
