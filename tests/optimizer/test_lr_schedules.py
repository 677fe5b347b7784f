"""The schedules added from Paddle 3.3.1's paddle.optimizer.lr: 20 rates each equal to
Paddle's, step(epoch), ReduceOnPlateau, state dicts and argument checks."""
import numpy as np
import pytest

import pylayer
from pylayer.optimizer import lr

# Each schedule and its settings, as run in Paddle 3.3.1 (CPU).
CASES = {
 'ExponentialDecay': (lr.ExponentialDecay, dict(learning_rate=0.5, gamma=0.9)),
 'InverseTimeDecay': (lr.InverseTimeDecay, dict(learning_rate=0.5, gamma=0.3)),
 'NaturalExpDecay': (lr.NaturalExpDecay, dict(learning_rate=0.5, gamma=0.2)),
 'MultiStepDecay': (lr.MultiStepDecay, dict(learning_rate=0.5, milestones=[3, 7, 12], gamma=0.5)),
 'PiecewiseDecay': (lr.PiecewiseDecay, dict(boundaries=[4, 9], values=[1.0, 0.5, 0.1])),
 'PolynomialDecay': (lr.PolynomialDecay, dict(learning_rate=0.5, decay_steps=8, end_lr=0.01, power=2.0)),
 'PolynomialDecay_cycle': (lr.PolynomialDecay, dict(learning_rate=0.5, decay_steps=6, end_lr=0.01, power=1.5, cycle=True)),
 'NoamDecay': (lr.NoamDecay, dict(d_model=16, warmup_steps=5, learning_rate=2.0)),
 'MultiplicativeDecay': (lr.MultiplicativeDecay, dict(learning_rate=0.5, lr_lambda=lambda e: 0.95 if e % 2 else 0.9)),
 'LinearLR': (lr.LinearLR, dict(learning_rate=0.5, total_steps=7, start_factor=0.2, end_factor=0.9)),
 'CosineAnnealingWarmRestarts': (lr.CosineAnnealingWarmRestarts, dict(learning_rate=0.5, T_0=3, T_mult=2, eta_min=0.05)),
 'CosineAnnealingWarmRestarts_1': (lr.CosineAnnealingWarmRestarts, dict(learning_rate=0.5, T_0=4)),
 'OneCycleLR': (lr.OneCycleLR, dict(max_learning_rate=1.0, total_steps=20, divide_factor=10.0, end_learning_rate=0.01)),
 'OneCycleLR_3': (lr.OneCycleLR, dict(max_learning_rate=1.0, total_steps=20, phase_pct=0.25, anneal_strategy='linear', three_phase=True)),
 'CyclicLR': (lr.CyclicLR, dict(base_learning_rate=0.1, max_learning_rate=1.0, step_size_up=3, step_size_down=5)),
 'CyclicLR_tri2': (lr.CyclicLR, dict(base_learning_rate=0.1, max_learning_rate=1.0, step_size_up=2, mode='triangular2')),
 'CyclicLR_exp': (lr.CyclicLR, dict(base_learning_rate=0.1, max_learning_rate=1.0, step_size_up=2, mode='exp_range', exp_gamma=0.9)),
 'CyclicLR_fn': (lr.CyclicLR, dict(base_learning_rate=0.1, max_learning_rate=1.0, step_size_up=2, scale_fn=lambda x: 1 / (1 + x), scale_mode='iterations')),
}

