"""A slow, obviously-correct reference for legal_plays: every sub-multiset × every substitution."""

from __future__ import annotations

from itertools import combinations_with_replacement, product

from games.rules.doudizhu.patterns import RANKS, Pattern, all_readings, sort_cards


def sub_multisets(hand: str):
    counts = [(ch, hand.count(ch)) for ch in dict.fromkeys(hand)]
    for picks in product(*[range(n + 1) for _, n in counts]):
        cards = "".join(ch * k for (ch, _), k in zip(counts, picks))
        if cards:
            yield sort_cards(cards)


def reading_classes(hand: str, laizi: str | None = None) -> set[tuple]:
    """(cards, kind, rank, length, tier) of every play the hand can make."""
    out: set[tuple] = set()
    for cards in sub_multisets(hand):
        wild = cards.count(laizi) if laizi else 0
        natural = cards.replace(laizi, "") if laizi else cards
        subs = combinations_with_replacement(RANKS[:13], wild) if wild else [()]
        for sub in subs:
            reading = sort_cards(natural + "".join(sub))
            play = cards if reading == cards else f"{cards}/{reading}"
            for p in all_readings(play, laizi):
                out.add((p.cards, p.kind, p.rank, p.length, p.tier))
    return out


def classes_of(plays: list[str], laizi: str | None = None) -> set[tuple]:
    out: set[tuple] = set()
    for play in plays:
        if play == "pass":
            continue
        for p in all_readings(play, laizi):
            out.add((p.cards, p.kind, p.rank, p.length, p.tier))
    return out


def beating(classes: set[tuple], last: Pattern) -> set[tuple]:
    keep = set()
    for cards, kind, rank, length, tier in classes:
        p = Pattern(kind, rank, length, len(cards), tier, cards, cards)
        if p.beats(last):
            keep.add((cards, kind, rank, length, tier))
    return keep
