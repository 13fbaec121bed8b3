"""The client against a scripted local server (retries, errors) and, when given one, a running service."""

import json
import os
import threading
import unittest
import urllib.parse
import urllib.request
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, HTTPServer

from channel_shorts import ChannelShortsError, Client, parse_retry_after
from channel_shorts import types as shapes

BASE_URL = os.environ.get("CHANNEL_SHORTS_BASE_URL")
API_KEY = os.environ.get("CHANNEL_SHORTS_API_KEY", "")
CHANNEL = os.environ.get("CHANNEL_SHORTS_CHANNEL", "https://www.youtube.com/@demo")
LIVE = unittest.skipUnless(BASE_URL, "CHANNEL_SHORTS_BASE_URL is not set: no service to call")
# A channel no other test reads, and the fake platform's origin, whose admin routes set a Short's counts.
STATS_CHANNEL = os.environ.get("CHANNEL_SHORTS_STATS_CHANNEL", "https://www.youtube.com/@python-stats")
FAKE_PLATFORM_URL = os.environ.get("CHANNEL_SHORTS_FAKE_PLATFORM_URL")


class Scripted:
    """A loopback server answering each request with the next (status, headers, body) of a script."""

    def __init__(self, script):
        self.script = list(script)
        self.seen = []
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def _answer(self):
                length = int(self.headers.get("Content-Length") or 0)
                owner.seen.append((self.command, self.path, dict(self.headers), self.rfile.read(length)))
                status, headers, body = owner.script.pop(0)
                raw = json.dumps(body).encode()
                self.send_response(status)
                for name, value in {"Content-Type": "application/json", **headers}.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            do_GET = do_POST = do_PATCH = do_DELETE = _answer

            def log_message(self, *args):
                pass

        self.server = HTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def close(self):
        self.server.shutdown()
        self.server.server_close()


class Retries(unittest.TestCase):
    def serve(self, script):
        server = Scripted(script)
        self.addCleanup(server.close)
        return server

    def test_retries_429_and_503_honouring_retry_after(self):
        limited = {"error": "RATE_LIMITED", "message": "slow down", "requestId": "req_a"}
        server = self.serve(
            [
                (429, {"Retry-After": "2"}, limited),
                (503, {}, {"error": "SERVICE_UNAVAILABLE", "message": "busy"}),
                (200, {}, {"balance": 5}),
            ]
        )
        slept = []
        client = Client(server.url, "csk_test", sleep=slept.append)
        self.assertEqual(client.get_account()["balance"], 5)
        self.assertEqual(slept, [2.0, 2.0])  # Retry-After, then the second back-off step
        self.assertEqual([s[2]["Authorization"] for s in server.seen], ["Bearer csk_test"] * 3)

    def test_gives_up_after_max_retries_and_beyond_the_delay_bound(self):
        limited = (429, {"Retry-After": "1"}, {"error": "RATE_LIMITED", "message": "m", "requestId": "req_b"})
        server = self.serve([limited] * 3)
        slept = []
        with self.assertRaises(ChannelShortsError) as caught:
            Client(server.url, "k", max_retries=2, sleep=slept.append).get_account()
        self.assertEqual((caught.exception.status, caught.exception.error), (429, "RATE_LIMITED"))
        self.assertEqual((caught.exception.request_id, caught.exception.retry_after), ("req_b", 1.0))
        self.assertEqual(slept, [1.0, 1.0])
        far = self.serve([(503, {"Retry-After": "3600"}, {"error": "UPSTREAM_RATE_LIMITED", "message": "m"})])
        with self.assertRaises(ChannelShortsError):
            Client(far.url, "k", sleep=slept.append).get_account()
        self.assertEqual(len(slept), 2, "a wait past max_retry_delay is not made")

    def test_posts_carry_one_idempotency_key_reused_by_their_retries(self):
        running = {"error": "IDEMPOTENCY_IN_PROGRESS", "message": "m", "requestId": "req_d"}
        server = self.serve(
            [
                (503, {}, {"error": "SERVICE_UNAVAILABLE", "message": "busy"}),
                (409, {"Retry-After": "1"}, running),
                (200, {}, {"success": True}),
                (200, {}, {"success": True}),
            ]
        )
        client = Client(server.url, "k", sleep=lambda s: None)
        client.list_shorts(channel_url="https://www.youtube.com/@x")
        keys = [seen[2].get("Idempotency-Key") for seen in server.seen]
        self.assertEqual(len(keys), 3)
        self.assertTrue(keys[0] and keys[0] == keys[1] == keys[2], keys)
        client.list_shorts(channel_url="https://www.youtube.com/@x")
        self.assertNotEqual(server.seen[3][2].get("Idempotency-Key"), keys[0], "a new call, a new key")

    def test_does_not_retry_other_failures(self):
        server = self.serve([(402, {}, {"error": "INSUFFICIENT_CREDITS", "message": "m", "requestId": "req_c"})])
        with self.assertRaises(ChannelShortsError) as caught:
            Client(server.url, "k", sleep=lambda s: None).list_shorts(channel_url="https://www.youtube.com/@x")
        self.assertEqual(caught.exception.error, "INSUFFICIENT_CREDITS")
        self.assertEqual(len(server.seen), 1)
        self.assertEqual(json.loads(server.seen[0][3]), {"channelUrl": "https://www.youtube.com/@x"})

    def test_parse_retry_after(self):
        self.assertEqual(parse_retry_after("7"), 7.0)
        self.assertEqual(parse_retry_after("Wed, 21 Oct 2015 07:28:10 GMT", now=1445412480.0), 10.0)
        self.assertIsNone(parse_retry_after("soon"))
        self.assertIsNone(parse_retry_after(None))


