"""The strings of a Designer form that QUiLoader translates, and where the loaded form shows each one."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass

from PySide6.QtWidgets import QComboBox, QWidget

from overlapviz.resources import ui_path


@dataclass(frozen=True)
class FormString:
    """One translatable string: the widget and property that carry it (`item`: a combo box's entry)."""

    widget: str
    prop: str
    source: str
    item: int | None = None

    def shown(self, form: QWidget) -> str:
        """What the loaded `form` shows for this string."""
        widget = form if form.objectName() == self.widget else form.findChild(QWidget, self.widget)
        if widget is None:
            raise LookupError(f"the form has no widget {self.widget!r}")
        if self.item is not None:
            assert isinstance(widget, QComboBox)
            return widget.itemText(self.item)
        value = widget.property(self.prop)
        assert isinstance(value, str), (self.widget, self.prop)
        return value


def form_context(name: str) -> str:
    """The context QUiLoader looks the form's strings up in: the class of its top widget."""
    found = ET.parse(ui_path(name)).getroot().findtext("class")
    assert found, name
    return found


def form_strings(name: str) -> list[FormString]:
    """Every string of ``ui/<name>`` that lupdate extracts (those not marked ``notr``)."""
    strings: list[FormString] = []
    for widget in ET.parse(ui_path(name)).getroot().iter("widget"):
        owner = widget.get("name", "")
        strings += [FormString(owner, prop, text) for prop, text in _translatable(widget)]
        for index, item in enumerate(widget.findall("item")):
            strings += [FormString(owner, prop, text, index) for prop, text in _translatable(item)]
    return strings


def _translatable(element: ET.Element) -> list[tuple[str, str]]:
    """(property, source) of `element`'s own string properties that are not marked ``notr``."""
    found = []
    for prop in element.findall("property"):
        string = prop.find("string")
        if string is not None and string.get("notr") != "true" and string.text:
            found.append((prop.get("name", ""), string.text))
    return found
