"""How to call every public method of pylayer's public classes with valid arguments.

``METHODS`` maps ``(class, method name)`` to a :class:`Call` whose ``setup``
makes the object (see ``_hostile_calls.py`` for the format). ``EXEMPT`` lists,
with a reason, the public methods whose arguments have nothing to corrupt
(``*args`` pass-throughs, boolean flags).
"""
import warnings

import numpy as np

import pylayer
from pylayer import autograd, demo, extend, io as data_io, metric, nn, optimizer, static
from pylayer.nn import initializer

from _hostile_values import (_value, A, K, Call, f23, f3, _graph, _layer, _optimizer,
                            _program, _block, _static_net, _chw, _ncl, _scheduler, _made)

# ------------------------------------------------------------------ methods
def _lbfgs(env):
    layer = nn.Linear(3, 2)
    opt = optimizer.LBFGS(parameters=layer.parameters(), max_iter=2)

    def closure():
        opt.clear_grad()
        loss = (layer(f23()) ** 2).sum()
        loss.backward()
        return loss
    env.update(self=opt, closure=closure)


def _ema(env):
    main, startup = static.Program(), static.Program()
    with static.program_guard(main, startup):
        static.create_parameter([1], "float32", name="hostile_ema_w")
        ema = static.ExponentialMovingAverage(0.9)
        ema.update()
    exe = static.Executor()
    exe.run(startup)
    exe.run(ema.apply_program)          # the backups that restore() reads
    env.update(self=ema, executor=exe)


INPUT_IS_X = {"input": ("x",)}  # a layer's forward hands its input to a functional's x

