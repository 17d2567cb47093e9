from django.urls import path

from lobby import views

app_name = "lobby"
urlpatterns = [
    path("", views.home, name="home"),
    path("rooms/", views.room_list, name="rooms"),
    path("escape-cost/<int:table_id>/", views.escape_cost, name="escape_cost"),
    path("rooms/<int:room_id>/quick/", views.quick_join, name="quick_join"),
    path("tables/<int:table_id>/switch/", views.table_switch, name="table_switch"),
    path("rooms/<int:room_id>/private/", views.private_create, name="private_create"),
    path("private/join/", views.private_join, name="private_join"),
]

urlpatterns += [
    path("leaderboard/", views.leaderboard, name="leaderboard"),
    path("checkin/", views.checkin, name="checkin"),
    path("tasks/<int:task_id>/claim/", views.task_claim, name="task_claim"),
    path("friends/<int:user_id>/invite/", views.invite, name="invite"),
    path(
        "invitations/<int:invitation_id>/accept/", views.invitation_accept, name="invitation_accept"
    ),
    path(
        "invitations/<int:invitation_id>/decline/",
        views.invitation_decline,
        name="invitation_decline",
    ),
]
urlpatterns += [path("tables/<int:table_id>/hall/", views.table_panel, name="table_panel")]
urlpatterns += [path("tables/<int:table_id>/return/", views.table_return, name="table_return")]
urlpatterns += [
    path("rules/<slug:game>/", views.rules_page, name="rules"),
    path("rules/<slug:game>/<slug:variant>/", views.rules_page, name="rules_variant"),
]
