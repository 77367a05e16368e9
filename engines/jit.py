"""The one seam between the engines and numba.

Every kernel is compiled with ``@kernel``: ``cache=True`` so a second start does not recompile,
``nogil=True`` so GUI threads keep running while a kernel works. A kernel and the jitted helpers it
calls live in one module, because numba's cache does not notice edits in other files.
"""

from __future__ import annotations

import numba

kernel = numba.njit(cache=True, nogil=True)

#: For the few kernels that split a batch over the cores (``numba.prange``); never run two of them
#: from several threads at once.
parallel_kernel = numba.njit(cache=True, nogil=True, parallel=True)