class StatisticsRequests(unittest.TestCase):
    def test_encode_the_path_and_send_instants_in_utc(self):
        server = Scripted([(200, {}, {"success": True})] * 3)
        self.addCleanup(server.close)
        client = Client(server.url, "k")
        plus_two = timezone(timedelta(hours=2))
        client.video_stats("a/b?c", from_=datetime(2026, 7, 1, 14, 0, 0, 123456, tzinfo=plus_two), to="2026-07-02")
        client.video_stats("dQw4w9WgXcQ", to=datetime(2026, 7, 1, 12, 0))  # no time zone: taken as UTC
        client.channel_stats("UC/x", window="7d", limit=5)
        sent = [urllib.parse.urlsplit(seen[1]) for seen in server.seen]
        self.assertEqual(
            [url.path for url in sent],
            [
                "/api/youtube/videos/a%2Fb%3Fc/stats",
                "/api/youtube/videos/dQw4w9WgXcQ/stats",
                "/api/youtube/channels/UC%2Fx/stats",
            ],
        )
        self.assertEqual(
            [urllib.parse.parse_qsl(url.query) for url in sent],
            [
                [("from", "2026-07-01T12:00:00.123Z"), ("to", "2026-07-02")],
                [("to", "2026-07-01T12:00:00.000Z")],
                [("window", "7d"), ("limit", "5")],
            ],
        )
        self.assertEqual([seen[0] for seen in server.seen], ["GET"] * 3)


