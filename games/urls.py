from django.urls import path

from games import views

app_name = "games"
urlpatterns = [
    path("table/<int:table_id>/", views.table_page, name="table"),
    path("replay/<int:hand_id>/", views.replay_page, name="replay"),
    path("replay/<int:hand_id>/step/<int:step>/", views.replay_step, name="replay_step"),
    path("wheel/<int:room_id>/", views.dafengshou_page, name="dafengshou"),
    path(
        "wheel/<int:room_id>/verify/<int:number>/",
        views.dafengshou_verify_page,
        name="dafengshou_verify",
    ),
    path("verify_deal.py", views.verify_script, name="verify_script"),
]
