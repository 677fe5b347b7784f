"""``spectral_norm``: a layer's weight divided by its largest singular value, estimated
by power iteration before each call by a forward pre-hook.

The trained parameter becomes ``<name>_orig``; the buffers ``<name>_u`` and
``<name>_v`` hold the power iteration's vectors, advanced in training mode only.
"""
from pylayer.autograd.grad_mode import no_grad
from pylayer.nn.initializer import Normal
from pylayer.nn.layer import Layer
from pylayer.nn.norm import _as_matrix, power_iteration
from pylayer.extend import check_int, check_number, check_str
from pylayer.ops.linalg import dot, mv
from pylayer.ops.normalization import normalize

__all__ = ["spectral_norm"]

# Layers whose weight has its output features on axis 1 (those pylayer.nn has).
_OUTPUT_ON_AXIS_1 = ("Linear", "Conv1DTranspose", "Conv2DTranspose", "Conv3DTranspose")


def _default_dim(layer):
    import pylayer.nn as nn        # at call time: pylayer.nn imports this package
    kinds = tuple(getattr(nn, kind) for kind in _OUTPUT_ON_AXIS_1 if hasattr(nn, kind))
    return 1 if isinstance(layer, kinds) else 0


class SpectralNorm:
    """The forward pre-hook that sets ``layer.<name>`` to ``<name>_orig / sigma``."""

    def __init__(self, name="weight", n_power_iterations=1, dim=0, eps=1e-12):
        self.name = name
        self.dim = dim
        self.n_power_iterations = check_int(n_power_iterations, "spectral_norm",
                                            "n_power_iterations", minimum=1)
        self.eps = eps

    def compute_weight(self, layer, do_power_iteration):
        weight = getattr(layer, self.name + "_orig")
        u, v = getattr(layer, self.name + "_u"), getattr(layer, self.name + "_v")
        matrix = _as_matrix(weight, self.dim)
        if do_power_iteration:
            new_u, new_v = power_iteration(matrix, u, v, self.n_power_iterations, self.eps)
            u.set_value(new_u.numpy())
            v.set_value(new_v.numpy())
        return weight / dot(u.detach(), mv(matrix, v.detach()))

    def __call__(self, layer, inputs):
        setattr(layer, self.name, self.compute_weight(layer, layer.training))

    @staticmethod
    def apply(layer, name, n_power_iterations, dim, eps):
        for hook in layer._forward_pre_hooks.values():
            if isinstance(hook, SpectralNorm) and hook.name == name:
                raise RuntimeError(f"spectral_norm(): the parameter '{name}' already has a "
                                   f"spectral_norm hook")
        weight = layer._parameters.get(name)
        if weight is None:
            raise ValueError(f"spectral_norm(): argument 'name' must name a parameter of the "
                             f"layer, got {name!r}")
        if not -weight.ndim <= dim < weight.ndim:
            raise ValueError(f"spectral_norm(): argument 'dim' must be in [-{weight.ndim}, "
                             f"{weight.ndim}) for the {weight.ndim}-D weight, got {dim}")
        hook = SpectralNorm(name, n_power_iterations, dim % weight.ndim, eps)
        with no_grad():
            height, width = _as_matrix(weight, hook.dim).shape
            vectors = [layer.create_parameter([size], dtype=weight.dtype,
                                              default_initializer=Normal(0.0, 1.0))
                       for size in (height, width)]
            u, v = (normalize(t.detach(), axis=0, epsilon=eps) for t in vectors)
        del layer._parameters[name]
        layer.add_parameter(name + "_orig", weight)
        setattr(layer, name, weight * 1.0)
        layer.register_buffer(name + "_u", u)
        layer.register_buffer(name + "_v", v)
        layer.register_forward_pre_hook(hook)
        return hook


def spectral_norm(layer, name="weight", n_power_iterations=1, eps=1e-12, dim=None):
    """Divide the parameter ``name`` of ``layer`` by its spectral norm before each call.

    The weight is seen as a matrix with rows along ``dim`` (by default 1 for
    ``Linear`` and the transposed convolutions, else 0). Before each call a
    forward pre-hook runs ``n_power_iterations`` steps of the power iteration
    (in training mode only; the vectors are the buffers ``<name>_u`` and
    ``<name>_v``), and sets ``layer.<name>`` to ``<name>_orig / sigma`` with
    ``sigma = u^T W v``. ``<name>_orig`` is the trained parameter. Returns ``layer``.

    >>> import pylayer
    >>> from pylayer.nn.utils.spectral_norm_hook import spectral_norm
    >>> linear = spectral_norm(pylayer.nn.Linear(3, 2))
    >>> list(linear.state_dict())
    ['bias', 'weight_orig', 'weight_u', 'weight_v']
    >>> linear.weight_u.shape, linear.weight_v.shape
    ([2], [3])
    """
    fn = "spectral_norm"
    if not isinstance(layer, Layer):
        raise TypeError(f"{fn}(): argument 'layer' (position 1) must be a Layer, got "
                        f"{type(layer).__name__}")
    check_str(name, fn, "name")
    eps = check_number(eps, fn, "eps", minimum=0.0)
    if dim is None:
        dim = _default_dim(layer)
    dim = check_int(dim, fn, "dim")
    if not isinstance(n_power_iterations, int) or n_power_iterations <= 0:
        raise ValueError(f"{fn}(): argument 'n_power_iterations' must be a positive int, got "
                         f"{n_power_iterations!r}")
    SpectralNorm.apply(layer, name, n_power_iterations, dim, eps)
    return layer
