"""The operators' economy page (issue #15 §6): SVG charts and their figures as CSV. Staff only."""

from __future__ import annotations

import csv

from django.contrib import admin
from django.contrib.admin.views.decorators import staff_member_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext

from ledger import charts, economy

MAX_DAYS = 366


def _days(request: HttpRequest) -> int:
    try:
        days = int(request.GET.get("days", "30"))
    except ValueError:
        days = 30
    return min(max(days, 2), MAX_DAYS)


@staff_member_required
def economy_page(request: HttpRequest) -> HttpResponse:
    days = _days(request)
    report = economy.economy_report(days)
    d = report["days"]
    flow = report["flow"]
    context = {
        **admin.site.each_context(request),
        "title": gettext("經濟概況"),
        "window": days,
        "hands": charts.line_chart(report["hands"], d),
        "players": charts.line_chart({gettext("活躍玩家"): report["players"]}, d),
        "rake": charts.bar_chart([(r["name"], r["rake"]) for r in report["rake"]]),
        "flow": charts.line_chart(
            {
                gettext("產生的歡樂豆"): flow["created_total"],
                gettext("回收的歡樂豆"): flow["taken_total"],
            },
            d,
        ),
        "held": charts.line_chart(
            {gettext("玩家持有"): report["held"], gettext("機器人持有"): report["bots_held"]}, d
        ),
        "created": {k: sum(v.values()) for k, v in flow["created"].items()},
        "taken": {k: sum(v.values()) for k, v in flow["taken"].items()},
        "house": sum(flow["house"].values()),
        "bots_created": sum(flow["bots"].values()),
        "bots_held": report["bots_held"][d[-1]],
        "players_held": report["held"][d[-1]],
        "charts": economy.CHARTS,
    }
    return render(request, "admin/ledger/economy.html", context)


@staff_member_required
def economy_csv(request: HttpRequest, chart: str) -> HttpResponse:
    if chart not in economy.CHARTS:
        raise Http404(gettext("沒有這個圖表"))
    report = economy.economy_report(_days(request))
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="economy-{chart}.csv"'
    writer = csv.writer(response)
    for row in economy.csv_rows(report, chart):
        writer.writerow(row)
    return response
