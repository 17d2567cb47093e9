"""跑胡子 (Hunan, seed 003) and 雙王扯胡子 (seed 000) — work in progress."""