METHODS = {
    (pylayer.Generator, "manual_seed"): Call(A("seed", _value(3), "int"),
                                             setup=lambda env: env.update(
                                                 self=pylayer.Generator())),
    (pylayer.Generator, "set_state"): Call(A("state", lambda env: env["self"].get_state(),
                                             "state_dict"),
                                           setup=lambda env: env.update(
                                               self=pylayer.Generator())),
    (pylayer.Tensor, "item"): Call(A("index", _value(1), "int"), setup=lambda env: env.update(
        self=f23())),
    (pylayer.Tensor, "astype"): Call(A("dtype", _value("float64"), "dtype_required"),
                                     setup=lambda env: env.update(self=f23())),
    (pylayer.Tensor, "backward"): Call(A("grad_tensor", _value(None), "tensor_or_none"),
                                       setup=lambda env: (_graph(env),
                                                          env.update(self=env["x"] * 2)),
                                       extra=[("a gradient of the wrong shape",
                                               {"grad_tensor": lambda env: pylayer.ones([3])},
                                               "grad_tensor")]),
    (pylayer.Tensor, "register_hook"): Call(A("hook", _value(lambda g: g), "callable"),
                                            setup=lambda env: (_graph(env),
                                                               env.update(self=env["x"]))),
    (nn.Layer, "add_sublayer"): Call(A("name", _value("inner"), "str"),
                                     A("sublayer", lambda env: nn.ReLU(), "layer_or_none"),
                                     setup=_layer),
    (nn.Layer, "add_parameter"): Call(A("name", _value("scale"), "str"),
                                      A("parameter", lambda env: pylayer.create_parameter(
                                          [1], "float32"), "parameter_or_none"),
                                      setup=_layer),
    (nn.Layer, "register_buffer"): Call(A("name", _value("running"), "str"),
                                        A("tensor", f3, "tensor_or_none"), setup=_layer),
    (nn.Layer, "create_parameter"): Call(A("shape", _value([2, 3]), "shape"),
                                         K("attr", _value(None), "param_attr"),
                                         K("dtype", _value("float64"), "dtype"), setup=_layer),
    (nn.Layer, "set_state_dict"): Call(A("state_dict", lambda env: env["self"].state_dict(),
                                         "state_dict"), setup=_layer),
    (nn.Layer, "set_dict"): Call(A("state_dict", lambda env: env["self"].state_dict(),
                                   "state_dict"), setup=_layer, names=("set_state_dict",)),
    (nn.Layer, "load_dict"): Call(A("state_dict", lambda env: env["self"].state_dict(),
                                    "state_dict"), setup=_layer, names=("set_state_dict",)),
    (nn.Layer, "named_sublayers"): Call(K("prefix", _value("p"), "str"), setup=_layer),
    (nn.Layer, "named_parameters"): Call(K("prefix", _value("p"), "str"), setup=_layer),
    (nn.Layer, "named_buffers"): Call(K("prefix", _value("p"), "str"), setup=_layer),
    (nn.Layer, "state_dict"): Call(K("destination", _value(None), "dict_or_none"),
                                   K("structured_name_prefix", _value("p."), "str"),
                                   setup=_layer),
    (nn.Linear, "forward"): Call(A("input", f23, "float_tensor"), setup=_layer,
                                 names=("linear",), aliases=INPUT_IS_X,
                                 extra=[("an input of the wrong width",
                                         {"input": lambda env: pylayer.ones([2, 4])}, "input")]),
    (nn.Dropout, "forward"): Call(A("input", f23, "float_tensor"), names=("dropout",),
                                  aliases=INPUT_IS_X,
                                  setup=lambda env: env.update(self=nn.Dropout(0.5))),
    (nn.Sequential, "forward"): Call(A("input", f23, "float_tensor"), names=("linear",),
                                     aliases=INPUT_IS_X,
                                     setup=lambda env: env.update(self=nn.Sequential(
                                         nn.Linear(3, 2), nn.Tanh()))),
    (nn.ReLU, "forward"): Call(A("x", f23, "tensor"), names=("relu",), setup=lambda env: env.update(
        self=nn.ReLU())),
    (nn.LeakyReLU, "forward"): Call(A("x", f23, "float_tensor"), names=("leaky_relu",), setup=lambda env: env.update(
        self=nn.LeakyReLU())),
    (nn.GELU, "forward"): Call(A("x", f23, "float_tensor"), names=("gelu",), setup=lambda env: env.update(
        self=nn.GELU())),
    (nn.Sigmoid, "forward"): Call(A("x", f23, "math_tensor"), names=("sigmoid",), setup=lambda env: env.update(
        self=nn.Sigmoid())),
    (nn.Tanh, "forward"): Call(A("x", f23, "math_tensor"), names=("tanh",), setup=lambda env: env.update(
        self=nn.Tanh())),
    (nn.Softmax, "forward"): Call(A("x", f23, "float_tensor"), names=("softmax",), setup=lambda env: env.update(
        self=nn.Softmax())),
    (nn.LogSoftmax, "forward"): Call(A("x", f23, "float_tensor"), names=("log_softmax",),
                                     setup=lambda env: env.update(
        self=nn.LogSoftmax())),
    (nn.MSELoss, "forward"): Call(A("input", f23, "float_tensor"), A("label", f23, "float_tensor"),
                                  names=("mse_loss",),
                                  setup=lambda env: env.update(self=nn.MSELoss())),
    (nn.CrossEntropyLoss, "forward"): Call(
        A("input", f23, "float_tensor"), A("label", lambda env: pylayer.to_tensor([2, 0]),
                                           "int_tensor"), names=("cross_entropy",),
        setup=lambda env: env.update(self=nn.CrossEntropyLoss())),
    (nn.BCELoss, "forward"): Call(
        A("input", lambda env: pylayer.full([2, 3], 0.5), "float_tensor"),
        A("label", f23, "float_tensor"),
        names=("binary_cross_entropy",),
        setup=lambda env: env.update(self=nn.BCELoss())),
    (nn.BCEWithLogitsLoss, "forward"): Call(
        A("logit", f23, "float_tensor"),
        A("label", f23, "float_tensor"),
        names=("binary_cross_entropy_with_logits",),
        setup=lambda env: env.update(self=nn.BCEWithLogitsLoss())),
    (nn.NLLLoss, "forward"): Call(
        A("input", f23, "float_tensor"),
        A("label", lambda env: pylayer.to_tensor([2, 0]), "int_tensor"),
        names=("nll_loss",),
        setup=lambda env: env.update(self=nn.NLLLoss())),
    (nn.L1Loss, "forward"): Call(
        A("input", f23, "float_tensor"),
        A("label", f23, "float_tensor"),
        names=("l1_loss",),
        setup=lambda env: env.update(self=nn.L1Loss())),
    (nn.SmoothL1Loss, "forward"): Call(
        A("input", f23, "float_tensor"),
        A("label", f23, "float_tensor"),
        names=("smooth_l1_loss",),
        setup=lambda env: env.update(self=nn.SmoothL1Loss())),
    (nn.KLDivLoss, "forward"): Call(
        A("input", f23, "float_tensor"),
        A("label", f23, "float_tensor"),
        names=("kl_div",),
        setup=lambda env: env.update(self=nn.KLDivLoss())),
    (nn.MarginRankingLoss, "forward"): Call(
        A("input", f23, "float_tensor"),
        A("other", f23, "float_tensor"),
        A("label", f23, "float_tensor"),
        names=("margin_ranking_loss",),
        setup=lambda env: env.update(self=nn.MarginRankingLoss())),
    (nn.HingeEmbeddingLoss, "forward"): Call(
        A("input", f23, "float_tensor"),
        A("label", f23, "real_tensor"),
        names=("hinge_embedding_loss",),
        setup=lambda env: env.update(self=nn.HingeEmbeddingLoss())),
    (nn.CosineEmbeddingLoss, "forward"): Call(
        A("input1", f23, "float_tensor"),
        A("input2", f23, "float_tensor"),
        A("label", lambda env: pylayer.to_tensor([1, -1]), "real_tensor"),
        names=("cosine_embedding_loss",),
        setup=lambda env: env.update(self=nn.CosineEmbeddingLoss())),
    (nn.SoftMarginLoss, "forward"): Call(
        A("input", f23, "float_tensor"),
        A("label", f23, "float_tensor"),
        names=("soft_margin_loss",),
        setup=lambda env: env.update(self=nn.SoftMarginLoss())),
    (nn.MultiLabelSoftMarginLoss, "forward"): Call(
        A("input", f23, "float_tensor"),
        A("label", f23, "float_tensor"),
        names=("multi_label_soft_margin_loss",),
        setup=lambda env: env.update(self=nn.MultiLabelSoftMarginLoss())),
    (nn.PoissonNLLLoss, "forward"): Call(
        A("input", f23, "float_tensor"),
        A("label", f23, "float_tensor"),
        names=("poisson_nll_loss",),
        setup=lambda env: env.update(self=nn.PoissonNLLLoss())),
    (nn.GaussianNLLLoss, "forward"): Call(
        A("input", f23, "float_tensor"),
        A("label", f23, "float_tensor"),
        A("variance", lambda env: pylayer.ones([2, 3]), "float_tensor"),
        names=("gaussian_nll_loss",),
        setup=lambda env: env.update(self=nn.GaussianNLLLoss())),
    (nn.TripletMarginLoss, "forward"): Call(
        A("input", f23, "float_tensor"),
        A("positive", f23, "float_tensor"),
        A("negative", f23, "float_tensor"),
        names=("triplet_margin_loss",),
        setup=lambda env: env.update(self=nn.TripletMarginLoss())),
    (nn.TripletMarginWithDistanceLoss, "forward"): Call(
        A("input", f23, "float_tensor"),
        A("positive", f23, "float_tensor"),
        A("negative", f23, "float_tensor"),
        names=("triplet_margin_with_distance_loss",),
        setup=lambda env: env.update(self=nn.TripletMarginWithDistanceLoss())),
    (nn.MultiMarginLoss, "forward"): Call(
        A("input", f23, "float_tensor"),
        A("label", lambda env: pylayer.to_tensor([2, 0]), "int_tensor"),
        names=("multi_margin_loss",),
        setup=lambda env: env.update(self=nn.MultiMarginLoss())),
    (nn.MultiLabelMarginLoss, "forward"): Call(
        A("input", f23, "float_tensor"),
        A("label", lambda env: pylayer.to_tensor([[2, -1, 0], [0, 1, -1]]), "int_tensor"),
        names=("multi_label_margin_loss",),
        setup=lambda env: env.update(self=nn.MultiLabelMarginLoss())),
    (demo.MLP, "forward"): Call(A("x", lambda env: pylayer.ones([4, 2]), "float_tensor"),
                                names=("linear",),
                                setup=lambda env: env.update(self=demo.MLP(2, 4, 3))),
    (optimizer.Optimizer, "set_lr"): Call(A("value", _value(0.5), "non_negative"),
                                          setup=_optimizer(optimizer.SGD)),
    (optimizer.Optimizer, "minimize"): Call(
        A("loss", lambda env: env["layer"](f23()).sum(), "tensor"),
        setup=_optimizer(optimizer.SGD)),
    (optimizer.Optimizer, "set_state_dict"): Call(
        A("state_dict", lambda env: env["self"].state_dict(), "state_dict"),
        setup=_optimizer(optimizer.Adam)),
    (static.ExponentialMovingAverage, "apply"): Call(
        A("executor", lambda env: env["executor"], "program"), static=True, setup=_ema),
    (static.ExponentialMovingAverage, "restore"): Call(
        A("executor", lambda env: env["executor"], "program"), static=True, setup=_ema),
    (static.Program, "block"): Call(A("index", _value(0), "int"), setup=_program),
    (static.Program, "clone"): Call(K("for_test", _value(True), None), setup=_program),
    (static.Block, "var"): Call(A("name", _value("v"), "str"), setup=lambda env: (
        _block(env), env["self"].create_var(name="v", shape=[1], dtype="float32"))),
    (static.Block, "has_var"): Call(A("name", _value("v"), "str"), setup=_block),
    (static.Block, "create_var"): Call(K("name", _value("v2"), "str_or_none"),
                                       K("dtype", _value("float32"), "dtype"),
                                       K("shape", _value([2, 3]), "shape_or_none"),
                                       setup=_block),
    (static.Block, "create_parameter"): Call(
        A("name", _value("w9"), "str"), A("shape", _value([2, 3]), "shape"),
        A("dtype", _value("float32"), "dtype"),
        A("initializer", lambda env: initializer.Constant(1.0), "initializer_or_none"),
        setup=_block),
    (static.Variable, "astype"): Call(A("dtype", _value("float64"), "dtype_required"),
                                      static=True, setup=lambda env: (
                                          _static_net(env), env.update(self=env["x"]))),
    (static.Executor, "run"): Call(
        A("program", lambda env: env["main"], "program_or_none"),
        K("feed", lambda env: {"x": np.ones([2, 3], "float32")}, "feed"),
        K("fetch_list", lambda env: [env["y"]], "fetch_list"),
        setup=lambda env: _executor(env),
        extra=[("a feed of the wrong shape", {"feed": lambda env: {"x": np.ones([4], "float32")}},
                "feed"),
               ("a feed for an unknown variable",
                {"feed": lambda env: {"nope": np.ones([2, 3], "float32")}}, "feed")]),
    (static.Scope, "find_var"): Call(A("name", _value("v"), "str"),
                                     setup=lambda env: env.update(self=static.Scope())),
    (static.Scope, "var"): Call(A("name", _value("v"), "str"),
                                setup=lambda env: env.update(self=static.Scope())),
    (initializer.Constant, "generate"): Call(A("shape", _value([2, 3]), "shape"),
                                             A("dtype", _value("float32"), "dtype_required"),
                                             setup=lambda env: env.update(
                                                 self=initializer.Constant(1.0))),
    (initializer.Normal, "generate"): Call(A("shape", _value([2, 3]), "shape"),
                                           A("dtype", _value("float32"), "dtype_required"),
                                           setup=lambda env: env.update(
                                               self=initializer.Normal())),
    (initializer.Uniform, "generate"): Call(A("shape", _value([2, 3]), "shape"),
                                            A("dtype", _value("float32"), "dtype_required"),
                                            setup=lambda env: env.update(
                                                self=initializer.Uniform())),
    (initializer.XavierUniform, "generate"): Call(A("shape", _value([2, 3]), "shape"),
                                                  A("dtype", _value("float32"), "dtype_required"),
                                                  setup=lambda env: env.update(
                                                      self=initializer.XavierUniform())),
}
# The other initializers' generate: a shape each of them can fill.
METHODS.update({
    (cls, "generate"): Call(A("shape", _value(shape), "shape"),
                            A("dtype", _value("float32"), "dtype_required"),
                            setup=lambda env, make=make: env.update(self=make()))
    for cls, shape, make in [
        (initializer.XavierNormal, [2, 3], initializer.XavierNormal),
        (initializer.KaimingNormal, [2, 3], initializer.KaimingNormal),
        (initializer.KaimingUniform, [2, 3], initializer.KaimingUniform),
        (initializer.TruncatedNormal, [2, 3], initializer.TruncatedNormal),
        (initializer.Orthogonal, [2, 3], initializer.Orthogonal),
        (initializer.Dirac, [2, 2, 3], initializer.Dirac),
        (initializer.Bilinear, [1, 1, 4, 4], initializer.Bilinear),
        (initializer.Assign, [2, 3], lambda: initializer.Assign(np.ones([2, 3])))]
})


