# Generated from the service's /openapi.json (npm run client:types at the repository root). Do not edit.
"""The shapes the channel-shorts API sends, as TypedDicts (one per named schema of /openapi.json)."""

from __future__ import annotations

from typing import Any, Dict, List, Literal, Optional, TypedDict, Union

class AccountCredits(TypedDict):
    balance: int
    reserved: int
    available: int

class AccountUpstreamQuotaAllowance(TypedDict):
    units: int
    used: int
    remaining: int

class AccountUpstreamQuota(TypedDict):
    quotaDay: str
    resetsAt: str
    unitsToday: int
    allowance: AccountUpstreamQuotaAllowance

class AccountUsage(TypedDict):
    minute: int
    hour: int
    day: int
    totalRequests: int
    totalCreditsCharged: int

class Account(TypedDict):
    """The caller's account: credits, upstream quota, rate limits and usage."""
    id: str
    email: str
    role: Role
    createdAt: str
    credits: AccountCredits
    upstreamQuota: AccountUpstreamQuota
    rateLimits: RateLimits
    readsPerMinute: int
    usage: AccountUsage
    alerts: CreditAlerts

class ApiKey(TypedDict):
    """An API key, without its secret."""
    id: str
    name: str
    prefix: str
    createdAt: str
    lastUsedAt: Optional[str]
    revokedAt: Optional[str]
    expiresAt: Optional[str]
    scopes: List[str]

class AuditEntry(TypedDict):
    """One operator action."""
    id: int
    actor: str
    actorAccountId: Optional[str]
    action: str
    targetAccountId: Optional[str]
    target: Optional[str]
    reason: Optional[str]
    before: Any
    after: Any
    createdAt: str

class BalanceDay(TypedDict):
    date: str
    balance: int
    added: int
    spent: int

class BalanceHistory(TypedDict):
    """The balance at the end of each day, oldest first, and each change within the period."""
    days: List[BalanceDay]
    steps: List[BalanceStep]
    openingBalance: int

class BalanceStep(TypedDict):
    at: str
    balance: int

class BatchAcceptedItemsItem(TypedDict):
    requestId: str
    channelUrl: str

class BatchAccepted(TypedDict):
    """The batch was accepted; every item is an ordinary webhook request."""
    success: Literal[true]
    batchId: str
    status: Literal["processing"]
    items: List[BatchAcceptedItemsItem]
    message: str

class _BatchItemRequired(TypedDict):
    channelUrl: str

class BatchItem(_BatchItemRequired, total=False):
    oldestDate: int
    limit: int
    maxCredits: int
    include: List[Literal["growth"]]
    sort: Literal["newest", "oldest", "popular"]
    minDurationSeconds: int
    maxDurationSeconds: int

class BatchItemStatus(TypedDict):
    requestId: str
    channelUrl: str
    status: RequestStatus
    itemCount: Optional[int]
    creditsCharged: Optional[int]
    error: Optional[str]

class BatchList(TypedDict):
    """The account's batches, newest first, one page."""
    success: Literal[true]
    batches: List[BatchListEntry]
    nextCursor: Optional[str]

class BatchListEntryCounts(TypedDict):
    total: int
    processing: int
    completed: int
    failed: int

class BatchListEntry(TypedDict):
    """A batch as listed: its progress counts and charge (GET /api/youtube/shorts/batch/{batchId} has each item's)."""
    batchId: str
    status: Union[Literal["processing"], Literal["completed"]]
    webhookUrl: str
    createdAt: str
    completedAt: Optional[str]
    counts: BatchListEntryCounts
    creditsCharged: int

class BatchRedeliveryQueued(TypedDict):
    """A redelivery of the batch.completed summary was queued."""
    batchId: str
    status: Literal["queued"]
    attempt: int

class _BatchRequestRequired(TypedDict):
    items: List[BatchItem]
    webhookUrl: str

class BatchRequest(_BatchRequestRequired, total=False):
    webhookPayload: Union[Literal["full"], Literal["thin"]]

class BatchStatus(TypedDict):
    """Progress of a batch."""
    success: Literal[true]
    batchId: str
    status: Union[Literal["processing"], Literal["completed"]]
    webhookUrl: str
    createdAt: str
    completedAt: Optional[str]
    counts: BatchListEntryCounts
    creditsCharged: int
    items: List[BatchItemStatus]
    deliveries: List[DeliveryAttempt]

