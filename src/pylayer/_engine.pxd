from pylayer._tensor cimport Tensor, VersionCounter


cdef class GradNode:
    cdef public object backward_fn     # fn(node, grads) -> one gradient (or None) per input
    cdef public tuple next_nodes       # per input: GradNode, leaf Tensor, or None
    cdef public tuple next_indices     # per input: which output of the next node
    cdef public object saved           # a SavedTensor, or a tuple of them (None: nothing)
    cdef public object attrs           # what the backward needs besides tensors
    cdef public Py_ssize_t n_outputs
    cdef public bint multi_output      # backward_fn gets a tuple of grads
    cdef public unsigned long long seq
    cdef public str op_name
    cdef public object out_meta        # per output (shape, numpy dtype), for zeros
    cdef public dict _output_hooks
    cdef public dict _retained
    cdef public bint released
    cdef public object creation_stack
    # Bookkeeping of the backward pass running through this node.
    cdef unsigned long long visit      # stamp of the last backward pass that reached it
    cdef object buffer                 # gradients summed as they arrive: the gradient
                                       # itself for one output, else a list per output
    cdef object __weakref__
    cpdef tuple saved_tensors(self)


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