def _executor(env):
    main, startup = static.Program(), static.Program()
    pylayer.enable_static()
    try:
        with static.program_guard(main, startup):
            _static_net(env)
    finally:
        pylayer.disable_static()
    executor = static.Executor()
    executor.run(startup)
    env.update(self=executor, main=main)


EXEMPT = {
    (metric.Metric, "update"): "written by the user; the base one raises NotImplementedError",
    (metric.Metric, "compute"): "written by the user; the base one returns its arguments",
    (pylayer.Tensor, "cuda"): "always refuses: pylayer runs on the CPU only",
    (pylayer.Tensor, "clear_grad"): "a boolean flag",
    (pylayer.Tensor, "clear_gradient"): "a boolean flag",
    (autograd.PyLayer, "forward"): "written by the user; the base one raises NotImplementedError",
    (autograd.PyLayer, "backward"): "written by the user; the base one raises NotImplementedError",
    (autograd.PyLayer, "apply"): "passes its arguments to the user's forward",
    (autograd.PyLayerContext, "save_for_backward"): "keeps any values; only Tensors are packed",
    (autograd.PyLayerContext, "mark_not_inplace"): "compares identities with the inputs",
    (autograd.PyLayerContext, "mark_non_differentiable"): "compares identities with the outputs",
    (autograd.PyLayerContext, "set_materialize_grads"): "a boolean flag",
    (autograd.PyLayerContext, "set_grad_in_dtype_consistent"): "a boolean flag",
    (demo.Swish, "forward"): "a PyLayer forward: its ops check their arguments",
    (demo.Swish, "backward"): "a PyLayer backward, called by the engine",
    (nn.Layer, "forward"): "the base one raises NotImplementedError",
    (optimizer.LBFGS, "minimize"): "always refuses, as Paddle's: LBFGS steps with a closure",
    (nn.Layer, "sublayers"): "a boolean flag",
    (nn.Layer, "parameters"): "a boolean flag",
    (nn.Layer, "buffers"): "a boolean flag",
    (nn.Layer, "clear_gradients"): "a boolean flag",
    (initializer.Initializer, "generate"): "the base one raises NotImplementedError",
    (optimizer.Optimizer, "clear_grad"): "a boolean flag",
    (optimizer.Optimizer, "clear_gradients"): "a boolean flag",
    (static.Program, "to_string"): "boolean flags",
    (static.Block, "append_op"): "plumbing called by record_op with checked values",
    (static.Variable, "numpy"): "always refuses: a Variable has no value while building",
    (static.Variable, "item"): "always refuses: a Variable has no value while building",
    (static.Variable, "tolist"): "always refuses: a Variable has no value while building",
}


def _ncdhw(env=None):
    return pylayer.ones([1, 2, 2, 2, 2])


def _forward(layer_factory, x, kind="float_tensor", names=(), arg="input"):
    return Call(A(arg, x, kind), names=names, aliases={"input": ("x",)},
                setup=_made(layer_factory))


