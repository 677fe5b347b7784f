"""Paddle's high-level API: :class:`Model`, :func:`summary`, :func:`flops` and the callbacks."""
from pylayer.hapi import callbacks
from pylayer.hapi.flops import flops
from pylayer.hapi.model import Model
from pylayer.hapi.summary import summary

__all__ = ["Model", "summary", "flops", "callbacks"]
