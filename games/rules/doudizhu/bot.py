"""placeholder bot"""
def choose(ruleset, st, seat):
    return ruleset.auto_action(st, seat)
