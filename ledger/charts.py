"""SVG charts drawn by the project (server-side geometry; the template only draws it)."""

from __future__ import annotations

from datetime import date
from typing import Any

COLOURS = ["#d84315", "#1565c0", "#2e7d32", "#6a1b9a", "#ef6c00", "#00838f", "#ad1457", "#4e342e"]
WIDTH, HEIGHT, PAD_LEFT, PAD_BOTTOM, PAD_TOP = 640, 220, 56, 24, 12


def _scale(values: list[int]) -> tuple[int, int]:
    low, high = min([0, *values]), max([0, *values])
    return low, high if high != low else low + 1


def line_chart(series: dict[str, dict[date, int]], days: list[date]) -> dict[str, Any]:
    """Polylines, one per series, over the days; with the y-range and a few day labels."""
    values = [v for s in series.values() for v in s.values()]
    low, high = _scale(values)
    inner_w, inner_h = WIDTH - PAD_LEFT - 8, HEIGHT - PAD_BOTTOM - PAD_TOP
    step = inner_w / max(1, len(days) - 1)

    def y(v: int) -> float:
        return PAD_TOP + inner_h - (v - low) / (high - low) * inner_h

    lines = []
    for i, (name, points) in enumerate(series.items()):
        coords = " ".join(
            f"{PAD_LEFT + j * step:.1f},{y(points.get(d, 0)):.1f}" for j, d in enumerate(days)
        )
        lines.append(
            {
                "name": name,
                "points": coords,
                "colour": COLOURS[i % len(COLOURS)],
                "last": points.get(days[-1], 0) if days else 0,
            }
        )
    every = max(1, len(days) // 6)
    labels = [
        {"x": f"{PAD_LEFT + j * step:.1f}", "text": d.strftime("%m-%d")}
        for j, d in enumerate(days)
        if j % every == 0
    ]
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "lines": lines,
        "labels": labels,
        "low": low,
        "high": high,
        "y_low": f"{y(low):.1f}",
        "y_high": f"{y(high):.1f}",
        "y_zero": f"{y(0):.1f}",
        "left": PAD_LEFT,
        "right": WIDTH - 8,
        "label_y": HEIGHT - 6,
    }


def bar_chart(items: list[tuple[str, int]]) -> dict[str, Any]:
    """Horizontal bars, largest first as given."""
    high = max([1, *(v for _, v in items)])
    row = 22
    bars = [
        {
            "label": label,
            "value": value,
            "y": 6 + i * row,
            "width": f"{max(1.0, value / high * (WIDTH - 200)):.1f}",
            "colour": COLOURS[i % len(COLOURS)],
        }
        for i, (label, value) in enumerate(items)
    ]
    return {"width": WIDTH, "height": max(40, 12 + len(items) * row), "bars": bars, "x0": 150}
