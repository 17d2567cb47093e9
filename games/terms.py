"""Game terms (遊戲術語) in the reader's language: their Chinese names, converted or glossed.

Game terms keep their Chinese names in every language (docs/i18n.md): 繁體中文 shows them as the
engines and rule texts write them, 简体中文 converts their characters (``hans_table``, generated
from OpenCC), and English keeps the Chinese followed by a short gloss, ``地主 (landlord)``.
``term`` is for text that reaches a page as data — an engine's result line, a button label from
a Python table, a card type's name — where the template's ``{% translate %}`` cannot reach;
fixed strings in templates and Python go through Django's catalogs as usual.
"""

from __future__ import annotations

import re

from django.utils import translation

from games.hans_table import SIMP, TRAD

_T2S = str.maketrans(TRAD, SIMP)
_HAN_RUN = re.compile(r"[\u3400-\u9fff]+")

# 中文 term → a short English gloss. A term missing here stays Chinese without a gloss in English
# (tests/test_i18n_pages.py fails on such a term on any page).
# fmt: off
GLOSSARY: dict[str, str] = {
    "紅胡": "red win",
    "點胡": "one-red win",
    "紅烏": "all-red win",
    "烏胡": "no-red win",
    "對對胡": "all-pairs win",
    "大字胡": "big-character win",
    "小字胡": "small-character win",
    "海底胡": "last-card win",
    "天胡": "heavenly win",
    "地胡": "earthly win",
    "自摸胡": "self-drawn win",
    "一": "small 1", "一句話": "run", "一條": "1 bamboo", "一筒": "1 dots",
    "一般高": "Pure Double Chow",
    "一色三同順": "Pure Triple Chow", "一色三步高": "Pure Shifted Chows",
    "一色三節高": "Pure Shifted Pungs",
    "一色四同順": "Quadruple Chow", "一色四步高": "Four Pure Shifted Chows",
    "一色四節高": "Four Pure Shifted Pungs", "一色雙龍會": "Pure Terminal Chows",
    "一萬": "1 characters",
    "一餅": "1 dots", "七": "small 7", "七對": "Seven Pairs",
    "七星不靠": "Greater Honors and Knitted Tiles", "七條": "7 bamboo", "七筒": "7 dots",
    "七萬": "7 characters", "七餅": "7 dots", "三": "small 3", "三元刻": "dragon pung",
    "三同刻": "Triple Pung", "三帶一": "trio with single", "三帶二": "trio with pair",
    "三張": "trio",
    "三暗刻": "Three Concealed Pungs", "三條": "3 bamboo", "三槓": "Three Kongs", "三筒": "3 dots",
    "三色三同順": "Mixed Triple Chow", "三色三步高": "Mixed Shifted Chows",
    "三色三節高": "Mixed Shifted Pungs",
    "三色雙龍會": "Three-Suited Terminal Chows", "三萬": "3 characters",
    "三風刻": "Big Three Winds",
    "三餅": "3 dots", "上家": "left", "下家": "right", "下注": "stake", "不中": "miss",
    "不倒": "no dao",
    "不出": "pass", "不加倍": "no double", "不叫": "no bid", "不壘": "no lei", "不拉": "no la",
    "不搶": "no rob", "不求人": "Fully Concealed Hand", "不沃": "no wo", "丞相": "chancellor",
    "中農": "middle peasant", "中鳥": "bird hit", "九": "small 9", "九條": "9 bamboo",
    "九筒": "9 dots",
    "九萬": "9 characters", "九蓮寶燈": "Nine Gates", "九餅": "9 dots", "二": "small 2",
    "二條": "2 bamboo",
    "二筒": "2 dots", "二萬": "2 characters", "二餅": "2 dots", "五": "small 5", "五條": "5 bamboo",
    "五筒": "5 dots", "五萬": "5 characters", "五門齊": "All Types", "五餅": "5 dots",
    "亮出的花數": "flowers shown", "亮張": "shown card", "伍": "big 5", "佃戶": "tenant",
    "倍數": "multiplier",
    "倒": "dao", "偎": "wei", "全不靠": "Lesser Honors and Knitted Tiles", "全中": "Middle Tiles",
    "全大": "Upper Tiles", "全小": "Lower Tiles", "全帶五": "All Fives", "全帶幺": "Outside Hand",
    "全求人": "Melded Hand", "全雙刻": "All Even Pungs", "八": "small 8", "八條": "8 bamboo",
    "八筒": "8 dots", "八萬": "8 characters", "八餅": "8 dots", "六": "small 6", "六條": "6 bamboo",
    "六筒": "6 dots", "六萬": "6 characters", "六餅": "6 dots", "冬": "winter", "加倍": "double",
    "加槓": "added kong", "加注": "raise", "加注到": "raise to", "包": "liability",
    "包身工": "bond labourer",
    "北": "North", "北風": "north wind", "十": "small 10", "十三幺": "Thirteen Orphans",
    "南": "South",
    "南瓜": "pumpkin", "南風": "south wind", "叁": "big 3", "反春": "anti-spring",
    "反春天": "anti-spring",
    "叫地主": "bid for landlord", "台": "tai", "吃": "chow", "合計": "total", "名堂": "bonus",
    "和絕張": "Last Tile", "商人": "merchant", "喜相逢": "happy reunion", "單張": "single",
    "單釣將": "Single Wait", "四": "small 4", "四帶二": "four with two",
    "四帶兩對": "four with two pairs",
    "四暗刻": "Four Concealed Pungs", "四條": "4 bamboo", "四槓": "Four Kongs",
    "四歸一": "Tile Hog",
    "四筒": "4 dots", "四萬": "4 characters", "四餅": "4 dots", "回收": "rake", "囤": "tun",
    "圈風刻": "Prevalent Wind", "地主": "landlord", "坎": "triplet", "基數": "base count",
    "墩": "stock",
    "壘": "lei", "壹": "big 1", "夏": "summer", "大": "big", "大三元": "Big Three Dragons",
    "大四喜": "Big Four Winds", "大地主": "great landlord", "大於五": "Upper Four",
    "大眾場": "standard room",
    "大豐收": "Harvest wheel", "大財主": "great squire", "好運": "luck",
    "妙手回春": "Last Tile Draw",
    "字一色": "All Honors", "家": "players", "富農": "rich peasant", "封頂": "cap", "將": "pair",
    "對子": "pair", "對家": "opposite", "對局倍數": "hand multiplier", "小": "small",
    "小三元": "Little Three Dragons", "小四喜": "Little Four Winds", "小地主": "small landlord",
    "小於五": "Lower Four", "小財主": "small squire", "屁胡": "plain win", "嵌張": "Closed Wait",
    "巡撫": "governor", "帝王": "emperor", "平和": "All Chows", "平方花": "flowers squared",
    "平胡": "plain win", "幺九刻": "terminal pung", "底": "base", "底分": "base",
    "底數": "base count",
    "底注": "ante", "底牌": "kitty", "座": "seat", "息": "points", "悶抓": "blind",
    "悶抓場": "blind room",
    "房型": "room type", "打": "discard", "打出": "discarded", "托管": "auto-play", "押注": "bet",
    "拉": "la", "拾": "big 10", "捌": "big 8", "掌櫃": "shopkeeper", "推不倒": "Reversible Tiles",
    "提": "ti", "搶地主": "rob landlord", "搶槓和": "Robbing the Kong",
    "搶槓胡": "robbing the kong",
    "摸牌": "draw", "斗地主": "Fight the Landlord", "斷幺": "All Simples", "无字": "no honours",
    "明杠": "exposed kong", "明槓": "exposed kong", "明牌": "open hand",
    "明牌開始": "start with open hand",
    "春": "spring", "春天": "spring", "暗杠": "concealed kong", "暗槓": "concealed kong",
    "杠": "kong",
    "杠頭": "kong head", "東": "East", "東風": "east wind", "柒": "big 7", "梅": "plum",
    "棄牌": "fold",
    "槓": "kong", "槓上開花": "Out with Replacement Tile", "樂清麻將": "Yueqing Mahjong",
    "樂游棋牌": "Leyou Games", "樂游游戲": "Leyou Games", "橘子": "orange",
    "歡樂三張": "Three Cards",
    "歡樂斗地主": "Happy Fight the Landlord", "歡樂豆": "beans", "歡樂麻將": "Happy Mahjong",
    "比": "bi",
    "比牌": "compare", "比牌輸": "lost compare", "永州麻將": "Yongzhou Mahjong", "沃": "wo",
    "流局": "drawn hand", "海底撈月": "Last Tile Claim", "混一色": "Half Flush",
    "混幺九": "All Terminals and Honors", "清一色": "Full Flush", "清幺九": "All Terminals",
    "清龍": "Pure Straight", "湖南跑胡子": "Hunan Paohuzi", "準備": "ready", "漁夫": "fisherman",
    "漏胡": "missed win", "炸": "bomb", "炸彈": "bomb", "無人胡牌": "nobody won",
    "無字": "no honours",
    "無番和": "Chicken Hand", "無財神": "no wild tile", "爆胡": "capped win",
    "牢莊": "dealer streak",
    "特殊": "special", "獨聽": "single wait", "獵人": "hunter", "玉米": "corn", "王": "king",
    "王炸": "rocket", "王霸": "king", "玖": "big 9", "番": "fan", "番數": "fan count",
    "番起和": "fan to win",
    "癩子": "wild card", "癩子係數": "wild multiplier", "癩子場": "wild-card room",
    "發牌明牌": "open at the deal", "發財": "green dragon", "白板": "white dragon", "省": "xing",
    "看牌": "look", "知府": "prefect", "知縣": "magistrate", "短工": "day labourer",
    "硬炸彈": "hard bomb",
    "碰": "pung", "碰碰和": "All Pungs", "秋": "autumn", "稻穗": "rice", "竹": "bamboo",
    "箭刻": "Dragon Pung", "紅中": "red dragon", "紅中刻": "red dragon pung",
    "紅中刻子": "red dragon pung",
    "純癩子炸彈": "pure wild bomb", "組合龍": "Knitted Straight", "結算": "settlement",
    "絞": "mixed triple",
    "綠一色": "All Green", "總督": "viceroy", "總花": "total flowers", "缺一門": "missing a suit",
    "缺一门": "missing a suit", "翻倍": "doubled", "翻牌": "indicator tile", "翻醒": "turned xing",
    "老少副": "Two Terminal Chows", "聽": "wait", "聽牌": "ready hand", "肆": "big 4", "胡": "win",
    "胡息": "points", "胡牌": "win", "自己": "me", "自己摸": "own draw", "自摸": "self-drawn",
    "自風位": "seat wind", "自風位刻子": "seat wind pung", "臭": "dead", "臭牌": "dead cards",
    "臭胡": "passed win", "臺": "tai", "臺數": "tai", "花": "flower", "花數": "flower count",
    "花牌": "flower tiles", "花龍": "Mixed Straight", "荒莊": "drawn hand", "莊": "dealer",
    "莊家": "dealer", "菊": "chrysanthemum", "落空": "miss", "葡萄": "grape", "蘋果": "apple",
    "蘭": "orchid", "蟠桃": "peach", "衙役": "constable", "西": "West", "西瓜": "watermelon",
    "西風": "west wind", "計分": "scoring", "記牌器": "card counter", "豆": "beans",
    "豹子": "three of a kind", "財神": "wild tile", "財神作": "wild tile as",
    "貧農": "poor peasant",
    "貳": "big 2", "賠付": "pays", "贏家": "winner", "贏得": "won", "贏得鍋底": "won the pot",
    "起和": "minimum to win", "起胡": "minimum to win", "跑": "pao", "跑胡子": "Paohuzi",
    "跟注": "call",
    "身份係數": "role factor", "軟炸彈": "soft bomb", "農民": "farmer", "连六": "six in a row",
    "逃跑": "escape", "通判": "assistant prefect", "連七對": "Seven Shifted Pairs",
    "連六": "six in a row",
    "連對": "pair sequence", "逼胡": "forced win", "過": "pass", "邊張": "Edge Wait", "醒": "xing",
    "金花": "flush", "鍋底": "pot", "長工": "farmhand", "門前清": "Concealed Hand", "門子": "meld",
    "門風刻": "Seat Wind", "開始": "start", "開火車": "train", "開獎": "draw", "陸": "big 6",
    "雙同刻": "Double Pung", "雙明槓": "Two Melded Kongs", "雙暗刻": "Two Concealed Pungs",
    "雙暗槓": "Two Concealed Kongs", "雙王扯胡子": "Two-king Paohuzi", "雙箭刻": "Two Dragon Pungs",
    "雞胡": "chicken hand", "順子": "straight", "順金": "straight flush", "飛機": "airplane",
    "飛機帶翅膀": "airplane with wings", "骰子": "dice", "鳥牌": "bird tile", "麻將": "mahjong",
    "點炮": "dealt in",
}
# fmt: on


