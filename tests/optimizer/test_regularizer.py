"""pylayer.regularizer: L1Decay and L2Decay, and how SGD and Adam apply them.

The numbers are Paddle 3.3.1's: ``run`` below trains the same small linear model in
float64 for three steps there and here; the parameters agree to 1e-12 (a few cases
in float32, to 3e-7).
"""
import copy
import pickle

import numpy as np
import pytest

import pylayer
from pylayer import static
from pylayer.nn import ClipGradByGlobalNorm, ClipGradByValue
from pylayer.optimizer import SGD, Adam
from pylayer.regularizer import L1Decay, L2Decay

W0 = np.array([[0.5, -0.3], [0.0, 0.8], [-1.2, 0.4]])
B0 = np.array([0.1, -0.2])
X = np.array([[1.0, 2.0, -1.0], [0.5, -0.5, 3.0], [-2.0, 1.0, 0.0], [0.3, 0.3, 0.3]])
Y = np.array([[1.0, 0.0], [0.0, 1.0], [2.0, -1.0], [0.5, 0.5]])

# Paddle 3.3.1: the weight (3 x 2, row by row) and then the bias after three steps.
PADDLE = {
    'SGD-none':
        [0.178194102667187, -0.0353871358734375, 0.0208305551671875, 0.578291090376563,
         -0.597887704129688, 0.526041965610938, 0.461523741546875, -0.320214446609375],
    'SGD-float':
        [0.173113262135938, -0.0328114705921874, 0.0221908990109375, 0.568378608782812,
         -0.587151922785937, 0.519607990267188, 0.457264982484375, -0.315746142546875],
    'SGD-int':
        [0.0882679920421875, 0.00954076975156253, 0.0459650070421875, 0.400015683501563,
         -0.408124064754687, 0.408633496235938, 0.381682810296875, -0.237954365359375],
    'SGD-L2':
        [0.173113262135938, -0.0328114705921874, 0.0221908990109375, 0.568378608782812,
         -0.587151922785937, 0.519607990267188, 0.457264982484375, -0.315746142546875],
    'SGD-L1':
        [0.164861662042187, -0.0220813180609375, 0.0222432707921875, 0.563063345689062,
         -0.584889129129687, 0.512335486548438, 0.446719147796875, -0.304767168484375],
    'SGD-L1-big':
        [-0.00846006608281247, 0.0108943135015625, 0.0406085739171875, 0.365102664751563,
         -0.415907654129687, 0.334151258735938, 0.254259429046875, -0.103952552859375],
    'SGD-attr-over-float':
        [0.125141439854687, 0.0175636985015626, 0.0226619236046875, 0.521135862251562,
         -0.548937304442187, 0.474209987485938, 0.453320734359375, -0.309445677546875],
    'SGD-attr-over-L2':
        [0.148580405104687, -0.0204180916859375, 0.0298974638546875, 0.519737565814062,
         -0.534661826692188, 0.487795134798438, 0.428964817796875, -0.286415799109375],
    'SGD-attr-no-opt':
        [0.178129000792187, -0.0352944321234375, 0.0217327657921875, 0.577011669126563,
         -0.597160993504688, 0.525019794360937, 0.441709823421875, -0.300520007234375],
    'SGD-attr-zero':
        [0.178183189854687, -0.0353715602484375, 0.0209817986046875, 0.578076103501562,
         -0.597765866942188, 0.525870166235938, 0.458168234359375, -0.316856915046875],
    'SGD-L2-globalclip':
        [0.419131317056994, -0.2490159660945, 0.000196559085631515, 0.678550580799465,
         -1.00832541839365, 0.348035333322205, 0.0975836634371016, -0.175121216130285],
    'SGD-L1-globalclip':
        [0.345219147274381, -0.145948972743748, 8.495834904889e-05, 0.64603971377626,
         -1.03909164845934, 0.252793045045177, -0.0437272623511598, -0.0519427567172211],
    'SGD-float-valueclip':
        [0.425835, -0.25436, 0.0010475, 0.6830475,
         -1.0259975, 0.3458025, 0.08859, -0.1743275],
    'SGD-L2-globalclip-noclip':
        [0.128370993330026, -0.0106333568536465, 0.0592719420708611, 0.47585697576314,
         -0.476437875366636, 0.457953970804604, 0.112936266247954, -0.180070242046331],
    'SGD-L2-lrfactor':
        [0.299770141895898, -0.14032468760918, 0.000312054122460948, 0.623596368601758,
         -0.787738402801367, 0.447820497439648, 0.444389160386719, -0.287338592902344],
    'Adam-none':
        [0.201628653681669, -0.00306701723219671, 0.0120658661801052, 0.511536336976436,
         -0.90221574089003, 0.670620067262871, 0.398652415238045, -0.492817209303309],
    'Adam-float':
        [0.201676414054857, -0.00315261543082596, 0.0136079162099743, 0.510929538126957,
         -0.902187201096901, 0.667054847756158, 0.398568622692947, -0.491860399588211],
    'Adam-int':
        [0.202383839849197, -0.00444396780762191, 0.0288290661410619, 0.505202196712785,
         -0.901850452805947, 0.467242260821947, 0.396347953209208, -0.403021215019684],
    'Adam-L2':
        [0.201676414054857, -0.00315261543082596, 0.0136079162099743, 0.510929538126957,
         -0.902187201096901, 0.667054847756158, 0.398568622692947, -0.491860399588211],
    'Adam-L1':
        [0.201536423014404, -0.00283468557757502, 0.0286313121240255, 0.510313159017759,
         -0.902129938511126, 0.664316406693062, 0.39854995776551, -0.491027987246354],
    'Adam-L1-big':
        [0.200863041784945, -0.000958054934341715, 0.0551440996044142, 0.499986671215877,
         -0.901519332666752, 0.198998128577763, 0.396072882692898, -0.0394233313595943],
    'Adam-attr-over-float':
        [0.201307831279265, -0.00229282285506341, 0.0455426014795649, 0.507632630999207,
         -0.901940743957735, 0.630176798872845, 0.398504142542338, -0.49161889553525],
    'Adam-attr-over-L2':
        [0.201896854899065, -0.00356075875684975, 0.0196430249258966, 0.508702099755138,
         -0.902067026013953, 0.640620185628291, 0.398484918942643, -0.488206286197781],
    'Adam-attr-no-opt':
        [0.201628615368447, -0.00306606739985585, 0.0120879383090203, 0.51150223220086,
         -0.902215526596781, 0.670542797759854, 0.398134997943399, -0.48495649270198],
    'Adam-attr-zero':
        [0.201628647799619, -0.00306689976034061, 0.0120692566218106, 0.511532114498835,
         -0.902215707989571, 0.670610519864621, 0.398573325708207, -0.491883347818583],
    'Adam-L2-globalclip':
        [0.204104592143026, -0.00997561725206975, 0.0473802603469397, 0.501887050724845,
         -0.901118031958145, 0.110312609757569, 0.122724797829386, 0.0553404940995758],
    'Adam-L1-globalclip':
        [0.200016399516301, -2.01195707671548e-05, 0.0601662536833045, 0.499983883959263,
         -0.900024353363596, 0.100035811052147, -0.121967361233708, 0.025035156308025],
    'Adam-float-valueclip':
        [0.204541057629506, -0.0115964679033915, 0.0333279832374297, 0.502136775097552,
         -0.901195004361164, 0.108176721648837, -0.0348228801958018, 0.0583263097100606],
    'Adam-L2-globalclip-noclip':
        [0.202038295405597, -0.0035256551892761, 0.0290539736683649, 0.502851690822639,
         -0.901920710811444, 0.552641137515907, 0.246662892686709, 0.00739570944519247],
    'Adam-L2-lrfactor':
        [0.350400053992995, -0.150682578648325, -0.0536017937993135, 0.651541122206134,
         -1.05048140374132, 0.542891899057748, 0.39817749174811, -0.478066381864618],
    'Adam-amsgrad-L1':
        [0.201452661985124, -0.00263138622625569, 0.0372006517511952, 0.509275716912304,
         -0.902059750815429, 0.65595559531871, 0.398454142226626, -0.488353210314672],
}