@LIVE
class AgainstTheService(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.client = Client(BASE_URL, API_KEY)

    def test_list_shorts(self):
        result = self.client.list_shorts(channel_url=CHANNEL, limit=5, sort="newest")
        self.assertTrue(result["success"])
        self.assertEqual(result["itemCount"], len(result["data"]["shorts"]))
        self.assertLessEqual(result["itemCount"], 5)
        self.assertGreater(result["itemCount"], 0)
        self.assertTrue(result["requestId"].startswith("req_"))
        detail = self.client.get_request(result["requestId"])
        self.assertEqual(detail["requestId"], result["requestId"])
        logged = self.client.list_requests(limit=10)["requests"]
        self.assertIn(result["requestId"], [entry["requestId"] for entry in logged])

    def test_a_dropped_connection_is_retried_with_the_same_key_and_charged_once(self):
        class Dropping(Client):
            """The service answers the first attempt, then the connection breaks before the client reads it."""

            keys = []

            def _send(self, method, url, data, idempotency_key=None):
                self.keys.append(idempotency_key)
                answer = super()._send(method, url, data, idempotency_key)
                if len(self.keys) == 1:
                    raise ConnectionResetError("connection reset by peer")
                return answer

        before = self.client.get_account()["credits"]["balance"]
        client = Dropping(BASE_URL, API_KEY, sleep=lambda s: None)
        result = client.list_shorts(channel_url=CHANNEL, limit=3)
        self.assertEqual(len(Dropping.keys), 2)
        self.assertEqual(Dropping.keys[0], Dropping.keys[1])
        after = self.client.get_account()["credits"]["balance"]
        self.assertEqual(before - after, result["creditsCharged"], "charged once")

    def test_items_pages_through_a_stored_result(self):
        result = self.client.list_shorts(channel_url=CHANNEL, store=True)
        ids = [short["id"] for short in self.client.items(result["requestId"], page_size=7)]
        self.assertEqual(ids, [short["id"] for short in result["data"]["shorts"]])

    def test_errors_carry_status_code_and_request_id(self):
        with self.assertRaises(ChannelShortsError) as caught:
            self.client.list_shorts(channel_url="https://example.com/not-youtube")
        self.assertEqual(caught.exception.status, 400)
        self.assertTrue(caught.exception.request_id.startswith("req_"))
        with self.assertRaises(ChannelShortsError) as unauthorised:
            Client(BASE_URL, "csk_wrong").get_account()
        self.assertEqual((unauthorised.exception.status, unauthorised.exception.error), (401, "UNAUTHORIZED"))

    def test_batch(self):
        hook = os.environ.get("CHANNEL_SHORTS_WEBHOOK_URL", "https://example.com/hook")
        accepted = self.client.submit_batch([{"channelUrl": CHANNEL, "limit": 2}], webhook_url=hook)
        self.assertEqual(len(accepted["items"]), 1)
        status = self.client.get_batch(accepted["batchId"])
        self.assertEqual(status["batchId"], accepted["batchId"])

    def test_watches(self):
        hook = os.environ.get("CHANNEL_SHORTS_WEBHOOK_URL", "https://example.com/hook")
        watch = self.client.create_watch(channel_url=CHANNEL, webhook_url=hook)
        self.assertIn(watch["id"], [w["id"] for w in self.client.list_watches()["watches"]])
        paused = self.client.update_watch(watch["id"], status="paused")
        self.assertEqual(paused["status"], "paused")
        self.assertEqual(self.client.get_watch(watch["id"])["watch"]["id"], watch["id"])
        self.client.delete_watch(watch["id"])
        with self.assertRaises(ChannelShortsError) as gone:
            self.client.get_watch(watch["id"])
        self.assertEqual(gone.exception.status, 404)

    def test_account_and_pricing(self):
        account = self.client.get_account()
        self.assertEqual(set(shapes.Account.__required_keys__) - set(account), set())
        self.assertIsInstance(account["credits"]["balance"], int)
        pricing = self.client.get_pricing()
        self.assertEqual(set(shapes.Pricing.__required_keys__) - set(pricing), set())

    def test_types_match_the_live_openapi_document(self):
        with urllib.request.urlopen(f"{BASE_URL}/openapi.json") as response:
            schemas = json.load(response)["components"]["schemas"]
        checked = 0
        for name in shapes.__all__:
            shape = getattr(shapes, name)
            if not isinstance(shape, type) or not hasattr(shape, "__required_keys__"):
                continue
            schema = schemas[name]
            required = set(schema.get("required", []))
            with self.subTest(name):
                self.assertEqual(set(shape.__required_keys__), required)
                self.assertEqual(set(shape.__optional_keys__), set(schema["properties"]) - required)
            checked += 1
        self.assertGreater(checked, 50)


def _instant(text):
    """An instant the service wrote (2026-07-01T12:00:00.000Z); Python 3.9's fromisoformat reads no Z."""
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


@LIVE
@unittest.skipUnless(FAKE_PLATFORM_URL, "CHANNEL_SHORTS_FAKE_PLATFORM_URL is not set: no counts to set")
class Statistics(unittest.TestCase):
    """Three reads of a channel, the first Short's views set on the fake platform before the second and third:
    the service stores a snapshot of every Short per read (the suite's service keeps every fresh read)."""

    @classmethod
    def setUpClass(cls):
        cls.client = Client(BASE_URL, API_KEY)
        cls.reads = [cls.client.list_shorts(channel_url=STATS_CHANNEL)]
        cls.video_id = cls.reads[0]["data"]["shorts"][0]["id"]
        first = int(cls.reads[0]["data"]["shorts"][0]["statistics"]["viewCount"])
        cls.views = [first, first + 1000, first + 2500]
        for views in cls.views[1:]:
            cls.set_views(cls.video_id, views)
            cls.reads.append(cls.client.list_shorts(channel_url=STATS_CHANNEL, include=["growth"]))

    @staticmethod
    def set_views(video_id, views):
        handle = urllib.parse.quote(STATS_CHANNEL.rsplit("@", 1)[1], safe="")
        url = f"{FAKE_PLATFORM_URL}/__admin/channels/{handle}/shorts/{urllib.parse.quote(video_id, safe='')}/statistics"
        body = json.dumps({"viewCount": str(views)}).encode()
        request = urllib.request.Request(url, data=body, method="POST", headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request) as response:
            response.read()

    def test_the_answer_carries_the_read_counts_and_growth_when_asked(self):
        shorts = [read["data"]["shorts"] for read in self.reads]
        self.assertEqual([int(s[0]["statistics"]["viewCount"]) for s in shorts], self.views)
        self.assertNotIn("growth", shorts[0][0], "growth only when include asks for it")
        self.assertEqual(shorts[2][0]["growth"]["last24h"]["viewsGained"], 2500)

    def test_video_stats_lists_a_snapshot_per_read(self):
        stats = self.client.video_stats(self.video_id)
        self.assertTrue(stats["success"])
        channel_id = self.reads[0]["data"]["channel"]["id"]
        self.assertEqual((stats["videoId"], stats["channelId"]), (self.video_id, channel_id))
        points = stats["points"]
        self.assertEqual([point["viewCount"] for point in points], self.views)
        self.assertEqual([point["exact"] for point in points], [True] * 3)
        self.assertEqual([_instant(p["at"]) for p in points], sorted(_instant(p["at"]) for p in points))
        self.assertEqual(stats["growth"]["last24h"]["viewsGained"], 2500)
        self.assertEqual(stats["growth"]["last24h"]["since"], points[0]["at"])

    def test_video_stats_narrows_the_points_to_from_and_to(self):
        points = self.client.video_stats(self.video_id)["points"]
        second = _instant(points[1]["at"])
        later = self.client.video_stats(self.video_id, from_=second)["points"]
        self.assertEqual([point["viewCount"] for point in later], self.views[1:])
        # Another time zone, the same instant; `to` as the service wrote it.
        elsewhere = second.astimezone(timezone(timedelta(hours=-5)))
        only = self.client.video_stats(self.video_id, from_=elsewhere, to=points[1]["at"])["points"]
        self.assertEqual(only, [points[1]])
        earlier = self.client.video_stats(self.video_id, to=second - timedelta(milliseconds=1))["points"]
        self.assertEqual(earlier, points[:1])

    def test_channel_stats_ranks_the_short_that_gained_first(self):
        channel = self.reads[-1]["data"]["channel"]
        last_views = {s["id"]: int(s["statistics"]["viewCount"]) for s in self.reads[-1]["data"]["shorts"]}
        stats = self.client.channel_stats(channel["id"], window="7d")
        self.assertEqual((stats["channelId"], stats["window"]), (channel["id"], "7d"))
        movers = stats["movers"]
        self.assertEqual(sorted(m["videoId"] for m in movers), sorted(last_views))
        self.assertEqual(movers[0]["videoId"], self.video_id)
        self.assertEqual(movers[0]["growth"]["last7d"]["viewsGained"], 2500)
        self.assertEqual({m["videoId"]: m["last"]["viewCount"] for m in movers}, last_views)
        self.assertEqual([m["growth"]["last7d"]["viewsGained"] for m in movers[1:]], [0] * (len(movers) - 1))
        points = stats["channel"]["points"]
        self.assertEqual(len(points), 3, "the channel's own counts, one per read")
        self.assertEqual(points[-1]["viewCount"], int(channel["statistics"]["viewCount"]))
        top = self.client.channel_stats(channel["id"], limit=1)
        self.assertEqual((top["window"], [m["videoId"] for m in top["movers"]]), ("24h", [self.video_id]))

    def test_a_video_never_read_is_not_tracked(self):
        with self.assertRaises(ChannelShortsError) as caught:
            self.client.video_stats("AAAAAAAAAAA")
        self.assertEqual((caught.exception.status, caught.exception.error), (404, "VIDEO_NOT_TRACKED"))
        self.assertTrue(caught.exception.request_id.startswith("req_"))
        with self.assertRaises(ChannelShortsError) as invalid:
            self.client.video_stats("a/b")  # encoded: one segment the service refuses, not another route
        self.assertEqual((invalid.exception.status, invalid.exception.error), (400, "VALIDATION_FAILED"))


if __name__ == "__main__":
    unittest.main()
