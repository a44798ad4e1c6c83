"""The ink bars of many layers worked out at once: each layer's own bars, never joined across layers."""

import numpy as np
from PySide6.QtGui import QTransform

from overlapviz._qt.timeline.ink_bars import ink_rects, layers_ink_rects

TO_DEVICE = QTransform(10.0, 0.0, 0.0, 100.0, 5.0, 0.0)  # 1 ms: 10 px, from x 5; y: 100 px a unit


def test_each_layer_gets_the_bars_it_would_get_alone():
    edges = [np.array([0.0, 0.1, 0.2, 0.3]), np.array([0.0, 0.1, 0.2, 0.3, 0.4]), np.array([0.5, 0.6])]
    inks = [np.array([0.5, 0.5, 0.5]), np.array([0.0, 0.0, 0.0, 0.0]), np.array([0.25])]
    bases = [np.zeros(3), np.zeros(4), np.array([0.5])]
    rows = [(0.0, 0.4), (0.5, 0.9), (1.0, 1.2)]
    together = layers_ink_rects(edges, inks, bases, rows, TO_DEVICE)
    alone = [ink_rects(*layer, TO_DEVICE) for layer in zip(edges, inks, bases, rows, strict=True)]
    assert [rects.tolist() for rects in together] == [rects.tolist() for rects in alone]
    assert [len(rects) for rects in together] == [1, 0, 1]  # the first layer's alike bars are one


def test_alike_bars_of_neighbouring_layers_stay_apart():
    edges = [np.array([0.0, 0.1]), np.array([0.1, 0.2])]  # the second layer's column starts where the first ends
    inks, bases = [np.array([1.0]), np.array([1.0])], [np.zeros(1), np.zeros(1)]
    together = layers_ink_rects(edges, inks, bases, [(0.0, 0.4), (0.0, 0.4)], TO_DEVICE)
    assert [rects.tolist() for rects in together] == [[[5, 0, 1, 40]], [[6, 0, 1, 40]]]


def test_no_layers_no_bars():
    assert layers_ink_rects([], [], [], [], TO_DEVICE) == []
