"""pylayer.vision.transforms against Paddle 3.3.1.

``data/paddle_reference.npz`` holds Paddle's outputs for the calls of ``CASES`` below
on three small random images (``img``: uint8 7x9x3, ``imgf``: float32 7x9x3, ``ten``:
float32 3x7x9, drawn with ``np.random.default_rng(0)`` and stored beside the outputs).
It was made by running the same calls (``paddle.vision.transforms`` on the numpy
images and on ``paddle.to_tensor(ten)``) in the scratch Paddle 3.3.1 with
opencv-python-headless 5.0 (Paddle's numpy path calls OpenCV), then
``np.savez_compressed``. numpy images go through Paddle's OpenCV backend: warps and
colour conversions match it exactly; ``uint8`` resizing may differ by 1 where
OpenCV's vectorised fixed-point rounding differs from the rounding of its plain
code, which pylayer follows (``RESIZE_TOLERANCE``).
"""
import pathlib

import numpy as np
import pytest

import pylayer
from pylayer.io import DataLoader, Dataset
from pylayer.vision import transforms as T
from pylayer.vision.transforms import functional as F

REFERENCE = dict(np.load(pathlib.Path(__file__).parent / "data" / "paddle_reference.npz"))
IMG, IMGF, TEN = REFERENCE["img"], REFERENCE["imgf"], REFERENCE["ten"]
P = [[0, 0], [8, 0], [8, 6], [0, 6]]
Q = [[1, 1], [7, 0], [8, 5], [0, 6]]
RESIZE_TOLERANCE = 1


def _x():
    return pylayer.to_tensor(TEN)


CASES = {}
for _m in ["nearest", "bilinear", "bicubic", "area", "lanczos"]:
    CASES[f"np_resize_down_{_m}"] = lambda m=_m: T.resize(IMG, (5, 4), m)
    CASES[f"np_resize_up_{_m}"] = lambda m=_m: T.resize(IMG, (11, 13), m)
    CASES[f"np_resize_f_{_m}"] = lambda m=_m: T.resize(IMGF, (5, 13), m)
CASES["np_resize_int"] = lambda: T.resize(IMG, 4)
for _m in ["constant", "edge", "reflect", "symmetric"]:
    CASES[f"np_pad_{_m}"] = lambda m=_m: T.pad(IMG, (1, 2, 3, 1), fill=(1, 2, 3), padding_mode=m)
for _m in ["nearest", "bilinear", "bicubic"]:
    CASES[f"np_rotate_{_m}"] = lambda m=_m: T.rotate(IMG, 30, m, fill=(9, 8, 7))
    CASES[f"np_perspective_{_m}"] = lambda m=_m: T.perspective(IMG, P, Q, m, fill=(9, 8, 7))
CASES.update({
    "np_rotate_expand": lambda: T.rotate(IMG, 30, expand=True),
    "np_rotate_center": lambda: T.rotate(IMG, -45, "bilinear", center=(2, 3)),
    "np_affine_translate": lambda: T.affine(IMG, 0, (2, 1), 1.0, 0),
    "np_gray1": lambda: T.to_grayscale(IMG),
    "np_gray3": lambda: T.to_grayscale(IMG, 3),
    "np_brightness": lambda: T.adjust_brightness(IMG, 1.7),
    "np_contrast": lambda: T.adjust_contrast(IMG, 0.6),
    "np_hue_pos": lambda: T.adjust_hue(IMG, 0.2),
    "np_hue_neg": lambda: T.adjust_hue(IMG, -0.35),
    "np_normalize": lambda: T.normalize(IMG, [10, 20, 30], [2, 3, 4], data_format="HWC",
                                        to_rgb=True),
    "np_to_tensor": lambda: T.to_tensor(IMG),
    "t_rotate_expand": lambda: T.rotate(_x(), 30, expand=True),
    "t_rotate_center": lambda: T.rotate(_x(), -45, "bilinear", center=(2, 3)),
    "t_pad_constant": lambda: T.pad(_x(), (1, 2, 3, 1), fill=0.5),
    "t_pad_edge": lambda: T.pad(_x(), (1, 2, 3, 1), padding_mode="edge"),
    "t_pad_reflect": lambda: T.pad(_x(), (1, 2, 3, 1), padding_mode="reflect"),
    "t_gray": lambda: T.to_grayscale(_x(), 3),
    "t_brightness": lambda: T.adjust_brightness(_x(), 1.7),
    "t_contrast": lambda: T.adjust_contrast(_x(), 0.6),
    "t_saturation": lambda: F.adjust_saturation(_x(), 0.3),
    "t_hue": lambda: T.adjust_hue(_x(), 0.2),
    "t_normalize": lambda: T.normalize(_x(), [0.1, 0.2, 0.3], [0.5, 0.6, 0.7]),
    "t_center_crop": lambda: T.center_crop(_x(), 4),
})
for _m in ["nearest", "bilinear", "bicubic"]:
    CASES[f"t_resize_{_m}"] = lambda m=_m: T.resize(_x(), (5, 13), m)
