"""What a public op is besides ``pylayer.<name>``: the one declaration that the Tensor
methods, their in-place twins and the stubs are derived from (``pylayer._methods``).

>>> import pylayer
>>> from pylayer.ops.declaration import declaration_of
>>> declaration_of(pylayer.exp)
Declaration(method=True, inplace=True)
"""
import dataclasses

__all__ = []


@dataclasses.dataclass(frozen=True)
class Declaration:
    """What a public function is besides ``pylayer.<name>``: a Tensor method, with an
    in-place twin."""
    method: bool = False
    inplace: bool = False


def declare(fn=None, *, method=False, inplace=False):
    """Declare the public function ``fn`` a Tensor method (``method=True``) with an
    in-place twin (``inplace=True``); returns ``fn``. ``op`` takes the same keywords,
    so a dispatched op declares itself there.

    >>> import pylayer
    >>> from pylayer import extend
    >>> def twice(x):
    ...     return x * 2
    >>> extend.declare(twice, method=True).__pylayer_declaration__
    Declaration(method=True, inplace=False)
    """
    if fn is None:
        return lambda fn: declare(fn, method=method, inplace=inplace)
    if not callable(fn):
        raise TypeError(f"declare(): argument 'fn' must be callable, got {type(fn).__name__}")
    for argument, value in (("method", method), ("inplace", inplace)):
        if not isinstance(value, bool):
            raise TypeError(f"declare(): argument {argument!r} must be a bool, got "
                            f"{type(value).__name__}")
    if inplace and not method:
        raise ValueError(f"declare(): {getattr(fn, '__name__', fn)!r} has an in-place "
                         f"method only if it is a method (inplace=True needs method=True)")
    fn.__pylayer_declaration__ = Declaration(method, inplace)
    return fn


def declaration_of(value):
    """The :class:`Declaration` of a public function, or ``None``.

    >>> import pylayer
    >>> declaration_of(pylayer.exp)
    Declaration(method=True, inplace=True)
    """
    return getattr(value, "__pylayer_declaration__", None) if callable(value) else None


def declared(namespace, names):
    """``(methods, inplace)``: the names of ``names`` whose function in ``namespace``
    is declared a Tensor method, and those of them with an in-place twin, sorted.

    >>> import pylayer
    >>> methods, inplace = declared(vars(pylayer), pylayer.__all__)
    >>> "exp" in methods and "exp" in inplace and "exp_" not in methods
    True
    """
    methods, inplace = [], []
    for name in names:
        declaration = declaration_of(namespace.get(name))
        if declaration is not None and declaration.method:
            methods.append(name)
            if declaration.inplace:
                inplace.append(name)
    return sorted(methods), sorted(inplace)
