"""Adagrad: 20-step trajectories equal to Paddle 3.3.1's, state dict, argument checks."""
import numpy as np
import pytest

import pylayer
from pylayer.optimizer import Adagrad

from _trajectory import START, assert_trajectory, parameter, trajectory


# Recorded from Paddle 3.3.1 (CPU), paddle.optimizer.Adagrad(learning_rate=0.1, epsilon=1e-6, initial_accumulator_value=0.1) on the
# problem of _trajectory.py in float64: the parameter after each of 20 steps.
ADAGRAD_FLOAT64 = [
    [0.4270563556574079, -1.4003099271406856, 1.9000422173411766],
    [0.33742100947893133, -1.32795058991383, 1.8348278293503064],
    [0.25320964061486156, -1.2682051227659494, 1.7847251797620876],
    [0.17822309911041323, -1.2163534305668706, 1.743621744802655],
    [0.11194198230201874, -1.1701784199827927, 1.7086773437287326],
    [0.053189244239348295, -1.128421665205518, 1.6782944381139913],
    [0.0008582455385671497, -1.090279840154279, 1.6514656739173628],
    [-0.04597214827942313, -1.055196744879777, 1.627505398844966],
    [-0.08805027892178466, -1.0227635955050907, 1.605920666105558],
    [-0.1259853642128197, -0.9926659620701582, 1.5863422087252288],
    [-0.1602785341632761, -0.9646532426678843, 1.568484439192883],
    [-0.19134727675499075, -0.9385199990510803, 1.5521207961965178],
    [-0.2195438691659078, -0.9140939674863657, 1.5370677845795666],
    [-0.24516913903046458, -0.891228034764328, 1.5231742194061308],
    [-0.2684827705980731, -0.8697946772928913, 1.5103137302921588],
    [-0.28971108840432336, -0.8496819891578848, 1.4983793875131286],
    [-0.30905299877267695, -0.8307907691027374, 1.4872797544408292],
    [-0.3266845778317052, -0.8130323334722599, 1.476935925962577],
    [-0.342762656710957, -0.7963268394575692, 1.4672792652707705],
    [-0.35742765685830047, -0.7806019751346409, 1.4582496460038918],
]

# Recorded from Paddle 3.3.1 (CPU), paddle.optimizer.Adagrad(learning_rate=0.1, epsilon=1e-6, initial_accumulator_value=0.1) on the
# problem of _trajectory.py in float32: the parameter after each of 20 steps.
ADAGRAD_FLOAT32 = [
    [0.42705637216567993, -1.4003099203109741, 1.900042176246643],
    [0.3374210298061371, -1.3279505968093872, 1.8348277807235718],
    [0.25320965051651, -1.268205165863037, 1.7847251892089844],
    [0.17822310328483582, -1.216353416442871, 1.7436217069625854],
    [0.11194198578596115, -1.1701784133911133, 1.7086772918701172],
    [0.053189244121313095, -1.128421664237976, 1.6782944202423096],
    [0.0008582435548305511, -1.0902798175811768, 1.651465654373169],
    [-0.045972149819135666, -1.055196762084961, 1.6275054216384888],
    [-0.08805027604103088, -1.0227636098861694, 1.605920672416687],
    [-0.12598535418510437, -0.9926660060882568, 1.586342215538025],
    [-0.1602785289287567, -0.9646533131599426, 1.5684844255447388],
    [-0.19134727120399475, -0.938520073890686, 1.5521208047866821],
    [-0.21954385936260223, -0.9140940308570862, 1.5370677709579468],
    [-0.24516913294792175, -0.8912280797958374, 1.5231741666793823],
    [-0.2684827744960785, -0.8697947263717651, 1.510313630104065],
    [-0.2897110879421234, -0.8496820330619812, 1.4983793497085571],
    [-0.3090530037879944, -0.8307908177375793, 1.4872797727584839],
    [-0.3266845941543579, -0.8130323886871338, 1.4769359827041626],
    [-0.34276267886161804, -0.7963268756866455, 1.467279314994812],
    [-0.3574276864528656, -0.7806020379066467, 1.4582496881484985],
]


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_adagrad_trajectory_matches_paddle(dtype):
    found, opt = trajectory(Adagrad, dtype, learning_rate=0.1, epsilon=1e-6, initial_accumulator_value=0.1)
    assert_trajectory(found, {'float64': ADAGRAD_FLOAT64, 'float32': ADAGRAD_FLOAT32}[dtype], dtype)
    keys = sorted(k.replace(opt._parameter_list[0].name, 'P') for k in opt.state_dict())
    assert keys == ['P_moment_0']


def test_initial_accumulator_value_starts_the_moment():
    w = parameter([1.0])
    w.grad = pylayer.to_tensor([2.0], "float64")
    opt = Adagrad(learning_rate=0.1, epsilon=0.0, parameters=[w], initial_accumulator_value=5.0)
    opt.step()
    np.testing.assert_allclose(w.numpy(), [1.0 - 0.1 * 2.0 / 3.0], rtol=1e-12)
    assert opt.state_dict()[f"{w.name}_moment_0"].numpy().tolist() == [9.0]


def test_state_dict_round_trip_continues_the_trajectory():
    whole, _ = trajectory(Adagrad, learning_rate=0.1, initial_accumulator_value=0.1)
    first, opt = trajectory(Adagrad, steps=10, learning_rate=0.1, initial_accumulator_value=0.1)
    resumed = parameter(first[-1])
    again = Adagrad(parameters=[resumed], learning_rate=0.1, initial_accumulator_value=0.1)
    again.set_state_dict(opt.state_dict())
    for _ in range(10):
        (resumed ** 4 / 4 + pylayer.sin(3 * resumed)).sum().backward()
        again.step()
        again.clear_grad()
    np.testing.assert_array_equal(resumed.numpy(), whole[-1])