for _m in ["nearest", "bilinear"]:
    CASES[f"t_rotate_{_m}"] = lambda m=_m: T.rotate(_x(), 30, m, fill=0.5)
    CASES[f"t_affine_{_m}"] = lambda m=_m: T.affine(_x(), 20, (1, 2), 1.1, (5, 3), m, fill=0.25)
    CASES[f"t_perspective_{_m}"] = lambda m=_m: T.perspective(_x(), P, Q, m, fill=0.5)


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_paddles_output(name):
    out = CASES[name]()
    is_tensor = isinstance(out, pylayer.Tensor)
    array = out.numpy() if is_tensor else out
    expected = REFERENCE[name]
    assert is_tensor == name.startswith(("t_", "np_to_tensor"))
    assert array.shape == expected.shape and array.dtype == expected.dtype
    if expected.dtype == np.uint8:
        tolerance = RESIZE_TOLERANCE if "resize" in name else 0
        assert np.abs(array.astype(int) - expected).max() <= tolerance
    else:
        np.testing.assert_allclose(array, expected, rtol=1e-5, atol=1e-5)


# ------------------------------------------------------------ types and dtypes
def test_to_tensor_scales_only_uint8_and_keeps_other_dtypes():
    t = T.to_tensor(np.full((2, 3), 255, np.uint8))
    assert t.shape == [1, 2, 3] and t.dtype == pylayer.float32 and float(t.max()) == 1.0
    assert T.to_tensor(np.ones((2, 3, 3), np.float64)).dtype == pylayer.float64
    assert T.to_tensor(np.ones((2, 3, 3), np.int32)).dtype == pylayer.int32
    assert T.to_tensor(np.ones((2, 3, 3), np.uint8), data_format="HWC").shape == [2, 3, 3]
    x = pylayer.ones([3, 2, 4])
    assert T.to_tensor(x) is x and T.to_tensor(x, "HWC").shape == [2, 4, 3]


def test_numpy_images_stay_arrays_of_their_dtype_and_2d_stays_2d():
    assert T.resize(IMG[:, :, 0], (3, 3)).shape == (3, 3)
    assert T.resize(IMG[:, :, :1], (3, 3)).shape == (3, 3, 1)
    for fn in (T.hflip, T.vflip, lambda a: T.rotate(a, 10), lambda a: T.pad(a, 1)):
        out = fn(IMG)
        assert isinstance(out, np.ndarray) and out.dtype == np.uint8
    assert T.hflip(IMGF).dtype == np.float32


def test_paddles_numpy_colour_rules():
    # adjust_brightness reads a numpy image as uint8 (Paddle casts it first)
    assert T.adjust_brightness(np.full((1, 1, 3), 100.7, np.float32), 1.0).dtype == np.uint8
    # normalize of a uint8 numpy image gives float32
    assert T.normalize(IMG, [1, 2, 3], [1, 1, 1], data_format="HWC").dtype == np.float32
    # contrast of a numpy image stretches about 74, Paddle's OpenCV table
    assert T.adjust_contrast(np.array([[74, 100]], np.uint8), 0.0).tolist() == [[74, 74]]