# The same in float32 (Paddle computes Adam's scalars in float32 too).
PADDLE_FLOAT32 = {
    'SGD-L1':
        [0.164861649, -0.0220813155, 0.0222432651, 0.563063383,
         -0.584889114, 0.512335479, 0.44671917, -0.304767191],
    'Adam-none':
        [0.201629668, -0.00306803361, 0.0120652793, 0.511537254,
         -0.902216733, 0.670619309, 0.398651391, -0.49281624],
    'Adam-L1':
        [0.20153743, -0.00283570471, 0.0286305994, 0.510314167,
         -0.902130961, 0.664315701, 0.398548961, -0.491027057],
    'Adam-attr-over-L2':
        [0.201897889, -0.00356175797, 0.0196424276, 0.508703053,
         -0.902068019, 0.640619636, 0.398483902, -0.488205343],
    'Adam-float-valueclip':
        [0.204542071, -0.0115974098, 0.0333273336, 0.50213778,
         -0.901196003, 0.108177692, -0.0348228849, 0.0583256483],
}


def _parameters(wattr=None, battr=None, dtype="float64"):
    w = pylayer.create_parameter([3, 2], dtype, attr=pylayer.ParamAttr(**(wattr or {})))
    b = pylayer.create_parameter([2], dtype, attr=pylayer.ParamAttr(**(battr or {})),
                                 is_bias=True)
    with pylayer.no_grad():
        w.set_value(W0.astype(dtype))
        b.set_value(B0.astype(dtype))
    return w, b


