// A request as a curl command a person can paste: the key (or a placeholder) and the JSON body.
const shellQuote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

export function curlCommand(body: object, key: string, path = '/api/youtube/shorts'): string {
  return [
    `curl -X POST ${window.location.origin}${path} \\`,
    `  -H "Authorization: Bearer ${key}" \\`,
    `  -H "Content-Type: application/json" \\`,
    `  -d ${shellQuote(JSON.stringify(body))}`,
  ].join('\n');
}
