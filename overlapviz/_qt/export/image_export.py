"""Render a picture (one prepared trace, or a comparison of two) to a PNG (atomic write), an SVG, or the clipboard.

The picture is a widget, so it is drawn on the GUI thread; `image_in_pieces` and
`svg_in_pieces` draw it in short steps (build, lay out, then a band of rows at a time) that
the window runs one per turn of its event loop (`stepwise`), so that an export never holds up
the window. Encoding the image and writing the file need no widget and happen off the GUI
thread; `render_image`, `write_png` and the rest do it all at once, for scripts. A slide's
picture is scaled into the slide's size, centred, on the background (`canvas`).
"""

from __future__ import annotations

import os
from collections.abc import Generator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TypeVar, cast

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QPoint, QRect, QSize, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QRegion, QTransform
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QWidget

from overlapviz._qt.export.comparison_view import ComparisonExportView, ComparisonPicture
from overlapviz._qt.export.export_view import ExportOptions, ExportView, ExportWidget
from overlapviz._qt.themes import get_theme
from overlapviz._qt.translation import translate
from overlapviz.core.files.atomic_write import atomic_write_bytes
from overlapviz.view.prepared import PreparedView

Subject = PreparedView | ComparisonPicture  # what a picture shows
T = TypeVar("T")
Pieces = Generator[None, None, T]  # steps of GUI-thread work; the result comes last
BAND_PX = 360  # logical rows painted in one step (about 20 ms at 3840 px for 10^6 spans)


class ExportError(RuntimeError):
    """A picture could not be made (not a file problem: those are `OSError`)."""


@dataclass(frozen=True)
class Canvas:
    """Where a laid-out picture is painted: the size (logical pixels) and how the picture sits in it."""

    size: QSize
    placement: QTransform  # identity, or a slide's scale to fit and centring


def canvas(picture: QSize, options: ExportOptions) -> Canvas:
    """The picture's own size; on a slide, the slide's size with the picture scaled to fit and centred."""
    slide_height = options.logical_height
    if slide_height is None:
        return Canvas(picture, QTransform())
    width, height = options.logical_width, slide_height
    factor = min(width / max(picture.width(), 1), height / max(picture.height(), 1))
    left = (width - picture.width() * factor) / 2
    top = (height - picture.height() * factor) / 2
    return Canvas(QSize(width, height), QTransform(factor, 0, 0, factor, left, top))


@contextmanager
def picture_view(subject: Subject, options: ExportOptions) -> Iterator[ExportWidget]:
    """The picture of `subject`, built offscreen (neither filled nor laid out yet); destroyed on exit."""
    view: ExportWidget
    view = ExportView(subject, options) if isinstance(subject, PreparedView) else ComparisonExportView(subject, options)
    try:
        yield view
    finally:
        view.close()
        view.deleteLater()


def image_in_pieces(subject: Subject, options: ExportOptions) -> Pieces[QImage]:
    """The picture as an image `options.width` device pixels wide, drawn a piece at a time.

    Each step is one short stretch of GUI-thread work: building the widgets (a timeline a
    step), handing them the prepared traces (a timeline a step), showing them offscreen (Qt
    then lays them out, an event at a time, before the next step), fitting the views, then one
    band of `BAND_PX` rows at a time; the image is the generator's return value.
    """
    with picture_view(subject, options) as view:
        yield
        yield from view.build_steps()
        yield from view.fill_steps()
        view.show_offscreen()
        yield
        view.lay_out()
        yield
        where = canvas(view.size(), options)
        size = where.size * options.scale
        image = QImage(QSize(round(size.width()), round(size.height())), QImage.Format.Format_ARGB32_Premultiplied)
        if image.isNull():
            too_large = translate("ImageExport", "no memory for a picture of {width} x {height} pixels")
            raise ExportError(too_large.format(width=round(size.width()), height=round(size.height())))
        image.setDevicePixelRatio(options.scale)
        image.fill(Qt.GlobalColor.transparent if options.transparent else QColor(get_theme(options.theme).background))
        yield from _paint(view, image, BAND_PX, where.placement)
    return image


def render_image(subject: Subject, options: ExportOptions) -> QImage:
    """The picture as an image `options.width` device pixels wide, all at once."""
    return run_to_end(image_in_pieces(subject, options))


def png_bytes(image: QImage) -> bytes:
    """`image` encoded as PNG."""
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buffer, "PNG"):  # type: ignore[call-overload]  # the stubs want bytes; Qt takes str
        raise ExportError(translate("ImageExport", "PNG encoding failed"))
    buffer.close()
    return bytes(data.data())


def write_png(subject: Subject, path: str | os.PathLike[str], options: ExportOptions) -> None:
    """Write `subject` to `path` as PNG, atomically (only over a regular file; see `core.files.atomic_write`)."""
    atomic_write_bytes(path, png_bytes(render_image(subject, options)))


def svg_in_pieces(subject: Subject, options: ExportOptions) -> Pieces[bytes]:
    """The picture as SVG (vector shapes and text), made a piece at a time (see `image_in_pieces`).

    It is painted in one piece: bands would repeat every shape once per band in the file.
    """
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    with picture_view(subject, options) as view:
        yield
        yield from view.build_steps()
        yield from view.fill_steps()
        view.show_offscreen()
        yield
        view.lay_out()
        yield
        where = canvas(view.size(), options)
        generator = QSvgGenerator()
        generator.setOutputDevice(buffer)
        generator.setSize(where.size)
        generator.setViewBox(QRect(QPoint(0, 0), where.size))
        generator.setTitle(translate("ImageExport", "overlapviz timeline"))
        generator.setDescription(view.description())
        bands = None if where.placement.isIdentity() or options.transparent else get_theme(options.theme).background
        yield from _paint(view, generator, view.height(), where.placement, bands)
    buffer.close()
    return bytes(data.data())


def svg_bytes(subject: Subject, options: ExportOptions) -> bytes:
    """The picture as SVG (vector shapes and text), all at once."""
    return run_to_end(svg_in_pieces(subject, options))


def write_svg(subject: Subject, path: str | os.PathLike[str], options: ExportOptions) -> None:
    """Write `subject` to `path` as SVG, atomically (only over a regular file; see `core.files.atomic_write`)."""
    atomic_write_bytes(path, svg_bytes(subject, options))


def run_to_end(pieces: Pieces[T]) -> T:
    """Every step of `pieces` at once; its result."""
    while True:
        try:
            next(pieces)
        except StopIteration as finished:
            return cast(T, finished.value)


def _paint(
    view: QWidget, device: QImage | QSvgGenerator, band_px: int, placement: QTransform, fill: str | None = None
) -> Pieces[None]:
    """Paint `view` onto `device` where `placement` puts it, `band_px` rows (logical pixels) at a time.

    A step after each band. `fill` colours the whole device first (an SVG slide's background,
    beside or above the picture: an image is filled when made).
    """
    painter = QPainter(device)
    try:
        if fill is not None:
            painter.fillRect(painter.window(), QColor(fill))
        painter.setTransform(placement)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
        flags = QWidget.RenderFlag.DrawChildren | QWidget.RenderFlag.DrawWindowBackground
        for top in range(0, max(view.height(), 1), max(band_px, 1)):
            band = QRegion(0, top, view.width(), min(band_px, view.height() - top))
            view.render(painter, QPoint(0, top), band, flags)
            yield
    finally:
        painter.end()
