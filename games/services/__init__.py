"""Table orchestration: the only code that writes tables, seats, hands and events."""
