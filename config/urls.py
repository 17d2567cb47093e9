from django.contrib import admin
from django.contrib.staticfiles import finders
from django.http import HttpResponse
from django.urls import include, path
from django.views.decorators.cache import cache_control
from django.views.i18n import JavaScriptCatalog

admin.site.site_header = "樂游棋牌 管理後台"
admin.site.site_title = "樂游棋牌"


@cache_control(max_age=86400, public=True)
def favicon(request):
    """The project's own icon (static/favicon.svg) where browsers look for it: /favicon.ico."""
    with open(finders.find("favicon.svg"), "rb") as icon:
        return HttpResponse(icon.read(), content_type="image/svg+xml")


urlpatterns = [
    path("favicon.ico", favicon),
    path("admin/economy/", include("ledger.urls")),  # staff only (issue #15 §6)
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    # the table's JavaScript text (static/js): Django's catalog of locale/*/djangojs.po
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("accounts/", include("accounts.urls")),
    path("games/", include("games.urls")),
    path("", include("lobby.urls")),
]
