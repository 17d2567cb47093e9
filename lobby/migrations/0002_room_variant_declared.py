"""Rooms whose 玩法 is not one their game declares (the old free-text box: "classic" for a
mahjong room, "standard" …) take the game's first variant; the games' own old keys that the
玩法 now decides (歡樂 room_kind, 永州 bao_hu, 跑胡子 variant) move out of ``extra``."""

from django.db import migrations

MOVED = {"mahjong_huanle": ("room_kind",), "mahjong_yongzhou": ("bao_hu",), "paohuzi": ("variant",)}


def forwards(apps, schema_editor):
    from games.engine import registry

    Room = apps.get_model("lobby", "Room")
    for room in Room.objects.all():
        try:
            ruleset = registry.get(room.game)
        except KeyError:
            continue
        ids = [v.id for v in ruleset.variants]
        extra = dict(room.extra or {})
        if room.game == "mahjong_huanle" and extra.get("room_kind") in ids:
            room.variant = extra["room_kind"]
        if room.game == "mahjong_yongzhou" and extra.get("bao_hu") in (3, 5):
            room.variant = f"bao{extra['bao_hu']}"
        if room.game == "paohuzi" and extra.get("variant") in ids:
            room.variant = extra["variant"]
        for key in MOVED.get(room.game, ()):
            extra.pop(key, None)
        if ids and room.variant not in ids:
            room.variant = ids[0]
        room.extra = extra
        room.save(update_fields=["variant", "extra"])


class Migration(migrations.Migration):
    dependencies = [("lobby", "0001_initial")]
    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