def _loss(w, b, dtype="float64"):
    x, y = pylayer.to_tensor(X.astype(dtype)), pylayer.to_tensor(Y.astype(dtype))
    return ((pylayer.matmul(x, w) + b - y) ** 2).mean()


def run(optimizer, weight_decay, wattr=None, battr=None, grad_clip=None, dtype="float64",
        **kwargs):
    w, b = _parameters(wattr, battr, dtype)
    opt = optimizer(learning_rate=0.1, parameters=[w, b], weight_decay=weight_decay,
                    grad_clip=grad_clip, **kwargs)
    for _ in range(3):
        _loss(w, b, dtype).backward()
        opt.step()
        opt.clear_grad()
    return np.concatenate([w.numpy().ravel(), b.numpy()])


def _forms(opt):
    return {
        f"{opt}-none": lambda: {"weight_decay": None},
        f"{opt}-float": lambda: {"weight_decay": 0.05},
        f"{opt}-int": lambda: {"weight_decay": 1},
        f"{opt}-L2": lambda: {"weight_decay": L2Decay(0.05)},
        f"{opt}-L1": lambda: {"weight_decay": L1Decay(0.05)},
        f"{opt}-L1-big": lambda: {"weight_decay": L1Decay(0.7)},
        f"{opt}-attr-over-float": lambda: {"weight_decay": 0.05,
                                           "wattr": {"regularizer": L1Decay(0.2)}},
        f"{opt}-attr-over-L2": lambda: {"weight_decay": L2Decay(0.05),
                                        "wattr": {"regularizer": L2Decay(0.3)},
                                        "battr": {"regularizer": L1Decay(0.1)}},
        f"{opt}-attr-no-opt": lambda: {"weight_decay": None,
                                       "battr": {"regularizer": L2Decay(0.3)}},
        f"{opt}-attr-zero": lambda: {"weight_decay": 0.05,
                                     "wattr": {"regularizer": L2Decay(0.0)}},
        f"{opt}-L2-globalclip": lambda: {"weight_decay": L2Decay(0.5),
                                         "grad_clip": ClipGradByGlobalNorm(0.1)},
        f"{opt}-L1-globalclip": lambda: {"weight_decay": L1Decay(0.5),
                                         "grad_clip": ClipGradByGlobalNorm(0.05)},
        f"{opt}-float-valueclip": lambda: {"weight_decay": 0.5,
                                           "grad_clip": ClipGradByValue(0.01)},
        f"{opt}-L2-globalclip-noclip": lambda: {"weight_decay": L2Decay(0.5),
                                                "grad_clip": ClipGradByGlobalNorm(0.1),
                                                "wattr": {"need_clip": False}},
        f"{opt}-L2-lrfactor": lambda: {"weight_decay": L2Decay(0.5),
                                       "wattr": {"learning_rate": 0.5}},
    }