# Recorded from Paddle 3.3.1: scheduler() before each of 20 step() calls, for each case.
PADDLE = {
    'ExponentialDecay': [0.5, 0.45, 0.405, 0.36450000000000005, 0.32805, 0.29524500000000004, 0.2657205, 0.23914845000000004, 0.21523360500000005, 0.19371024450000005, 0.17433922005000005, 0.15690529804500003, 0.14121476824050005, 0.12709329141645004, 0.11438396227480505, 0.10294556604732454, 0.09265100944259208, 0.08338590849833288, 0.07504731764849959, 0.06754258588364964],
    'InverseTimeDecay': [0.5, 0.3846153846153846, 0.3125, 0.2631578947368421, 0.22727272727272727, 0.2, 0.17857142857142858, 0.16129032258064516, 0.14705882352941177, 0.13513513513513514, 0.125, 0.11627906976744186, 0.10869565217391305, 0.1020408163265306, 0.09615384615384615, 0.09090909090909091, 0.08620689655172414, 0.0819672131147541, 0.078125, 0.07462686567164178],
    'NaturalExpDecay': [0.5, 0.4093653765389909, 0.33516002301781966, 0.2744058180470132, 0.22466448205861078, 0.18393972058572117, 0.150597105956101, 0.12329848197080322, 0.10094825899732769, 0.08264944411079327, 0.06766764161830635, 0.055401579181166935, 0.045358976644706235, 0.03713678910716694, 0.030405031312608976, 0.024893534183931972, 0.020381101989183106, 0.016686634980163033, 0.01366186122364628, 0.011185385928082795],
    'MultiStepDecay': [0.5, 0.5, 0.5, 0.25, 0.25, 0.25, 0.25, 0.125, 0.125, 0.125, 0.125, 0.125, 0.0625, 0.0625, 0.0625, 0.0625, 0.0625, 0.0625, 0.0625, 0.0625],
    'PiecewiseDecay': [1.0, 1.0, 1.0, 1.0, 0.5, 0.5, 0.5, 0.5, 0.5, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1],
    'PolynomialDecay': [0.5, 0.38515625, 0.285625, 0.20140625, 0.1325, 0.07890625, 0.040625, 0.01765625, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01],
    'PolynomialDecay_cycle': [0.5, 0.3827556294132381, 0.27672221643639056, 0.18324116139070415, 0.10430054396763888, 0.0433402770545488, 0.01, 0.14178901664178015, 0.10430054396763888, 0.07125, 0.0433402770545488, 0.021787567995954868, 0.01, 0.08173685432789378, 0.06133071448613456, 0.0433402770545488, 0.028148148148148158, 0.016416339310766824, 0.01, 0.05659445367665477],
    'NoamDecay': [0.0, 0.044721359549995794, 0.08944271909999159, 0.1341640786499874, 0.17888543819998318, 0.22360679774997896, 0.2041241452319315, 0.18898223650461363, 0.1767766952966369, 0.16666666666666666, 0.15811388300841897, 0.15075567228888181, 0.14433756729740643, 0.1386750490563073, 0.1336306209562122, 0.12909944487358058, 0.125, 0.12126781251816648, 0.11785113019775792, 0.11470786693528089],
    'MultiplicativeDecay': [0.5, 0.475, 0.4275, 0.40612499999999996, 0.36551249999999996, 0.34723687499999994, 0.31251318749999996, 0.29688752812499997, 0.26719877531249997, 0.25383883654687495, 0.22845495289218745, 0.21703220524757807, 0.19532898472282026, 0.18556253548667923, 0.16700628193801131, 0.15865596784111075, 0.14279037105699968, 0.13565085250414968, 0.12208576725373471, 0.11598147889104797],
    'LinearLR': [0.1, 0.15000000000000002, 0.2, 0.25, 0.3, 0.35000000000000003, 0.4, 0.45, 0.45, 0.45, 0.45, 0.45, 0.45, 0.45, 0.45, 0.45, 0.45, 0.45, 0.45, 0.45],
    'CosineAnnealingWarmRestarts': [0.5, 0.3875, 0.16250000000000006, 0.5, 0.4698557158514987, 0.3875, 0.275, 0.16250000000000006, 0.08014428414850129, 0.5, 0.49233331091504035, 0.4698557158514987, 0.4340990257669732, 0.3875, 0.3332342851480672, 0.275, 0.21676571485193286, 0.16250000000000006, 0.11590097423302682, 0.08014428414850129],
    'CosineAnnealingWarmRestarts_1': [0.5, 0.42677669529663687, 0.25, 0.07322330470336313, 0.5, 0.42677669529663687, 0.25, 0.07322330470336313, 0.5, 0.42677669529663687, 0.25, 0.07322330470336313, 0.5, 0.42677669529663687, 0.25, 0.07322330470336313, 0.5, 0.42677669529663687, 0.25, 0.07322330470336313],
    'OneCycleLR': [0.09999999999999998, 0.18594235253127367, 0.41094235253127365, 0.6890576474687262, 0.9140576474687263, 1.0, 0.9875893165300026, 0.9509795896116974, 0.8920065838216749, 0.8136274519200731, 0.7197724508631912, 0.6151478623083756, 0.505, 0.3948521376916244, 0.29022754913680876, 0.19637254807992693, 0.11799341617832525, 0.05902041038830258, 0.02241068346999731, 0.01],
    'OneCycleLR_3': [0.04, 0.27999999999999997, 0.52, 0.76, 1.0, 0.76, 0.52, 0.28, 0.040000000000000036, 0.03637272727272727, 0.03274545454545455, 0.02911818181818182, 0.025490909090909092, 0.021863636363636366, 0.01823636363636364, 0.014609090909090912, 0.010981818181818183, 0.007354545454545454, 0.003727272727272732, 0.00010000000000000286],
    'CyclicLR': [0.1, 0.4, 0.7, 1.0, 0.8200000000000001, 0.64, 0.4600000000000001, 0.28, 0.1, 0.4, 0.7, 1.0, 0.8200000000000001, 0.64, 0.4600000000000001, 0.28, 0.1, 0.4, 0.7, 1.0],
    'CyclicLR_tri2': [0.1, 0.55, 1.0, 0.55, 0.1, 0.325, 0.55, 0.325, 0.1, 0.21250000000000002, 0.325, 0.21250000000000002, 0.1, 0.15625, 0.21250000000000002, 0.15625, 0.1, 0.12812500000000002, 0.15625, 0.12812500000000002],
    'CyclicLR_exp': [0.1, 0.505, 0.8290000000000001, 0.42805000000000004, 0.1, 0.3657205, 0.5782969000000001, 0.3152336050000001, 0.1, 0.27433922005000005, 0.41381059609000015, 0.24121476824050003, 0.1, 0.21438396227480505, 0.30589113209464913, 0.19265100944259209, 0.1, 0.17504731764849962, 0.23508517176729926, 0.1607883272952847],
    'CyclicLR_fn': [0.1, 0.325, 0.4, 0.21250000000000002, 0.1, 0.175, 0.22857142857142856, 0.15625, 0.1, 0.14500000000000002, 0.18181818181818182, 0.1375, 0.1, 0.13214285714285715, 0.16, 0.12812500000000002, 0.1, 0.125, 0.1473684210526316, 0.12250000000000001],
}


