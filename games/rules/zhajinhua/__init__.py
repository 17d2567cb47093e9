"""歡樂三張 (炸金花) for 2–6 players: the rules as implemented.

Seed 000 (歡樂三張), RULES-NOTES §5; the choices where the texts are silent are in
docs/rules/zhajinhua.md.

* Deck and deal: 52 suited cards (``As``, ``Th``); Chance(seed, "deal").shuffled(deck); seat s
  gets cards 3s, 3s+1, 3s+2. Every seat stakes the 底注 (``ante``) at the deal.
* Order: seats play 0 → 1 → … (the table draws them counter-clockwise); the seat after the
  dealer (``Config.dealer``) acts first.
* A current unit u (opening at the 底注): 跟注 costs u blind (暗注) and 2u seen (明注);
  加注 to a room chip level L > u costs L (2L seen), with 2L ≤ 單注封頂 (``unit_cap``).
* 看牌 (``look``) at any time, also off turn, all three cards, never undone. 棄牌 (``fold``)
  at any time, forfeiting what was staked.
* 手數封頂 (``round_cap``): a seat's 跟注/加注 count; past it only 比牌 or 棄牌.
* 比牌 (``compare``) with one live seat at twice the actor's own current bet (2u blind, 4u
  seen), from the actor's ``compare_from_round``-th turn (可比手數), and always with two left or
  past 手數封頂. The loser is out; equal hands lose for the asker.
* All-in (全押比牌): a seat never stakes beans it does not have. If it cannot cover a 跟注 it may
  比牌 at once for whatever it has left (maybe nothing); if it can cover the 跟注 but not the
  比牌 fee, the fee is cut to what it has left.
* Ranking: 豹子 > 順金 > 金花 > 順子 > 對子 > 單張, A K Q … 2, QKA the highest and A23 the
  lowest straight; mixed-suit 2-3-5 (特殊) beats every 豹子 and is the lowest 單張 otherwise.
* End: the last seat in takes the pot. Visibility at the end: each seat sees the hands it
  compared with; if the last two compared, everyone (spectators too) sees both; a fold shows
  nothing more.

Glossary (中文 ↔ identifier):

=============  ==========================================
底注           ``ante``
籌碼級別       ``chip_levels``
單注 / 當前單注 ``unit``
單注封頂       ``unit_cap``
手數 / 手數封頂 ``bets`` / ``round_cap``
可比手數       ``compare_from_round``
鍋底           ``pot``
暗注 / 明注     blind / seen rate (``looked`` False / True)
看牌           ``look``
跟注           ``call``
加注           ``raise``
比牌           ``compare`` (``target``)
棄牌           ``fold``
莊家           ``dealer``
豹子 順金 金花 順子 對子 單張  ``baozi shunjin jinhua shunzi duizi danzhang``
特殊 (235)     ``is_special``
托管           ``auto_action``
=============  ==========================================
"""

from games.engine import registry

from .hands import compare, hand_class, hand_key, is_special, strength
from .params import Config, config_from_params
from .ruleset import ZhajinhuaRuleset, ante_events
from .state import State

RULESET = registry.register(ZhajinhuaRuleset())

__all__ = [
    "RULESET",
    "Config",
    "State",
    "ZhajinhuaRuleset",
    "ante_events",
    "compare",
    "config_from_params",
    "hand_class",
    "hand_key",
    "is_special",
    "strength",
]
