"""Seeds 000 and 001: the PyLayerContext page (its reStructuredText source and the rendered
HTML page carry the same code examples), one test per example."""
from _pylayercontext_examples import (check_mark_non_differentiable, check_mark_not_inplace,
                                      check_set_materialize_grads, check_tanh_layer,
                                      example_class, example_mark_non_differentiable,
                                      example_mark_not_inplace, example_save_for_backward,
                                      example_saved_tensor, example_set_materialize_grads)


def test_class_example(monkeypatch):
    check_tanh_layer(example_class(monkeypatch))


def test_save_for_backward_example(monkeypatch):
    check_tanh_layer(example_save_for_backward(monkeypatch))


def test_saved_tensor_example(monkeypatch):
    check_tanh_layer(example_saved_tensor(monkeypatch))


def test_mark_not_inplace_example(monkeypatch):
    check_mark_not_inplace(*example_mark_not_inplace(monkeypatch))


def test_mark_non_differentiable_example(monkeypatch):
    check_mark_non_differentiable(*example_mark_non_differentiable(monkeypatch))


def test_set_materialize_grads_example(monkeypatch):
    check_set_materialize_grads(*example_set_materialize_grads(monkeypatch))
