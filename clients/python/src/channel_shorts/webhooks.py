"""Verifies the service's signed webhooks (Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature).

The signature is ``v1,`` + base64(HMAC-SHA256(secret, "{id}.{timestamp}.{body}")), where the secret is the
base64 after ``whsec_``. The header may hold several signatures separated by spaces (during a secret rotation
the service signs with both secrets); one match is enough.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import time
from typing import Any, Iterable, Mapping, Optional, Union

TOLERANCE_SECONDS = 5 * 60
_PREFIX = "whsec_"


class WebhookVerificationError(Exception):
    """The webhook is not the service's: a header is missing, the signature differs, or it is too old or new."""


def _secret_bytes(secret: str) -> bytes:
    text = secret[len(_PREFIX) :] if secret.startswith(_PREFIX) else secret
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError) as error:
        raise WebhookVerificationError("The secret is not a whsec_ secret (base64 after the prefix)") from error


def _header(headers: Mapping[str, Any], name: str) -> str:
    value = headers.get(name)
    if value is None:
        value = next((v for k, v in headers.items() if isinstance(k, str) and k.lower() == name), None)
    if isinstance(value, (list, tuple)):
        value = value[0] if value else None
    if not isinstance(value, str) or value == "":
        raise WebhookVerificationError(f"Missing {name} header")
    return value


def sign_webhook(secret: str, message_id: str, timestamp: int, body: Union[str, bytes]) -> str:
    """The ``v1,…`` signature the service sends for this body (for tests of a receiver)."""
    payload = body.encode("utf-8") if isinstance(body, str) else body
    signed = f"{message_id}.{timestamp}.".encode("utf-8") + payload
    digest = hmac.new(_secret_bytes(secret), signed, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode("ascii")


def verify_webhook(
    body: Union[str, bytes],
    headers: Mapping[str, Any],
    secret: Union[str, Iterable[str]],
    *,
    now: Optional[float] = None,
    tolerance_seconds: int = TOLERANCE_SECONDS,
) -> Any:
    """Checks the signature and the timestamp, and returns the parsed event (a dict with ``type`` and ``data``).

    ``body`` must be the raw request body as received, not re-serialised JSON. ``secret`` may be a list: during
    a rotation either secret is accepted. Raises WebhookVerificationError on any mismatch.
    """
    message_id = _header(headers, "webhook-id")
    stamp = _header(headers, "webhook-timestamp")
    signatures = _header(headers, "webhook-signature")
    try:
        timestamp = int(stamp)
    except ValueError as error:
        raise WebhookVerificationError("Invalid webhook-timestamp header") from error
    current = time.time() if now is None else now
    if timestamp < current - tolerance_seconds:
        raise WebhookVerificationError("Message timestamp too old")
    if timestamp > current + tolerance_seconds:
        raise WebhookVerificationError("Message timestamp too new")
    secrets = [secret] if isinstance(secret, str) else list(secret)
    if not secrets:
        raise WebhookVerificationError("No secret given")
    expected = [sign_webhook(s, message_id, timestamp, body).encode("ascii") for s in secrets]
    for candidate in signatures.split(" "):
        version, _, _ = candidate.partition(",")
        if version != "v1":
            continue
        given = candidate.encode("ascii", errors="replace")
        # Every expected signature is compared, in constant time, whatever matched before.
        if any([hmac.compare_digest(given, e) for e in expected]):
            return json.loads(body.decode("utf-8") if isinstance(body, bytes) else body)
    raise WebhookVerificationError("No matching signature found")
