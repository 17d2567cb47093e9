from ledger.selectors import balance_for_user


def nav(request):
    """The signed-in player's beans for the top bar."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"nav_beans": balance_for_user(user)}
