"""Preparing games' kernels without stalling the window (see :mod:`app.prepare`).

:class:`KernelPreparation` knows which games can be shown now (their kernels are in numba's cache,
or were loaded in this process) and runs ``python -m app.prepare GAME`` for the others, one at a
time, in a process of its own (a QProcess: nothing in the window's process compiles or waits).
It says :attr:`~KernelPreparation.ready` for each game once its process has finished; a process
that fails is reported through :attr:`~KernelPreparation.failed` and the game is then declared
ready anyway (its kernels will compile in the window's process, slowly, but the game works).
"""

from __future__ import annotations

import os
import time

from PySide6.QtCore import QObject, QProcess, QProcessEnvironment, Signal

from app import prepare


class KernelPreparation(QObject):
    """Prepares games' kernels in a helper process, one game at a time, in request order."""

    ready = Signal(str)  # a game's short name: its kernels load from the cache now
    failed = Signal(str, str)  # short name, what went wrong (the game is declared ready next)

    def __init__(self, parent: QObject | None = None, command: list[str] | None = None) -> None:
        super().__init__(parent)
        # the helper's command line before the game's name (tests put a stand-in here)
        self._command = command or list(prepare.HELPER_COMMAND)
        self._ready: set[str] = set()
        self._queue: list[str] = []
        self._process: QProcess | None = None
        self._current: str | None = None
        self._started_at = 0.0
        self.seconds: dict[str, float] = {}  # how long each game's preparation took

    def is_ready(self, short_name: str) -> bool:
        """Whether the game's kernels can be used without compiling in this process."""
        if short_name not in self._ready and prepare.is_prepared(short_name):
            self._ready.add(short_name)
        return short_name in self._ready

    def request(self, short_name: str, first: bool = False) -> bool:
        """Make sure ``short_name`` gets prepared; True when it is ready already. ``first``
        puts it ahead of the games waiting (the one the player is looking at)."""
        if self.is_ready(short_name):
            return True
        if short_name != self._current:
            if short_name in self._queue:
                self._queue.remove(short_name)
            self._queue.insert(0, short_name) if first else self._queue.append(short_name)
        self._start_next()
        return False

    def _start_next(self) -> None:
        if self._process is not None or not self._queue:
            return
        name = self._queue.pop(0)
        if self.is_ready(name):
            self.ready.emit(name)
            self._start_next()
            return
        process = QProcess(self)
        environment = QProcessEnvironment()
        for variable, value in prepare.helper_environment(os.environ).items():
            environment.insert(variable, value)
        process.setProcessEnvironment(environment)
        process.setProcessChannelMode(QProcess.ProcessChannelMode.MergedChannels)
        process.finished.connect(lambda code, status, name=name: self._finished(name, code, status))
        process.errorOccurred.connect(lambda error, name=name: self._error(name, error))
        self._process, self._current = process, name
        self._started_at = time.perf_counter()
        process.start(self._command[0], [*self._command[1:], name])

    def _error(self, name: str, error: QProcess.ProcessError) -> None:
        if error == QProcess.ProcessError.FailedToStart and self._current == name:
            self._done(name, f"the preparation process could not start ({self._command[0]})")

    def _finished(self, name: str, code: int, status: QProcess.ExitStatus) -> None:
        if self._current != name:
            return
        if status == QProcess.ExitStatus.NormalExit and code == 0:
            self._done(name, None)
            return
        try:
            output = bytes(self._process.readAll()).decode("utf-8", "replace").strip().splitlines()
        except RuntimeError:  # the process object went with the window
            return
        last = output[-1] if output else f"exit code {code}"
        self._done(name, f"preparing its kernels failed: {last}")

    def _done(self, name: str, problem: str | None) -> None:
        if self._process is not None:
            self._process.deleteLater()
        self._process, self._current = None, None
        self.seconds[name] = time.perf_counter() - self._started_at
        self._ready.add(name)
        if problem is not None:
            self.failed.emit(name, problem)
        self.ready.emit(name)
        self._start_next()

    def stop(self) -> None:
        """End the running preparation (the window is closing); the queue is dropped."""
        self._queue.clear()
        process, self._process, self._current = self._process, None, None
        if process is not None:
            process.finished.disconnect()
            process.errorOccurred.disconnect()
            process.kill()
            process.waitForFinished(2000)
