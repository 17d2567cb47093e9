from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

admin.site.site_header = "樂游棋牌 管理後台"
admin.site.site_title = "樂游棋牌"

urlpatterns = [
    path("admin/economy/", include("ledger.urls")),  # staff only (issue #15 §6)
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    # the table's JavaScript text (static/js): Django's catalog of locale/*/djangojs.po
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("accounts/", include("accounts.urls")),
    path("games/", include("games.urls")),
    path("", include("lobby.urls")),
]
