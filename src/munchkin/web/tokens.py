"""Secrets and codes: seat tokens (kept hashed), game codes (shared openly)."""

from __future__ import annotations

import hashlib
import secrets

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""Game codes avoid letters and digits that look alike (0/O, 1/I)."""
CODE_LENGTH = 6
CODE_PATTERN = f"^[{CODE_ALPHABET}{CODE_ALPHABET.lower()}]{{{CODE_LENGTH}}}$"
TOKEN_PATTERN = r"^[A-Za-z0-9_-]{40,64}$"


def new_token() -> str:
    """A seat token: 256 random bits, URL-safe (43 characters)."""
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """What the server keeps of a token: its SHA-256 (a token has too much entropy to guess)."""
    return hashlib.sha256(token.encode()).hexdigest()


def new_code() -> str:
    """A game code to share, such as `K7QX2M`."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
