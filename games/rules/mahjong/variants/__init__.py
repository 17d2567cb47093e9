"""Variant modules of the mahjong core (one module per game id)."""
