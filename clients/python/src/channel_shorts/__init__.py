"""Client for the channel-shorts API (standard library only).

    from channel_shorts import Client
    client = Client(base_url="https://shorts.example.com", api_key="csk_...")
    result = client.list_shorts(channel_url="https://www.youtube.com/@YouTube", limit=20)
    for short in result["data"]["shorts"]:
        print(short["videoId"], short["title"])
"""

from ._client import ChannelShortsError, Client, parse_retry_after
from .webhooks import WebhookVerificationError, sign_webhook, verify_webhook

__all__ = [
    "ChannelShortsError",
    "Client",
    "WebhookVerificationError",
    "parse_retry_after",
    "sign_webhook",
    "verify_webhook",
]
__version__ = "0.1.0"
