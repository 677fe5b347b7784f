"""Sphinx extension: the ``api`` directive, a function's entry whose example is
written once, in its docstring, and shown on both sites.

A page writes::

    .. api:: pylayer.cos

       The prose of this page's language.

and gets the entry ``.. py:function:: cos(x, name=None)`` (the signature read
from the code) with that prose, then the examples of the function's docstring
(its ``>>>`` blocks, which tests/api/test_docstrings.py runs), then, where the
declarations give them, a line naming the Tensor method and the in-place forms
(``x.cos()``, ``x.cos_()``, ``pylayer.cos_(x)``), in the site's language. The
entry is an ordinary Python-domain entry: it is a cross-reference target and
in the search index like one written by hand.

The name is the full dotted name. Under ``.. py:currentmodule:: pylayer`` the
entry ``pylayer.linalg.inv`` is shown as ``linalg.inv``, as a hand-written
entry there would be. tests/docs/docs_source.py reads these entries with the
helpers below, so the parity tests see the same signature the page shows.
"""
import importlib
import importlib.util
import inspect

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective

FORMS = {
    "en": {"also": "Also {forms}.", "inplace": "In place: {forms}.",
           "also_inplace": "Also {method}; in place: {forms}.", "separator": ", "},
    "zh": {"also": "也可写作 {forms}。", "inplace": "原地版本：{forms}。",
           "also_inplace": "也可写作 {method}；原地版本：{forms}。", "separator": "、"},
}


def resolve(fullname):
    """The object a full dotted name refers to, and the longest module prefix of the name.

    >>> import pylayer
    >>> resolve("pylayer.autograd.grad") == (pylayer.autograd.grad, "pylayer.autograd")
    True
    """
    parts = fullname.split(".")
    module_name = parts[0]
    obj = importlib.import_module(module_name)
    for i, part in enumerate(parts[1:], start=1):
        dotted = ".".join(parts[:i + 1])
        if hasattr(obj, part):
            obj = getattr(obj, part)
        elif hasattr(obj, "__path__") and importlib.util.find_spec(dotted):
            obj = importlib.import_module(dotted)
        else:
            raise LookupError(f"{fullname}: {'.'.join(parts[:i])} has no {part!r}")
        if inspect.ismodule(obj):
            module_name = dotted
    return obj, module_name


def is_function(obj):
    return callable(obj) and not inspect.isclass(obj)


def signature_text(obj):
    """The parameters as the pages show them: names, kinds and defaults, no annotations.

    >>> import pylayer
    >>> signature_text(pylayer.add)
    '(x, y, name=None)'
    """
    try:
        signature = inspect.signature(obj)
    except (TypeError, ValueError):
        # A compiled function: Cython puts the signature on the docstring's first line.
        first = (getattr(obj, "__doc__", None) or "").partition("\n")[0]
        name = getattr(obj, "__name__", "")
        if first.startswith(name + "("):
            return first[len(name):]
        raise
    params = [p.replace(annotation=inspect.Parameter.empty)
              for p in signature.parameters.values()]
    return str(signature.replace(parameters=params, return_annotation=inspect.Signature.empty))


def docstring_examples(obj):
    """The ``>>>`` blocks of ``obj``'s docstring (each a list of lines, prompts and
    output, up to the blank line that ends it).

    >>> def f():
    ...     '''Prose.
    ...
    ...     >>> 1 + 1
    ...     2
    ...     '''
    >>> docstring_examples(f)
    [['>>> 1 + 1', '2']]
    """
    blocks, block = [], None
    for line in (inspect.getdoc(obj) or "").splitlines():
        if block is None and line.lstrip().startswith(">>>"):
            block = []
        if block is not None:
            if line.strip():
                block.append(line)
            else:
                blocks.append(block)
                block = None
    if block:
        blocks.append(block)
    return blocks


def _call(receiver_form, name, arguments):
    return f"``{receiver_form}{name}({', '.join(arguments)})``"


