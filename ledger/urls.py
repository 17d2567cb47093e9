from django.urls import path

from ledger import views

app_name = "ledger"
urlpatterns = [
    path("", views.economy_page, name="economy"),
    path("<slug:chart>.csv", views.economy_csv, name="economy_csv"),
]