class BatchSummary(TypedDict):
    batchId: str
    status: Union[Literal["processing"], Literal["completed"]]
    webhookUrl: str
    createdAt: str
    completedAt: Optional[str]
    counts: BatchListEntryCounts
    creditsCharged: int
    items: List[BatchItemStatus]

class BatchWebhookPayload(TypedDict):
    """Body of the batch.completed webhook."""
    type: Literal["batch.completed"]
    timestamp: str
    data: BatchSummary

class _ChannelSnippetThumbnailsDefaultRequired(TypedDict):
    url: str

class ChannelSnippetThumbnailsDefault(_ChannelSnippetThumbnailsDefaultRequired, total=False):
    width: int
    height: int

class ChannelSnippetThumbnails(TypedDict, total=False):
    default: ChannelSnippetThumbnailsDefault
    medium: ChannelSnippetThumbnailsDefault
    high: ChannelSnippetThumbnailsDefault
    standard: ChannelSnippetThumbnailsDefault
    maxres: ChannelSnippetThumbnailsDefault

class ChannelSnippetLocalized(TypedDict, total=False):
    title: str
    description: str

class ChannelSnippet(TypedDict, total=False):
    title: str
    description: str
    customUrl: str
    publishedAt: str
    thumbnails: ChannelSnippetThumbnails
    defaultLanguage: str
    localized: ChannelSnippetLocalized
    country: str

class ChannelStatistics(TypedDict, total=False):
    viewCount: str
    subscriberCount: str
    hiddenSubscriberCount: bool
    videoCount: str

class ChannelBrandingSettingsChannel(TypedDict, total=False):
    title: str
    description: str
    keywords: str
    trackingAnalyticsAccountId: str
    moderateComments: bool
    unsubscribedTrailer: str
    defaultLanguage: str
    country: str

class ChannelBrandingSettingsImage(TypedDict, total=False):
    bannerExternalUrl: str

class ChannelBrandingSettings(TypedDict):
    channel: ChannelBrandingSettingsChannel
    image: ChannelBrandingSettingsImage

class _ChannelRequired(TypedDict):
    kind: str
    id: str
    snippet: ChannelSnippet
    statistics: ChannelStatistics
    brandingSettings: ChannelBrandingSettings

class Channel(_ChannelRequired, total=False):
    """The channel, as the spec's Channel table."""
    etag: str

class ChannelStatsChannel(TypedDict):
    """The channel's own counts over the window."""
    points: List[ChannelStatsPoint]

class ChannelStats(TypedDict):
    """A channel's Shorts with stored history ranked by growth, and its own counts over time."""
    success: Literal[true]
    requestId: str
    channelId: str
    window: Union[Literal["24h"], Literal["7d"], Literal["30d"]]
    movers: List[Mover]
    channel: ChannelStatsChannel

class _ChannelStatsPointRequired(TypedDict):
    at: str
    exact: bool

class ChannelStatsPoint(_ChannelStatsPointRequired, total=False):
    """One snapshot of a channel's own counts."""
    subscriberCount: int
    viewCount: int
    videoCount: int

class CreateWatchTrackStats(TypedDict):
    """Statistics tracking: growth history for the recent Shorts."""
    days: int

class CreateWatchAlert(TypedDict):
    """Sends a signed shorts.growth event when a tracked Short gains at least viewsGained views within withinHours (from stored snapshots; once per Short per withinHours). Needs trackStats."""
    viewsGained: int
    withinHours: int

class _CreateWatchRequired(TypedDict):
    channelUrl: str
    webhookUrl: str

class CreateWatch(_CreateWatchRequired, total=False):
    intervalSeconds: int
    trackStats: CreateWatchTrackStats
    alert: CreateWatchAlert

class CreatedInvitation(TypedDict):
    """A new invitation with its one-time link (shown once)."""
    id: str
    email: str
    credits: int
    role: Role
    createdBy: str
    createdAt: str
    expiresAt: str
    acceptedAt: Optional[str]
    token: str
    link: str

class CreatedKey(TypedDict):
    """A new API key with its secret (shown once)."""
    id: str
    name: str
    prefix: str
    createdAt: str
    lastUsedAt: Optional[str]
    revokedAt: Optional[str]
    expiresAt: Optional[str]
    scopes: List[str]
    key: str

