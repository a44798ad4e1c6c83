"""The devices the lab server offers: the backend's, or those ``--devices`` picks."""

from __future__ import annotations

from overlapviz.core.i18n import _
from overlapviz.lab.dispatch import DeviceSpec
from overlapviz.session import find_backend


class DeviceChoiceError(ValueError):
    """``--devices`` names a device the backend does not have; the message lists those it has."""


def offered_devices(backend_name: str, wanted: list[str] | None) -> tuple[str, tuple[DeviceSpec, ...]]:
    """The backend's name (``auto`` resolved) and the devices to offer, the default first.

    `wanted` holds device keys or 0-based places in the backend's list (``0,1``); None
    offers every device.

    Raises
    ------
    BackendError
        The backend cannot be used here.
    DeviceChoiceError
        A wanted device is not the backend's.
    """
    backend = find_backend(backend_name)
    every = [DeviceSpec(info.key, info.name, backend.name) for info in backend.devices()]
    if wanted is None:
        return backend.name, tuple(every)
    by_key = {device.key: device for device in every}
    chosen = []
    for item in wanted:
        if item in by_key:
            chosen.append(by_key[item])
        elif item.isdigit() and int(item) < len(every):
            chosen.append(every[int(item)])
        else:
            keys = ", ".join(by_key) or _("none")
            message = _("--devices: {item} is not a device of the {backend} backend; it has {keys}")
            raise DeviceChoiceError(message.format(item=repr(item), backend=backend.name, keys=keys))
    return backend.name, tuple(dict.fromkeys(chosen))