@pytest.mark.parametrize("key", sorted(CASES))
def test_twenty_rates_match_paddle(key):
    cls, settings = CASES[key]
    sched, found = cls(**settings), []
    for _ in range(20):
        found.append(sched())
        sched.step()
    np.testing.assert_allclose(found, PADDLE[key], rtol=1e-12, atol=0)
    assert sched.last_epoch == 20 and set(sched.state_dict()) == {"last_epoch", "last_lr"}


def test_step_to_an_epoch():
    # Recorded from Paddle 3.3.1: the rate after step(epoch) for each epoch in turn.
    sched = lr.CosineAnnealingWarmRestarts(0.5, T_0=3, T_mult=2)
    found = []
    for epoch in [5, 1, 12, 30, 2]:
        sched.step(epoch)
        found.append(sched())
    np.testing.assert_allclose(found, [0.375, 0.375, 0.42677669529663687, 0.34567085809127246, 0.12500000000000006], rtol=1e-12)
    sched = lr.MultiplicativeDecay(0.5, lambda epoch: 0.9)
    sched.step(4)
    assert sched() == pytest.approx(0.32805000000000006, rel=1e-12)


def test_linear_lr_step_to_an_epoch_is_the_closed_form():
    # Paddle 3.3.1 multiplies the previous rate by the one-step factor of the new
    # epoch, so step(epoch) lands on rates of no schedule (step(3) from epoch 0 gives
    # 0.12666666666666668); pylayer takes the closed form, as PyTorch does.
    sched = lr.LinearLR(0.5, total_steps=7, start_factor=0.2)
    found = []
    for epoch in [3, 5, 9, 2]:
        sched.step(epoch)
        found.append(sched())
    np.testing.assert_allclose(found, [0.5 * (0.2 + 0.8 * e / 7) for e in [3, 5, 7, 2]], rtol=1e-12)


