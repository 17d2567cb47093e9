"""歡樂斗地主 (seed 002_74b1b336bdfdfe1d.txt, decisions in RULES-NOTES §2): classic room, 癩子場,
悶抓場. More detail and every choice where the texts are silent: docs/rules/doudizhu.md.

Module functions (DESIGN.md §2 notation: ranks ``3456789TJQKA2``, ``B`` small and ``R`` big joker,
plays sorted low → high; in 癩子場 ``cards/reading`` when 癩子 stand for other ranks):

* ``legal_plays(hand, last=None, laizi=None) -> list[str]`` — weakest first, bombs then the
  rocket at the end, ``'pass'`` last when following, never when leading; with ``laizi`` every
  distinct reading (kind, main rank, length, bomb tier) once, e.g. ``'3337'`` (三帶一) and
  ``'3337/3333'`` (軟炸彈) for 癩子 7.
* ``classify(play, laizi=None) -> Pattern | None`` — ``kind`` (single, pair, trio, trio_single,
  trio_pair, chain, pair_chain, plane, plane_solo, plane_pair, four_two_solo, four_two_pair,
  bomb, rocket), ``rank`` (index of the top main rank, 0 = 3 … 14 = R), ``length``, ``size``,
  ``tier`` (bombs: 1 軟, 2 硬/classic, 3 純癩子, 4 王炸), ``name`` (單張, 對子, 三張, 三帶一,
  三帶二,
  順子, 連對, 飛機, 飛機帶翅膀, 四帶二, 四帶兩對, 炸彈 / 軟炸彈 / 純癩子炸彈, 王炸).
* ``beats(play, last, laizi=None) -> bool``.

Hand flow (``phase`` in views; actions are JSON dicts):

=========  ======================================================================================
start      all at once: ``{"type":"start","mingpai":bool}`` (明牌開始 ×5). Not in 悶抓場.
dealing    all at once (明牌開始 seats are done): ``{"type":"mingpai","dealt":n}`` — n = how many of
           his 17 cards had been dealt when he clicked (the table service supplies it from its
           clock; ×4 if n ≤ 8 else ×3) — or ``{"type":"ready"}``.
bidding    in turn from the first bidder (the first 明牌 player, else drawn from the seed):
           ``{"type":"bid","call":bool}``. All 不叫: the first 明牌 player is landlord, else a
           redeal (chance label ``deal{n}``) back to ``dealing``. 悶抓場: first
           ``{"type":"menzhua"}`` (blind, ×2, landlord at once) or ``{"type":"look"}``, then a bid.
robbing    ``{"type":"rob","rob":bool}``: the seats after the caller that never said 不叫, then the
           caller if anyone robbed; the last 搶 is landlord; ×2 each. Not in 悶抓場.
(底牌)     given to the landlord and shown to all; 癩子場 draws the 癩子 rank now.
doubling   the eligible seats at once: ``{"type":"double","double":bool}`` (not in 悶抓場).
dou        悶抓場 倒拉壘沃: each farmer ``{"type":"dou","dou":bool}`` (倒, later 壘); the landlord
           answers a farmer with ``{"type":"dou","farmer":f,"dou":bool}`` (拉, later 沃).
playing    ``{"type":"play","cards":"33344"}`` (+ ``"as":"…"`` for a 癩子 reading),
           ``{"type":"pass"}``; the landlord may ``{"type":"mingpai"}`` (×2) on his first turn
           before his first play.
over       ``result`` filled in.
=========  ======================================================================================

View (``view(state, seat)``; ``spectator_view`` has the same keys without ``hand``/``counter``):
``game`` "doudizhu", ``variant``, ``phase``, ``seat``, ``to_act`` (list), ``hand`` (own cards,
"" until dealt / 看牌), ``counts`` (cards per seat), ``shown`` ({seat: cards} of 明牌 seats, all
seats once over), ``landlord``, ``dipai`` (once shown), ``laizi``, ``bids`` (per seat the last
word: 明牌開始, 發牌明牌, 叫地主, 不叫, 搶地主, 不搶, 加倍, 不加倍, 悶抓, 看牌, 倒, 不倒, 拉, …),
``last`` (per seat None / "pass" / cards in the current trick), ``lead`` ({seat, cards, name, as}
of the play to beat, or None), ``multiplier`` ({total, parts: [{label, value, seat}]}; total is
the common 倍數, 加倍 / 倒拉壘沃 parts are per pair), ``options`` (this seat's legal non-play
actions; in dealing ``{"type":"mingpai"}`` to which the service adds ``dealt``), ``can_play``,
``result`` (once over: scores, winners, lines [{label, value, seat}], payments), plus
``mingpai``, ``doubles``, ``first_bidder``, ``deal_no``, ``played`` (cards played per seat),
``bombs``, ``counter`` (記牌器: unseen count per rank for this seat; the service strips it when
the room sells it and the seat has not bought it), and in 悶抓場 ``looked`` and ``dou``.

Glossary 中文 ↔ identifier: 地主 landlord · 農民 farmer · 底牌 dipai · 底分 base_score ·
倍數 multiplier · 叫地主/不叫 bid call · 搶地主 rob · 明牌 mingpai (明牌開始 start, 發牌明牌
dealing) · 加倍 double · 悶抓 menzhua · 看牌 look · 倒/拉/壘/沃 dou (steps 1–4) · 癩子 laizi ·
軟/硬/純癩子炸彈 bomb tier soft/hard/pure · 火箭/王炸 rocket · 單張 single · 對子 pair · 三張 trio ·
三帶一/三帶二 trio_single/trio_pair · 順子 chain · 連對 pair_chain · 飛機 plane · 飛機帶翅膀
plane_solo/plane_pair · 四帶二 four_two_solo/four_two_pair · 春天 spring · 反春 anti_spring ·
逃跑 escape · 托管 auto_action · 記牌器 counter · 房間係數 N and 回收 A (platform settlement).
"""

from games.engine import registry
from games.rules.doudizhu.patterns import Pattern, beats, classify, legal_plays
from games.rules.doudizhu.ruleset import Config, DoudizhuRuleset, State

RULESET = registry.register(DoudizhuRuleset())

__all__ = [
    "Config",
    "DoudizhuRuleset",
    "Pattern",
    "RULESET",
    "State",
    "beats",
    "classify",
    "legal_plays",
]
