"""The workloads of the performance issue and which library implements each.

This module imports nothing but the standard library, so that the worker can
load it in any peer's interpreter (a Paddle or PyTorch virtual environment
that has no pylayer). Each implementation module imports its library lazily.

An implementation is a function ``build(lib_module, case, sizes) -> Bench``
found as ``<module>.<function name>``; ``lib_module`` is the imported library
(``pylayer``, ``paddle``, ``torch``, ``numpy`` or ``autograd``).
"""
from dataclasses import dataclass, field
from typing import Callable, Optional

LIBS = ("pylayer", "paddle", "torch", "numpy", "autograd")

# What each library name imports as.
LIB_MODULES = {"pylayer": "pylayer", "paddle": "paddle", "torch": "torch",
               "numpy": "numpy", "autograd": "autograd"}

SIZES = {
    # The sizes the issue names.
    "full": dict(chain=200, width=64, big_width=2 ** 20, big_chain=20,
                 mlp=(64, 784, 256, 10), long_chain=100_000, short_chain=10_000,
                 cnn=(16, 3, 32, 10), attention=(8, 32, 64),
                 conv={"3to16": (16, 3, 32, 16), "16to32": (16, 16, 16, 32)},
                 # (vocab, width, heads, sequence, batch, layers)
                 gpt=(512, 128, 4, 64, 8, 2),
                 # (batch, channels, size, blocks, classes)
                 resnet=(16, 32, 32, 2, 10),
                 # (batch, in, hidden, out)
                 jacobian=(8, 32, 64, 16),
                 # (batch, data width, hidden)
                 wgan=(64, 128, 256),
                 # (collocation points, hidden width, hidden layers)
                 pinn=(256, 64, 3),
                 # (batch, widths...)
                 pylayer_mlp=(64, 784, 512, 512, 10),
                 # (batch, steps, input, hidden)
                 lstm=(16, 32, 128, 128)),
    # Tiny sizes for the smoke test: every code path, no meaningful timing.
    "tiny": dict(chain=4, width=8, big_width=2 ** 10, big_chain=3,
                 mlp=(4, 16, 8, 3), long_chain=100, short_chain=10,
                 cnn=(2, 3, 8, 10), attention=(2, 4, 8),
                 conv={"3to16": (2, 3, 8, 4), "16to32": (2, 4, 4, 8)},
                 gpt=(16, 8, 2, 4, 2, 2), resnet=(2, 4, 8, 2, 3), jacobian=(2, 4, 5, 3),
                 wgan=(4, 3, 5), pinn=(8, 5, 2), pylayer_mlp=(4, 12, 8, 8, 3),
                 lstm=(2, 3, 4, 5)),
}


@dataclass
class Bench:
    """One prepared measurement.

    ``step()`` runs one iteration, which does ``units`` of the workload's unit
    (200 ops, one training step...). When part of an iteration must not be
    timed (building the graph whose backward is measured), ``timed_step()``
    runs one iteration and returns the seconds of its timed part instead.
    """
    units: float
    step: Optional[Callable[[], object]] = None
    timed_step: Optional[Callable[[], float]] = None


@dataclass
class Workload:
    key: str
    title: str
    unit: str                      # printed unit of a median, e.g. "us/op"
    scale: float                   # seconds per unit -> printed unit
    cases: tuple                   # variants measured separately ("main", or "plain"/"hooks")
    impls: dict = field(default_factory=dict)   # lib -> "module:function"
    # A case that only some libraries run (a peer's second variant): case -> libs.
    case_libs: dict = field(default_factory=dict)
    # The model is deterministic and every library starts from the same weights:
    # the report compares the first-step losses.
    same_loss: bool = False

    def runs(self, case, lib):
        return lib in self.impls and lib in self.case_libs.get(case, (lib,))


PADDLE_API = "paddle_api"   # shared by pylayer and paddle: the same code runs on both

WORKLOADS = [
    Workload("1", "PyLayer tanh chain, [64] float32, fwd+bwd", "us/op", 1e6, ("main",), {
        "pylayer": PADDLE_API + ":pylayer_tanh_chain",
        "paddle": PADDLE_API + ":pylayer_tanh_chain",
        "torch": "torch_impl:function_tanh_chain",
        "numpy": "numpy_impl:tanh_chain",
        "autograd": "autograd_impl:primitive_tanh_chain"}),
    Workload("2", "built-in ops y = tanh(y)*0.5 + y, [64], fwd+bwd", "us/op", 1e6, ("main",), {
        "pylayer": PADDLE_API + ":builtin_chain",
        "paddle": PADDLE_API + ":builtin_chain",
        "torch": "torch_impl:builtin_chain",
        "numpy": "numpy_impl:builtin_chain",
        "autograd": "autograd_impl:builtin_chain"}),
    Workload("3", "PyLayer tanh chain, 2^20 float32, fwd+bwd", "ms/op", 1e3, ("main",), {
        "pylayer": PADDLE_API + ":pylayer_tanh_chain_big",
        "paddle": PADDLE_API + ":pylayer_tanh_chain_big",
        "torch": "torch_impl:function_tanh_chain_big",
        "numpy": "numpy_impl:tanh_chain_big"}),
    Workload("4", "MLP step 64x784-256-10, ReLU, CE, SGD", "ms/step", 1e3, ("main",), {
        "pylayer": PADDLE_API + ":mlp_step",
        "paddle": PADDLE_API + ":mlp_step",
        "torch": "torch_impl:mlp_step",
        "numpy": "numpy_impl:mlp_step",
        "autograd": "autograd_impl:mlp_step"}),
    Workload("5", "multiply chain [64], fwd+bwd, identity saved_tensors_hooks",
             "us/op", 1e6, ("plain", "hooks"), {
                 "pylayer": PADDLE_API + ":multiply_chain",
                 "paddle": PADDLE_API + ":multiply_chain",
                 "torch": "torch_impl:multiply_chain"}),
    Workload("6", "backward of a tanh chain [64], 10k vs 100k nodes", "ms/backward", 1e3,
             ("10k", "100k"), {
                 "pylayer": PADDLE_API + ":long_chain_backward",
                 "paddle": PADDLE_API + ":long_chain_backward",
                 "torch": "torch_impl:long_chain_backward",
                 "autograd": "autograd_impl:long_chain_backward"}),
    Workload("7", "tanh chain [64], forward only: Executor.run vs dynamic", "us/op", 1e6,
             ("dynamic", "static"), {
                 "pylayer": PADDLE_API + ":static_vs_dynamic",
                 "paddle": PADDLE_API + ":static_vs_dynamic"}),
]

