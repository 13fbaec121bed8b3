// The webhooks guide's verification snippets, run as written in each language this machine has:
// each must accept a signature the service's own signer made (one of two, as during a secret
// rotation) and refuse a changed body, another secret and an old timestamp. A language whose
// interpreter is missing is skipped with a line saying so; Python and the shell are required in CI.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { signPayload } from '../src/domain/webhooks/signing.ts';

const run = promisify(execFile);
const GUIDE = new URL('../docs/guides/webhooks.md', import.meta.url);
const SECRET = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
const OTHER = `whsec_${Buffer.from('fedcba9876543210fedcba9876543210').toString('base64')}`;

interface Case {
  secret: string;
  id: string;
  timestamp: string;
  body: string;
  signature: string;
}

/** A program in the snippet's language that prints "true" or "false" for the case in its env. */
interface Language {
  fence: string;
  interpreter: string;
  requiredInCi: boolean;
  program(snippet: string, dir: string): Promise<{ file: string; args: string[] }>;
}

const fromEnv = {
  python: `import os, sys\nprint("true" if verify(os.environ["S"], os.environ["I"], os.environ["T"], open(os.environ["B"], "rb").read(), os.environ["H"]) else "false")\n`,
  php: `echo verify(getenv('S'), getenv('I'), getenv('T'), file_get_contents(getenv('B')), getenv('H')) ? "true" : "false";\n`,
  ruby: `puts(verify(ENV["S"], ENV["I"], ENV["T"], File.binread(ENV["B"]), ENV["H"]) ? "true" : "false")\n`,
};

const LANGUAGES: Language[] = [
  {
    fence: 'python',
    interpreter: 'python3',
    requiredInCi: true,
    async program(snippet, dir) {
      const file = join(dir, 'verify.py');
      await writeFile(file, `${snippet}\n${fromEnv.python}`);
      return { file: 'python3', args: [file] };
    },
  },
  {
    fence: 'sh',
    interpreter: 'openssl',
    requiredInCi: true,
    async program(snippet, dir) {
      // The snippet reads body.json in its working directory and exits non-zero when invalid.
      const file = join(dir, 'verify.sh');
      await writeFile(
        file,
        `cd "$(dirname "$0")"\ncp "$B" body.json\nexport WEBHOOK_SECRET="$S" WEBHOOK_ID="$I" WEBHOOK_TIMESTAMP="$T" WEBHOOK_SIGNATURE="$H"\nif (\n${snippet}\n) >/dev/null 2>&1; then echo true; else echo false; fi\n`,
      );
      return { file: 'bash', args: [file] };
    },
  },
  {
    fence: 'php',
    interpreter: 'php',
    requiredInCi: false,
    async program(snippet, dir) {
      const file = join(dir, 'verify.php');
      await writeFile(file, `<?php\n${snippet}\n${fromEnv.php}`);
      return { file: 'php', args: [file] };
    },
  },
  {
    fence: 'ruby',
    interpreter: 'ruby',
    requiredInCi: false,
    async program(snippet, dir) {
      const file = join(dir, 'verify.rb');
      await writeFile(file, `${snippet}\n${fromEnv.ruby}`);
      return { file: 'ruby', args: [file] };
    },
  },
  {
    fence: 'go',
    interpreter: 'go',
    requiredInCi: false,
    async program(snippet, dir) {
      const file = join(dir, 'main.go');
      const body = snippet.replace(/^import \(/m, 'import (\n\t"fmt"\n\t"os"');
      await writeFile(
        file,
        `package main\n\n${body}\nfunc main() {\n\traw, _ := os.ReadFile(os.Getenv("B"))\n\tfmt.Println(verify(os.Getenv("S"), os.Getenv("I"), os.Getenv("T"), raw, os.Getenv("H")))\n}\n`,
      );
      return { file: 'go', args: ['run', file] };
    },
  },
];

const available = (command: string) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;

function snippetOf(guide: string, fence: string): string {
  const code = new RegExp('```' + fence + '\\n([\\s\\S]*?)```').exec(guide)?.[1];
  assert.ok(code, `the guide has a ${fence} snippet`);
  return code;
}

/** A case signed correctly at `at`: refused only for its age. */
function signedAt(at: Date, body: string): Case {
  const timestamp = String(Math.floor(at.getTime() / 1000));
  return { secret: SECRET, id: 'msg_req_x', timestamp, body, signature: signPayload([SECRET], 'msg_req_x', at, body) };
}

async function verdict(language: Language, snippet: string, dir: string, input: Case): Promise<string> {
  const { file, args } = await language.program(snippet, dir);
  const bodyFile = join(dir, 'input-body');
  await writeFile(bodyFile, input.body);
  const env = { ...process.env, S: input.secret, I: input.id, T: input.timestamp, B: bodyFile, H: input.signature };
  const { stdout } = await run(file, args, { env, timeout: 60_000 });
  return stdout.trim();
}

describe("the webhooks guide's verification snippets", () => {
  for (const language of LANGUAGES) {
    const missing = !available(language.interpreter);
    const skip =
      missing && !(process.env.CI === 'true' && language.requiredInCi)
        ? `${language.interpreter} is not on this machine`
        : false;
    if (skip) console.log(`# webhook snippet in ${language.fence} skipped: ${skip}`);
    it(`${language.fence}: accepts a real signature, refuses a changed body, another secret, an old timestamp`, {
      skip,
    }, async (t) => {
      const snippet = snippetOf(await readFile(GUIDE, 'utf8'), language.fence);
      const dir = await mkdtemp(join(tmpdir(), `guide-${language.fence}-`));
      t.after(() => rm(dir, { recursive: true, force: true }));
      {
        const now = new Date();
        const body = JSON.stringify({ type: 'shorts.completed', data: { success: true, title: 'é 😀' } });
        const signature = signPayload([OTHER, SECRET], 'msg_req_x', now, body);
        const good: Case = {
          secret: SECRET,
          id: 'msg_req_x',
          timestamp: String(Math.floor(now.getTime() / 1000)),
          body,
          signature,
        };
        const answers = [
          await verdict(language, snippet, dir, good),
          await verdict(language, snippet, dir, { ...good, body: `${body} ` }),
          await verdict(language, snippet, dir, { ...good, secret: `whsec_${Buffer.alloc(32, 7).toString('base64')}` }),
          await verdict(language, snippet, dir, signedAt(new Date(now.getTime() - 3_600_000), body)),
        ];
        assert.deepEqual(answers, ['true', 'false', 'false', 'false']);
      }
    });
  }
});