class CreditAlerts(TypedDict):
    """The low-balance alert, where account events go, and the default webhook payload form."""
    lowBalanceThreshold: Optional[int]
    eventsWebhookUrl: Optional[str]
    low: bool
    webhookPayload: Union[Literal["full"], Literal["thin"]]

class CreditAlertsChange(TypedDict, total=False):
    lowBalanceThreshold: Optional[int]
    eventsWebhookUrl: Optional[str]
    webhookPayload: Union[Literal["full"], Literal["thin"]]

class CreditEvent(TypedDict):
    """An account event: credits.low or webhook.destination.paused."""
    id: int
    type: Union[Literal["credits.low"], Literal["webhook.destination.paused"]]
    createdAt: str
    payload: Union[CreditsLowPayload, DestinationPausedPayload]

class CreditEvents(TypedDict):
    """The account's events, newest first."""
    events: List[CreditEvent]

class CreditsLowPayloadData(TypedDict):
    accountId: str
    balance: int
    threshold: int
    requestId: Optional[str]

class CreditsLowPayload(TypedDict):
    """The credits.low event as it is delivered (Standard Webhooks signed)."""
    type: Literal["credits.low"]
    timestamp: str
    data: CreditsLowPayloadData

class DeliveryAttempt(TypedDict):
    """One attempt to deliver a webhook."""
    id: int
    attempt: int
    webhookId: str
    startedAt: str
    statusCode: Optional[int]
    latencyMs: Optional[int]
    outcome: Union[Literal["delivered"], Literal["failed"], Literal["gone"]]
    error: Optional[str]
    requestHeaders: Optional[Dict[str, Any]]
    responseExcerpt: Optional[str]
    nextAttemptAt: Optional[str]

class DeliveryLogEntry(TypedDict):
    """One webhook delivery attempt of the account, with what it delivered and where."""
    id: int
    attempt: int
    webhookId: str
    startedAt: str
    statusCode: Optional[int]
    latencyMs: Optional[int]
    outcome: Union[Literal["delivered"], Literal["failed"], Literal["gone"]]
    error: Optional[str]
    requestHeaders: Optional[Dict[str, Any]]
    responseExcerpt: Optional[str]
    nextAttemptAt: Optional[str]
    requestId: Optional[str]
    batchId: Optional[str]
    url: str
    gaveUp: bool

class DeliveryLogPage(TypedDict):
    """One page of the account's delivery attempts, newest first."""
    deliveries: List[DeliveryLogEntry]
    nextCursor: Optional[str]

DeliveryState = Union[Literal["pending"], Literal["delivered"], Literal["retrying"], Literal["failed"], Literal["gone"]]

class DestinationPausedPayloadData(TypedDict):
    destinationId: int
    url: str
    failingSince: str
    consecutiveFailures: int
    lastError: Optional[str]

class DestinationPausedPayload(TypedDict):
    """The webhook.destination.paused account event: every attempt to this URL failed for WEBHOOK_DISABLE_AFTER_DAYS; its new attempts are held until it is resumed."""
    type: Literal["webhook.destination.paused"]
    timestamp: str
    data: DestinationPausedPayloadData

class DoctorFinding(TypedDict):
    check: str
    severity: Union[Literal["ok"], Literal["warn"], Literal["breach"]]
    summary: str
    details: List[str]

class DoctorReport(TypedDict):
    """The invariants checked by doctor."""
    ok: bool
    checkedAt: str
    findings: List[DoctorFinding]

class Error(TypedDict):
    """Error body of every route except the shorts operations."""
    error: str
    message: str
    requestId: str

class Failure(TypedDict):
    """The spec's failure body of the shorts operations."""
    success: Literal[false]
    error: str
    message: str
    requestId: str

class Invitation(TypedDict):
    id: str
    email: str
    credits: int
    role: Role
    createdBy: str
    createdAt: str
    expiresAt: str
    acceptedAt: Optional[str]

class ItemsPageData(TypedDict):
    channel: Channel
    shorts: List[Short]

class ItemsPage(TypedDict):
    """One page of a stored result."""
    success: Literal[true]
    requestId: str
    data: ItemsPageData
    itemCount: int
    totalItems: int
    nextCursor: Optional[str]
    retentionDays: int
    expiresAt: str

