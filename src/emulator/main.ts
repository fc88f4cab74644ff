/** The desk-emulator command line: run the emulator, print a demo token, or issue a receiver certificate from the emulator's CA. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { CA_CERT_FILE, CertificateAuthority } from './core/certificates';
import { EMULATED_APIS, isEmulatedApiName } from './core/disabledApis';
import { logLine } from './core/log';
import { seededRandom } from './core/random';
import { startEmulator } from './emulator';

const USAGE = `Usage: desk-emulator [options]
       desk-emulator token [--user EMAIL] [--url URL]
       desk-emulator cert --host HOST [--host HOST…] [--out DIR] [--data-dir DIR | --url URL]

Options:
  --port N              port on 127.0.0.1 (0 = any free port; default 8089)
  --data-dir DIR        durable storage folder (default: memory only)
  --memory              keep everything in memory (the default without --data-dir)
  --seed demo|none      demo data on first start (default none)
  --books FILE.jsonl    the Books catalogue: your own JSON-lines file (one book a line), or
                        synthetic:COUNT[:SEED] for a generated one (default: Desk's catalogue)
  --token-lifetime S    access-token lifetime in seconds (default 3600)
  --latency MS          added latency per API call (fault injection)
  --fault-rate R        share 0..1 of API calls answered 429 or 503 (fault injection)
  --fault-seed N        draw those faults from a seeded sequence: the same requests meet the same faults
  --disable-api NAME    answer every call to this API as Google does when the client's Cloud project has not
                        enabled it (403 SERVICE_DISABLED; repeatable): tasks, books, drive, drivelabels,
                        calendar, admin
  --trust-ca FILE        also trust receiver certificates issued by this CA (PEM; repeatable), beside
                        the emulator's own CA and the system store
  --allow-watch-network CIDR
                        let channels deliver to this private range (repeatable); private, link-local,
                        shared, unique-local, unspecified and metadata addresses are refused otherwise
  --no-loopback-watch   refuse receivers on loopback too (for an emulator shared on a network)
  --request-log FILE    write one JSON line per answered request to FILE (method, target without credentials,
                        status, start and end time in epoch ms): what a benchmark reads to count round trips
  --verbose             log each request and internal errors (tokens, codes and secrets redacted)

token: prints a bearer token for a demo user of a running emulator (no browser needed).
cert: issues a receiver certificate and key for channel addresses (https://HOST/…) from the emulator's CA
  (the one in --data-dir, created there on first use, or a running emulator's at --url) and writes
  receiver-cert.pem, receiver-key.pem and desk-emulator-ca.pem (the CA clients can be given) to --out (default .).`;

async function printToken(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { user: { type: 'string' }, url: { type: 'string' } } });
  const base = values.url ?? process.env.DESK_EMULATOR_URL ?? 'http://127.0.0.1:8089';
  const user = values.user ?? 'alice@example.com';
  const response = await fetch(`${base}/emulator/v1/token?user=${encodeURIComponent(user)}`, { method: 'POST' });
  const body = (await response.json()) as { access_token?: string; error?: { message: string } };
  if (!response.ok || !body.access_token) throw new Error(body.error?.message ?? `HTTP ${response.status}`);
  process.stdout.write(`${body.access_token}\n`);
}

async function issueCertificate(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { host: { type: 'string', multiple: true }, out: { type: 'string' }, 'data-dir': { type: 'string' }, url: { type: 'string' } } });
  const hosts = values.host ?? [];
  if (hosts.length === 0) throw new Error('cert needs at least one --host (e.g. --host 127.0.0.1)');
  let issued: { cert: string; key: string; ca: string };
  if (values['data-dir']) {
    const ca = CertificateAuthority.openOrCreate(values['data-dir']);
    issued = { ...ca.issue({ hosts }), ca: ca.certPem };
  } else {
    const base = values.url ?? process.env.DESK_EMULATOR_URL ?? 'http://127.0.0.1:8089';
    const query = hosts.map((host) => `host=${encodeURIComponent(host)}`).join('&');
    const response = await fetch(`${base}/emulator/v1/channels/certificates?${query}`, { method: 'POST' });
    const body = (await response.json()) as { cert?: string; key?: string; ca?: string; error?: { message: string } };
    if (!response.ok || !body.cert || !body.key || !body.ca) throw new Error(body.error?.message ?? `HTTP ${response.status}`);
    issued = { cert: body.cert, key: body.key, ca: body.ca };
  }
  const out = values.out ?? '.';
  await fs.promises.mkdir(out, { recursive: true });
  const files = { cert: path.join(out, 'receiver-cert.pem'), key: path.join(out, 'receiver-key.pem'), ca: path.join(out, CA_CERT_FILE) };
  await fs.promises.writeFile(files.key, issued.key, { mode: 0o600 });
  await fs.promises.writeFile(files.cert, issued.cert);
  await fs.promises.writeFile(files.ca, issued.ca);
  process.stdout.write(`certificate: ${files.cert}\nkey: ${files.key}\nCA: ${files.ca}\n`);
}

function numberOption(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max) throw new Error(`--${name} must be a number from ${min} to ${max}`);
  return value;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv[0] === 'token') return printToken(argv.slice(1));
  if (argv[0] === 'cert') return issueCertificate(argv.slice(1));
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      'data-dir': { type: 'string' },
      memory: { type: 'boolean' },
      seed: { type: 'string' },
      books: { type: 'string' },
      'token-lifetime': { type: 'string' },
      latency: { type: 'string' },
      'fault-rate': { type: 'string' },
      'fault-seed': { type: 'string' },
      'trust-ca': { type: 'string', multiple: true },
      'allow-watch-network': { type: 'string', multiple: true },
      'no-loopback-watch': { type: 'boolean' },
      'disable-api': { type: 'string', multiple: true },
      verbose: { type: 'boolean' },
      'request-log': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const seed = values.seed ?? 'none';
  if (seed !== 'demo' && seed !== 'none') throw new Error('--seed must be demo or none');
  const disabledApis = values['disable-api'] ?? [];
  const unknownApi = disabledApis.find((name) => !isEmulatedApiName(name));
  if (unknownApi !== undefined) throw new Error(`--disable-api: unknown API ${unknownApi} (known: ${Object.keys(EMULATED_APIS).join(', ')})`);
  const emulator = await startEmulator({
    disabledApis: new Set(disabledApis.filter(isEmulatedApiName)),
    port: numberOption('port', values.port, 8089, 0, 65535),
    dataDir: values.memory ? undefined : values['data-dir'],
    seed,
    accessTokenLifetimeSeconds: numberOption('token-lifetime', values['token-lifetime'], 3600, 1, 86400 * 365),
    latencyMs: numberOption('latency', values.latency, 0, 0, 60000),
    faultRate: numberOption('fault-rate', values['fault-rate'], 0, 0, 1),
    ...(values['fault-seed'] !== undefined ? { faultRandom: seededRandom(numberOption('fault-seed', values['fault-seed'], 0, 0, 2 ** 32 - 1)) } : {}),
    quiet: !values.verbose,
    trustCaFiles: values['trust-ca'] ?? [],
    allowWatchNetworks: values['allow-watch-network'] ?? [],
    loopbackWatch: !values['no-loopback-watch'],
    requestLog: values['request-log'],
    ...(values.books ? { booksCatalogue: values.books } : {}),
  });
  // The first line is machine-read by the extension and the test harness: keep its shape.
  console.log(`Desk emulator listening on ${emulator.url}`);
  console.log(`Data: ${values['data-dir'] && !values.memory ? values['data-dir'] : 'in memory'}; seed: ${seed}`);
  const stop = (): void => {
    void emulator.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  // Through the redacting logger: a failure message may quote a URL with a token in it.
  logLine(`desk-emulator: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
