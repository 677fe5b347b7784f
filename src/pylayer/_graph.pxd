from pylayer._tensor cimport Tensor, VersionCounter


# Every field backward trusts is read-only from Python (nothing a program can
# assign may crash the process); compiled code sets them when a node is made.
cdef class GradNode:
    cdef readonly object backward_fn   # fn(node, grads) -> one gradient (or None) per input
    cdef readonly tuple next_nodes     # per input: GradNode, leaf Tensor, or None
    cdef readonly tuple next_indices   # per input: which output of the next node
    cdef readonly object saved         # a SavedTensor, or a tuple of them (None: nothing)
    cdef readonly object attrs         # what the backward needs besides tensors
    cdef readonly Py_ssize_t n_outputs
    cdef readonly bint multi_output    # backward_fn gets a tuple of grads
    cdef readonly unsigned long long seq
    cdef readonly str op_name
    cdef readonly object out_meta      # per output (shape, numpy dtype), for zeros
    cdef readonly dict _output_hooks   # output index -> hooks, retained gradients among them
    cdef readonly bint released
    cdef readonly object creation_stack
    # Its backward is user code (a PyLayer's): what it returns was visible to the
    # user, so the engine never writes into it.
    cdef readonly bint runs_user_code
    # Run even when no gradient reached it (with zeros or None), as a PyLayer's is.
    cdef readonly bint runs_without_grads
    # How many edges of other nodes point here: a node used once is reached at most
    # once by a backward pass (besides as a root), which the engine relies on.
    cdef readonly Py_ssize_t uses
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


cdef GradNode new_grad_node(tuple inputs, str op_name, object backward_fn, object attrs)
cpdef SavedTensor save_tensor(Tensor t, Py_ssize_t output_index=*)
cdef object innermost_saved_hooks()
cpdef Tensor make_output(object array, tuple inputs, str op_name, object backward_fn,
                         tuple save=*, bint save_output=*, object attrs=*)
cdef bint anomaly_enabled() noexcept
cdef raise_released(GradNode node)


cdef class RetainedGrad:
    cdef object tensor                 # weak reference to the tensor that keeps the gradient
    cdef Tensor owner(self)
