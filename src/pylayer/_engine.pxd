from pylayer._graph cimport GradNode


# One backward pass (see _engine.pyx); nothing outside the engine uses it.
cdef class _Pass:
    cdef unsigned long long stamp
    cdef bint create_graph
    cdef list ready                    # the ready heap: nodes reached, newest first
    cdef list borrowed                 # (node, visit, buffer) taken over from an outer pass
    cdef void enter(self, GradNode node)
    cdef void deposit(self, GradNode node, Py_ssize_t index, object g)
    cdef void close(self)
