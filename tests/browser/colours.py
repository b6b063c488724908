"""Colours as a browser reports them (``rgb(r, g, b)``): luminance, contrast and hue,
as WCAG 2 defines them."""

from __future__ import annotations

import colorsys
import re


def rgb(css: str) -> tuple[float, float, float]:
    red, green, blue = (float(part) for part in re.findall(r"[\d.]+", css)[:3])
    return red / 255, green / 255, blue / 255


def luminance(css: str) -> float:
    def linear(channel: float) -> float:
        return channel / 12.92 if channel <= 0.03928 else ((channel + 0.055) / 1.055) ** 2.4

    red, green, blue = (linear(channel) for channel in rgb(css))
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast(first: str, second: str) -> float:
    light, dark = sorted((luminance(first), luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def hue(css: str) -> float:
    return colorsys.rgb_to_hls(*rgb(css))[0] * 360


def hue_distance(first: str, second: str) -> float:
    apart = abs(hue(first) - hue(second)) % 360
    return min(apart, 360 - apart)
