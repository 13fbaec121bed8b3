// curl, JavaScript and Python snippets for each operation of the API reference, made from the
// operation's own path, method and first request example, so they stay true when the API changes.

export interface CodeSample {
  lang: 'curl' | 'JavaScript' | 'Python';
  label: string;
  source: string;
}

interface SampleInput {
  baseUrl: string;
  method: string;
  /** The OpenAPI path with its parameters already filled in. */
  path: string;
  body: unknown;
  /**
   * The environment variable holding the credential the operation takes (null: none): an API key
   * where one is accepted, a dashboard session for key and secret management, the operator token
   * for the operator API (every sample sent $API_KEY and met a 403 there).
   */
  credential: Credential | null;
  /** The answer is not JSON (CSV, Prometheus text): the samples read it as text. */
  textResponse: boolean;
}

export type Credential = 'API_KEY' | 'SESSION_TOKEN' | 'OPERATOR_TOKEN' | 'METRICS_TOKEN';

const pyLiteral = (value: unknown, indent = ''): string => {
  if (value === null) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (Array.isArray(value)) return `[${value.map((v) => pyLiteral(v, indent)).join(', ')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).map(
      ([k, v]) => `${indent}    ${JSON.stringify(k)}: ${pyLiteral(v, `${indent}    `)},`,
    );
    return entries.length === 0 ? '{}' : `{\n${entries.join('\n')}\n${indent}}`;
  }
  return JSON.stringify(value);
};

export function codeSamples({ baseUrl, method, path, body, credential, textResponse }: SampleInput): CodeSample[] {
  const url = `${baseUrl.replace(/\/$/, '')}${path}`;
  const upper = method.toUpperCase();
  const hasBody = body !== undefined;
  const json = hasBody ? JSON.stringify(body) : '';

  const curl = [`curl -sS -X ${upper} '${url}'`];
  if (credential) curl.push(`-H "Authorization: Bearer $${credential}"`);
  if (hasBody) curl.push(`-H 'Content-Type: application/json'`, `-d '${json.replace(/'/g, "'\\''")}'`);

  // The snippet's own template literal, written out (it is code for the reader, not evaluated here).
  const bearer = 'Authorization: `Bearer $' + `{process.env.${credential}}\``;
  const jsHeaders = [...(credential ? [bearer] : []), ...(hasBody ? ["'Content-Type': 'application/json'"] : [])];
  const js = [
    `const response = await fetch('${url}', {`,
    `  method: '${upper}',`,
    ...(jsHeaders.length ? [`  headers: { ${jsHeaders.join(', ')} },`] : []),
    ...(hasBody ? [`  body: JSON.stringify(${JSON.stringify(body, null, 2).replace(/\n/g, '\n  ')}),`] : []),
    '});',
    textResponse
      ? 'const result = await response.text(); // errors are JSON: { error, message, requestId }'
      : 'const result = await response.json(); // errors: { error, message, requestId }',
  ];

  const python = [
    'import os, requests',
    '',
    `response = requests.${method.toLowerCase()}(`,
    `    "${url}",`,
    ...(credential ? [`    headers={"Authorization": f"Bearer {os.environ['${credential}']}"},`] : []),
    ...(hasBody ? [`    json=${pyLiteral(body, '    ')},`] : []),
    '    timeout=120,',
    ')',
    textResponse
      ? 'result = response.text  # errors are JSON: {"error", "message", "requestId"}'
      : 'result = response.json()  # errors: {"error", "message", "requestId"}',
  ];

  return [
    { lang: 'curl', label: 'curl', source: curl.join(' \\\n  ') },
    { lang: 'JavaScript', label: 'JavaScript', source: js.join('\n') },
    { lang: 'Python', label: 'Python', source: python.join('\n') },
  ];
}

/** The samples as markdown, for renderers that do not read x-codeSamples (Swagger UI). */
export function samplesMarkdown(samples: CodeSample[]): string {
  const fence: Record<CodeSample['lang'], string> = { curl: 'bash', JavaScript: 'js', Python: 'python' };
  return samples.map((s) => `**${s.label}**\n\n\`\`\`${fence[s.lang]}\n${s.source}\n\`\`\``).join('\n\n');
}
