"""Render a picture (one prepared trace, or a comparison of two) to a PNG (atomic write), an SVG, or the clipboard."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QPoint, QRect, QSize, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QRegion
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QApplication, QWidget

from overlapviz._qt.export.comparison_view import ComparisonExportView, ComparisonPicture
from overlapviz._qt.export.export_view import ExportOptions, ExportView, ExportWidget
from overlapviz._qt.themes import get_theme
from overlapviz._qt.timeline.prepared import PreparedView
from overlapviz.core.atomic import atomic_write_bytes

Subject = PreparedView | ComparisonPicture  # what a picture shows


class ExportError(RuntimeError):
    """A picture could not be made (not a file problem: those are `OSError`)."""


@contextmanager
def laid_out_view(subject: Subject, options: ExportOptions) -> Iterator[ExportWidget]:
    """The picture of `subject`, laid out offscreen; destroyed on exit."""
    view: ExportWidget
    view = ExportView(subject, options) if isinstance(subject, PreparedView) else ComparisonExportView(subject, options)
    try:
        view.lay_out()
        yield view
    finally:
        view.close()
        view.deleteLater()


def render_image(subject: Subject, options: ExportOptions) -> QImage:
    """The picture as an image `options.width` device pixels wide."""
    with laid_out_view(subject, options) as view:
        size = view.size() * options.scale
        image = QImage(QSize(round(size.width()), round(size.height())), QImage.Format.Format_ARGB32_Premultiplied)
        image.setDevicePixelRatio(options.scale)
        image.fill(Qt.GlobalColor.transparent if options.transparent else QColor(get_theme(options.theme).background))
        _paint(view, image)
    if image.isNull():
        raise ExportError("the picture came out empty")
    return image


def png_bytes(image: QImage) -> bytes:
    """`image` encoded as PNG."""
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buffer, "PNG"):  # type: ignore[call-overload]  # the stubs want bytes; Qt takes str
        raise ExportError("PNG encoding failed")
    buffer.close()
    return bytes(data.data())


def write_png(subject: Subject, path: str | os.PathLike[str], options: ExportOptions) -> None:
    """Render `subject` and write it to `path` as PNG, atomically (only over a regular file; see `core.atomic`)."""
    atomic_write_bytes(path, png_bytes(render_image(subject, options)))


def svg_bytes(subject: Subject, options: ExportOptions) -> bytes:
    """The picture as SVG (vector shapes and text)."""
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    with laid_out_view(subject, options) as view:
        generator = QSvgGenerator()
        generator.setOutputDevice(buffer)
        generator.setSize(view.size())
        generator.setViewBox(QRect(QPoint(0, 0), view.size()))
        generator.setTitle("overlapviz timeline")
        generator.setDescription(view.description())
        _paint(view, generator)
    buffer.close()
    return bytes(data.data())


def write_svg(subject: Subject, path: str | os.PathLike[str], options: ExportOptions) -> None:
    """Render `subject` and write it to `path` as SVG, atomically (only over a regular file; see `core.atomic`)."""
    atomic_write_bytes(path, svg_bytes(subject, options))


def copy_image(subject: Subject, options: ExportOptions) -> QImage:
    """Put the picture on the clipboard; returns it."""
    image = render_image(subject, options)
    QApplication.clipboard().setImage(image)
    return image


def _paint(view: QWidget, device: QImage | QSvgGenerator) -> None:
    painter = QPainter(device)
    try:
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
        flags = QWidget.RenderFlag.DrawChildren | QWidget.RenderFlag.DrawWindowBackground
        view.render(painter, QPoint(0, 0), QRegion(), flags)
    finally:
        painter.end()