def test_an_integer_fill_fills_every_channel():
    # Paddle's OpenCV path fills only the first channel for an int fill (OpenCV reads a
    # number as (v, 0, 0, 0)); pylayer fills them all, as its Tensor and PIL paths do.
    assert T.pad(IMG, 1, fill=200)[0, 0].tolist() == [200, 200, 200]
    assert T.rotate(IMG, 45, fill=200)[0, 0].tolist() == [200, 200, 200]


def test_numpy_affine_turns_about_the_centre():
    # Paddle's OpenCV path overwrites the matrix's translation and so turns a numpy
    # image about its top-left corner, counter-clockwise; pylayer turns it clockwise
    # about the centre, as Paddle documents and its Tensor and PIL paths do (rotate
    # turns counter-clockwise).
    for mode in ("nearest", "bilinear"):
        assert np.array_equal(T.affine(IMG, 30, (0, 0), 1.0, 0, mode), T.rotate(IMG, -30, mode))


# ------------------------------------------------------------------- errors
@pytest.mark.parametrize("call,error,pattern", [
    (lambda: T.resize([1, 2], 3), TypeError, r"resize\(\): argument 'img'"),
    (lambda: T.resize(IMG, "big"), TypeError, r"resize\(\): argument 'size'"),
    (lambda: T.resize(IMG, 3, "linear"), ValueError, r"argument 'interpolation'"),
    (lambda: T.to_tensor(np.ones(3)), TypeError, r"to_tensor\(\): argument 'pic'"),
    (lambda: T.to_tensor(IMG, "NCHW"), ValueError, r"argument 'data_format'"),
    (lambda: T.pad(IMG, [1, 2, 3]), ValueError, r"pad\(\): argument 'padding'"),
    (lambda: T.adjust_hue(IMG, 0.7), ValueError, r"adjust_hue\(\): argument 'hue_factor'"),
    (lambda: T.adjust_brightness(IMG, -1), ValueError, r"argument 'brightness_factor'"),
    (lambda: T.to_grayscale(IMG, 2), ValueError, r"argument 'num_output_channels'"),
    (lambda: T.to_grayscale(IMG[:, :, :2]), ValueError, r"to_grayscale\(\).*3 channels"),
    (lambda: T.crop(IMG, 9, 0, 2, 2), ValueError, r"crop\(\): argument 'top'"),
    (lambda: T.rotate(IMG, float("nan")), ValueError, r"rotate\(\): argument 'angle'.*nan"),
    (lambda: T.perspective(IMG, P, [[0, 0], [1]]), ValueError,
     r"perspective\(\): argument 'endpoints' must be 4 points"),
    (lambda: T.rotate(_x(), 10, "bicubic"), ValueError, r"rotate\(\).*'interpolation'"),
    (lambda: T.RandomHorizontalFlip(2), ValueError, r"RandomHorizontalFlip\(\): .*'prob'"),
    (lambda: T.BaseTransform(keys="image"), ValueError, r"BaseTransform\(\): .*'keys'"),
    (lambda: T.ToTensor(keys=["image", "label"]), NotImplementedError, r"'label'"),
    (lambda: T.ColorJitter(brightness=-1), ValueError, r"ColorJitter\(\): argument 'brightness'"),
    (lambda: T.RandomCrop(9)(IMG), ValueError, r"RandomCrop: the crop size"),
])
def test_bad_arguments_name_the_transform_and_the_argument(call, error, pattern):
    with pytest.raises(error, match=pattern):
        call()


