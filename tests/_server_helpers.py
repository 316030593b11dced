"""Shared by the server tests: the real Engine (the model loads once per test run), the fake
upstream and the proxy in front of it, and the values planted in requests, which the upstream
must never receive."""

from __future__ import annotations

import functools

from alias_engine import Engine
from alias_engine.server import ServerConfig, create_app
from alias_engine.server.fake_upstream import FakeUpstream, ServerThread

NAME = "Jean Dupont"
EMAIL = "jean.dupont@example.fr"
IBAN = "FR76 3000 6000 0112 3456 7890 189"
PHONE = "06 12 34 56 78"
# the value under the most scrutiny: with é and an emoji near it, so byte cuts split UTF-8 characters
PROMPT = f"Bonjour 😀, je suis {NAME}, écrivez à {EMAIL} ; IBAN {IBAN}, téléphone {PHONE}. Merci — à bientôt."
PLANTED = (EMAIL, "3000 6000 0112", PHONE, "Dupont")


@functools.lru_cache(maxsize=1)
def engine() -> Engine:
    return Engine(threads=1)


def leaked(bodies) -> list[str]:
    """The planted values found in any of `bodies` (bytes as received by the upstream)."""
    text = "\n".join(b.decode("utf-8") for b in bodies)
    return [value for value in PLANTED if value in text]


def running_fake():
    """A fake upstream on 127.0.0.1 (its `url` set) for a module's fixture: `yield from running_fake()`."""
    fake = FakeUpstream(delta_chars=3)
    server = ServerThread(fake.app)
    fake.url = server.url
    yield fake
    server.stop()


_shared_engine = engine


def start(fake, engine=None, **options) -> ServerThread:
    """The proxy in front of `fake`, with the shared engine unless another is given."""
    return ServerThread(create_app(ServerConfig(upstream=fake.url + "/v1", **options), engine or _shared_engine()))


def running_proxy(fake):
    """The proxy's URL for a module's fixture: `yield from running_proxy(fake)`."""
    server = start(fake)
    yield server.url
    server.stop()
