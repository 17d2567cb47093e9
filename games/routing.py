from django.urls import path

from games.consumers.dafengshou import DafengshouConsumer
from games.consumers.table import TableConsumer

websocket_urlpatterns = [
    path("ws/table/<int:table_id>/", TableConsumer.as_asgi()),
    path("ws/wheel/<int:room_id>/", DafengshouConsumer.as_asgi()),
]
