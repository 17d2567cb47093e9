from django.urls import path

from lobby import views

app_name = "lobby"
urlpatterns = [
    path("", views.home, name="home"),
    path("rooms/", views.room_list, name="rooms"),
    path("escape-cost/<int:table_id>/", views.escape_cost, name="escape_cost"),
    path("rooms/<int:room_id>/quick/", views.quick_join, name="quick_join"),
    path("rooms/<int:room_id>/private/", views.private_create, name="private_create"),
    path("private/join/", views.private_join, name="private_join"),
]