class KeyUsage(TypedDict):
    """Requests and credits per key over the last days, busiest first."""
    days: int
    keys: List[KeyUsageEntry]

class KeyUsageEntry(TypedDict):
    keyId: Optional[str]
    requests: int
    credits: int

class LedgerEntry(TypedDict):
    """One change of the credit balance."""
    id: int
    kind: Union[Literal["grant"], Literal["charge"], Literal["deduct"]]
    amount: int
    balanceAfter: int
    requestId: Optional[str]
    note: Optional[str]
    createdAt: str

class LedgerPage(TypedDict):
    """One page of the credit statement, newest first."""
    entries: List[StatementEntry]
    nextCursor: Optional[str]

class _MoverRequired(TypedDict):
    videoId: str
    last: StatsPoint
    growth: ShortGrowth

class Mover(_MoverRequired, total=False):
    """One of a channel's Shorts with stored history: its last counts and its growth."""
    publishedAt: str

class PricingCredits(TypedDict):
    creditsPerBlock: int
    shortsPerBlock: int
    minimumPerRequest: int
    quotaUnitsPerCredit: int
    dailyAllowanceUnits: int
    formula: str

class PricingLimits(TypedDict):
    maxShortsPerRequest: int
    resultRetentionDays: int
    readsPerMinute: int

class PricingWebhooks(TypedDict):
    timeoutSeconds: float
    retryScheduleSeconds: List[float]
    maxAttempts: int
    retryWindowSeconds: float
    secretOverlapSeconds: int

class PricingWatchesTrackStats(TypedDict):
    """A watch's trackStats: what refreshing the recent Shorts' counts costs per check."""
    unitsPerCall: int
    shortsPerCall: int
    maxDays: int
    perCheck: str

class PricingWatches(TypedDict):
    minIntervalSeconds: int
    maxIntervalSeconds: int
    maxPerAccount: int
    trackStats: PricingWatchesTrackStats

class Pricing(TypedDict):
    """The configured price and webhook timings."""
    credits: PricingCredits
    limits: PricingLimits
    webhooks: PricingWebhooks
    watches: PricingWatches
    supportContact: Optional[str]

class RateLimits(TypedDict):
    perMinute: int
    perHour: int
    perDay: int

class RedeliveryQueued(TypedDict):
    """A redelivery was queued."""
    requestId: str
    status: Literal["queued"]
    attempt: int

class RejectionDayCountsItem(TypedDict):
    """Refusals of one status, error code and key that day."""
    httpStatus: int
    error: str
    apiKeyId: Optional[str]
    count: int
    lastAt: str

class RejectionDay(TypedDict):
    """Calls refused on one UTC day, by status, error code and key."""
    date: str
    total: int
    counts: List[RejectionDayCountsItem]

class Rejections(TypedDict):
    """Calls refused before a request was recorded, counted per UTC day."""
    days: List[RejectionDay]

class RequestDetailOptions(TypedDict, total=False):
    """Sort and duration filters, the spending cap and include, when the request asked for any."""
    sort: Literal["newest", "oldest", "popular"]
    minDurationSeconds: int
    maxDurationSeconds: int
    maxCredits: int
    include: List[Literal["growth"]]

class _RequestDetailRequired(TypedDict):
    requestId: str
    createdAt: str
    completedAt: Optional[str]
    channelUrl: str
    oldestDate: Optional[int]
    limit: Optional[int]
    webhookUrl: Optional[str]
    mode: Union[Literal["sync"], Literal["webhook"]]
    status: RequestStatus
    itemCount: Optional[int]
    creditsCharged: Optional[int]
    error: Optional[str]
    via: Union[Literal["api"], Literal["mcp"]]
    result: Any
    deliveries: List[DeliveryAttempt]

class RequestDetail(_RequestDetailRequired, total=False):
    """One shorts request with its result and webhook delivery attempts."""
    options: RequestDetailOptions
    batchId: str

class RequestLogEntryApiKey(TypedDict):
    """The API key that made the request; null for a dashboard session."""
    id: str
    name: str
    prefix: str

class RequestLogEntryDelivery(TypedDict):
    """Webhook requests only; null for synchronous requests."""
    state: DeliveryState
    attempts: int
    lastAttemptAt: Optional[str]
    lastStatusCode: Optional[int]
    nextAttemptAt: Optional[str]
    retryingUntil: Optional[str]

