"""Paddle's ``paddle.framework``: saving and loading checkpoints (:mod:`pylayer.framework.io`)."""
from pylayer.framework.io import load, save

__all__ = ["save", "load"]
