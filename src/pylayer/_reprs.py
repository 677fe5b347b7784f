"""The one form of the repr of pylayer's settings-like objects (optimizers, hooks,
guards, clippers): ``Name(setting=value, ...)``, as the object was built."""

__all__ = []


class Summary:
    """A value shown as its text, for what is too long to show whole (``<4 Tensors>``).

    >>> Summary("<4 Tensors>")
    <4 Tensors>
    """

    def __init__(self, text):
        if not isinstance(text, str):
            raise TypeError(f"Summary(): argument 'text' must be a str, got "
                            f"{type(text).__name__}")
        self.text = text

    def __repr__(self):
        return self.text


def _shown(value):
    """Functions by their name (``pack_hook``, ``<lambda>``), the rest by repr."""
    if callable(value) and not isinstance(value, type) and hasattr(value, "__name__"):
        return value.__name__
    return repr(value)


def settings_repr(obj, settings):
    """``Name(key=value, ...)`` for ``obj`` and the ``settings`` mapping.

    >>> from pylayer._reprs import settings_repr, Summary
    >>> class Clip:
    ...     pass
    >>> settings_repr(Clip(), {"max": 1.0, "hook": len, "parameters": Summary("<2 Tensors>")})
    'Clip(max=1.0, hook=len, parameters=<2 Tensors>)'
    """
    if not isinstance(settings, dict):
        raise TypeError(f"settings_repr(): argument 'settings' must be a dict of settings, got "
                        f"{type(settings).__name__}")
    shown = ", ".join(f"{key}={_shown(value)}" for key, value in settings.items())
    return f"{type(obj).__name__}({shown})"


def public_settings_repr(obj):
    """``settings_repr`` of the object's public attributes, in the order they were set.

    >>> import pylayer
    >>> from pylayer import extend
    >>> class Rate:
    ...     def __init__(self):
    ...         self.value = 0.1
    >>> extend.public_settings_repr(Rate())
    'Rate(value=0.1)'
    """
    attributes = getattr(obj, "__dict__", None)
    if not isinstance(attributes, dict):
        raise TypeError(f"public_settings_repr(): argument 'obj' must be an object with "
                        f"attributes, got {type(obj).__name__}")
    return settings_repr(obj, {key: value for key, value in attributes.items()
                               if not key.startswith("_")})