CASES = {**{name: (SGD, form) for name, form in _forms("SGD").items()},
         **{name: (Adam, form) for name, form in _forms("Adam").items()},
         "Adam-amsgrad-L1": (Adam, lambda: {"weight_decay": L1Decay(0.1), "amsgrad": True})}


def test_every_case_has_paddles_numbers():
    assert set(CASES) == set(PADDLE)


@pytest.mark.parametrize("case", sorted(CASES))
def test_three_steps_match_paddle(case):
    optimizer, form = CASES[case]
    np.testing.assert_allclose(run(optimizer, **form()), PADDLE[case], rtol=0, atol=1e-12)


@pytest.mark.parametrize("case", sorted(PADDLE_FLOAT32))
def test_three_float32_steps_match_paddle(case):
    optimizer, form = CASES[case]
    got = run(optimizer, dtype="float32", **form())
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, PADDLE_FLOAT32[case], rtol=0, atol=3e-7)


def test_decay_comes_after_clipping():
    """Clipping first and decaying after (Paddle's order) differs from the other order."""
    clipped_then_decayed = run(SGD, L2Decay(0.5), grad_clip=ClipGradByGlobalNorm(0.1))
    w, b = _parameters()
    opt = SGD(learning_rate=0.1, parameters=[w, b])
    clip = ClipGradByGlobalNorm(0.1)
    for _ in range(3):
        _loss(w, b).backward()
        pairs = [(p, p.grad + 0.5 * p.detach()) for p in (w, b)]
        for p, g in clip(pairs):
            p.grad = g
        opt.step()
        opt.clear_grad()
    other_order = np.concatenate([w.numpy().ravel(), b.numpy()])
    assert np.abs(clipped_then_decayed - other_order).max() > 1e-3


def test_float32_parameters_stay_float32():
    w, b = _parameters(dtype="float32")
    opt = SGD(learning_rate=0.1, parameters=[w, b], weight_decay=L1Decay(0.25))
    _loss(w, b, "float32").backward()
    grad = w.grad.numpy().copy()
    opt.step()
    assert w.dtype == pylayer.float32 and w.numpy().dtype == np.float32
    expected = W0.astype(np.float32) - np.float32(0.1) * (
        grad + np.float32(0.25) * np.sign(W0).astype(np.float32))
    np.testing.assert_allclose(w.numpy(), expected, rtol=1e-6)


def test_gradient_is_not_written_into():
    w, b = _parameters()
    opt = Adam(learning_rate=0.1, parameters=[w, b], weight_decay=L2Decay(0.5))
    _loss(w, b).backward()
    grad = w.grad.numpy().copy()
    opt.step()
    np.testing.assert_array_equal(w.grad.numpy(), grad)


def test_str_repr_and_coefficient():
    assert str(L1Decay(0.5)) == "L1Decay, coeff=0.500000"
    assert str(L2Decay()) == "L2Decay, coeff=0.000000"
    assert repr(L2Decay(0.25)) == "L2Decay(coeff=0.25)"
    reg = L2Decay(coeff=1)
    assert reg.coeff == 1.0 and reg._coeff == 1.0 and isinstance(reg.coeff, float)
    assert L2Decay(-0.5).coeff == -0.5      # Paddle accepts a negative coefficient
    again = pickle.loads(pickle.dumps(L1Decay(0.3)))
    assert type(again) is L1Decay and again.coeff == 0.3
    assert copy.deepcopy(L2Decay(0.1)).coeff == 0.1


def test_namespace():
    assert pylayer.regularizer.__all__ == ["L1Decay", "L2Decay"]
    assert "regularizer" in pylayer.__all__


