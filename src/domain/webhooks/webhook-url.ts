// Request-time check of a webhookUrl: refuse what is clearly unsafe before accepting the job.
// The decisive check happens at connect time (guarded-agent.ts), against the address actually used.
import { isIP } from 'node:net';
import { AppError } from '../../errors.ts';
import { isForbiddenAddress, unbracket } from './address-policy.ts';

/** field: the name the caller knows the URL by (webhookUrl on requests, eventsWebhookUrl on the account). */
export function assertAcceptableWebhookUrl(raw: string, allowPrivate: boolean, field = 'webhookUrl'): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AppError('UNSAFE_WEBHOOK_URL', `${field} is not a valid URL.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new AppError('UNSAFE_WEBHOOK_URL', `${field} must use http or https.`);
  if (url.username || url.password)
    throw new AppError(
      'UNSAFE_WEBHOOK_URL',
      `${field} must not carry credentials; authenticate deliveries with the webhook signature.`,
    );
  if (raw.length > 2048) throw new AppError('UNSAFE_WEBHOOK_URL', `${field} must be at most 2048 characters.`);
  if (allowPrivate) return url;
  // A fully qualified name may end in dots (localhost.): judged without them.
  const host = unbracket(url.hostname).toLowerCase().replace(/\.+$/, '');
  if (isIP(host) && isForbiddenAddress(host))
    throw new AppError('UNSAFE_WEBHOOK_URL', `${field} points to a private or reserved address (${host}).`);
  if (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host.endsWith('.internal') ||
    host.endsWith('.local') ||
    (!host.includes('.') && !isIP(host))
  ) {
    throw new AppError('UNSAFE_WEBHOOK_URL', `${field} host ${host} is not a public address.`);
  }
  return url;
}