class _RequestLogEntryRequired(TypedDict):
    requestId: str
    createdAt: str
    completedAt: Optional[str]
    channelUrl: str
    oldestDate: Optional[int]
    limit: Optional[int]
    webhookUrl: Optional[str]
    mode: Union[Literal["sync"], Literal["webhook"]]
    status: RequestStatus
    itemCount: Optional[int]
    creditsCharged: Optional[int]
    error: Optional[str]
    via: Union[Literal["api"], Literal["mcp"]]
    apiKey: Optional[RequestLogEntryApiKey]
    delivery: Optional[RequestLogEntryDelivery]

class RequestLogEntry(_RequestLogEntryRequired, total=False):
    """One request of the requests log: the recorded request, the key that made it and the state of its webhook delivery."""
    options: RequestDetailOptions
    batchId: str

class RequestLogPage(TypedDict):
    """One page of the requests log, newest first."""
    requests: List[RequestLogEntry]
    nextCursor: Optional[str]

RequestStatus = Union[Literal["processing"], Literal["completed"], Literal["failed"]]

class _RequestSummaryRequired(TypedDict):
    requestId: str
    createdAt: str
    completedAt: Optional[str]
    channelUrl: str
    oldestDate: Optional[int]
    limit: Optional[int]
    webhookUrl: Optional[str]
    mode: Union[Literal["sync"], Literal["webhook"]]
    status: RequestStatus
    itemCount: Optional[int]
    creditsCharged: Optional[int]
    error: Optional[str]
    via: Union[Literal["api"], Literal["mcp"]]

class RequestSummary(_RequestSummaryRequired, total=False):
    """One shorts request as recorded."""
    options: RequestDetailOptions
    batchId: str

Role = Union[Literal["customer"], Literal["operator"]]

class RotatedSecret(TypedDict):
    """The new signing secret."""
    secret: str
    createdAt: str
    previousExpiresAt: str

class SessionUser(TypedDict):
    id: str
    email: str

class Session(TypedDict):
    """A dashboard session."""
    token: str
    user: SessionUser
    expiresAt: str

class ShortSnippet(TypedDict, total=False):
    publishedAt: str
    channelId: str
    title: str
    description: str
    thumbnails: ChannelSnippetThumbnails
    channelTitle: str
    channelHandle: str
    channelCustomUrl: str
    tags: List[str]
    categoryId: str
    liveBroadcastContent: str
    defaultLanguage: str
    localized: ChannelSnippetLocalized
    defaultAudioLanguage: str

class ShortStatistics(TypedDict, total=False):
    viewCount: str
    likeCount: str
    dislikeCount: str
    favoriteCount: str
    commentCount: str

class ShortContentDetails(TypedDict):
    """Absent when the platform sends no duration."""
    duration: str

class _ShortRequired(TypedDict):
    kind: str
    id: str
    snippet: ShortSnippet
    statistics: ShortStatistics
    shortUrl: str

class Short(_ShortRequired, total=False):
    """One short, as the spec's Short table."""
    etag: str
    contentDetails: ShortContentDetails
    growth: ShortGrowth
    durationSeconds: int

class _ShortGrowthLast24hRequired(TypedDict):
    viewsGained: int
    since: str

class ShortGrowthLast24h(_ShortGrowthLast24hRequired, total=False):
    """The latest point minus the earliest stored point inside the window. Never extrapolated: a window with fewer than two points has no growth."""
    likesGained: int
    commentsGained: int

class ShortGrowth(TypedDict, total=False):
    """Growth over the last 24 hours, 7 days and 30 days; a window is absent where history is too short."""
    last24h: ShortGrowthLast24h
    last7d: ShortGrowthLast24h
    last30d: ShortGrowthLast24h

class ShortsAccepted(TypedDict):
    """A webhook request was accepted; the result is POSTed to webhookUrl."""
    success: Literal[true]
    requestId: str
    status: Literal["processing"]
    message: str

class ShortsCreatedPayloadDataChannel(TypedDict):
    id: str
    title: str

class ShortsCreatedPayloadData(TypedDict):
    watchId: str
    checkId: str
    channel: ShortsCreatedPayloadDataChannel
    shorts: List[Short]

