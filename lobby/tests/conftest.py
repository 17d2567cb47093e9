import pytest


@pytest.fixture(autouse=True)
def _guess_counters_cleared():
    """Each test starts with no wrong invite codes counted (this run's keys only)."""
    from django.core.cache import caches

    cache = caches["ratelimit"]
    client = getattr(cache, "_cache", None)
    if hasattr(client, "get_client"):  # Redis: delete this run's keys, nothing else
        redis = client.get_client(write=True)
        keys = list(redis.scan_iter(match=f"*{cache.key_prefix}*"))
        if keys:
            redis.delete(*keys)
    else:
        cache.clear()
    yield
