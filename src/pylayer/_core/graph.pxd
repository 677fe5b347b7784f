from pylayer._core.tensor cimport Tensor, VersionCounter


cdef enum:
    MAX_KEPT = 8            # values an op's rules may keep
    MAX_READS = 16          # values one rule may read


# An op's record (see graph.pyx). Its fields are set once, by __cinit__.
cdef class Op:
    cdef readonly str name
    cdef readonly tuple inputs         # input names, or None: any number (one rule for all)
    cdef readonly tuple outputs        # output names
    cdef readonly tuple keeps          # names of the inputs and outputs the rules read
    cdef readonly tuple attrs          # names of the other values the forward passes
    cdef readonly object vjp           # one rule per input (a tuple), or one for all
    cdef readonly bint multi_output    # rules get a list of output gradients
    cdef readonly bint user_code       # rules run user code, also without gradients
    cdef readonly bint view            # the output may view the first input's memory
    cdef bint per_input                # vjp is a tuple of per-input rules
    cdef Py_ssize_t n_inputs           # -1: any number
    cdef Py_ssize_t n_attrs
    cdef Py_ssize_t n_kept
    cdef Py_ssize_t _keep_source[MAX_KEPT]  # per kept name: input position, or -1 - output index
    cdef tuple _reads                  # per rule: where each of its parameters comes from


# Every field backward trusts is read-only from Python (nothing a program can
# assign may crash the process); compiled code sets them when a node is made.
cdef class GradNode:
    cdef readonly Op op                # the record of the op this node is a call of
    cdef readonly tuple next_nodes     # per input: GradNode, leaf Tensor, or None
    cdef readonly tuple next_indices   # per input: which output of the next node
    cdef readonly tuple saved          # per name in op.keeps: SavedTensor or the value
    cdef readonly object attrs         # per name in op.attrs: the value (a tuple)
    cdef readonly Py_ssize_t n_outputs
    cdef readonly unsigned long long seq
    cdef readonly object out_meta      # per output (shape, numpy dtype), for zeros
    cdef readonly dict _output_hooks   # output index -> hooks, retained gradients among them
    cdef readonly bint released
    cdef readonly object creation_stack
    # How many edges of other nodes point here: a node used once is reached at most
    # once by a backward pass (besides as a root), which the engine relies on.
    cdef readonly Py_ssize_t uses
    # Per edge after the op's inputs, the (shape, dtype) of the zeros it carries: the
    # kept inputs a create_graph gradient also depends on (see link_to_kept_inputs).
    cdef readonly tuple linked
    cdef object __weakref__
    cpdef tuple saved_tensors(self)
    cpdef release(self)


cdef class SavedTensor:
    cdef object tensor
    cdef object source                 # hooked input: its node, or the leaf itself
    cdef Py_ssize_t source_index
    cdef object packed
    cdef object unpack_hook
    cdef VersionCounter counter
    cdef long version
    cdef Py_ssize_t output_index
    cdef bint hooked
    cdef object unpack(self, GradNode node)
    cdef object _relink(self, Tensor value)


cdef GradNode new_grad_node(Op op, tuple inputs, tuple attrs)
cpdef SavedTensor save_tensor(Tensor t, Py_ssize_t output_index=*)
cdef object innermost_saved_hooks()
cpdef Tensor make_output(object op, object array, object inputs, object attrs=*)
cdef object run_rules(GradNode node, object grads, tuple values, tuple wanted=*)
cdef bint anomaly_enabled() noexcept
cdef unsigned long long next_seq() noexcept
cdef raise_released(GradNode node)
cdef link_edges(GradNode node, tuple tensors)


cdef class RetainedGrad:
    cdef object tensor                 # weak reference to the tensor that keeps the gradient
    cdef Tensor owner(self)
