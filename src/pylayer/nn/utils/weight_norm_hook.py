"""``weight_norm`` and ``remove_weight_norm``: a layer's weight re-expressed as a
direction ``weight_v`` and a magnitude ``weight_g``, recomputed before each call by
a forward pre-hook.

With ``dim`` given, each slice of the weight along ``dim`` has its own magnitude
(``weight_g`` has that axis's size); with ``dim=None`` (or -1) the whole weight
has one (``weight_g`` is a 0-D Tensor).
"""
from pylayer.autograd.grad_mode import no_grad
from pylayer.extend import Tensor, check_int, check_str
from pylayer.nn.layer import Layer

__all__ = ["weight_norm", "remove_weight_norm"]


def _rows(weight, dim):
    """``weight`` as a matrix with one row per index of axis ``dim``."""
    if dim:
        weight = weight.transpose([dim] + [i for i in range(weight.ndim) if i != dim])
    return weight.reshape([weight.shape[0], -1])


def _along(values, dim, ndim):
    """The vector ``values`` shaped to broadcast along axis ``dim`` of an ``ndim``-D Tensor."""
    return values.reshape([-1 if i == dim else 1 for i in range(ndim)])


def norm_except_dim(weight, dim):
    """The 2-norm of each slice of ``weight`` along ``dim`` (of all of it when ``dim`` is
    -1), as ``sqrt(sum of squares + 1e-12)``."""
    if dim == -1:
        return (weight.square().sum() + 1e-12).sqrt()
    return (_rows(weight, dim).square().sum(axis=1) + 1e-12).sqrt()


def _weight_norm(v, g, dim):
    """``g * v / ||v||``, the norm taken per slice along ``dim`` (of all of ``v`` for -1)."""
    if dim == -1:
        return v / (v.square().sum().sqrt() + 1e-12) * g
    size = v.norm(p=2, axis=[i for i in range(v.ndim) if i != dim], keepdim=True) \
        if v.ndim > 1 else v.abs()
    return v / size.maximum(Tensor(1e-12, dtype=v.dtype)) * _along(g, dim, v.ndim)


class WeightNorm:
    """The forward pre-hook that recomputes ``layer.<name>`` from ``<name>_g`` and
    ``<name>_v``."""

    def __init__(self, name, dim):
        self.name = name
        self.dim = -1 if dim is None else dim

    def compute_weight(self, layer):
        return _weight_norm(getattr(layer, self.name + "_v"), getattr(layer, self.name + "_g"),
                            self.dim)

    @staticmethod
    def apply(layer, name, dim):
        for hook in layer._forward_pre_hooks.values():
            if isinstance(hook, WeightNorm) and hook.name == name:
                raise RuntimeError(f"weight_norm(): the parameter '{name}' already has a "
                                   f"weight_norm hook")
        weight = layer._parameters.get(name)
        if weight is None:
            raise ValueError(f"weight_norm(): argument 'name' must name a parameter of the "
                             f"layer, got {name!r}")
        ndim = weight.ndim
        if dim is None:
            dim = -1
        dim = check_int(dim, "weight_norm", "dim")
        if not -ndim <= dim < ndim:
            raise ValueError(f"weight_norm(): argument 'dim' must be in [-{ndim}, {ndim}) "
                             f"for the {ndim}-D weight, got {dim}")
        if dim != -1:
            dim %= ndim
        hook = WeightNorm(name, dim)
        with no_grad():
            magnitude = norm_except_dim(weight, dim)
        del layer._parameters[name]
        v = layer.create_parameter(weight.shape, dtype=weight.dtype)
        layer.add_parameter(name + "_v", v)
        g = layer.create_parameter(magnitude.shape, dtype=weight.dtype)
        layer.add_parameter(name + "_g", g)
        v.set_value(weight.numpy())
        g.set_value(magnitude.numpy())
        setattr(layer, name, hook.compute_weight(layer))
        layer.register_forward_pre_hook(hook)
        return hook

    def remove(self, layer):
        with no_grad():
            weight = self.compute_weight(layer)
        delattr(layer, self.name)
        del layer._parameters[self.name + "_g"]
        del layer._parameters[self.name + "_v"]
        parameter = layer.create_parameter(weight.shape, dtype=weight.dtype)
        layer.add_parameter(self.name, parameter)
        parameter.set_value(weight.numpy())

    def __call__(self, layer, inputs):
        setattr(layer, self.name, self.compute_weight(layer))


def _check_layer(layer, name, fn):
    if not isinstance(layer, Layer):
        raise TypeError(f"{fn}(): argument 'layer' (position 1) must be a Layer, got "
                        f"{type(layer).__name__}")
    check_str(name, fn, "name")


def weight_norm(layer, name="weight", dim=0):
    """Re-express the parameter ``name`` of ``layer`` as ``name_g * name_v / ||name_v||``.

    The parameter is replaced by ``<name>_v`` (its value) and ``<name>_g``
    (the norm of each slice along ``dim``; one norm for ``dim=None``), both
    trained in its place; a forward pre-hook recomputes ``layer.<name>`` from
    them before each call. Returns ``layer``.

    >>> import pylayer
    >>> from pylayer.nn.utils.weight_norm_hook import weight_norm
    >>> linear = weight_norm(pylayer.nn.Linear(3, 2))
    >>> sorted(name for name, _ in linear.named_parameters())
    ['bias', 'weight_g', 'weight_v']
    >>> linear.weight_g.shape
    [3]
    """
    _check_layer(layer, name, "weight_norm")
    WeightNorm.apply(layer, name, dim)
    return layer


def remove_weight_norm(layer, name="weight"):
    """Undo :func:`weight_norm`: ``name`` becomes one parameter again, holding the
    weight the hook would compute. Returns ``layer``; raises ``ValueError`` when the
    layer has no such hook.

    >>> import pylayer
    >>> from pylayer.nn.utils.weight_norm_hook import remove_weight_norm, weight_norm
    >>> linear = remove_weight_norm(weight_norm(pylayer.nn.Linear(3, 2)))
    >>> sorted(name for name, _ in linear.named_parameters())
    ['bias', 'weight']
    """
    _check_layer(layer, name, "remove_weight_norm")
    for key, hook in layer._forward_pre_hooks.items():
        if isinstance(hook, WeightNorm) and hook.name == name:
            hook.remove(layer)
            del layer._forward_pre_hooks[key]
            return layer
    raise ValueError(f"remove_weight_norm(): the layer has no weight_norm of '{name}'")
