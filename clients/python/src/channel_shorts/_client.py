"""The HTTP client: one method per operation, JSON bodies in and out, retries on 429 and 503 and after a
dropped connection (every POST carries an Idempotency-Key, the same on each of its attempts)."""

from __future__ import annotations

import email.utils
import json
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from datetime import datetime, timezone
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional, Sequence, Union, cast

from .types import (
    Account,
    BatchAccepted,
    BatchStatus,
    ChannelStats,
    ItemsPage,
    Pricing,
    RequestDetail,
    RequestLogPage,
    Short,
    ShortsAccepted,
    ShortsResult,
    VideoStats,
    Watch,
    WatchCheckQueued,
    WatchDetail,
    WatchList,
)

_RETRYABLE = (429, 503)


def _retryable(status: int, code: str) -> bool:
    """The service charged nothing (429, 503), or it will answer the same key again (the first call still runs)."""
    return status in _RETRYABLE or (status == 409 and code == "IDEMPOTENCY_IN_PROGRESS")
_USER_AGENT = "channel-shorts-python/0.1.0"


class ChannelShortsError(Exception):
    """A non-2xx answer: the service's ``{error, message, requestId}`` body.

    ``status`` is the HTTP status, ``error`` the catalog code (``RATE_LIMITED``, ``INSUFFICIENT_CREDITS``…),
    ``request_id`` the id to quote to support, ``retry_after`` the seconds the service asked to wait.
    """

    def __init__(self, status: int, body: Any, retry_after: Optional[float] = None) -> None:
        fields = body if isinstance(body, dict) else {}
        message = fields.get("message")
        super().__init__(message if isinstance(message, str) else f"HTTP {status}")
        self.status = status
        error = fields.get("error")
        self.error: str = error if isinstance(error, str) else f"HTTP_{status}"
        request_id = fields.get("requestId")
        self.request_id: Optional[str] = request_id if isinstance(request_id, str) else None
        self.retry_after = retry_after
        self.body = body

    def __repr__(self) -> str:
        return f"ChannelShortsError(status={self.status}, error={self.error!r}, request_id={self.request_id!r})"


def parse_retry_after(value: Optional[str], now: Optional[float] = None) -> Optional[float]:
    """Retry-After as seconds: delta-seconds or an HTTP date; None when absent or unreadable."""
    if value is None or value.strip() == "":
        return None
    text = value.strip()
    if text.isdigit():
        return float(text)
    try:
        moment = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return None
    current = time.time() if now is None else now
    return max(0.0, float(int(moment.timestamp() - current + 0.999)))


def _without_none(values: Mapping[str, Any]) -> Dict[str, Any]:
    return {key: value for key, value in values.items() if value is not None}