METHODS.update({
    (nn.Conv1D, "forward"): _forward(lambda: nn.Conv1D(2, 2, 3), _ncl, names=("conv1d",),
                                     arg="x"),
    (nn.Conv2D, "forward"): _forward(lambda: nn.Conv2D(2, 2, 3), _chw, names=("conv2d",),
                                     arg="x"),
    (nn.Conv1DTranspose, "forward"): Call(
        A("x", _ncl, "float_tensor"), K("output_size", _value(11), "count_or_none"),
        names=("conv1d_transpose",), setup=_made(lambda: nn.Conv1DTranspose(2, 2, 3, stride=2))),
    (nn.Conv2DTranspose, "forward"): Call(
        A("x", _chw, "float_tensor"), K("output_size", _value(6), "count_or_none"),
        names=("conv2d_transpose",), setup=_made(lambda: nn.Conv2DTranspose(2, 2, 3))),
    (nn.MaxPool1D, "forward"): _forward(lambda: nn.MaxPool1D(2), _ncl, names=("max_pool1d",),
                                        arg="x"),
    (nn.MaxPool2D, "forward"): _forward(lambda: nn.MaxPool2D(2), _chw, names=("max_pool2d",),
                                        arg="x"),
    (nn.AvgPool1D, "forward"): _forward(lambda: nn.AvgPool1D(2), _ncl, names=("avg_pool1d",),
                                        arg="x"),
    (nn.AvgPool2D, "forward"): _forward(lambda: nn.AvgPool2D(2), _chw, names=("avg_pool2d",),
                                        arg="x"),
    (nn.LayerNorm, "forward"): _forward(lambda: nn.LayerNorm(3), f23, names=("layer_norm",)),
    (nn.GroupNorm, "forward"): _forward(lambda: nn.GroupNorm(2, 2), _chw,
                                        names=("group_norm",)),
    (nn.Embedding, "forward"): _forward(lambda: nn.Embedding(7, 2),
                                        lambda env: pylayer.to_tensor([0, 6]), "int_tensor",
                                        names=("embedding",), arg="x"),
    (nn.Hardtanh, "forward"): _forward(nn.Hardtanh, f23, names=("hardtanh",), arg="x"),
    (nn.ELU, "forward"): _forward(nn.ELU, f23, names=("elu",), arg="x"),
    (nn.CELU, "forward"): _forward(nn.CELU, f23, names=("celu",), arg="x"),
    (nn.SELU, "forward"): _forward(nn.SELU, f23, names=("selu",), arg="x"),
    (nn.Silu, "forward"): _forward(nn.Silu, f23, names=("silu",), arg="x"),
    (nn.Softplus, "forward"): _forward(nn.Softplus, f23, names=("softplus",), arg="x"),
    (nn.ThresholdedReLU, "forward"): _forward(nn.ThresholdedReLU, f23,
                                              names=("thresholded_relu",), arg="x"),
    (nn.GLU, "forward"): _forward(lambda: nn.GLU(0), f23, names=("glu",), arg="x"),
    (nn.RReLU, "forward"): _forward(nn.RReLU, f23, names=("rrelu",), arg="x"),
    (nn.PReLU, "forward"): _forward(nn.PReLU, f23, names=("prelu",), arg="x"),
    (nn.Maxout, "forward"): _forward(lambda: nn.Maxout(2), lambda env: pylayer.ones([1, 4, 2, 2]),
                                     names=("maxout",), arg="x"),
    (nn.Softmax2D, "forward"): _forward(nn.Softmax2D, lambda env: pylayer.ones([2, 3, 2]),
                                        names=("softmax2d",), arg="x"),
    (nn.Identity, "forward"): Call(A("input", f23, None), setup=_made(nn.Identity)),
    (nn.PixelShuffle, "forward"): _forward(lambda: nn.PixelShuffle(2),
                                           lambda env: pylayer.ones([1, 4, 2, 2]), "tensor",
                                           names=("pixel_shuffle",), arg="x"),
    (nn.AdaptiveAvgPool1D, "forward"): _forward(lambda: nn.AdaptiveAvgPool1D(2), _ncl,
                                                names=("adaptive_avg_pool1d",)),
    (nn.AdaptiveAvgPool2D, "forward"): _forward(lambda: nn.AdaptiveAvgPool2D(2), _chw,
                                                names=("adaptive_avg_pool2d",)),
    # 3-D convolution and the poolings added with it (convpool)
    (nn.Conv3D, "forward"): _forward(lambda: nn.Conv3D(2, 2, 2), _ncdhw, names=("conv3d",),
                                     arg="x"),
    (nn.Conv3DTranspose, "forward"): Call(
        A("x", _ncdhw, "float_tensor"), K("output_size", _value(None), "count_or_none"),
        names=("conv3d_transpose",), setup=_made(lambda: nn.Conv3DTranspose(2, 2, 2))),
    (nn.MaxPool3D, "forward"): _forward(lambda: nn.MaxPool3D(2), _ncdhw, names=("max_pool3d",),
                                        arg="x"),
    (nn.AvgPool3D, "forward"): _forward(lambda: nn.AvgPool3D(2), _ncdhw, names=("avg_pool3d",),
                                        arg="x"),
    (nn.AdaptiveAvgPool3D, "forward"): _forward(lambda: nn.AdaptiveAvgPool3D(2), _ncdhw,
                                                names=("adaptive_avg_pool3d",), arg="x"),
    (nn.AdaptiveMaxPool1D, "forward"): _forward(lambda: nn.AdaptiveMaxPool1D(2), _ncl,
                                                names=("adaptive_max_pool1d",)),
    (nn.AdaptiveMaxPool2D, "forward"): _forward(lambda: nn.AdaptiveMaxPool2D(2), _chw,
                                                names=("adaptive_max_pool2d",), arg="x"),
    (nn.AdaptiveMaxPool3D, "forward"): _forward(lambda: nn.AdaptiveMaxPool3D(2), _ncdhw,
                                                names=("adaptive_max_pool3d",), arg="x"),
    (nn.MaxUnPool1D, "forward"): Call(
        A("x", lambda env: pylayer.ones([1, 2, 2]), "float_tensor"),
        A("indices", lambda env: pylayer.zeros([1, 2, 2], "int32"), "int_tensor"),
        names=("max_unpool1d",), setup=_made(lambda: nn.MaxUnPool1D(2))),
    (nn.MaxUnPool2D, "forward"): Call(
        A("x", lambda env: pylayer.ones([1, 2, 2, 2]), "float_tensor"),
        A("indices", lambda env: pylayer.zeros([1, 2, 2, 2], "int32"), "int_tensor"),
        names=("max_unpool2d",), setup=_made(lambda: nn.MaxUnPool2D(2))),
    (nn.MaxUnPool3D, "forward"): Call(
        A("x", lambda env: pylayer.ones([1, 2, 2, 2, 2]), "float_tensor"),
        A("indices", lambda env: pylayer.zeros([1, 2, 2, 2, 2], "int32"), "int_tensor"),
        names=("max_unpool3d",), setup=_made(lambda: nn.MaxUnPool3D(2))),
    (nn.LPPool1D, "forward"): _forward(lambda: nn.LPPool1D(2, 2), _ncl, names=("lp_pool1d",),
                                       arg="x"),
    (nn.LPPool2D, "forward"): _forward(lambda: nn.LPPool2D(2, 2), _chw, names=("lp_pool2d",),
                                       arg="x"),
    (nn.FractionalMaxPool2D, "forward"): _forward(
        lambda: nn.FractionalMaxPool2D(2, random_u=0.5), _chw,
        names=("fractional_max_pool2d",), arg="x"),
    (nn.FractionalMaxPool3D, "forward"): _forward(
        lambda: nn.FractionalMaxPool3D(2, random_u=0.5), _ncdhw,
        names=("fractional_max_pool3d",), arg="x"),
    (nn.Fold, "forward"): _forward(lambda: nn.Fold(3, 2), lambda env: pylayer.ones([1, 8, 4]),
                                   "inexact_tensor", names=("fold",)),
    (nn.Unfold, "forward"): _forward(lambda: nn.Unfold(2), _chw, names=("unfold",)),
    (nn.Layer, "register_forward_pre_hook"): Call(
        A("hook", _value(lambda layer, inputs: None), "callable"), setup=_layer),
    (nn.Layer, "register_forward_post_hook"): Call(
        A("hook", _value(lambda layer, inputs, output: None), "callable"), setup=_layer),
    (nn.LayerList, "append"): Call(A("sublayer", lambda env: nn.ReLU(), "layer"),
                                   setup=_made(nn.LayerList), names=("LayerList",)),
    (nn.LayerList, "insert"): Call(A("index", _value(0), "int"),
                                   A("sublayer", lambda env: nn.ReLU(), "layer"),
                                   setup=_made(nn.LayerList), names=("LayerList",)),
    (nn.LayerList, "extend"): Call(A("sublayers", lambda env: [nn.ReLU()], "parameters"),
                                   setup=_made(nn.LayerList), names=("LayerList",)),
    # containers (round 7)
    (nn.LayerList, "pop"): Call(A("key", _value(0), "int"),
                                setup=lambda env: env.update(self=nn.LayerList([nn.ReLU()])),
                                names=("LayerList",)),
    (nn.LayerDict, "pop"): Call(A("key", _value("a"), "str"),
                                setup=lambda env: env.update(self=nn.LayerDict(
                                    {"a": nn.ReLU()})), names=("LayerDict",)),
    (nn.LayerDict, "update"): Call(A("sublayers", lambda env: {"b": nn.ReLU()}, "parameters"),
                                   setup=_made(nn.LayerDict), names=("LayerDict",)),
    (nn.ParameterList, "append"): Call(A("parameter", lambda env: pylayer.create_parameter(
        [1], "float32"), "parameter_or_none"), setup=_made(nn.ParameterList),
        names=("ParameterList",)),
    (nn.ParameterDict, "update"): Call(A("parameters", lambda env: {
        "a": pylayer.create_parameter([1], "float32")}, "parameters"),
        setup=_made(nn.ParameterDict), names=("ParameterDict",)),
    (nn.Sequential, "append"): Call(A("module", lambda env: nn.ReLU(), "layer"),
                                    setup=_made(nn.Sequential), names=("Sequential",)),
    (nn.Sequential, "insert"): Call(A("index", _value(0), "int"),
                                    A("module", lambda env: nn.ReLU(), "layer"),
                                    setup=_made(nn.Sequential), names=("Sequential",)),
    (nn.Sequential, "extend"): Call(A("sequential", lambda env: [nn.ReLU()], "parameters"),
                                    setup=_made(nn.Sequential), names=("Sequential",)),
    (nn.CTCLoss, "forward"): Call(
        A("log_probs", lambda env: pylayer.zeros([4, 2, 3]), "float_tensor"),
        A("labels", lambda env: pylayer.to_tensor([[1, 2], [2, 0]], dtype="int32"), "int_tensor"),
        A("input_lengths", lambda env: pylayer.to_tensor([4, 3]), "int_tensor"),
        A("label_lengths", lambda env: pylayer.to_tensor([2, 1]), "int_tensor"),
        setup=lambda env: env.update(self=nn.CTCLoss()), names=("ctc_loss",)),
    (nn.AdaptiveLogSoftmaxWithLoss, "forward"): Call(
        A("input", lambda env: pylayer.ones([2, 8]), "float_tensor"),
        A("label", lambda env: pylayer.to_tensor([0, 9]), "int_tensor"),
        setup=lambda env: env.update(self=nn.AdaptiveLogSoftmaxWithLoss(8, 10, [3, 6])),
        names=("adaptive_log_softmax_with_loss",)),
    (nn.AdaptiveLogSoftmaxWithLoss, "log_prob"): Call(
        A("input", lambda env: pylayer.ones([2, 8]), "float_tensor"),
        setup=lambda env: env.update(self=nn.AdaptiveLogSoftmaxWithLoss(8, 10, [3, 6])),
        names=("log_prob",)),
    (nn.AdaptiveLogSoftmaxWithLoss, "predict"): Call(
        A("input", lambda env: pylayer.ones([2, 8]), "float_tensor"),
        setup=lambda env: env.update(self=nn.AdaptiveLogSoftmaxWithLoss(8, 10, [3, 6])),
        names=("log_prob",)),
    (nn.HSigmoidLoss, "forward"): Call(
        A("input", f23, "float_tensor"),
        A("label", lambda env: pylayer.to_tensor([0, 5]), "int_tensor"),
        setup=lambda env: env.update(self=nn.HSigmoidLoss(3, 6)), names=("hsigmoid_loss",)),
    (nn.RNNTLoss, "forward"): Call(
        A("input", lambda env: pylayer.full([1, 2, 2, 3], -1.1), "float_tensor"),
        A("label", lambda env: pylayer.to_tensor([[1]], dtype="int32"), "int_tensor"),
        A("input_lengths", lambda env: pylayer.to_tensor([2], dtype="int32"), "int_tensor"),
        A("label_lengths", lambda env: pylayer.to_tensor([1], dtype="int32"), "int_tensor"),
        setup=lambda env: env.update(self=nn.RNNTLoss()), names=("rnnt_loss",)),
    (optimizer.LBFGS, "step"): Call(A("closure", lambda env: env["closure"], "callable"),
                                    setup=_lbfgs, names=("LBFGS",)),
    (optimizer.LBFGS, "set_state_dict"): Call(
        A("state_dict", lambda env: env["self"].state_dict(), "state_dict"), setup=_lbfgs,
        names=("LBFGS",)),
    (optimizer.lr.LRScheduler, "step"): Call(K("epoch", _value(3), "count_or_none"),
                                             setup=_scheduler),
    (optimizer.lr.LRScheduler, "set_state_dict"): Call(
        A("state_dict", lambda env: env["self"].state_dict(), "state_dict"), setup=_scheduler),
    (optimizer.lr.LinearWarmup, "set_state_dict"): Call(
        A("state_dict", lambda env: env["self"].state_dict(), "state_dict"),
        setup=_made(lambda: optimizer.lr.LinearWarmup(0.5, 2, 0.0, 0.5))),
    (optimizer.lr.CosineAnnealingWarmRestarts, "step"): Call(
        K("epoch", _value(3), "count_or_none"),
        setup=_made(lambda: optimizer.lr.CosineAnnealingWarmRestarts(0.5, 2, 2))),
    (optimizer.lr.ReduceOnPlateau, "step"): Call(
        A("metrics", _value(0.5), "number"), K("epoch", _value(3), "count_or_none"),
        setup=_made(lambda: optimizer.lr.ReduceOnPlateau(0.5))),
    (optimizer.lr.ReduceOnPlateau, "set_state_dict"): Call(
        A("state_dict", lambda env: env["self"].state_dict(), "state_dict"),
        setup=_made(lambda: optimizer.lr.ReduceOnPlateau(0.5))),
})