METRICS = [1.0, 0.9, 0.95, 0.92, 0.91, 0.93, 0.89, 0.9, 0.9, 0.9, 0.9, 0.85, 0.86, 0.87, 0.88,
           0.89, 0.9, 0.91, 0.92, 0.93]


@pytest.mark.parametrize("settings, expected, state", [
    (dict(learning_rate=1.0, patience=2, factor=0.5), [1.0, 1.0, 1.0, 1.0, 0.5, 0.5, 0.5, 0.5, 0.5, 0.25, 0.25, 0.25, 0.25, 0.25, 0.125, 0.125, 0.125, 0.0625, 0.0625, 0.0625],
     {'cooldown_counter': 0.0, 'best': 0.85, 'num_bad_epochs': 2.0, 'last_epoch': 20.0, 'last_lr': 0.0625}),
    (dict(learning_rate=1.0, mode="max", threshold_mode="abs", threshold=0.01, patience=1,
          cooldown=2, factor=0.3, min_lr=0.05),
     [1.0, 1.0, 0.3, 0.3, 0.3, 0.3, 0.09, 0.09, 0.09, 0.09, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05],
     {'cooldown_counter': 1.0, 'best': 1.0, 'num_bad_epochs': 0.0, 'last_epoch': 20.0, 'last_lr': 0.05}),
])
def test_reduce_on_plateau_matches_paddle(settings, expected, state):
    # Recorded from Paddle 3.3.1: the rate after each step(metric), and the state dict.
    sched = lr.ReduceOnPlateau(**settings)
    assert sched() == 1.0 and sched.last_epoch == 0
    found = []
    for metric in METRICS:
        sched.step(metric)
        found.append(sched())
    np.testing.assert_allclose(found, expected, rtol=1e-12)
    assert sched.state_dict() == state
    again = lr.ReduceOnPlateau(**settings)
    again.set_state_dict(sched.state_dict())
    assert again.state_dict() == state


def test_reduce_on_plateau_takes_tensors_and_drives_an_optimizer():
    sched = lr.ReduceOnPlateau(1.0, patience=0, factor=0.5)
    w = pylayer.create_parameter([1], "float64")
    opt = pylayer.optimizer.SGD(learning_rate=sched, parameters=[w])
    sched.step(pylayer.to_tensor([2.0]))
    sched.step(np.array(3.0))
    assert opt.get_lr() == 0.5
    with pytest.raises(ValueError, match="metrics"):
        sched.step(pylayer.to_tensor([1.0, 2.0]))
    with pytest.raises(TypeError, match="metrics"):
        sched.step("a")


def test_one_cycle_refuses_to_step_beyond_total_steps():
    sched = lr.OneCycleLR(1.0, total_steps=3)
    for _ in range(3):
        sched.step()
    with pytest.raises(ValueError, match="total_steps"):
        sched.step()


@pytest.mark.parametrize("make", [
    lambda: lr.ExponentialDecay(0.5, 1.5),
    lambda: lr.NaturalExpDecay(0.5, 0.0),
    lambda: lr.PiecewiseDecay([], [1.0]),
    lambda: lr.PiecewiseDecay([1, 2], [1.0, 2.0]),
    lambda: lr.MultiStepDecay(0.5, [3, 2]),
    lambda: lr.LinearLR(0.5, 5, start_factor=0),
    lambda: lr.CyclicLR(0.1, 1.0, 2, mode="x"),
    lambda: lr.ReduceOnPlateau(1.0, mode="x"),
    lambda: lr.ReduceOnPlateau(1.0, factor=1.0),
    lambda: lr.NoamDecay(0, 5),
    lambda: lr.PolynomialDecay(0.5, 5, power=0),
    lambda: lr.CosineAnnealingWarmRestarts(0.5, 0),
    lambda: lr.OneCycleLR(1.0, 10, phase_pct=1.5),
    lambda: lr.OneCycleLR(1.0, 10, phase_pct=0.5, three_phase=True),
])
def test_settings_paddle_refuses_are_value_errors(make):
    with pytest.raises(ValueError):
        make()
