"""Mahjong: the shared core and its variants (歡樂麻將; later 永州麻將, 樂清麻將).

Rules as implemented (details in docs/rules/mahjong.md and docs/rules/huanle_mahjong.md):

* The core (:mod:`.core`): a wall shuffled from the hand's seed, 13 tiles to each seat (the
  variant's hand size) and one more to the dealer; draws from the front, replacements (槓, 補花)
  from the back; a drawn flower is exposed and replaced at once. On its turn a seat discards or
  declares 暗槓 / 加槓 / 自摸. After a discard the claim window: 胡 > 碰 / 明槓 > 吃 (the next seat
  only), several 胡 at once with 一炮多響, else the first from the discarder; 搶槓 on a 加槓.
  流局 when a draw is due at the variant's reserve. 漏胡 is a core option.
* Hands (:mod:`.hands`): sets + pair in any arrangement, 七對, 十三幺, 全不靠 (七星不靠), 組合龍,
  with wild tiles (財神) standing for any kind (never a fifth copy); waits.
* 歡樂麻將 (:mod:`.variants.huanle`): seed 001 — 144 tiles, 財神, GB fans through PyMahjongGB
  + 無財神 + 花, 鳥牌, 莊家翻倍, room kinds 大眾場 / 8番場 / 無番場.

Actions: ``{"type": "discard", "tile": "W5"}``, ``{"type": "angang", "tile": "W5"}``,
``{"type": "jiagang", "tile": "W5"}``, ``{"type": "hu"}``, ``{"type": "chi", "tiles": ["W3",
"W4"]}`` (the two tiles from the hand), ``{"type": "peng"}``, ``{"type": "gang"}`` (明槓 on a
discard), ``{"type": "pass"}``.

Glossary 中文 ↔ identifier:
    莊家 dealer · 圈風 prevalent_wind · 門風 seat_wind · 牌牆 wall · 手牌 hand · 摸牌 draw ·
    打牌 discard · 吃 chi · 碰 peng · 明槓 gang (meld kind minggang) · 暗槓 angang · 加槓 jiagang ·
    胡 / 和 hu · 自摸 self_drawn · 點炮 from (the discarder) · 搶槓 rob_kong / robkong ·
    槓上開花 after_kong · 海底 wall_last · 補花 flower replacement · 花 flowers · 財神 wild
    (``caishen`` in views) · 翻牌 indicator · 鳥牌 bird · 一炮多響 multi_win · 漏胡 lou_hu ·
    流局 draw (outcome type "draw", event "liuju") · 番 fans · 聽牌 tenpai / waits ·
    向聽 shanten · 七對 qidui · 十三幺 shisanyao · 全不靠 quanbukao · 組合龍 zuhelong ·
    大眾場 dazhong · 8番場 bafan · 無番場 wufan · 無財神 wucaishen · 連莊 next_dealer.

Variants register on import of this package; 永州 and 樂清 live in ``variants/yongzhou.py``
and ``variants/yueqing.py``.
"""

from __future__ import annotations

from games.engine import registry
from games.rules.mahjong.variants import yongzhou, yueqing  # noqa: F401  (register on import)
from games.rules.mahjong.variants.huanle import HuanleRuleset

# 永州 and 樂清 register themselves on import; a variant that fails to import fails the package
# (reported at start-up by the system check leyou.E001) instead of silently dropping the game.
registry.register(HuanleRuleset())
