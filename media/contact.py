"""Contact sheets: many frames on one image, each labelled with its time and index.

For models that take a single image, and for reports and the viewer.
"""

from __future__ import annotations

import math
from typing import Iterable

from .errors import MediaError
from .frames import Frame


def _label(seconds: float, index: int) -> str:
    m, s = divmod(seconds, 60)
    return f"{int(m):02d}:{s:05.2f}  #{index}"


def contact_sheet(frames: Iterable[Frame], columns: int | None = None, cell_width: int = 320,
                  gap: int = 4, labels: bool = True):
    """A grid of ``frames`` (RGB array). Columns default to a near-square layout."""
    import cv2
    import numpy as np

    frames = list(frames)
    if not frames:
        raise MediaError("a contact sheet needs at least one frame")
    if not 32 <= cell_width <= 4096:
        raise MediaError(f"cell width {cell_width} px is out of range (32..4096)")
    columns = columns or math.ceil(math.sqrt(len(frames)))
    rows = math.ceil(len(frames) / columns)
    h0, w0 = frames[0].image.shape[:2]
    cell_h = max(1, round(h0 * cell_width / w0))
    band = 22 if labels else 0
    sheet = np.full((rows * (cell_h + band + gap) + gap, columns * (cell_width + gap) + gap, 3), 24, np.uint8)
    for k, f in enumerate(frames):
        r, c = divmod(k, columns)
        y, x = gap + r * (cell_h + band + gap), gap + c * (cell_width + gap)
        sheet[y:y + cell_h, x:x + cell_width] = cv2.resize(np.asarray(f.image), (cell_width, cell_h),
                                                            interpolation=cv2.INTER_AREA)
        if labels:
            cv2.putText(sheet, _label(f.timestamp, f.index), (x + 4, y + cell_h + 16), cv2.FONT_HERSHEY_SIMPLEX,
                        0.5, (235, 235, 235), 1, cv2.LINE_AA)
    return sheet