# 跑胡子's cards (小 一…十, 大 壹…拾, 王): a run of them is glossed in the project's notation
_ZIPAI = {
    **{c: f"x{i + 1}" for i, c in enumerate("一二三四五六七八九十")},
    **{c: f"d{i + 1}" for i, c in enumerate("壹貳叁肆伍陸柒捌玖拾")},
    "王": "W",
}
_LONGEST = 8


def _segments(run: str) -> list[tuple[str, str]] | None:
    """The run cut into glossary terms (longest first) and card groups, or None if it cannot be."""
    out: list[tuple[str, str]] = []
    i = 0
    while i < len(run):
        for j in range(min(len(run), i + _LONGEST), i, -1):
            if run[i:j] in GLOSSARY and (j - i > 1 or run[i] not in _ZIPAI):
                out.append((run[i:j], GLOSSARY[run[i:j]]))
                i = j
                break
        else:
            if run[i] not in _ZIPAI:
                return None
            j = i
            while j < len(run) and run[j] in _ZIPAI:
                j += 1
            out.append((run[i:j], " ".join(_ZIPAI[c] for c in run[i:j])))
            i = j
    return out


def _traditional(run: str) -> str:
    # the fan names PyMahjongGB writes in simplified characters (games.templatetags.tiles.trad)
    from games.templatetags.tiles import trad

    return trad(run)