# ------------------------------------------------------------ the transforms
def test_keys_apply_to_the_named_parts_and_pass_the_rest_through():
    image, label = np.zeros((4, 6, 3), np.uint8), 7
    out = T.Compose([T.Resize((2, 3)), T.ToTensor()])((image, label))
    assert isinstance(out, tuple) and out[0].shape == [3, 2, 3] and out[1] == 7

    class Boxes(T.BaseTransform):
        def _apply_image(self, image):
            return image * 2

        def _apply_boxes(self, boxes):
            return boxes + 1
    assert Boxes(keys=("image", "boxes"))((1, 1, "x")) == (2, 2, "x")


def test_random_transforms_repeat_under_pylayer_seed():
    pipeline = T.Compose([T.RandomResizedCrop(5), T.RandomHorizontalFlip(),
                          T.RandomRotation(20), T.ColorJitter(0.3, 0.3, 0.3, 0.1),
                          T.RandomErasing(prob=1.0), T.RandomPerspective(prob=1.0)])
    pylayer.seed(11)
    first = [pipeline(IMG) for _ in range(3)]
    pylayer.seed(11)
    again = [pipeline(IMG) for _ in range(3)]
    assert all(np.array_equal(a, b) for a, b in zip(first, again))
    assert not all(np.array_equal(first[0], f) for f in first[1:])


def test_random_erasing_fills_2d_and_3_channel_images():
    pylayer.seed(0)
    gray = np.full((10, 10), 100, np.uint8)
    assert T.RandomErasing(prob=1.0, value="random")(gray).shape == (10, 10)
    out = T.RandomErasing(prob=1.0, value=(1, 2, 3))(np.zeros((10, 10, 3), np.uint8))
    assert {tuple(p) for p in out.reshape(-1, 3).tolist()} == {(0, 0, 0), (1, 2, 3)}


def test_probabilities_zero_and_one():
    assert np.array_equal(T.RandomHorizontalFlip(0.0)(IMG), IMG)
    assert np.array_equal(T.RandomHorizontalFlip(1.0)(IMG), IMG[:, ::-1])
    assert np.array_equal(T.RandomVerticalFlip(1.0)(IMG), IMG[::-1])
    assert T.RandomErasing(prob=0.0)(_x()) is not None
    assert np.array_equal(T.RandomPerspective(prob=0.0)(IMG), IMG)


def test_random_crop_pads_when_needed_and_center_crop_is_central():
    out = T.RandomCrop((9, 12), pad_if_needed=True, fill=5)(IMG)
    assert out.shape == (9, 12, 3)
    assert np.array_equal(T.CenterCrop((3, 5))(IMG), IMG[2:5, 2:7])


def test_transpose_and_grayscale_shapes():
    assert T.Transpose()(IMG[:, :, 0]).shape == (1, 7, 9)
    assert T.Transpose((1, 2, 0))(_x()).shape == [7, 9, 3]
    assert T.Grayscale(3)(IMG).shape == (7, 9, 3)


def test_reprs_show_the_settings():
    assert repr(T.Resize(4)) == "Resize(size=4, interpolation='bilinear')"
    assert repr(T.Compose([T.ToTensor()])) == "Compose(\n    ToTensor(data_format='CHW')\n)"


def test_erase_writes_in_place_only_when_asked():
    image = IMG.copy()
    out = T.erase(image, 1, 1, 2, 2, 0)
    assert out is not image and image[1, 1, 0] != 0 and (out[1:3, 1:3] == 0).all()
    assert T.erase(image, 1, 1, 2, 2, 0, inplace=True) is image and image[1, 1, 0] == 0


def test_tensor_paths_carry_the_gradient():
    x = pylayer.to_tensor(TEN.astype(np.float64), stop_gradient=False)
    out = T.normalize(T.rotate(T.resize(x, (6, 6)), 20, "bilinear"), [0.5] * 3, [0.2] * 3)
    out.sum().backward()
    assert x.grad is not None and x.grad.shape == [3, 7, 9] and float(x.grad.abs().sum()) > 0


