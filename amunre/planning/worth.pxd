# Declarations for worth.py in the compiled build only (`AMUNRE_COMPILE=1`; Cython reads this
# file beside worth.py, the pure-Python build never does). `Worth` becomes an extension type:
# its attributes live in a C struct, which the planner reads thousands of times a game
# (docs/performance.md measures it). The .py stays the one source of what a Worth does.

cdef class Worth:
    cdef public object view
    cdef public object player
    cdef public object variant
    cdef public dict weights
    cdef public double thrift
    cdef public double foresight
    cdef public Py_ssize_t spread
    cdef public object _income_runs
    cdef public bint _only_final_left
    cdef public double later
    cdef public object regain
    cdef public Py_ssize_t _kingdom
    cdef public object _terms
    cdef public tuple _reads
    cdef public tuple _term_ids
    cdef public list _card_touches
    cdef public object _previous
    cdef public dict _touching
    cdef public object _later_kingdoms
    cdef public list _evaluators
    cdef public object _base
    cdef public list _parts
    cdef public dict _gains
    cdef public dict _remembered
    cdef public dict _cards
    cdef public object _key
    cdef public object _seen
    cdef public object _level_at
