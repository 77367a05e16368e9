"""The one seam between Kibitz's long searches and a Ray cluster (the optional ``cluster`` extra).

Nothing here imports Ray until a cluster is asked for, so Kibitz without the extra works as before
and says how to install it when ``--cluster`` is given. An address is ``local`` (a Ray instance
started on this machine for the search), ``auto`` (the cluster this machine has joined with
``ray start``) or ``ray://HOST:PORT`` (a cluster's client port). Workers are Ray actors made from
plain classes here (:func:`actor_class`), so the classes can be tested without Ray.
"""

from __future__ import annotations

import os
import re
import threading
import warnings
from typing import Any

from engines import limits
from engines.errors import KibitzInputError

INSTALL_HINT = 'pip install "kibitz[cluster]"'
LOCAL = "local"
AUTO = "auto"
_CLIENT_ADDRESS = re.compile(r"ray://(?P<host>[A-Za-z0-9.\-]+|\[[0-9A-Fa-f:]+\]):(?P<port>[0-9]{1,5})")
#: Worker actors one search may ask for.
MAX_WORKERS = 4096


def check_address(address: str) -> str:
    """``address`` when it is one Kibitz can join, else a KibitzInputError saying which are."""
    text = address.strip() if isinstance(address, str) else address
    if text in (LOCAL, AUTO):
        return text
    match = _CLIENT_ADDRESS.fullmatch(text) if isinstance(text, str) else None
    if match and 0 < int(match["port"]) < 65536:
        return text
    raise KibitzInputError(f"--cluster {limits.shown(address)}: an address is 'local' (start Ray on this machine), "
                           "'auto' (the cluster this machine joined with 'ray start') or ray://HOST:PORT")


def ray_module():
    """The ``ray`` package, or a KibitzInputError saying how to install it."""
    try:
        import ray
    except ImportError:
        raise KibitzInputError(f"a cluster search needs Ray, which is not installed: {INSTALL_HINT}") from None
    return ray


_connected: str | None = None
_connect_lock = threading.Lock()


def connect(address: str, cpus: int | None = None):
    """Ray, joined to the cluster at ``address`` (once per process: a second search reuses the
    connection; ``local`` starts Ray with ``cpus`` CPUs, default the machine's). Errors reaching
    the cluster are a KibitzInputError naming the address."""
    global _connected
    address = check_address(address)
    ray = ray_module()
    with _connect_lock:
        if ray.is_initialized():
            if _connected is not None and _connected != address:
                raise KibitzInputError(f"--cluster {address}: this process is already joined to {_connected}; "
                                       "one cluster per run")
            return ray
        options: dict[str, Any] = {"log_to_driver": False, "configure_logging": False}
        if address == LOCAL:
            options.update(address="local", include_dashboard=False, num_cpus=cpus or os.cpu_count() or 1)
            # A test (or a user) may keep Ray's session files out of the shared /tmp/ray.
            folder = os.environ.get("KIBITZ_RAY_TEMP_DIR")
            if folder:
                options["_temp_dir"] = folder
        else:
            options["address"] = address
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # Ray's own warnings about the connection: said below
                ray.init(**options)
        except (ConnectionError, RuntimeError, ValueError, TimeoutError, OSError) as error:
            raise KibitzInputError(f"--cluster {address}: could not join the cluster ({first_line(error)})") from None
        _connected = address
        return ray


def disconnect() -> None:
    """Leave the cluster (a ``local`` one stops); the next :func:`connect` joins afresh."""
    global _connected
    with _connect_lock:
        try:
            import ray
        except ImportError:
            return
        if ray.is_initialized():
            ray.shutdown()
        _connected = None


def cluster_cpus(ray) -> int:
    """The CPUs the cluster has in all (its nodes' total, busy or not)."""
    return int(ray.cluster_resources().get("CPU", 0))


def join(address: str, workers: int | None = None) -> tuple[Any, int]:
    """Ray joined to the cluster at ``address`` (see :func:`connect`), and the workers a search
    takes there: ``workers``, checked against the cluster's CPUs, or all of them when None."""
    ray = connect(address, cpus=workers)
    available = cluster_cpus(ray)
    if workers is None:
        return ray, available
    check_workers(workers)
    if workers > available:
        raise KibitzInputError(f"--cluster {address}: the search asks for {workers} workers but the cluster has "
                               f"{available} CPUs; give --workers {available} or fewer")
    return ray, workers


def actor_class(ray, cls: type, concurrency: int = 1):
    """``cls`` as a Ray actor taking one CPU, able to answer ``concurrency`` calls at once (for a
    worker with a long job in one thread and calls about it in others)."""
    return ray.remote(num_cpus=1, max_concurrency=concurrency)(cls)


def check_workers(workers: int) -> int:
    return limits.check_int(workers, "--workers (cluster CPUs)", 1, MAX_WORKERS)


def first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[0] if text else type(error).__name__