# ------------------------------------------------------------- paddle.io
METHODS.update({
    (data_io.DistributedBatchSampler, "set_epoch"): Call(
        A("epoch", _value(1), "int"),
        setup=lambda env: env.update(self=data_io.DistributedBatchSampler(range(4), 2))),
})
EXEMPT.update({
    (data_io.ConcatDataset, "cumsum"): "takes any sequence of sized objects; len() decides",
})

# ------------------------------------------------------------------ metric
METHODS.update({
    (metric.Accuracy, "compute"): Call(
        A("pred", _value(np.array([[0.2, 0.8], [0.6, 0.4]])), "tensor"),
        A("label", _value(np.array([[1], [1]])), "tensor"),
        setup=lambda env: env.update(self=metric.Accuracy())),
    (metric.Accuracy, "update"): Call(
        A("correct", _value(np.array([[1.0], [0.0]])), "tensor"),
        setup=lambda env: env.update(self=metric.Accuracy())),
    (metric.Auc, "update"): Call(
        A("preds", _value(np.array([[0.2, 0.8], [0.6, 0.4]])), "tensor"),
        A("labels", _value(np.array([1, 0])), "tensor"),
        setup=lambda env: env.update(self=metric.Auc())),
})

# ------------------------------------------------------------------ attention and Transformers
def _sequences(*shape):
    return lambda env: pylayer.rand(list(shape))


_MHA = _made(lambda: nn.MultiHeadAttention(8, 2))
_ENCODER_LAYER = _made(lambda: nn.TransformerEncoderLayer(8, 2, 16))
_ENCODER = _made(lambda: nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16), 2))
_DECODER_LAYER = _made(lambda: nn.TransformerDecoderLayer(8, 2, 16))
_DECODER = _made(lambda: nn.TransformerDecoder(nn.TransformerDecoderLayer(8, 2, 16), 2))
_TRANSFORMER = _made(lambda: nn.Transformer(8, 2, 1, 1, 16))
_KEEP = _value(np.tril(np.ones((3, 3), dtype=bool)))

METHODS.update({
    (nn.MultiHeadAttention, "forward"): Call(
        A("query", _sequences(2, 3, 8), "float_tensor"),
        K("key", _sequences(2, 3, 8), "tensor_or_none"),
        K("attn_mask", _KEEP, "tensor_or_none"), setup=_MHA,
        extra=[("a mask that does not broadcast",
                {"attn_mask": lambda env: pylayer.ones([4, 5])}, "attn_mask")]),
    (nn.MultiHeadAttention, "compute_kv"): Call(
        A("key", _sequences(2, 3, 8), "float_tensor"),
        A("value", _sequences(2, 3, 8), "float_tensor"), setup=_MHA),
    (nn.MultiHeadAttention, "gen_cache"): Call(A("key", _sequences(2, 3, 8), "float_tensor"),
                                               setup=_MHA),
    (nn.TransformerEncoderLayer, "forward"): Call(
        A("src", _sequences(2, 3, 8), "float_tensor"),
        K("src_mask", _KEEP, "tensor_or_none"), setup=_ENCODER_LAYER),
    (nn.TransformerEncoderLayer, "gen_cache"): Call(
        A("src", _sequences(2, 3, 8), "float_tensor"), setup=_ENCODER_LAYER),
    (nn.TransformerEncoder, "forward"): Call(
        A("src", _sequences(2, 3, 8), "float_tensor"),
        K("src_mask", _KEEP, "tensor_or_none"), setup=_ENCODER),
    (nn.TransformerEncoder, "gen_cache"): Call(
        A("src", _sequences(2, 3, 8), "float_tensor"), setup=_ENCODER),
    (nn.TransformerDecoderLayer, "forward"): Call(
        A("tgt", _sequences(2, 3, 8), "float_tensor"),
        A("memory", _sequences(2, 4, 8), "float_tensor"),
        K("tgt_mask", _KEEP, "tensor_or_none"), setup=_DECODER_LAYER),
    (nn.TransformerDecoderLayer, "gen_cache"): Call(
        A("memory", _sequences(2, 4, 8), "float_tensor"), setup=_DECODER_LAYER),
    (nn.TransformerDecoder, "forward"): Call(
        A("tgt", _sequences(2, 3, 8), "float_tensor"),
        A("memory", _sequences(2, 4, 8), "float_tensor"),
        K("memory_mask", _value(None), "tensor_or_none"), setup=_DECODER),
    (nn.TransformerDecoder, "gen_cache"): Call(
        A("memory", _sequences(2, 4, 8), "float_tensor"), setup=_DECODER),
    (nn.Transformer, "forward"): Call(
        A("src", _sequences(2, 4, 8), "float_tensor"),
        A("tgt", _sequences(2, 3, 8), "float_tensor"),
        K("tgt_mask", _KEEP, "tensor_or_none"), setup=_TRANSFORMER),
    (nn.Transformer, "generate_square_subsequent_mask"): Call(
        A("length", _value(3), "count"), setup=_TRANSFORMER),
})


# ------------------------------------------------------- recurrent layers (nn/rnn.py)
def _sequence(env=None):
    return pylayer.ones([2, 4, 3])


METHODS.update({
    (nn.RNNCellBase, "get_initial_states"): Call(
        A("batch_ref", f23, "tensor"), K("dtype", _value("float64"), "dtype"),
        K("init_value", _value(1.0), "number"), names=("full",),
        aliases={"init_value": ("fill_value",)},
        setup=lambda env: env.update(self=nn.GRUCell(3, 4))),
    (nn.SimpleRNNCell, "forward"): Call(
        A("inputs", f23, "float_tensor"), setup=lambda env: env.update(self=nn.SimpleRNNCell(3, 4)),
        extra=[("an input of the wrong width", {"inputs": lambda env: pylayer.ones([2, 4])},
                "inputs")]),
    (nn.LSTMCell, "forward"): Call(
        A("inputs", f23, "float_tensor"), setup=lambda env: env.update(self=nn.LSTMCell(3, 4)),
        extra=[("an input of the wrong width", {"inputs": lambda env: pylayer.ones([2, 4])},
                "inputs")]),
    (nn.GRUCell, "forward"): Call(
        A("inputs", f23, "float_tensor"), setup=lambda env: env.update(self=nn.GRUCell(3, 4)),
        extra=[("an input of the wrong width", {"inputs": lambda env: pylayer.ones([2, 4])},
                "inputs")]),
    (nn.RNN, "forward"): Call(
        A("inputs", _sequence, "float_tensor"), K("sequence_length", _value(None), None),
        setup=lambda env: env.update(self=nn.RNN(nn.GRUCell(3, 4))),
        extra=[("a 2-D input", {"inputs": lambda env: pylayer.ones([2, 3])}, "inputs"),
               ("lengths of the wrong shape",
                {"sequence_length": lambda env: pylayer.to_tensor([4, 4, 4])},
                "sequence_length")]),
    (nn.BiRNN, "forward"): Call(
        A("inputs", _sequence, "float_tensor"), K("initial_states", _value(None), None),
        setup=lambda env: env.update(self=nn.BiRNN(nn.GRUCell(3, 4), nn.GRUCell(3, 4))),
        extra=[("initial states that are not a pair",
                {"initial_states": lambda env: pylayer.zeros([2, 4])}, "initial_states")]),
})