class ShortsCreatedPayload(TypedDict):
    """Body of the shorts.created webhook: new shorts of a watched channel."""
    type: Literal["shorts.created"]
    timestamp: str
    data: ShortsCreatedPayloadData

class ShortsGrowthPayloadData(TypedDict):
    watchId: str
    checkId: str
    channel: ShortsCreatedPayloadDataChannel
    videoId: str
    shortUrl: str
    viewCount: int
    viewsGained: int
    since: str
    withinHours: int

class ShortsGrowthPayload(TypedDict):
    """Body of the shorts.growth webhook: a tracked Short is taking off (the watch's alert)."""
    type: Literal["shorts.growth"]
    timestamp: str
    data: ShortsGrowthPayloadData

class _ShortsRequestRequired(TypedDict):
    channelUrl: str

class ShortsRequest(_ShortsRequestRequired, total=False):
    oldestDate: int
    limit: int
    freshness: Union[Literal["stale-ok"], Literal["exact"]]
    maxCredits: int
    include: List[Literal["growth"]]
    sort: Literal["newest", "oldest", "popular"]
    minDurationSeconds: int
    maxDurationSeconds: int
    webhookUrl: str
    webhookPayload: Union[Literal["full"], Literal["thin"]]
    store: bool

class ShortsResultData(TypedDict):
    channel: Channel
    shorts: List[Short]

class _ShortsResultRequired(TypedDict):
    success: Literal[true]
    requestId: str
    data: ShortsResultData
    itemCount: int
    creditsCharged: int
    truncated: bool
    fetchedAt: str
    stale: bool
    source: Union[Literal["data-api"], Literal["hybrid"], Literal["innertube"]]

class ShortsResult(_ShortsResultRequired, total=False):
    """The spec's success body: the channel and its shorts."""
    approximateFields: List[str]
    message: str

class ShortsThinResult(TypedDict):
    """A completed result without its shorts: page them from resultUrl."""
    requestId: str
    itemCount: int
    creditsCharged: int
    truncated: bool
    resultUrl: str
    thin: Literal[true]
    reason: Union[Literal["requested"], Literal["too_large"]]

class ShortsThinWebhookPayload(TypedDict):
    """Body of a thin shorts.completed webhook: the counts and where to page the result (data.thin is true)."""
    type: Literal["shorts.completed"]
    timestamp: str
    data: ShortsThinResult

class ShortsWebhookPayload(TypedDict):
    """Body of the shorts.completed and shorts.failed webhooks: data is the synchronous answer's body."""
    type: Union[Literal["shorts.completed"], Literal["shorts.failed"]]
    timestamp: str
    data: Union[ShortsResult, Failure]

class SignupAccepted(TypedDict):
    """The sign-up is taken: the same answer whether the email was new (the account now exists) or already had an account (nothing changed). Sign in with POST /auth/login."""
    message: str

class SignupInfo(TypedDict):
    """How new users get an account here."""
    mode: Union[Literal["off"], Literal["invite"], Literal["open"]]
    startingCredits: int

SourceHealthLastError = TypedDict("SourceHealthLastError", {"class": "str", "status": "Optional[int]", "at": "str"}, total=True)

class SourceHealth(TypedDict):
    """An upstream source's recent health as this instance met it."""
    source: Union[Literal["data-api"], Literal["innertube"]]
    recentCalls: int
    successRate: Optional[float]
    lastError: Optional[SourceHealthLastError]
    breakerOpen: bool
    breakers: Dict[str, Any]

class StatementEntry(TypedDict):
    """A ledger entry with the request and channel it paid for."""
    id: int
    kind: Union[Literal["grant"], Literal["charge"], Literal["deduct"]]
    amount: int
    balanceAfter: int
    requestId: Optional[str]
    note: Optional[str]
    createdAt: str
    channelUrl: Optional[str]
    channelTitle: Optional[str]
    via: Optional[Union[Literal["api"], Literal["mcp"]]]

class _StatsPointRequired(TypedDict):
    at: str
    viewCount: int
    exact: bool

class StatsPoint(_StatsPointRequired, total=False):
    """One snapshot of a Short's public counts."""
    likeCount: int
    commentCount: int