def test_uint8_tensor_geometry_works_in_float_and_comes_back_uint8():
    x = pylayer.to_tensor(IMG.transpose(2, 0, 1))
    for out in (T.rotate(x, 30, "bilinear"), T.resize(x, (3, 3)), T.adjust_brightness(x, 1.2),
                T.pad(x, 1, fill=(1, 2, 3))):
        assert out.dtype == pylayer.uint8


def test_pil_images_come_back_as_pil_images_when_pillow_is_installed():
    image_module = pytest.importorskip("PIL.Image", reason="Pillow comes with the test extra: pip install '.[test]'")
    image = image_module.fromarray(IMG)
    assert T.resize(image, (3, 4)).size == (4, 3)
    gray = T.to_grayscale(image)
    assert gray.mode == "L" and np.array_equal(np.asarray(gray), T.to_grayscale(IMG)[:, :, 0])
    assert np.array_equal(np.asarray(T.rotate(image, 30)), T.rotate(IMG, 30))
    assert T.to_tensor(image).shape == [3, 7, 9]
    assert T.normalize(image, [1, 2, 3], [1, 1, 1], "HWC").dtype == np.float32


def test_batched_tensors_warp_and_normalize():
    x = pylayer.rand([2, 3, 5, 5])
    assert T.affine(x, 10, (1, 0), 1.0, 0).shape == [2, 3, 5, 5]
    assert T.normalize(x, [0.5] * 3, [0.5] * 3).shape == [2, 3, 5, 5]
    hue = T.adjust_hue(x, 0.25).numpy()
    assert not np.allclose(hue, x.numpy())
    np.testing.assert_allclose(hue[1], T.adjust_hue(x[1], 0.25).numpy(), rtol=1e-6)
    np.testing.assert_allclose(T.to_grayscale(x).numpy()[0], T.to_grayscale(x[0]).numpy())
    padded = T.pad(x, (1, 2), fill=(0.1, 0.2, 0.3))
    assert padded.shape == [2, 3, 9, 7]
    np.testing.assert_allclose(padded.numpy()[1, :, 0, 0], [0.1, 0.2, 0.3], rtol=1e-6)
    assert T.resize(x, (4, 6)).shape == [2, 3, 4, 6]
    with pytest.raises(ValueError, match=r"hflip\(\): argument 'img' must be a Tensor image"):
        T.hflip(pylayer.ones([4, 4]))


# ------------------------------------------------------ loading and aliasing
class Images(Dataset):
    def __init__(self):
        self.transform = T.Compose([T.Resize(6), T.RandomHorizontalFlip(), T.ToTensor(),
                                    T.Normalize(mean=[0.5] * 3, std=[0.5] * 3)])

    def __getitem__(self, index):
        return self.transform(np.full((8, 10, 3), index * 20, np.uint8)), index

    def __len__(self):
        return 6


def test_a_dataloader_with_workers_runs_the_composed_transform():
    batches = list(DataLoader(Images(), batch_size=2, num_workers=2))
    assert [b[0].shape for b in batches] == [[2, 3, 6, 7]] * 3
    assert [b[1].numpy().tolist() for b in batches] == [[0, 1], [2, 3], [4, 5]]
    np.testing.assert_allclose(batches[1][0].numpy()[0], 40 / 255 / 0.5 - 1, rtol=1e-5)


def test_paddle_vision_transforms_through_install_as_paddle():
    import subprocess
    import sys
    code = ("import pylayer; pylayer.install_as_paddle()\n"
            "from paddle.vision.transforms import Compose, Normalize, ToTensor\n"
            "import paddle\n"
            "print(paddle.vision.transforms.ToTensor is ToTensor is paddle.vision.ToTensor)\n"
            "try:\n    import paddle.vision.models\n"
            "except ImportError as e:\n    print('python -m pylayer migration' in str(e))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "True"]
    with pytest.raises(AttributeError, match=r"paddle\.vision\.models is not in pylayer"):
        pylayer.vision.models
