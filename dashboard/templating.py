"""The dashboard's pages as Jinja2 templates (``dashboard/templates``), through Starlette's own
``Jinja2Templates``: every page extends ``base.html`` (one head, one top bar), every value is
escaped (autoescape on: a player's name, a round label or an error never becomes markup), and a
value a page forgets is an error, not an empty string (``StrictUndefined``).

``templates.TemplateResponse(request, "hall.html", {...})`` renders a page; ``page(request, NAME,
status_code=..., **values)`` is the short form the routes use.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

import jinja2
from starlette.requests import Request
from starlette.templating import Jinja2Templates, _TemplateResponse

templates = Jinja2Templates(env=jinja2.Environment(
    loader=jinja2.PackageLoader("dashboard", "templates"),
    autoescape=True,
    undefined=jinja2.StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
))


def points(value: float | None) -> str:
    """Points as a pairing list writes them: 3, 3½, ½ ("" for None)."""
    if value is None:
        return ""
    whole, half = divmod(round(value * 2), 2)
    return (str(whole) if whole or not half else "") + ("½" if half else "")


def figure(value) -> str:
    """A tie-break value: whole numbers as such, others with up to two decimals (46.25, 55.5)."""
    if isinstance(value, float):
        return f"{value:.2f}".rstrip("0").rstrip(".") if value != int(value) else str(int(value))
    return "" if value is None else str(value)


def money(text: str) -> str:
    """A sum of money as the standings JSON gives it ("750000", "187500.5") with thousands grouped
    as /standings shows it ("750,000", "187,500.5"); text that is no number as it is."""
    try:
        return format(Decimal(text), ",")
    except (InvalidOperation, TypeError, ValueError):
        return str(text)


templates.env.filters.update(points=points, figure=figure, money=money)


def page(request: Request, name: str, status_code: int = 200, **values) -> _TemplateResponse:
    """The page ``name`` (a template in dashboard/templates) with ``values``; ``status_code`` is
    the response's (a 404 page still shows the dashboard's frame)."""
    return templates.TemplateResponse(request, name, values, status_code=status_code)
