"""The parameter server's text data generators (Paddle's
``paddle.distributed.fleet.data_generator``), plain Python."""
from pylayer.distributed.fleet.data_generator.data_generator import (
    DataGenerator, MultiSlotDataGenerator, MultiSlotStringDataGenerator)

__all__ = ["DataGenerator", "MultiSlotDataGenerator", "MultiSlotStringDataGenerator"]