def forms_line(fullname, obj, language):
    """The sentence naming the Tensor method and in-place forms of the function
    ``fullname`` (``obj``), or None where it has none.

    >>> import pylayer
    >>> forms_line("pylayer.cos", pylayer.cos, "en")
    'Also ``x.cos()``; in place: ``x.cos_()``, ``pylayer.cos_(x)``.'
    >>> forms_line("pylayer.add", pylayer.add, "zh")
    '也可写作 ``x.add(y)``；原地版本：``x.add_(y)``。'
    >>> forms_line("pylayer.autograd.grad", pylayer.autograd.grad, "en") is None
    True
    """
    import pylayer
    from pylayer.ops.inplace import twin_of

    owner_name, _, name = fullname.rpartition(".")
    try:
        owner, _ = resolve(owner_name)
    except (ImportError, LookupError):
        owner = None
    methods = pylayer.tensor_methods()
    parameters = list(inspect.signature(obj).parameters.values())
    if not parameters:
        return None
    receiver = parameters[0].name
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    rest = [p.name for p in parameters[1:] if p.kind in positional and p.default is p.empty]
    method = methods.get(name) is obj
    # ``x.name_`` is the op's twin, or (put_along_axis_) a method of its own that
    # Paddle's naming makes the in-place form of the method ``x.name``.
    inplace_method = twin_of(methods.get(name + "_")) is obj or (method and name + "_" in methods)
    twin = getattr(owner, name + "_", None) if owner is not None else None
    function_twin = (twin_of(twin) is obj
                     and name + "_" in getattr(owner, "__all__", ()))
    words = FORMS["zh" if language.startswith("zh") else "en"]
    inplace = []
    if inplace_method:
        inplace.append(_call(f"{receiver}.", name + "_", rest))
    if function_twin:
        inplace.append(_call(f"{owner_name}.", name + "_", [receiver] + rest))
    plain = _call(f"{receiver}.", name, rest)
    if method and inplace:
        return words["also_inplace"].format(method=plain,
                                            forms=words["separator"].join(inplace))
    if method:
        return words["also"].format(forms=plain)
    if inplace:
        return words["inplace"].format(forms=words["separator"].join(inplace))
    return None


def shown_name(fullname, module_name, current_module):
    """``(module, name)`` for the generated ``py:function``: relative to the page's
    current module where the entry is inside it, as a hand-written entry would be."""
    if current_module and fullname.startswith(current_module + "."):
        return current_module, fullname[len(current_module) + 1:]
    return module_name, fullname[len(module_name) + 1:]


# The index of the entry's first prose line in entry_lines' result.
PROSE_AT = 3


def entry_lines(fullname, prose, language, current_module=None):
    """The reStructuredText of the entry of ``fullname`` with the page's ``prose`` lines
    (the prose is indented under the entry as it comes, at the same place)."""
    obj, module_name = resolve(fullname)
    if not is_function(obj):
        raise ValueError(f"api: {fullname} is not a function; write its entry with "
                         f".. py:{'class' if inspect.isclass(obj) else 'data'}::")
    from pylayer.ops.inplace import twin_of
    examples = docstring_examples(obj)
    if not examples and twin_of(obj) is None:      # an in-place twin has none of its own
        raise ValueError(f"api: the docstring of {fullname} has no >>> example")
    module, name = shown_name(fullname, module_name, current_module)
    lines = [f".. py:function:: {name}{signature_text(obj)}", f"   :module: {module}", ""]
    assert len(lines) == PROSE_AT
    lines += [f"   {line}" if line.strip() else "" for line in prose]
    for block in examples:
        lines += [""] + [f"   {line}" for line in block]
    forms = forms_line(fullname, obj, language)
    if forms is not None:
        lines += ["", f"   {forms}"]
    return lines


class ApiEntry(SphinxDirective):
    """``.. api:: pylayer.name`` with the prose as content (see the module docstring)."""
    required_arguments = 1
    has_content = True

    def run(self):
        fullname = self.arguments[0]
        try:
            lines = entry_lines(fullname, list(self.content), self.config.language or "en",
                                self.env.ref_context.get("py:module"))
        except (ImportError, LookupError, ValueError) as error:
            raise self.error(str(error)) from None
        # Numbered so that a message about a prose line names its line of the page.
        text = StringList(lines, source=self.get_source_info()[0])
        node = nodes.Element()
        self.state.nested_parse(text, self.content_offset - PROSE_AT, node)
        return node.children


def setup(app):
    app.add_directive("api", ApiEntry)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
