"""The heat map's colours: a blue–orange diverging ramp, safe for colour-blind readers.

Orange below 50 %, near-white at 50 %, blue above: the two hues stay apart for
the common colour vision deficiencies (red–green confusions), where a red/green
ramp collapses into one muddy hue.  Lightness falls steadily from the middle to
both ends, so the ramp also reads in greyscale print.  Shared by the PDF, the PNG
and the HTML page.
"""

from __future__ import annotations

RGB = tuple[int, int, int]

#: (win rate, colour) stops, interpolated linearly in between
STOPS: tuple[tuple[float, RGB], ...] = (
    (0.0, (179, 88, 6)),
    (0.25, (241, 163, 64)),
    (0.5, (247, 247, 247)),
    (0.75, (146, 197, 222)),
    (1.0, (33, 102, 172)),
)
EMPTY: RGB = (225, 225, 225)
INK: RGB = (29, 29, 31)
WHITE: RGB = (255, 255, 255)


def rate_colour(rate: float | None) -> RGB:
    """The colour of a win rate (grey when the cell has no game yet)."""
    if rate is None:
        return EMPTY
    rate = min(1.0, max(0.0, rate))
    for (low, a), (high, b) in zip(STOPS, STOPS[1:], strict=False):
        if rate <= high:
            t = (rate - low) / (high - low)
            return tuple(round(a[k] + (b[k] - a[k]) * t) for k in range(3))  # type: ignore[return-value]
    return STOPS[-1][1]


def luminance(colour: RGB) -> float:
    """Relative luminance (WCAG), 0 black to 1 white."""

    def channel(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def text_colour(background: RGB) -> RGB:
    """Ink or white, whichever contrasts more with *background*."""
    lum = luminance(background)
    return WHITE if (1.05 / (lum + 0.05)) > ((lum + 0.05) / (luminance(INK) + 0.05)) else INK
