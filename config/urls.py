from django.contrib import admin
from django.urls import include, path

admin.site.site_header = "樂游棋牌 管理後台"
admin.site.site_title = "樂游棋牌"

urlpatterns = [
    path("admin/economy/", include("ledger.urls")),  # staff only (issue #15 §6)
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/", include("accounts.urls")),
    path("games/", include("games.urls")),
    path("", include("lobby.urls")),
]
