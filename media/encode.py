"""Images for models and people: resize, JPEG/PNG encoding within a byte budget, data URLs.

OpenCV does the image work (it is already needed for keyframes and synthetic clips);
arrays are RGB ``uint8`` (H, W, 3) throughout the media layer.
"""

from __future__ import annotations

import base64

from .errors import MediaError

FORMATS = {"jpeg": ".jpg", "png": ".png"}
MIME = {"jpeg": "image/jpeg", "png": "image/png"}


def check_max_side(max_side: int | None) -> None:
    if max_side is not None and not (16 <= int(max_side) <= 8192):
        raise MediaError(f"max side {max_side} px is out of range (16..8192)")


def resize_max_side(image, max_side: int | None):
    """Shrink so the longer side is at most ``max_side`` (never enlarges)."""
    import cv2

    if not max_side:
        return image
    h, w = image.shape[:2]
    scale = max_side / max(h, w)
    if scale >= 1:
        return image
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    return cv2.resize(image, size, interpolation=cv2.INTER_AREA)


def encode_image(image, fmt: str = "jpeg", quality: int = 85, max_bytes: int | None = None) -> bytes:
    """Encode an RGB image; with ``max_bytes``, lower the JPEG quality and then the size
    until it fits (PNG only shrinks). Raises MediaError when even 64 px does not fit."""
    import cv2

    if fmt not in FORMATS:
        raise MediaError(f"unknown image format {fmt!r} (choose jpeg or png)")
    bgr = cv2.cvtColor(image, cv2.COLOR_RGB2BGR)
    qualities = [quality] + [q for q in (70, 55, 40) if q < quality] if fmt == "jpeg" else [0]
    while True:
        for q in qualities:
            params = [cv2.IMWRITE_JPEG_QUALITY, q] if fmt == "jpeg" else [cv2.IMWRITE_PNG_COMPRESSION, 6]
            ok, buf = cv2.imencode(FORMATS[fmt], bgr, params)
            if not ok:
                raise MediaError(f"could not encode a {bgr.shape[1]}x{bgr.shape[0]} image as {fmt}")
            if max_bytes is None or len(buf) <= max_bytes:
                return buf.tobytes()
        h, w = bgr.shape[:2]
        if max(h, w) <= 64:
            raise MediaError(f"cannot encode the image in {max_bytes} bytes")
        bgr = cv2.resize(bgr, (max(1, int(w * 0.75)), max(1, int(h * 0.75))), interpolation=cv2.INTER_AREA)


def data_url(data: bytes, fmt: str = "jpeg") -> str:
    """A ``data:`` URL, the form model APIs accept for inline images."""
    return f"data:{MIME[fmt]};base64,{base64.b64encode(data).decode('ascii')}"
