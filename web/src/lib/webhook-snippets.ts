// The verification snippets of the webhooks guide (docs/guides/webhooks.md), taken from the guide at
// build time so the dashboard shows exactly the code test/webhook-snippets.test.ts runs.
import guide from '../../../docs/guides/webhooks.md?raw';

export interface WebhookSnippet {
  /** The guide's bold label before the block, e.g. "Python (standard library; …)". */
  label: string;
  /** The short name on the tab: the label's first word. */
  name: string;
  language: string;
  code: string;
}

export function snippetsOf(markdown: string): WebhookSnippet[] {
  const section = markdown.slice(markdown.indexOf('### Verifying a delivery'));
  const blocks = section.matchAll(/^\*\*([^*\n]+)\*\*([^\n]*)\n\n```(\w+)\n([\s\S]*?)```/gm);
  return [...blocks].map(([, label, rest, language, code]) => {
    const name = label!.trim();
    return {
      label: `${name}${rest!.replace(/:\s*$/, '').replaceAll('`', '').trimEnd()}`,
      name,
      language: language!,
      code: code!.trimEnd(),
    };
  });
}

export const WEBHOOK_SNIPPETS = snippetsOf(guide);
