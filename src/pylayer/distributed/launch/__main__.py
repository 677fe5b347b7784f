"""``python -m pylayer.distributed.launch``: see :func:`pylayer.distributed.launch.launch`."""
from pylayer.distributed.launch import launch

launch()