def is_term(run: str) -> bool:
    """Whether a run of Chinese characters is a game term English pages show glossed."""
    return run in GLOSSARY or _traditional(run) in GLOSSARY or all(c in _ZIPAI for c in run)


def _gloss(text: str) -> str:
    """Each game term in the text followed by its gloss (once: a glossed text is kept)."""

    def one(m: re.Match[str]) -> str:
        run = m.group(0)
        if text[m.end() : m.end() + 2].lstrip().startswith("("):
            return run
        if run in GLOSSARY or _traditional(run) in GLOSSARY:
            return f"{run} ({GLOSSARY.get(run) or GLOSSARY[_traditional(run)]})"
        parts = _segments(run)
        if parts is None:
            return run
        return " ".join(f"{part} ({gloss})" for part, gloss in parts)

    return _HAN_RUN.sub(one, text)


def hans(text: str) -> str:
    """The text with its Traditional characters replaced by Simplified ones."""
    return text.translate(_T2S)


def script(text: str) -> str:
    """Chinese text in the active language's script (简体 converted), never glossed: for a
    glyph used as an icon, which English pages show as it is."""
    language = translation.get_language() or ""
    return hans(text) if language.startswith("zh-hans") else text


def term(text: object) -> str:
    """A game term (or a line of them) as the active language shows it; non-text as it is."""
    if not isinstance(text, str) or not text:
        return text  # type: ignore[return-value]
    if (translation.get_language() or "").startswith("en"):
        return _gloss(text)
    return script(text)
