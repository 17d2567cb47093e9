"""The games app's WebSockets, thin: ``base`` (rate and frame limits, the database threads),
``table`` (a card or tile table), ``dafengshou`` (大豐收's room-wide round)."""
