"""Reads of the games app (no writes): ``tables`` (access, snapshots), ``hands`` (history,
replays), ``dafengshou`` (大豐收's room view, history and RTP)."""