# ------------------------------------------------ normalization and dropout layers (normdrop)
METHODS.update({
    (nn.BatchNorm, "forward"): _forward(lambda: nn.BatchNorm(2), _chw, names=("batch_norm",)),
    (nn.SyncBatchNorm, "forward"): _forward(lambda: nn.SyncBatchNorm(2), _chw,
                                            names=("batch_norm",), arg="x"),
    (nn.SyncBatchNorm, "convert_sync_batchnorm"): Call(
        A("layer", lambda env: nn.BatchNorm1D(2), "layer"),
        setup=lambda env: env.update(self=nn.SyncBatchNorm)),
    (nn.LocalResponseNorm, "forward"): _forward(lambda: nn.LocalResponseNorm(3), _chw,
                                                names=("local_response_norm",)),
    (nn.SpectralNorm, "forward"): _forward(lambda: nn.SpectralNorm([2, 3]), f23, arg="x"),
    (nn.Dropout2D, "forward"): _forward(lambda: nn.Dropout2D(0.5), _chw, names=("dropout2d",)),
    (nn.AlphaDropout, "forward"): _forward(lambda: nn.AlphaDropout(0.5), f23,
                                           names=("alpha_dropout",)),
})


# ------------------------------------ padding, resampling and pairwise layers (spatial2)
METHODS.update({
    (nn.Flatten, "forward"): _forward(nn.Flatten, f23, "tensor", names=("flatten",),
                                      arg="input"),
    (nn.Unflatten, "forward"): _forward(lambda: nn.Unflatten(1, [3, 1]), f23, "tensor",
                                        names=("unflatten",), arg="input"),
    (nn.Upsample, "forward"): _forward(lambda: nn.Upsample(scale_factor=2), _chw,
                                       names=("interpolate",), arg="x"),
    (nn.PixelUnshuffle, "forward"): _forward(lambda: nn.PixelUnshuffle(2), _chw,
                                             names=("pixel_unshuffle",), arg="x"),
    (nn.ChannelShuffle, "forward"): _forward(lambda: nn.ChannelShuffle(2), _chw,
                                             names=("channel_shuffle",), arg="x"),
    (nn.CosineSimilarity, "forward"): Call(
        A("x1", f23, "float_tensor"), A("x2", f23, "float_tensor"),
        names=("cosine_similarity",), setup=_made(nn.CosineSimilarity)),
    (nn.PairwiseDistance, "forward"): Call(
        A("x", f23, "float_tensor"), A("y", f23, "float_tensor"),
        names=("pairwise_distance",), setup=_made(nn.PairwiseDistance)),
    (nn.Bilinear, "forward"): Call(
        A("x1", f23, "float_tensor"), A("x2", lambda env: pylayer.ones([2, 2]), "float_tensor"),
        names=("bilinear",), setup=_made(lambda: nn.Bilinear(3, 2, 4))),
})


# ------------------------------------------------------------ distribution
from pylayer import distribution  # noqa: E402 - this block is the distribution area's own


def _distribution(make):
    return lambda env: env.update(self=make())


def _exponential():
    return distribution.Exponential(pylayer.to_tensor([2.0, 0.5]))


_VALUE = A("value", lambda env: pylayer.to_tensor([0.3, 1.2]), "tensor")
_SHAPE = A("shape", _value([3]), "shape")
METHODS.update({
    **{(distribution.Distribution, name): Call(_VALUE, setup=_distribution(_exponential))
       for name in ("log_prob", "prob", "probs", "cdf")},
    (distribution.Distribution, "icdf"): Call(
        A("value", lambda env: pylayer.to_tensor([0.3, 0.6]), "tensor"),
        setup=_distribution(_exponential)),
    **{(distribution.Distribution, name): Call(_SHAPE, setup=_distribution(_exponential))
       for name in ("sample", "rsample")},
    (distribution.Distribution, "kl_divergence"): Call(
        A("other", lambda env: _exponential(), "layer"), setup=_distribution(_exponential)),
    (distribution.Normal, "sample"): Call(_SHAPE, K("seed", _value(0), None),
                                          setup=_distribution(lambda: distribution.Normal(0.0,
                                                                                          1.0))),
    (distribution.Gamma, "rsample"): Call(_SHAPE, setup=_distribution(
        lambda: distribution.Gamma(2.0, 1.0))),
    (distribution.Bernoulli, "rsample"): Call(
        _SHAPE, K("temperature", _value(1.0), "number"),
        setup=_distribution(lambda: distribution.Bernoulli(0.3)),
        extra=[("a temperature of 0", {"temperature": _value(0.0)}, "temperature")]),
    (distribution.Categorical, "sample"): Call(_SHAPE, setup=_distribution(
        lambda: distribution.Categorical(pylayer.to_tensor([0.2, 0.8])))),
    **{(distribution.Categorical, name): Call(
        A("value", lambda env: pylayer.to_tensor([1, 0]), "tensor"),
        setup=_distribution(lambda: distribution.Categorical(pylayer.to_tensor([0.2, 0.8]))))
       for name in ("probs", "prob", "log_prob")},  # a class out of range: IndexError, as Paddle
    **{(distribution.Geometric, name): Call(
        A("k", lambda env: pylayer.to_tensor([2.0]), "tensor"),
        setup=_distribution(lambda: distribution.Geometric(0.3))) for name in ("pmf", "log_pmf")},
    **{(distribution.Transform, name): Call(
        A(arg, lambda env: pylayer.to_tensor([0.5, 1.0]), "tensor_only"),
        setup=_distribution(distribution.ExpTransform))
       for name, arg in (("forward", "x"), ("inverse", "y"), ("forward_log_det_jacobian", "x"),
                         ("inverse_log_det_jacobian", "y"))},
    **{(distribution.Transform, name): Call(
        A("shape", _value([2, 3]), "int_list"),
        setup=_distribution(distribution.StickBreakingTransform),
        extra=[("a shape with no event axis", {"shape": _value([])}, "shape")])
       for name in ("forward_shape", "inverse_shape")},
})


# ------------------------------------------------------------------ nn.decode
def _beam_decoder(env):
    env.update(self=nn.BeamSearchDecoder(nn.GRUCell(3, 4), 0, 1, 2,
                                         embedding_fn=nn.Embedding(5, 3),
                                         output_fn=nn.Linear(4, 5)))


METHODS.update({
    (nn.BeamSearchDecoder, "tile_beam_merge_with_batch"): Call(
        A("x", f23, "tensor"), A("beam_size", _value(2), "positive_int"), setup=_beam_decoder),
    (nn.BeamSearchDecoder, "initialize"): Call(
        A("initial_cell_states", lambda env: pylayer.zeros([2, 4]), "tensors"),
        setup=_beam_decoder),
})
EXEMPT.update({
    (nn.decode.Decoder, "initialize"): "the base one raises NotImplementedError",
    (nn.decode.Decoder, "step"): "the base one raises NotImplementedError",
    (nn.decode.Decoder, "finalize"): "the base one raises NotImplementedError",
    (nn.BeamSearchDecoder, "step"): "called by dynamic_decode with what initialize and the "
                                    "previous step returned; the cell checks the inputs",
    (nn.BeamSearchDecoder, "finalize"): "called by dynamic_decode with the stacked outputs of "
                                        "step; gather_tree checks the ids and parents",
})
# ------------------------------------------------- the high-level API (hapi)
def _hapi_model(env):
    rows = np.arange(24, dtype="float32").reshape(8, 3) / 24
    env["x"], env["y"] = rows, (rows[:, :1] > 0.5).astype("int64")
    env["data"] = data_io.TensorDataset([pylayer.to_tensor(env["x"]),
                                         pylayer.to_tensor(env["y"])])
    model = pylayer.Model(nn.Linear(3, 2))
    model.prepare(optimizer.SGD(0.1, parameters=model.parameters()), nn.CrossEntropyLoss(),
                  metric.Accuracy())
    env["self"] = model


def _hapi_saved(env):
    import tempfile
    _hapi_model(env)
    env["path"] = tempfile.mkdtemp() + "/model"
    env["self"].save(env["path"])


_HAPI_LOOP = dict(batch_size=("batch_size", _value(4), "positive_int"),
                  verbose=("verbose", _value(0), "count"),
                  num_workers=("num_workers", _value(0), "count"),
                  callbacks=("callbacks", _value(None), "parameters"))