WORKLOADS += [
    Workload("8", "small CNN step [16,3,32,32]: Conv-BN-ReLU-pool, Conv-ReLU-pool, Linear, CE, "
             "SGD", "ms/step", 1e3, ("main",), {
                 "pylayer": PADDLE_API + ":small_cnn_step",
                 "paddle": PADDLE_API + ":small_cnn_step",
                 "torch": "torch_impl:small_cnn_step"}),
    Workload("9", "Conv2D(C,O,3,p=1) alone, fwd+bwd: 3to16 on [16,3,32,32], 16to32 on "
             "[16,16,16,16]", "ms/step", 1e3, ("3to16", "16to32"), {
                 "pylayer": PADDLE_API + ":conv2d_alone",
                 "paddle": PADDLE_API + ":conv2d_alone",
                 "torch": "torch_impl:conv2d_alone",
                 "numpy": "numpy_impl:conv2d_alone"}),
    Workload("10", "attention step [8,32,64]: LayerNorm, q/k/v Linear, softmax(qk^T/8)v, "
             "mean, SGD", "ms/step", 1e3, ("main",), {
                 "pylayer": PADDLE_API + ":attention_step",
                 "paddle": PADDLE_API + ":attention_step",
                 "torch": "torch_impl:attention_step",
                 "numpy": "numpy_impl:attention_step"}),
]


def _model_step(key, title, cases, function, peers, case_libs=None, same_loss=True):
    impls = {"pylayer": PADDLE_API + ":" + function, "paddle": PADDLE_API + ":" + function}
    impls.update({lib: f"{lib}_impl:{function}" for lib in peers})
    return Workload(key, title, "ms/step", 1e3, cases, impls, case_libs or {}, same_loss)


# The steps of the models users build (issue 34).
WORKLOADS += [
    _model_step("11", "2-layer GPT (vocab 512, width 128, 4 heads, seq 64, batch 8), exact "
                "GELU, AdamW; torch sdpa: scaled_dot_product_attention", ("main", "sdpa"),
                "gpt_step", ("torch",), {"sdpa": ("torch",)}),
    _model_step("12", "ResNet: 2 basic blocks at 32 channels on [16,32,32,32], avg pool, "
                "Linear, CE, SGD momentum; numpy blas: its convolutions' matrix products "
                "alone", ("main", "blas"), "resnet_step", ("torch", "numpy"),
                {"main": ("pylayer", "paddle", "torch"), "blas": ("numpy",)}),
    _model_step("13", "jacobian [8,16,32] and hessian [8,32,32] of a tanh MLP 32-64-16, "
                "row by row; torch func: vmap(jacrev), vmap(hessian)", ("main", "func"),
                "jacobian_hessian", ("torch",), {"func": ("torch",)}, same_loss=False),
    _model_step("14", "WGAN-GP critic step: MLP 128-256-256-1, batch 64, gradient penalty "
                "(double backward), Adam", ("main",), "wgan_gp_step", ("torch",)),
    _model_step("15", "PINN step: tanh MLP 2-64-64-64-1 on 256 points, laplacian by nested "
                "grad, Adam", ("main",), "pinn_step", ("torch",)),
    _model_step("16", "MLP 784-512-512-10, batch 64, linear and ReLU as PyLayers, CE, SGD; "
                "numpy blas: its matrix products alone", ("main", "blas"),
                "pylayer_mlp_step", ("torch", "numpy"), {"blas": ("numpy",)}),
    _model_step("17", "1-layer LSTM, input 128, hidden 128, 32 steps, batch 16, MSE, SGD",
                ("main",), "lstm_step", ("torch",)),
]

# A training step with its forward and loss captured by ``jit.to_static`` (issue 36).
WORKLOADS += [
    Workload("18", "workload 4's MLP step, forward and loss under jit.to_static vs dynamic; "
             "numpy blas: its matrix products alone", "ms/step", 1e3,
             ("dynamic", "static", "blas"), {
                 "pylayer": PADDLE_API + ":mlp_to_static",
                 "paddle": PADDLE_API + ":mlp_to_static",
                 "numpy": "numpy_impl:mlp_products"},
             {"dynamic": ("pylayer", "paddle"), "static": ("pylayer", "paddle"),
              "blas": ("numpy",)}),
    Workload("19", "workload 8's CNN step, forward and loss under jit.to_static vs dynamic",
             "ms/step", 1e3, ("dynamic", "static"), {
                 "pylayer": PADDLE_API + ":small_cnn_to_static",
                 "paddle": PADDLE_API + ":small_cnn_to_static"}),
]

BY_KEY = {w.key: w for w in WORKLOADS}
