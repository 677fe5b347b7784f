"""The text data generators of Paddle's fleet (``MultiSlotDataGenerator``,
``MultiSlotStringDataGenerator``): a user subclass parses raw lines into named slots,
and the generator writes them in the MultiSlot text format (per slot: the number of
values, then the values, slots separated by spaces, one sample per line)."""
import sys

__all__ = ["DataGenerator", "MultiSlotDataGenerator", "MultiSlotStringDataGenerator"]


class DataGenerator:
    """The base of the generators: :meth:`generate_sample` (to override) turns one raw
    line into samples, :meth:`generate_batch` (may be overridden) post-processes
    ``batch_size`` samples at a time, and :meth:`run_from_stdin` /
    :meth:`run_from_memory` write the formatted samples to standard output.

    >>> from pylayer.distributed.fleet import MultiSlotDataGenerator
    >>> class Words(MultiSlotDataGenerator):
    ...     def generate_sample(self, line):
    ...         def samples():
    ...             for text in ["a bb ccc", "dd"]:
    ...                 yield [("lengths", [len(w) for w in text.split()]), ("label", [1])]
    ...         return samples
    >>> Words().run_from_memory()
    3 1 2 3 1 1
    1 2 1 1
    """

    def __init__(self):
        self._proto_info = None
        self.batch_size_ = 32

    def __repr__(self):
        return f"{type(self).__name__}(batch_size={self.batch_size_})"

    def set_batch(self, batch_size):
        """The number of samples :meth:`generate_batch` receives at a time."""
        if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
            raise ValueError(f"{type(self).__name__}.set_batch(): argument 'batch_size' "
                             f"(position 1) must be a positive int, got {batch_size!r}")
        self.batch_size_ = batch_size

    def _write(self, batch):
        for sample in self.generate_batch(batch)():
            sys.stdout.write(self._gen_str(sample))

    def _run(self, lines):
        batch = []
        for line in lines:
            for sample in self.generate_sample(line)():
                if sample is None:
                    continue
                batch.append(sample)
                if len(batch) == self.batch_size_:
                    self._write(batch)
                    batch = []
        if batch:
            self._write(batch)

    def run_from_memory(self):
        """Write the samples of ``generate_sample(None)`` (data made in memory)."""
        self._run([None])

    def run_from_stdin(self):
        """Write the samples of each line of standard input."""
        self._run(sys.stdin)

    def _gen_str(self, line):
        raise NotImplementedError("pls use MultiSlotDataGenerator or PairWiseDataGenerator")

    def generate_sample(self, line):
        """Override: return a function that yields the samples of ``line``, each a list
        (or tuple) of ``(slot name, [values])`` pairs."""
        raise NotImplementedError(
            "Please rewrite this function to return a list or tuple: "
            "[(name, [feasign, ...]), ...] or ((name, [feasign, ...]), ...)")

    def generate_batch(self, samples):
        """A function that yields the samples of a batch (as they are, unless
        overridden, e.g. to pad them to the batch's longest)."""
        def each():
            yield from samples
        return each


def _slots(line, example):
    if isinstance(line, zip):
        line = list(line)
    if not isinstance(line, (list, tuple)):
        raise ValueError(f"the output of process() must be in list or tuple type; Example: "
                         f"{example}")
    return line


class MultiSlotStringDataGenerator(DataGenerator):
    """Slots of string values, written as they are.

    >>> from pylayer.distributed.fleet import MultiSlotStringDataGenerator
    >>> MultiSlotStringDataGenerator()._gen_str([("words", ["1926", "08"]), ("label", ["1"])])
    '2 1926 08 1 1\\n'
    """

    def _gen_str(self, line):
        line = _slots(line, "[('words', ['1926', '08', '17']), ('label', ['1'])]")
        return " ".join(" ".join([str(len(values))] + list(values))
                        for _, values in line) + "\n"


class MultiSlotDataGenerator(DataGenerator):
    """Slots of int or float values. The first sample fixes the slots' names and order
    (every later sample must have the same); a slot with a float value anywhere is a
    float slot, else a ``uint64`` one (``_proto_info``).

    >>> from pylayer.distributed.fleet import MultiSlotDataGenerator
    >>> g = MultiSlotDataGenerator()
    >>> g._gen_str([("words", [1926, 8, 17]), ("label", [1])])
    '3 1926 8 17 1 1\\n'
    >>> g._gen_str([("words", [0.5]), ("label", [0])])
    '1 0.5 1 0\\n'
    >>> g._proto_info
    [('words', 'float'), ('label', 'uint64')]
    """

    def _gen_str(self, line):
        line = _slots(line, "[('words', [1926, 08, 17]), ('label', [1])]")
        first = self._proto_info is None
        if first:
            self._proto_info = []
        elif len(line) != len(self._proto_info):
            raise ValueError("the complete field set of two given line are inconsistent.")
        fields = []
        for index, (name, values) in enumerate(line):
            if not isinstance(name, str):
                raise ValueError(f"name{type(name)} must be in str type")
            if not isinstance(values, list):
                raise ValueError(f"elements{type(values)} must be in list type")
            if not values:
                raise ValueError("the elements of each field can not be empty, you need "
                                 "padding it in process().")
            if first:
                self._proto_info.append((name, "uint64"))
            elif name != self._proto_info[index][0]:
                raise ValueError(f"the field name of two given line are not match: "
                                 f"require<{self._proto_info[index][0]}>, get<{name}>.")
            for value in values:
                if self._proto_info[index][1] == "float":
                    continue
                if isinstance(value, float):
                    self._proto_info[index] = (name, "float")
                elif not isinstance(value, int):
                    raise ValueError(f"the type of element{type(value)} must be in int or "
                                     f"float")
            fields.append(" ".join([str(len(values))] + [str(v) for v in values]))
        return " ".join(fields) + "\n"