class Client:
    """A client of one channel-shorts service.

    ``api_key`` is an API key (``csk_…``) or a session token; keep keys on your backend.
    ``max_retries`` bounds the retries after 429 and 503 (the service charges nothing for either), after 409
    IDEMPOTENCY_IN_PROGRESS and after a network failure (each POST sends an Idempotency-Key that its retries
    reuse, so a call the service ran before the connection dropped is answered again, not run twice);
    a Retry-After longer than ``max_retry_delay`` seconds is not waited for: the error is raised at once.
    """

    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        max_retries: int = 3,
        max_retry_delay: float = 60.0,
        timeout: float = 120.0,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self._key = api_key
        self.max_retries = max_retries
        self.max_retry_delay = max_retry_delay
        self.timeout = timeout
        self._sleep = sleep

    # Shorts

    def list_shorts(
        self,
        channel_url: str,
        oldest_date: Optional[int] = None,
        limit: Optional[int] = None,
        sort: Optional[str] = None,
        min_duration_seconds: Optional[int] = None,
        max_duration_seconds: Optional[int] = None,
        freshness: Optional[str] = None,
        store: Optional[bool] = None,
        include: Optional[Sequence[str]] = None,
    ) -> ShortsResult:
        """A channel's shorts, answered at once (``r["data"]["shorts"]``). ``oldest_date`` is Unix milliseconds.

        ``include=["growth"]``: every short also carries ``growth`` over 24 hours, 7 and 30 days (at no extra price).
        """
        body = _without_none(
            {
                "channelUrl": channel_url,
                "oldestDate": oldest_date,
                "limit": limit,
                "sort": sort,
                "minDurationSeconds": min_duration_seconds,
                "maxDurationSeconds": max_duration_seconds,
                "freshness": freshness,
                "store": store,
                "include": None if include is None else list(include),
            }
        )
        return cast(ShortsResult, self._call("POST", "/api/youtube/shorts", body))

    def submit_shorts(self, channel_url: str, webhook_url: str, **options: Any) -> ShortsAccepted:
        """Accepted now (202); the result is POSTed, signed, to ``webhook_url`` later.

        ``options`` are list_shorts's keyword arguments (``oldest_date``, ``limit``…).
        """
        body = _without_none({"channelUrl": channel_url, "webhookUrl": webhook_url, **_camel(options)})
        return cast(ShortsAccepted, self._call("POST", "/api/youtube/shorts", body))

    def submit_batch(self, items: List[Mapping[str, Any]], webhook_url: str) -> BatchAccepted:
        """Up to 50 webhook requests at once, all accepted or none (402).

        Each item is ``{"channelUrl": …}`` with the optional fields of a shorts request, in the API's names.
        """
        body = {"items": [dict(item) for item in items], "webhookUrl": webhook_url}
        return cast(BatchAccepted, self._call("POST", "/api/youtube/shorts/batch", body))

    def get_batch(self, batch_id: str) -> BatchStatus:
        return cast(BatchStatus, self._call("GET", f"/api/youtube/shorts/batch/{_segment(batch_id)}"))

    def get_request(self, request_id: str) -> RequestDetail:
        return cast(RequestDetail, self._call("GET", f"/api/youtube/shorts/{_segment(request_id)}"))

    def list_requests(self, limit: int = 50, cursor: Optional[str] = None, **filters: Any) -> RequestLogPage:
        """One page of the requests log (newest first); pass its ``nextCursor`` as ``cursor`` for the next."""
        query = _without_none({"limit": limit, "cursor": cursor, **filters})
        return cast(RequestLogPage, self._call("GET", "/api/youtube/shorts", query=query))

    def get_items_page(
        self, request_id: str, cursor: Optional[str] = None, page_size: Optional[int] = None
    ) -> ItemsPage:
        """One page of a stored result (webhook requests, or synchronous ones sent with ``store=True``)."""
        query = _without_none({"cursor": cursor, "pageSize": page_size})
        path = f"/api/youtube/shorts/{_segment(request_id)}/items"
        return cast(ItemsPage, self._call("GET", path, query=query))

    def items(self, request_id: str, page_size: Optional[int] = None) -> Iterator[Short]:
        """Every short of a stored result, page after page."""
        cursor: Optional[str] = None
        while True:
            page = self.get_items_page(request_id, cursor=cursor, page_size=page_size)
            yield from page["data"]["shorts"]
            cursor = page.get("nextCursor")
            if cursor is None:
                return

    # Statistics

    def video_stats(
        self,
        video_id: str,
        *,
        from_: Optional[Union[datetime, str]] = None,
        to: Optional[Union[datetime, str]] = None,
    ) -> VideoStats:
        """A Short's stored counts over time (oldest first) and its growth. Free.

        ``from_`` and ``to`` bound the points (default the last 30 days): a ``datetime`` (one without a time zone
        is taken as UTC) or an ISO 8601 string. A video the service never read raises ``ChannelShortsError``
        with ``error == "VIDEO_NOT_TRACKED"`` (404).
        """
        query = _without_none({"from": _instant(from_), "to": _instant(to)})
        path = f"/api/youtube/videos/{_segment(video_id)}/stats"
        return cast(VideoStats, self._call("GET", path, query=query))

    def channel_stats(
        self, channel_id: str, *, window: Optional[str] = None, limit: Optional[int] = None
    ) -> ChannelStats:
        """A channel's Shorts ranked by views gained in ``window`` (``"24h"``, the default, ``"7d"`` or ``"30d"``),
        at most ``limit`` of them (default 100), and the channel's own counts over the window. Free."""
        query = _without_none({"window": window, "limit": limit})
        path = f"/api/youtube/channels/{_segment(channel_id)}/stats"
        return cast(ChannelStats, self._call("GET", path, query=query))

    # Watches

    def create_watch(self, channel_url: str, webhook_url: str, interval_seconds: Optional[int] = None) -> Watch:
        """New shorts of the channel arrive as signed ``shorts.created`` webhooks."""
        body = _without_none(
            {"channelUrl": channel_url, "webhookUrl": webhook_url, "intervalSeconds": interval_seconds}
        )
        return cast(Watch, self._call("POST", "/api/youtube/watches", body))

    def list_watches(self) -> WatchList:
        return cast(WatchList, self._call("GET", "/api/youtube/watches"))

    def get_watch(self, watch_id: str) -> WatchDetail:
        return cast(WatchDetail, self._call("GET", f"/api/youtube/watches/{_segment(watch_id)}"))

    def update_watch(
        self,
        watch_id: str,
        webhook_url: Optional[str] = None,
        interval_seconds: Optional[int] = None,
        status: Optional[str] = None,
    ) -> Watch:
        body = _without_none({"webhookUrl": webhook_url, "intervalSeconds": interval_seconds, "status": status})
        return cast(Watch, self._call("PATCH", f"/api/youtube/watches/{_segment(watch_id)}", body))

    def delete_watch(self, watch_id: str) -> None:
        self._call("DELETE", f"/api/youtube/watches/{_segment(watch_id)}")

    def check_watch(self, watch_id: str) -> WatchCheckQueued:
        return cast(WatchCheckQueued, self._call("POST", f"/api/youtube/watches/{_segment(watch_id)}/check", {}))

    # Account

    def get_account(self) -> Account:
        """Balance, limits, usage and the low-balance alert of the caller's account."""
        return cast(Account, self._call("GET", "/accounts"))

    def get_pricing(self) -> Pricing:
        """The price and webhook timings this service is configured with (public)."""
        return cast(Pricing, self._call("GET", "/api/pricing"))

    # Transport

    def _call(
        self,
        method: str,
        path: str,
        body: Optional[Mapping[str, Any]] = None,
        query: Optional[Mapping[str, Any]] = None,
    ) -> Any:
        url = self.base_url + path
        if query:
            url += "?" + urllib.parse.urlencode({k: _query_value(v) for k, v in query.items()})
        data = None if body is None else json.dumps(body).encode("utf-8")
        # One key per call, the same on each of its attempts: the service runs the call at most once.
        key = str(uuid.uuid4()) if method == "POST" else None
        attempt = 0
        while True:
            try:
                status, headers, parsed = self._send(method, url, data, key)
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                # Whether the service ran the call is unknown; the key makes asking again safe.
                if attempt >= self.max_retries:
                    raise
                self._sleep(min(2.0**attempt, self.max_retry_delay))
                attempt += 1
                continue
            if 200 <= status < 300:
                return parsed
            retry_after = parse_retry_after(headers.get("Retry-After"))
            error = ChannelShortsError(status, parsed, retry_after)
            if not _retryable(status, error.error) or attempt >= self.max_retries:
                raise error
            # Retry-After when given; otherwise 1 s, 2 s, 4 s… A wait beyond the bound is not worth it.
            delay = retry_after if retry_after is not None else min(2.0**attempt, self.max_retry_delay)
            if delay > self.max_retry_delay:
                raise error
            self._sleep(delay)
            attempt += 1

    def _send(
        self, method: str, url: str, data: Optional[bytes], idempotency_key: Optional[str] = None
    ) -> "tuple[int, Any, Any]":
        request = urllib.request.Request(url, data=data, method=method)
        if idempotency_key is not None:
            request.add_header("Idempotency-Key", idempotency_key)
        request.add_header("Authorization", f"Bearer {self._key}")
        request.add_header("Accept", "application/json")
        request.add_header("User-Agent", _USER_AGENT)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                return response.status, response.headers, _parse(response.read())
        except urllib.error.HTTPError as failure:
            with failure:
                return failure.code, failure.headers, _parse(failure.read())


def _parse(raw: bytes) -> Any:
    if raw == b"":
        return None
    text = raw.decode("utf-8", errors="replace")
    try:
        return json.loads(text)
    except ValueError:
        return {"message": text}


def _segment(value: str) -> str:
    return urllib.parse.quote(value, safe="")


def _instant(value: Optional[Union[datetime, str]]) -> Optional[str]:
    """A datetime as ISO 8601 in UTC with milliseconds, as the service writes instants; strings pass as given."""
    if not isinstance(value, datetime):
        return value
    utc = value.replace(tzinfo=timezone.utc) if value.tzinfo is None else value.astimezone(timezone.utc)
    return utc.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _query_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


_CAMEL = {
    "oldest_date": "oldestDate",
    "min_duration_seconds": "minDurationSeconds",
    "max_duration_seconds": "maxDurationSeconds",
}


def _camel(options: Mapping[str, Any]) -> Dict[str, Any]:
    return {_CAMEL.get(key, key): value for key, value in options.items()}
