from django.urls import path

from games import consumers, wheel_consumer

websocket_urlpatterns = [
    path("ws/table/<int:table_id>/", consumers.TableConsumer.as_asgi()),
    path("ws/wheel/<int:room_id>/", wheel_consumer.WheelConsumer.as_asgi()),
]