def test_call_gives_the_recorded_decay_term():
    p = pylayer.to_tensor([-2.0, 0.0, 3.0], dtype="float64", stop_gradient=False)
    np.testing.assert_array_equal(L1Decay(0.5)(p).numpy(), [-0.5, 0.0, 0.5])
    term = L2Decay(0.5)(p, None, None)
    np.testing.assert_array_equal(term.numpy(), [-1.0, 0.0, 1.5])
    assert not term.stop_gradient
    term.sum().backward()
    np.testing.assert_array_equal(p.grad.numpy(), [0.5, 0.5, 0.5])
    with pytest.raises(TypeError, match=r"L2Decay\(\): argument 'param' must be a Tensor"):
        L2Decay(0.5)([1.0])


def test_optimizer_regularization_attribute():
    w, b = _parameters()
    assert SGD(parameters=[w]).regularization is None
    reg = SGD(parameters=[w], weight_decay=0.1).regularization
    assert type(reg) is L2Decay and reg.coeff == 0.1
    l1 = L1Decay(0.2)
    opt = Adam(parameters=[w], weight_decay=l1)
    assert opt.regularization is l1
    assert "weight_decay=L1Decay(coeff=0.2)" in repr(opt)


@pytest.mark.parametrize("value, error, message", [
    (None, TypeError, "must be a number, got None"),
    ("0.1", TypeError, "must be a number, got '0.1'"),
    (True, TypeError, "must be a number, got True"),
    ([0.1], TypeError, "must be a number, got list"),
    (float("nan"), ValueError, "must be a finite number, got nan"),
    (float("inf"), ValueError, "must be a finite number, got inf"),
])
@pytest.mark.parametrize("cls", [L1Decay, L2Decay])
def test_bad_coefficients(cls, value, error, message):
    with pytest.raises(error, match=rf"{cls.__name__}\(\): argument 'coeff' {message}"):
        cls(value)


@pytest.mark.parametrize("value", ["0.1", [0.1], {"coeff": 0.1}])
def test_bad_weight_decay_and_regularizer(value):
    w, _ = _parameters()
    with pytest.raises(TypeError, match=r"SGD\(\): argument 'weight_decay' must be a number "
                                        r"\(an L2 coefficient\), an L1Decay or L2Decay, or None"):
        SGD(parameters=[w], weight_decay=value)
    with pytest.raises(TypeError, match=r"ParamAttr\(\): argument 'regularizer' must be an "
                                        r"L1Decay or L2Decay"):
        pylayer.ParamAttr(regularizer=value)


def test_param_attr_keeps_the_regularizer():
    reg = L1Decay(0.1)
    w = pylayer.create_parameter([2], "float32", attr=pylayer.ParamAttr(regularizer=reg))
    assert w.regularizer is reg
    assert copy.deepcopy(w).regularizer.coeff == 0.1


def test_static_minimize_applies_the_regularizers():
    """A static program decays as dynamic mode does: the parameter's own over the
    optimizer's."""
    expected = PADDLE["SGD-attr-over-float"]
    pylayer.enable_static()
    try:
        main, startup = static.Program(), static.Program()
        with static.program_guard(main, startup):
            x = static.data("x", [4, 3], "float64")
            y = static.data("y", [4, 2], "float64")
            w = static.create_parameter([3, 2], "float64",
                                        attr=pylayer.ParamAttr(regularizer=L1Decay(0.2)))
            b = static.create_parameter([2], "float64", is_bias=True)
            loss = ((pylayer.matmul(x, w) + b - y) ** 2).mean()
            SGD(learning_rate=0.1, weight_decay=0.05).minimize(loss)
        exe = static.Executor()
        exe.run(startup)
        scope = static.global_scope()
        scope.find_var(w.name).get_tensor().set(W0)
        scope.find_var(b.name).get_tensor().set(B0)
        for _ in range(3):
            exe.run(main, feed={"x": X, "y": Y})
        got = np.concatenate([np.asarray(scope.find_var(w.name).get_tensor()).ravel(),
                              np.asarray(scope.find_var(b.name).get_tensor())])
    finally:
        pylayer.disable_static()
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-12)
