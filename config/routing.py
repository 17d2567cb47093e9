from games.routing import websocket_urlpatterns as game_patterns
from lobby.routing import websocket_urlpatterns as lobby_patterns

websocket_urlpatterns = [*game_patterns, *lobby_patterns]