class UpdateWatch(TypedDict, total=False):
    """The fields to change; an empty body changes nothing."""
    webhookUrl: str
    intervalSeconds: int
    status: Union[Literal["active"], Literal["paused"]]
    trackStats: Optional[CreateWatchTrackStats]
    alert: Optional[CreateWatchAlert]

class UsageDay(TypedDict):
    date: str
    requests: int
    items: int
    credits: int

class UserLimitOverrides(TypedDict):
    """Per-account overrides; null = the default."""
    perMinute: Optional[int]
    perHour: Optional[int]
    perDay: Optional[int]

class User(TypedDict):
    """A user as operators see it."""
    id: str
    email: str
    role: Role
    credits: int
    disabledAt: Optional[str]
    createdAt: str
    limitOverrides: UserLimitOverrides
    rateLimits: RateLimits

class UserDelivery(TypedDict):
    """A webhook delivery attempt of the user's: a request's, a batch summary's or an account event's."""
    id: int
    attempt: int
    webhookId: str
    startedAt: str
    statusCode: Optional[int]
    latencyMs: Optional[int]
    outcome: Union[Literal["delivered"], Literal["failed"], Literal["gone"]]
    error: Optional[str]
    requestHeaders: Optional[Dict[str, Any]]
    responseExcerpt: Optional[str]
    nextAttemptAt: Optional[str]
    requestId: Optional[str]

class VideoStats(TypedDict):
    """A Short's stored counts over time and its growth."""
    success: Literal[true]
    requestId: str
    videoId: str
    channelId: str
    points: List[StatsPoint]
    growth: ShortGrowth

class WatchChannel(TypedDict):
    id: str
    title: str
    customUrl: Optional[str]

class WatchLastSeenShort(TypedDict):
    """The newest short the last check listed."""
    id: str
    shortUrl: str
    publishedAt: Optional[str]

class WatchStats(TypedDict):
    checks: int
    unitsSpent: int
    shortsReported: int
    prepaidUnits: int

class Watch(TypedDict):
    """A channel checked on a schedule (and on WebSub pushes) for new Shorts, reported to webhookUrl."""
    id: str
    channelUrl: str
    channel: WatchChannel
    webhookUrl: str
    intervalSeconds: int
    status: Union[Literal["active"], Literal["paused"]]
    pausedReason: Optional[Union[Literal["user"], Literal["credits"], Literal["channel"]]]
    nextCheckAt: Optional[str]
    lastCheckAt: Optional[str]
    lastSeenShort: Optional[WatchLastSeenShort]
    stats: WatchStats
    trackStats: Optional[CreateWatchTrackStats]
    alert: Optional[CreateWatchAlert]
    lastError: Optional[str]
    createdAt: str

class WatchCheck(TypedDict):
    """One check of a watch."""
    id: str
    trigger: Union[Literal["create"], Literal["schedule"], Literal["push"], Literal["manual"]]
    units: int
    newShorts: int
    creditsCharged: int
    outcome: Union[Literal["ok"], Literal["failed"], Literal["paused"]]
    error: Optional[str]
    createdAt: str

class WatchCheckQueued(TypedDict):
    """A manual check is queued."""
    watchId: str
    checkId: str
    status: Literal["queued"]

class WatchDetail(TypedDict):
    """A watch with its latest checks and events."""
    watch: Watch
    checks: List[WatchCheck]
    events: List[WatchEvent]

class WatchEventDelivery(TypedDict):
    attempts: int
    outcome: Optional[str]
    statusCode: Optional[int]

class WatchEvent(TypedDict):
    """An event of a watch, with the state of its delivery."""
    id: str
    type: str
    createdAt: str
    data: Any
    delivery: WatchEventDelivery

class WatchList(TypedDict):
    """The caller's watches, oldest first."""
    watches: List[Watch]

class WatchPausedPayloadData(TypedDict):
    watchId: str
    channel: ShortsCreatedPayloadDataChannel
    reason: Union[Literal["credits"], Literal["channel"]]
    message: str

class WatchPausedPayload(TypedDict):
    """Body of the watch.paused webhook: the account could not pay for a check, so the watch is paused until it can; or checks in a row found the channel gone."""
    type: Literal["watch.paused"]
    timestamp: str
    data: WatchPausedPayloadData

class WatchResumedPayloadData(TypedDict):
    watchId: str
    channel: ShortsCreatedPayloadDataChannel
    reason: Literal["credits"]