METHODS.update({
    (pylayer.Model, "train_batch"): Call(A("inputs", lambda env: [env["x"]], "tensors"),
                                         A("labels", lambda env: [env["y"]], "grads_or_none"),
                                         A("update", _value(True), None), setup=_hapi_model),
    (pylayer.Model, "eval_batch"): Call(A("inputs", lambda env: [env["x"]], "tensors"),
                                        A("labels", lambda env: [env["y"]], "grads_or_none"),
                                        setup=_hapi_model),
    (pylayer.Model, "predict_batch"): Call(A("inputs", lambda env: [env["x"]], "tensors"),
                                           setup=_hapi_model),
    (pylayer.Model, "save"): Call(A("path", lambda env: env["path"] + "2", "path"),
                                  A("training", _value(True), None), setup=_hapi_saved),
    (pylayer.Model, "load"): Call(A("path", lambda env: env["path"], "existing_path"),
                                  A("skip_mismatch", _value(False), None),
                                  A("reset_optimizer", _value(False), None), setup=_hapi_saved),
    (pylayer.Model, "prepare"): Call(
        A("optimizer", lambda env: optimizer.SGD(parameters=env["self"].parameters()),
          "layer_or_none"),
        A("loss", lambda env: nn.CrossEntropyLoss(), "callable_or_none"),
        A("metrics", lambda env: [metric.Accuracy()], "parameters"),
        A("amp_configs", _value(None), "dict_or_none"), setup=_hapi_model),
    (pylayer.Model, "fit"): Call(
        A("train_data", lambda env: env["data"], "dlpack"),
        K("eval_data", _value(None), "str_or_none"),
        K(*_HAPI_LOOP["batch_size"]), K("epochs", _value(1), "positive_int"),
        K("eval_freq", _value(1), "positive_int"), K("log_freq", _value(1), "positive_int"),
        K("save_dir", _value(None), "str_or_none"), K("save_freq", _value(1), "positive_int"),
        K(*_HAPI_LOOP["verbose"]), K(*_HAPI_LOOP["num_workers"]), K(*_HAPI_LOOP["callbacks"]),
        K("accumulate_grad_batches", _value(1), "positive_int"),
        K("num_iters", _value(None), "count_or_none"), setup=_hapi_model),
    (pylayer.Model, "evaluate"): Call(
        A("eval_data", lambda env: env["data"], "dlpack"), K(*_HAPI_LOOP["batch_size"]),
        K("log_freq", _value(1), "positive_int"), K(*_HAPI_LOOP["verbose"]),
        K(*_HAPI_LOOP["num_workers"]), K(*_HAPI_LOOP["callbacks"]),
        K("num_iters", _value(None), "count_or_none"), setup=_hapi_model),
    (pylayer.Model, "predict"): Call(
        A("test_data", lambda env: env["data"], "dlpack"), K(*_HAPI_LOOP["batch_size"]),
        K(*_HAPI_LOOP["num_workers"]), K("stack_outputs", _value(False), None),
        K(*_HAPI_LOOP["verbose"]), K(*_HAPI_LOOP["callbacks"]), setup=_hapi_model),
    (pylayer.Model, "summary"): Call(
        A("input_size", _value((1, 3)), None), A("dtype", _value(None), "dtype"),
        setup=_hapi_model, extra=[("a negative size", {"input_size": _value((1, -3))},
                                   "input_size")]),
    (pylayer.callbacks.Callback, "set_params"): Call(
        A("params", _value({}), "dict_or_none"),
        setup=_made(pylayer.callbacks.Callback)),
})
_HOOK = ("a training-loop hook: Model calls it with the epoch or step and the logs it builds; "
         "the base one does nothing and a user's override takes what it likes")
EXEMPT.update({
    (pylayer.Model, "parameters"): "passes its arguments to network.parameters",
    (pylayer.callbacks.Callback, "set_model"): "keeps the Model it is given, as Paddle's does",
})
EXEMPT.update({(cls, name): _HOOK
               for cls in (pylayer.callbacks.Callback, pylayer.callbacks.ProgBarLogger,
                           pylayer.callbacks.ModelCheckpoint, pylayer.callbacks.LRScheduler,
                           pylayer.callbacks.EarlyStopping, pylayer.callbacks.ReduceLROnPlateau)
               for name in vars(cls) if name.startswith("on_")})
# ------------------------------------------------------------------ pylayer.amp
from pylayer import amp  # noqa: E402


def _scaler(env):
    # The scaler reads the latest auto_cast's dtype: float16 keeps it enabled whatever
    # ran before (auto_cast warns that float16 does nothing on the CPU).
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with amp.auto_cast(dtype="float16"):
            pass
    layer = nn.Linear(3, 2)
    loss = layer(f23()).sum()
    loss.backward()
    env.update(self=amp.GradScaler(), opt=optimizer.SGD(0.1, parameters=layer.parameters()),
               loss=loss)


_OPTIMIZER = A("optimizer", lambda env: env["opt"], "layer")
METHODS.update({
    (amp.GradScaler, "scale"): Call(A("var", lambda env: env["loss"], "tensor_only"),
                                    setup=_scaler),
    (amp.GradScaler, "unscale_"): Call(_OPTIMIZER, setup=_scaler),
    (amp.GradScaler, "step"): Call(_OPTIMIZER, setup=_scaler),
    (amp.GradScaler, "minimize"): Call(_OPTIMIZER, A("loss", lambda env: env["loss"], None),
                                       setup=_scaler),
    (amp.GradScaler, "set_init_loss_scaling"): Call(
        A("new_init_loss_scaling", _value(512.0), "number"), setup=_scaler),
    (amp.GradScaler, "set_incr_ratio"): Call(A("new_incr_ratio", _value(3.0), "number"),
                                             setup=_scaler),
    (amp.GradScaler, "set_decr_ratio"): Call(A("new_decr_ratio", _value(0.25), "number"),
                                             setup=_scaler),
    (amp.GradScaler, "set_incr_every_n_steps"): Call(
        A("new_incr_every_n_steps", _value(5), "positive_int"), setup=_scaler),
    (amp.GradScaler, "set_decr_every_n_nan_or_inf"): Call(
        A("new_decr_every_n_nan_or_inf", _value(2), "positive_int"), setup=_scaler),
    (amp.GradScaler, "load_state_dict"): Call(
        A("state_dict", lambda env: env["self"].state_dict(), "state_dict"), setup=_scaler),
})


# -------------------------------------------------------------- paddle.jit
def _translated(env):
    import os
    import tempfile
    path = os.path.join(tempfile.mkdtemp(), "model")
    pylayer.jit.save(nn.Linear(2, 2), path, [static.InputSpec([None, 2])])
    env.update(self=pylayer.jit.load(path))


_SPEC = {"self": static.InputSpec([None, 3])}
METHODS.update({
    (static.InputSpec, "from_tensor"): Call(A("tensor", lambda env: f23(), "tensor_only"),
                                            K("name", _value("x"), "str_or_none"),
                                            setup=lambda env: env.update(_SPEC)),
    (static.InputSpec, "from_numpy"): Call(A("ndarray", _value(np.ones([2])), "ndarray"),
                                           setup=lambda env: env.update(_SPEC)),
    (static.InputSpec, "batch"): Call(A("batch_size", _value(4), "count"),
                                      setup=lambda env: env.update(_SPEC)),
    (pylayer.jit.TranslatedLayer, "forward"): Call(A("inputs", lambda env: f23()[:, :2],
                                                     "tensor_only"), setup=_translated),
    (pylayer.jit.TranslatedLayer, "program"): Call(K("method_name", _value("forward"), "str"),
                                                   setup=_translated),
})


# pylayer.DataParallel (issue 35): what it adds hands its arguments to the wrapped layer.
EXEMPT.update({
    (pylayer.DataParallel, "forward"): "hands its arguments to the wrapped layer's forward",
    (pylayer.DataParallel, "scale_loss"): "returns the loss as it is, as Paddle's does",
    (pylayer.DataParallel, "state_dict"): "the wrapped layer's state_dict (checked there)",
    (pylayer.DataParallel, "set_state_dict"): "the wrapped layer's set_state_dict (checked there)",
    (pylayer.DataParallel, "set_dict"): "the wrapped layer's set_state_dict (checked there)",
    (pylayer.DataParallel, "load_dict"): "the wrapped layer's set_state_dict (checked there)",
})

# --------------------------------- pylayer.text
METHODS.update({
    (pylayer.text.ViterbiDecoder, "forward"): Call(
        A("potentials", lambda env: pylayer.rand([2, 3, 3]), "float_tensor"),
        A("lengths", lambda env: pylayer.to_tensor([3, 1]), "int_tensor"), names=("viterbi_decode",),
        setup=_made(lambda: pylayer.text.ViterbiDecoder(pylayer.rand([3, 3])))),
})


# ------------------------------------------ pylayer.incubate's optimizers (breadth)
from pylayer import incubate  # noqa: E402


def _lookahead(env):
    _optimizer(optimizer.SGD, learning_rate=0.1)(env)
    env["self"] = incubate.LookAhead(env["self"], alpha=0.5, k=2)


