"""The shared rule-engine kit: the contract every game implements, and its helpers.

Pure Python: no Django, no I/O, no clock, no global random (a test asserts it). Every game in
``games.rules`` implements :class:`games.engine.protocol.Ruleset` and registers itself in
:mod:`games.engine.registry`.
"""