class WatchResumedPayload(TypedDict):
    """Body of the watch.resumed webhook: a watch paused for credits is checked again."""
    type: Literal["watch.resumed"]
    timestamp: str
    data: WatchResumedPayloadData

class WebhookDestination(TypedDict):
    """The health of one webhook destination, as its delivery attempts show it."""
    id: int
    url: str
    state: Union[Literal["healthy"], Literal["failing"], Literal["paused"]]
    successRate: Optional[float]
    recentAttempts: int
    consecutiveFailures: int
    failingSince: Optional[str]
    lastError: Optional[str]
    lastStatusCode: Optional[int]
    lastFailureAt: Optional[str]
    lastSuccessAt: Optional[str]
    lastAttemptAt: str
    pausedAt: Optional[str]

class WebhookDestinations(TypedDict):
    """The health of the account's webhook destinations."""
    destinations: List[WebhookDestination]
    disableAfterDays: int

class WebhookSecret(TypedDict):
    secret: str
    createdAt: str
    expiresAt: Optional[str]

class WebhookTestPayloadData(TypedDict):
    message: str

class WebhookTestPayload(TypedDict):
    """The webhook.test event POST /webhooks/test sends (Standard Webhooks signed, webhook-id msg_test_…)."""
    type: Literal["webhook.test"]
    timestamp: str
    data: WebhookTestPayloadData

class WebhookTestRequest(TypedDict):
    url: str

class WebhookTestResult(TypedDict):
    """The outcome of one webhook.test attempt."""
    webhookId: str
    url: str
    outcome: Union[Literal["delivered"], Literal["failed"], Literal["gone"]]
    statusCode: Optional[int]
    latencyMs: int
    error: Optional[str]
    requestHeaders: Optional[Dict[str, Any]]
    requestBody: str
    responseExcerpt: Optional[str]

__all__ = [
    "Account",
    "ApiKey",
    "AuditEntry",
    "BalanceDay",
    "BalanceHistory",
    "BalanceStep",
    "BatchAccepted",
    "BatchItem",
    "BatchItemStatus",
    "BatchList",
    "BatchListEntry",
    "BatchRedeliveryQueued",
    "BatchRequest",
    "BatchStatus",
    "BatchSummary",
    "BatchWebhookPayload",
    "Channel",
    "ChannelStats",
    "ChannelStatsPoint",
    "CreateWatch",
    "CreatedInvitation",
    "CreatedKey",
    "CreditAlerts",
    "CreditAlertsChange",
    "CreditEvent",
    "CreditEvents",
    "CreditsLowPayload",
    "DeliveryAttempt",
    "DeliveryLogEntry",
    "DeliveryLogPage",
    "DeliveryState",
    "DestinationPausedPayload",
    "DoctorFinding",
    "DoctorReport",
    "Error",
    "Failure",
    "Invitation",
    "ItemsPage",
    "KeyUsage",
    "KeyUsageEntry",
    "LedgerEntry",
    "LedgerPage",
    "Mover",
    "Pricing",
    "RateLimits",
    "RedeliveryQueued",
    "RejectionDay",
    "Rejections",
    "RequestDetail",
    "RequestLogEntry",
    "RequestLogPage",
    "RequestStatus",
    "RequestSummary",
    "Role",
    "RotatedSecret",
    "Session",
    "Short",
    "ShortGrowth",
    "ShortsAccepted",
    "ShortsCreatedPayload",
    "ShortsGrowthPayload",
    "ShortsRequest",
    "ShortsResult",
    "ShortsThinResult",
    "ShortsThinWebhookPayload",
    "ShortsWebhookPayload",
    "SignupAccepted",
    "SignupInfo",
    "SourceHealth",
    "StatementEntry",
    "StatsPoint",
    "UpdateWatch",
    "UsageDay",
    "User",
    "UserDelivery",
    "VideoStats",
    "Watch",
    "WatchCheck",
    "WatchCheckQueued",
    "WatchDetail",
    "WatchEvent",
    "WatchList",
    "WatchPausedPayload",
    "WatchResumedPayload",
    "WebhookDestination",
    "WebhookDestinations",
    "WebhookSecret",
    "WebhookTestPayload",
    "WebhookTestRequest",
    "WebhookTestResult",
]
