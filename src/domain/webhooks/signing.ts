// Standard Webhooks signatures (https://www.standardwebhooks.com), produced with the reference
// library so receivers can verify with any Standard Webhooks implementation. During a secret
// rotation every active secret signs: the header carries one "v1,<sig>" per secret.
import { Webhook } from 'standardwebhooks';

export function signPayload(secrets: string[], webhookId: string, timestamp: Date, body: string): string {
  return secrets.map((secret) => new Webhook(secret.replace(/^whsec_/, '')).sign(webhookId, timestamp, body)).join(' ');
}
