"""跑胡子: Hunan 80 cards (seed 003) and 雙王扯胡子 (seed 000, 82 cards) as variants of one engine.

Rules as implemented (quotes and every choice where the texts are silent: docs/rules/paohuzi.md)

* Cards 小 一…十 (``x1``…``x10``) and 大 壹…拾 (``d1``…``d10``), four each; 二七十 / 貳柒拾 red.
  雙王 adds two 王霸 (``W``). Three seats; seat ``s+1`` is the 下家 of ``s``.
* Deal (documented algorithm): ``Chance(seed, "deal").shuffled(deck)``; 20 cards each from the
  front in seat order starting at the dealer, the 61st is the dealer's 21st card, the 亮張
  (shown); the rest is the 墩 (19, or 21 with two 王), drawn from the front.
* Forced 天胡: 3 提 or 5 坎 (a 提 counts as a 坎) in a dealt hand wins at once, dealer first, then
  下家, then 上家. Otherwise each four of a kind becomes a 提, and seats that can win on the 亮張
  may choose to (天胡 ②, dealer first).
* A player holds 20 cards between turns, plus one per 跑 / 提 beyond the first; after taking a card
  he discards only when above that (this is 003's 八塊 and its deal-time follow-on rules).
* A draw onto the drawer's pair is a 偎 (臭偎, one card shown, when he passed that kind before),
  onto his 坎 / 偎 a 提; these are not shown. Otherwise the card is shown and a claim window opens;
  a discard likewise. Choices: 胡 (drawn cards only; 雙王 with 放炮 also discards, not by a 王
  holder), 跑 (forced: 坎 + another's card, 偎 + another's card, 碰 + any drawn card), 碰 (a pair;
  not the drawer), 吃 (the drawer and his 下家 on a draw, the 下家 on a discard) into a 一句話 or
  絞 with every 比 it forces. Priority 胡 > 跑 / 碰 > 吃; among equals the drawer, then seat order
  (下家 first). Passing an available 吃 / 碰 makes the kind 臭 for that seat; a claim lost to a
  higher one does not. Nobody 吃 / 碰 a kind he discarded. A passed hu is 臭胡 until the seat's
  meld 胡息 changes. A 坎 is never split; a 王 is never discarded, 吃'd or 碰'd.
* Hu: hand + melds form 門子 only, with a 將 exactly when a 跑 / 提 is among them, and at least 15
  胡息 (:func:`find_hu`). 荒莊 when the 墩 runs out.
* Hunan score: 底數 x = (息 − 12) ÷ 3 (+1 自摸; 天胡 (息 × 2 − 12) ÷ 3), 番 f = the 名堂 added
  (平胡 1; 海底 +1 / +2), each loser pays x·f·d, the winner gets x·f·2·d.
  雙王: 囤 = ⌊(息 − 15) ÷ 3⌋ + 1 (+1 加底) + 省, 番 = colour × 胡法, each loser pays
  min(囤 × 番 × 底注, 封頂); at 荒莊 each 王 held pays 5 × 底注 to each seat holding none.

Glossary (中文 ↔ identifier)

=========  ======================  =========  =========================
中文        identifier              中文        identifier
=========  ======================  =========  =========================
墩          wall                    亮張        liang
坎          kan                     對 / 將     pair / jiang
碰          peng                    偎 (嘯)     wei
臭偎 (臭嘯) chouwei                 提 (傾)     ti
跑          pao                     吃          chi
一句話      ju                      絞          jiao
比 (下火)   bi                      臭牌        chou
臭胡        chou_hu                 胡息        huxi
門子        group / meld            底數        dishu (base_value)
名堂 / 番   mingtang / fan          囤          tun (base_value)
省 (醒)     xing                    王霸        wang (``W``)
王釣        wangdiao                王釣王      wangdiaowang
王闖        wangchuang              荒莊        huang (huangzhuang)
天胡        tianhu                  海底        haidi
自摸        self_drawn              破跑胡      po pao hu (join "free")
八塊 / 重跑 baikuai                 放炮        fangpao
封頂        cap                     加底        jiadi
=========  ======================  =========  =========================
"""

from games.engine import registry
from games.rules.paohuzi.hu import Hu, best_partial_huxi, find_hu
from games.rules.paohuzi.params import Config, next_dealer
from games.rules.paohuzi.ruleset import PaohuziRuleset

RULESET = registry.register(PaohuziRuleset())

__all__ = [
    "Config",
    "Hu",
    "PaohuziRuleset",
    "RULESET",
    "best_partial_huxi",
    "find_hu",
    "next_dealer",
]
