"""A dialog that ends with a position the engine has checked (the board editor, the review of a
screen reading)."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QDialog, QWidget


class CheckedPositionDialog(QDialog):
    """Subclasses keep ``_checked`` as the engine-checked position (None while the input is not a
    position); OK closes only then, and :meth:`state` is that position once accepted."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._checked: Any = None
        self._accepted: Any = None

    def state(self) -> Any:
        """The position once the dialog is accepted; None before that or after Cancel."""
        return self._accepted if self.result() == QDialog.DialogCode.Accepted else None

    def accept(self) -> None:
        """Close with the checked position, only while there is one."""
        if self._checked is None:
            return
        self._accepted = self._checked
        super().accept()

    def reject(self) -> None:
        self._accepted = None
        super().reject()
