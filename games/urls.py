from django.urls import path

from games import views

app_name = "games"
urlpatterns = [
    path("table/<int:table_id>/", views.table_page, name="table"),
    path("replay/<int:hand_id>/", views.replay_page, name="replay"),
]