METHODS.update({
    (incubate.LookAhead, "minimize"): Call(
        A("loss", lambda env: env["layer"](f23()).sum(), "tensor"), setup=_lookahead),
    (incubate.ModelAverage, "minimize"): Call(
        A("loss", lambda env: env["layer"](f23()).sum(), "tensor"),
        setup=_optimizer(incubate.ModelAverage, average_window_rate=0.15)),
})
EXEMPT.update({
    (incubate.ModelAverage, "apply"): "a context manager; executor is for static mode, ignored "
                                      "in dynamic mode as in Paddle, need_restore a flag",
    (incubate.ModelAverage, "restore"): "executor is for static mode, ignored in dynamic mode "
                                        "as in Paddle",
})

# pylayer.distributed.fleet (issue 35), in a world of one process.
from pylayer.distributed import fleet as _fleet                         # noqa: E402
from pylayer.distributed.fleet import data_generator as _datagen       # noqa: E402
from pylayer.distributed.fleet.layers import mpu as _mpu               # noqa: E402


def _topology(env):
    env["self"] = _fleet.CommunicateTopology(["data", "model"], [1, 1])


def _hcg(env):
    env["self"] = _fleet.init(is_collective=True).get_hybrid_communicate_group()


def _started_fleet(env):
    env["self"] = _fleet.Fleet().init(is_collective=True)


def _fleet_layer(factory):
    def setup(env):
        _fleet.init(is_collective=True)
        env["self"] = factory()
    return setup


def _tracker(env):
    env["self"] = _mpu.RNGStatesTracker()
    env["self"].add("mine", 3)


METHODS.update({
    (_fleet.CommunicateTopology, "get_dim"): Call(A("axis_name", _value("data"), "str"),
                                                  setup=_topology),
    (_fleet.CommunicateTopology, "get_dim_size"): Call(A("axis_name", _value("data"), "str"),
                                                       setup=_topology),
    (_fleet.CommunicateTopology, "get_rank"): Call(K("data", _value(0), "count"),
                                                   K("model", _value(0), "count"),
                                                   setup=_topology),
    (_fleet.CommunicateTopology, "get_coord"): Call(A("rank", _value(0), "count"),
                                                    setup=_topology),
    (_fleet.CommunicateTopology, "get_axis_list"): Call(A("axis_name", _value("data"), "str"),
                                                        A("index", _value(0), "count"),
                                                        setup=_topology),
    (_fleet.CommunicateTopology, "get_comm_list"): Call(A("axis_name", _value("data"), "str"),
                                                        setup=_topology),
    (_fleet.CommunicateTopology, "get_fused_ranks"): Call(
        A("fused_axis", _value(["data"]), "names"), setup=_topology),
    (_fleet.CommunicateTopology, "get_rank_from_stage"): Call(
        A("global_rank", _value(0), "count"), K("data", _value(0), "count"), setup=_topology),
    (_fleet.Fleet, "init"): Call(K("role_maker", _value(None), "layer_or_none"),
                                 K("is_collective", _value(True), None),
                                 K("strategy", _value(None), "layer_or_none"),
                                 setup=lambda env: env.update(self=_fleet.Fleet())),
    (_fleet.Fleet, "all_reduce"): Call(A("input", _value([1.0]), None),
                                       A("mode", _value("sum"), "str"), setup=_started_fleet),
    (_fleet.Fleet, "distributed_model"): Call(A("model", lambda env: nn.Linear(2, 2), "layer"),
                                              setup=_started_fleet),
    (_fleet.Fleet, "distributed_optimizer"): Call(
        A("optimizer", lambda env: optimizer.SGD(0.1, parameters=nn.Linear(2, 2).parameters()),
          "layer"), K("strategy", _value(None), "layer_or_none"), setup=_started_fleet),
    (_fleet.HybridCommunicateGroup, "create_fuse_group"): Call(
        A("fused_strategy_list", _value(["data", "model"]), "names"), setup=_hcg),
    (_fleet.HybridCommunicateGroup, "get_rank_from_stage"): Call(
        A("stage_id", _value(0), "count"), setup=_hcg),
    (_fleet.UtilBase, "all_reduce"): Call(A("input", _value([1.0]), None),
                                          A("mode", _value("sum"), "str"),
                                          A("comm_world", _value("worker"), "str"),
                                          setup=_made(_fleet.UtilBase)),
    (_fleet.UtilBase, "all_gather"): Call(A("input", _value(1), None),
                                          A("comm_world", _value("worker"), "str"),
                                          setup=_made(_fleet.UtilBase)),
    (_fleet.UtilBase, "barrier"): Call(A("comm_world", _value("worker"), "str"),
                                       setup=_made(_fleet.UtilBase)),
    (_fleet.UtilBase, "get_file_shard"): Call(A("files", _value(["a", "b"]), "program"),
                                              setup=_made(_fleet.UtilBase)),
    (_fleet.UtilBase, "print_on_rank"): Call(A("message", _value("hi"), None),
                                             A("rank_id", _value(1), "rank"),
                                             setup=_made(_fleet.UtilBase)),
    (_datagen.DataGenerator, "set_batch"): Call(A("batch_size", _value(4), "positive_int"),
                                                setup=_made(_fleet.MultiSlotDataGenerator)),
    (_mpu.ColumnParallelLinear, "forward"): Call(
        A("x", f23, "float_tensor"), names=("linear",),
        setup=_fleet_layer(lambda: _mpu.ColumnParallelLinear(3, 2, has_bias=True))),
    (_mpu.RowParallelLinear, "forward"): Call(
        A("x", f23, "float_tensor"), names=("linear",),
        setup=_fleet_layer(lambda: _mpu.RowParallelLinear(3, 2))),
    (_mpu.VocabParallelEmbedding, "forward"): Call(
        A("x", lambda env: pylayer.to_tensor([1, 2]), "int_tensor"), names=("embedding",),
        setup=_fleet_layer(lambda: _mpu.VocabParallelEmbedding(6, 2))),
    (_mpu.ParallelCrossEntropy, "forward"): Call(
        A("input", f23, "float_tensor"), A("label", lambda env: pylayer.to_tensor([[2], [0]]),
                                           "int_tensor"), names=("cross_entropy",),
        setup=_fleet_layer(_mpu.ParallelCrossEntropy)),
    (_mpu.RNGStatesTracker, "add"): Call(A("name", _value("other"), "str"),
                                         A("seed", _value(4), "count"), setup=_tracker),
    (_mpu.RNGStatesTracker, "set_states_tracker"): Call(
        A("states", lambda env: env["self"].get_states_tracker(), "dict_or_none"),
        setup=_tracker),
    (_mpu.RNGStatesTracker, "rng_state"): Call(A("name", _value("mine"), "str"), setup=_tracker),
})
EXEMPT.update({
    (_fleet.Fleet, "worker_endpoints"): "a boolean flag",
    (_fleet.Fleet, "server_endpoints"): "a boolean flag",
    (_fleet.HybridCommunicateGroup, "get_check_parallel_group"): "a boolean flag",
    (_datagen.DataGenerator, "generate_sample"): "written by the user; the base one raises "
                                                 "NotImplementedError",
    (_datagen.DataGenerator, "generate_batch"): "may be written by the user; the base one "
                                                "yields the samples it is given",
})
# ------------------------------------------ vision.transforms (pylayer/vision/transforms)
from pylayer.vision import transforms as _vt  # noqa: E402


def _perspective(env):
    env["self"] = _vt.RandomPerspective()


METHODS[(_vt.RandomPerspective, "get_params")] = Call(
    A("width", _value(8), "positive_int"), A("height", _value(6), "positive_int"),
    A("distortion_scale", _value(0.5), "probability"), setup=_perspective)

# --------------------------------- pylayer.MmapStorage
def _mapped(env):
    import os
    import tempfile
    path = os.path.join(tempfile.mkdtemp(), "dump.bin")
    np.arange(4, dtype="float32").tofile(path)
    env["self"] = pylayer.MmapStorage(path, 16)


METHODS.update({
    (pylayer.MmapStorage, "get_slice"): Call(
        K("dtype", _value("float32"), "dtype_required"), K("start", _value(0), "count"),
        K("stop", _value(-1), "int"), K("step", _value(1), "positive_int"), setup=_mapped,
        extra=[("a slice beyond the mapping", {"stop": _value(5)}, "stop")]),
})

# --------------------------------- deformable convolution (pylayer.vision.ops)
from pylayer.vision import ops as _vops  # noqa: E402

METHODS.update({
    (_vops.DeformConv2D, "forward"): Call(
        A("x", _chw, "float_tensor"),
        A("offset", lambda env: pylayer.zeros([1, 18, 4, 4]), "float_tensor"),
        K("mask", lambda env: pylayer.ones([1, 9, 4, 4]), "tensor_or_none"),
        names=("deform_conv2d",),
        setup=_made(lambda: _vops.DeformConv2D(2, 2, 3, padding=1))),
})
