"""verify_webhook against the Standard Webhooks rules, and against a real delivery when one is given."""

import json
import os
import time
import unittest

from channel_shorts import WebhookVerificationError, sign_webhook, verify_webhook

SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
OTHER = "whsec_" + "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo="


def signed(body: str, secret: str = SECRET, timestamp: int = 0, message_id: str = "msg_1"):
    stamp = timestamp or int(time.time())
    return {
        "webhook-id": message_id,
        "webhook-timestamp": str(stamp),
        "webhook-signature": sign_webhook(secret, message_id, stamp, body),
    }


class VerifyWebhook(unittest.TestCase):
    body = json.dumps({"type": "shorts.completed", "data": {"requestId": "req_1"}})

    def test_reference_vector(self):
        # The example of the Standard Webhooks specification.
        self.assertEqual(
            sign_webhook(SECRET, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, '{"test": 2432232314}'),
            "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
        )

    def test_returns_the_parsed_event(self):
        event = verify_webhook(self.body, signed(self.body), SECRET)
        self.assertEqual(event["data"]["requestId"], "req_1")
        self.assertEqual(verify_webhook(self.body.encode(), signed(self.body), SECRET)["type"], "shorts.completed")

    def test_refuses_a_changed_body(self):
        headers = signed(self.body)
        with self.assertRaises(WebhookVerificationError):
            verify_webhook(self.body.replace("req_1", "req_2"), headers, SECRET)

    def test_refuses_another_secret_and_accepts_either_during_a_rotation(self):
        headers = signed(self.body, secret=OTHER)
        with self.assertRaises(WebhookVerificationError):
            verify_webhook(self.body, headers, SECRET)
        self.assertEqual(verify_webhook(self.body, headers, [SECRET, OTHER])["type"], "shorts.completed")

    def test_takes_any_of_several_signatures(self):
        headers = signed(self.body)
        headers["webhook-signature"] = "v1,AAAA v2,zzz " + headers["webhook-signature"]
        self.assertEqual(verify_webhook(self.body, headers, SECRET)["type"], "shorts.completed")

    def test_refuses_old_and_future_timestamps(self):
        now = time.time()
        for offset in (-301, 301):
            headers = signed(self.body, timestamp=int(now) + offset)
            with self.assertRaises(WebhookVerificationError):
                verify_webhook(self.body, headers, SECRET, now=now)
        self.assertTrue(verify_webhook(self.body, signed(self.body, timestamp=int(now) - 299), SECRET, now=now))

    def test_refuses_missing_headers_and_a_bad_secret(self):
        headers = signed(self.body)
        for name in headers:
            partial = {k: v for k, v in headers.items() if k != name}
            with self.assertRaises(WebhookVerificationError):
                verify_webhook(self.body, partial, SECRET)
        with self.assertRaises(WebhookVerificationError):
            verify_webhook(self.body, headers, "whsec_not base64!")

    def test_header_names_in_any_case(self):
        headers = {k.title(): v for k, v in signed(self.body).items()}
        self.assertEqual(verify_webhook(self.body, headers, SECRET)["type"], "shorts.completed")

    @unittest.skipUnless(os.environ.get("CHANNEL_SHORTS_WEBHOOK_FILE"), "no delivery recorded from a service")
    def test_a_delivery_the_service_sent(self):
        with open(os.environ["CHANNEL_SHORTS_WEBHOOK_FILE"], encoding="utf-8") as file:
            recorded = json.load(file)
        event = verify_webhook(recorded["body"], recorded["headers"], recorded["secret"], now=recorded["receivedAt"])
        self.assertEqual(event["type"], "shorts.completed")
        tampered = recorded["body"].replace('"shorts.completed"', '"shorts.failed"')
        with self.assertRaises(WebhookVerificationError):
            verify_webhook(tampered, recorded["headers"], recorded["secret"], now=recorded["receivedAt"])


if __name__ == "__main__":
    unittest.main()
