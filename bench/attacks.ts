/**
 * `npm run bench:attacks` (docs/behaviour.md "Limits of one request"): each attack that once held
 * the server, sent to the reference server (dist/: `npm run build` first) in its own process with
 * the demo catalog, and measured against the targets: every attack answered with a 4xx or the right
 * answer within 2 s; a GET by id sent every 50 ms meanwhile answered within 1 s throughout; the
 * server's resident memory within 100 MB of where it started; and a refused attack changing
 * nothing (the whole state, `GET /__admin/state`, compared before and after). The requests go to
 * 127.0.0.1 only (the webhook receiver too); the script stops the server it started, by itself.
 * Exit status 1 when a target is missed. test/robustness/one-request.test.ts checks the same answers
 * in `npm test`, without timing.
 */
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { createServer } from 'node:http';
import { signToken } from '../src/auth/tokens.ts';
import type { Target } from './targets.ts';
import { startTarget } from './targets.ts';

const TARGETS = { answerMs: 2_000, getMs: 1_000, memoryMb: 100 };
const ORDERS = 'acme_snowflake.ecommerce_dw.sales.fact_orders';
const LONG = `${'a'.repeat(200)}!`;
const MB = 1024 * 1024;

interface Answer {
  status: number;
  text: string;
  body: unknown;
}

interface Attack {
  name: string;
  /** The request; `check` says whether its answer is the one wanted. */
  send(): Promise<Answer>;
  check(answer: Answer): boolean;
  /** A refused attack must change nothing: the state is compared around it. */
  refused: boolean;
  /** Waits for what the attack sets off in the background (a webhook delivery), within the same measure. */
  after?: () => Promise<void>;
}

interface Measure {
  name: string;
  status: number;
  ms: number;
  right: boolean;
  unchanged: boolean | undefined;
  slowestGetMs: number;
  peakRssMb: number;
}

const target: Target = await startTarget('reference', { fixtures: 'default' });
const consumer = await signToken({ user: 'attacker', role: 'DataConsumer', expires: '1d' });

async function call(method: string, path: string, body?: unknown, options: { token?: string; type?: string } = {}): Promise<Answer> {
  const res = await fetch(`${target.origin}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${options.token ?? target.token}`,
      ...(body === undefined ? {} : { 'content-type': options.type ?? 'application/json' }),
    },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, text, body: parsed };
}

/** Resident memory of the server, read from /proc (works while its event loop is busy); its own report elsewhere. */
async function rssMb(): Promise<number> {
  try {
    const status = readFileSync(`/proc/${target.pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
  } catch {
    return (await target.rpc<{ rss: number }>('memory')).rss / MB;
  }
}

const enc = (value: unknown) => encodeURIComponent(typeof value === 'string' ? value : JSON.stringify(value));
const state = async (): Promise<string> => {
  const { exportedAt: _at, ...rest } = (await call('GET', '/__admin/state')).body as Record<string, unknown>;
  return JSON.stringify(rest);
};
const hits = (answer: Answer): unknown[] => ((answer.body as { hits?: { hits?: { _source?: { name?: string } }[] } }).hits?.hits ?? []).map((h) => h._source?.name);
const is4xx = (answer: Answer): boolean => answer.status >= 400 && answer.status < 500 && typeof (answer.body as { message?: unknown })?.message === 'string';

// ---------------------------------------------------------------------------------------------
// Set-up: the long name, the consumer's user, a table with a contract, a webhook receiver.
// ---------------------------------------------------------------------------------------------

const ensure = async (answer: Promise<Answer>, what: string): Promise<Answer> => {
  const got = await answer;
  if (got.status >= 300) throw new Error(`set-up: ${what}: ${got.status} ${got.text.slice(0, 300)}`);
  return got;
};
await ensure(call('POST', '/api/v1/containers', { name: LONG, service: 'acme_s3' }), 'the long-named container');
await ensure(call('GET', '/api/v1/users/loggedInUser', undefined, { token: consumer }), "the consumer's user");
const orders = (await ensure(call('GET', `/api/v1/tables/name/${ORDERS}`), 'fact_orders')).body as { id: string };
const schema = 'acme_snowflake.ecommerce_dw.sales';
const table = (await ensure(call('POST', '/api/v1/tables', { name: 'attack_target', databaseSchema: schema, columns: [{ name: 'id', dataType: 'INT' }] }), 'a table')).body as {
  id: string;
};

/** `depth` nested `map`s over a literal array of `width` items. */
function nestedMaps(depth: number, width: number): string {
  let rule: unknown = { var: '' };
  for (let d = 0; d < depth; d++) rule = { map: [Array.from({ length: width }, (_, i) => i), rule] };
  return JSON.stringify(rule);
}
const contract = (
  await ensure(
    call('POST', '/api/v1/dataContracts', { name: 'attack', entity: { id: table.id, type: 'table' }, semantics: [{ name: 'bomb', rule: nestedMaps(6, 40) }] }),
    'a contract',
  )
).body as { id: string };

// A destination answering 200 MB to every delivery, and counting what it managed to write.
let bigWritten = 0;
let bigDone: () => void = () => undefined;
const receiver: Server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const total = 200 * MB;
    let written = 0;
    res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': String(total) });
    const chunk = Buffer.alloc(64 * 1024, 120);
    const pump = (): void => {
      while (written < total) {
        written += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end();
    };
    res.once('close', () => {
      bigWritten = written;
      bigDone();
    });
    pump();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverPort = (receiver.address() as { port: number }).port;

// The CSV of a 1 MB dry run (just under the body limit): new schemas under the demo database.
const HEADER = 'name*,displayName,description,owner,tags,glossaryTerms,tiers,certification,retentionPeriod,sourceUrl,domains,extension';
let bigCsv = `${HEADER}\r\n`;
for (let i = 0; bigCsv.length < MB - 100; i++) bigCsv += `s_${i},Schema ${i},Some description of schema ${i},,,,,,,,,\r\n`;

// ---------------------------------------------------------------------------------------------
// The attacks
// ---------------------------------------------------------------------------------------------

const attacks: Attack[] = [];
const searchAs = (path: string): Promise<Answer> => call('GET', path, undefined, { token: consumer });
for (const [pattern, want] of [
  ['((a+))+', [LONG]],
  ['.*.*.*.*.*.*.*.*x', []],
  ['(a+)+$', [LONG]],
  ['(a|aa)*b', []],
  ['(.*a){20}', [LONG]],
] as const) {
  attacks.push({
    name: `search query_filter regexp ${pattern}`,
    send: () => searchAs(`/api/v1/search/query?index=container&q=*&query_filter=${enc({ regexp: { name: pattern } })}`),
    check: (a) => a.status === 200 && JSON.stringify(hits(a)) === JSON.stringify(want),
    refused: false,
  });
  attacks.push({
    name: `search aggregate value ${pattern}`,
    send: () => searchAs(`/api/v1/search/aggregate?index=container&field=name.keyword&value=${enc(pattern)}`),
    check: (a) => a.status === 200 && JSON.stringify((a.body as { aggregations: Record<string, { buckets: unknown[] }> }).aggregations['sterms#name.keyword']!.buckets) === '[]',
    refused: false,
  });
}
const wildcard = '*a*a*a*a*a*a*a*a*a*c';
for (const [how, path] of [
  ['query_filter wildcard', `/api/v1/search/query?index=container&q=*&query_filter=${enc({ wildcard: { name: wildcard } })}`],
  ['q=name:…', `/api/v1/search/query?index=container&q=${enc(`name:${wildcard}`)}`],
  ['free q', `/api/v1/search/query?index=container&q=${enc(wildcard)}`],
  ['fieldQuery', `/api/v1/search/fieldQuery?index=container&fieldName=name&fieldValue=${enc(wildcard)}`],
] as const) {
  attacks.push({ name: `search ${how} ${wildcard}`, send: () => searchAs(path), check: (a) => a.status === 200 && hits(a).length === 0, refused: false });
}
attacks.push({
  name: 'search q nested 5,000 groups deep',
  send: () => searchAs(`/api/v1/search/query?index=container&q=${enc(`${'('.repeat(5_000)}a${')'.repeat(5_000)}`)}`),
  check: is4xx,
  refused: true,
});
attacks.push({
  name: 'data contract: a 15 KB rule of nested maps, stored',
  send: () =>
    call('PATCH', `/api/v1/dataContracts/${contract.id}`, [{ op: 'add', path: '/semantics/-', value: { name: 'big', rule: nestedMaps(5, 800) } }], {
      type: 'application/json-patch+json',
    }),
  check: is4xx,
  refused: true,
});
attacks.push({
  name: 'data contract: a rule nested 100,000 deep, stored',
  send: () =>
    call(
      'PATCH',
      `/api/v1/dataContracts/${contract.id}`,
      [{ op: 'add', path: '/semantics/-', value: { name: 'deep', rule: `${'{"!":['.repeat(100_000)}true${']}'.repeat(100_000)}` } }],
      {
        type: 'application/json-patch+json',
      },
    ),
  check: is4xx,
  refused: true,
});
attacks.push({
  name: 'data contract: validate a rule of nested maps (40^6 items)',
  send: () => call('POST', `/api/v1/dataContracts/${contract.id}/validate`),
  check: (a) => a.status === 200 && /evaluation steps/.test(JSON.stringify((a.body as { semanticsValidation: unknown }).semanticsValidation)),
  refused: false,
});
attacks.push({
  name: 'JSON Patch: 18 copies of /extension into itself',
  send: () =>
    call(
      'PATCH',
      `/api/v1/tables/${orders.id}`,
      Array.from({ length: 18 }, (_, i) => ({ op: 'copy', from: '/extension', path: `/extension/c${i}` })),
      { type: 'application/json-patch+json' },
    ),
  check: is4xx,
  refused: true,
});
attacks.push({
  name: 'PUT /__admin/state: two containers each other’s parent',
  async send() {
    const exported = (await call('GET', '/__admin/state')).body as { entities: { type: string; parentId?: string; entity: Record<string, unknown> }[] };
    const child = exported.entities.find((e) => e.type === 'container' && e.parentId && e.entity.parent)!;
    const parent = exported.entities.find((e) => e.entity.id === child.parentId)!;
    parent.parentId = String(child.entity.id);
    parent.entity.parent = { id: child.entity.id, type: 'container' };
    return call('PUT', '/__admin/state', exported);
  },
  check: is4xx,
  refused: true,
});
for (const endpoint of [
  'file:///etc/passwd',
  'data:text/plain,x',
  'gopher://127.0.0.1/',
  'javascript:alert(1)',
  'ftp://127.0.0.1/',
  'ws://127.0.0.1/',
  'http://169.254.169.254/latest/meta-data/',
]) {
  attacks.push({
    name: `webhook endpoint ${endpoint}`,
    send: () =>
      call('POST', '/api/v1/events/subscriptions', {
        name: `hook_${attacks.length}`,
        alertType: 'Notification',
        destinations: [{ category: 'External', type: 'Webhook', config: { endpoint } }],
      }),
    check: is4xx,
    refused: true,
  });
}
attacks.push({
  name: 'webhook timeout 1,000,000,000 s (stored, kept to 60 s)',
  send: () =>
    call('POST', '/api/v1/events/subscriptions', {
      name: 'slow_hook',
      alertType: 'Notification',
      enabled: false,
      destinations: [{ category: 'External', type: 'Webhook', timeout: 1_000_000_000, config: { endpoint: `http://127.0.0.1:${receiverPort}/slow` } }],
    }),
  check: (a) => a.status === 201,
  refused: false,
});
attacks.push({
  name: 'webhook destination answering 200 MB (a change delivered)',
  async send() {
    await call('POST', '/api/v1/events/subscriptions', {
      name: 'big_answer',
      alertType: 'Notification',
      resources: ['table'],
      retries: 0,
      destinations: [{ category: 'External', type: 'Webhook', config: { endpoint: `http://127.0.0.1:${receiverPort}/big` } }],
    });
    return call('PATCH', `/api/v1/tables/${table.id}`, [{ op: 'add', path: '/description', value: 'set off a delivery' }], { type: 'application/json-patch+json' });
  },
  check: (a) => a.status === 200,
  refused: false,
  after: () =>
    new Promise<void>((resolve) => {
      bigDone = resolve;
      setTimeout(resolve, 10_000);
    }),
});
attacks.push({
  name: 'CSV: a lone LF among CRLF lines (dry run)',
  send: () => call('PUT', '/api/v1/databases/name/acme_snowflake.ecommerce_dw/import?dryRun=true', `${HEADER}\r\nfirst,,,,,,,,,,,\nsecond,,,,,,,,,,,\r\n`, { type: 'text/plain' }),
  check: (a) =>
    a.status === 200 &&
    (a.body as { status: string; numberOfRowsProcessed: number }).status === 'success' &&
    (a.body as { numberOfRowsProcessed: number }).numberOfRowsProcessed === 3,
  refused: false,
});
attacks.push({
  name: `CSV: a 1 MB dry run (${bigCsv.split('\r\n').length - 2} rows)`,
  send: () => call('PUT', '/api/v1/databases/name/acme_snowflake.ecommerce_dw/import?dryRun=true', bigCsv, { type: 'text/plain' }),
  check: (a) => a.status === 200 && (a.body as { status: string }).status === 'success',
  refused: false,
});

// ---------------------------------------------------------------------------------------------
// The run: a GET by id every 50 ms and the memory every 20 ms, around each attack.
// ---------------------------------------------------------------------------------------------

let slowestGet = 0;
let peakRss = 0;
let sampling = true;
const getLoop = (async () => {
  while (sampling) {
    const started = performance.now();
    await call('GET', `/api/v1/tables/${orders.id}`);
    slowestGet = Math.max(slowestGet, performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
})();
const rssLoop = (async () => {
  while (sampling) {
    peakRss = Math.max(peakRss, await rssMb());
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
})();

await new Promise((resolve) => setTimeout(resolve, 500));
const startRss = await rssMb();
const measures: Measure[] = [];
for (const attack of attacks) {
  const before = attack.refused ? await state() : undefined;
  slowestGet = 0;
  peakRss = await rssMb();
  const started = performance.now();
  const answer = await attack.send();
  const ms = performance.now() - started;
  await attack.after?.();
  // Let the GET loop and the memory sampler see the time just after the answer too.
  await new Promise((resolve) => setTimeout(resolve, 100));
  measures.push({
    name: attack.name,
    status: answer.status,
    ms,
    right: attack.check(answer),
    unchanged: before === undefined ? undefined : before === (await state()),
    slowestGetMs: slowestGet,
    peakRssMb: peakRss,
  });
}
sampling = false;
await Promise.all([getLoop, rssLoop]);
const endRss = await rssMb();
await target.stop();
receiver.closeAllConnections();
receiver.close();

const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
const out: string[] = [
  line(['attack', 'status', 'answered in', 'right answer', 'unchanged', 'slowest concurrent GET', 'peak RSS − start']),
  line(['---', '---', '---', '---', '---', '---', '---']),
];
const missed: string[] = [];
for (const m of measures) {
  const growth = m.peakRssMb - startRss;
  out.push(
    line([
      m.name,
      String(m.status),
      `${m.ms.toFixed(0)} ms`,
      m.right ? 'yes' : 'NO',
      m.unchanged === undefined ? '—' : m.unchanged ? 'yes' : 'NO',
      `${m.slowestGetMs.toFixed(0)} ms`,
      `${growth.toFixed(0)} MB`,
    ]),
  );
  if (!m.right) missed.push(`${m.name}: not the answer wanted (${m.status})`);
  if (m.ms > TARGETS.answerMs) missed.push(`${m.name}: answered in ${m.ms.toFixed(0)} ms`);
  if (m.slowestGetMs > TARGETS.getMs) missed.push(`${m.name}: a concurrent GET waited ${m.slowestGetMs.toFixed(0)} ms`);
  if (growth > TARGETS.memoryMb) missed.push(`${m.name}: memory grew ${growth.toFixed(0)} MB`);
  if (m.unchanged === false) missed.push(`${m.name}: a refused attack changed the state`);
}
process.stdout.write(`${out.join('\n')}\n\n`);
process.stdout.write(
  `RSS at start ${startRss.toFixed(0)} MB, highest ${Math.max(...measures.map((m) => m.peakRssMb)).toFixed(0)} MB, at the end ${endRss.toFixed(0)} MB; the 200 MB destination wrote ${(bigWritten / MB).toFixed(1)} MB before the server dropped the answer.\n`,
);
process.stdout.write(
  missed.length
    ? `Targets missed:\n${missed.map((m) => `- ${m}`).join('\n')}\n`
    : `Every target met (answer ≤ ${TARGETS.answerMs} ms, concurrent GET ≤ ${TARGETS.getMs} ms, memory ≤ +${TARGETS.memoryMb} MB, refused attacks changed nothing).\n`,
);
process.exitCode = missed.length ? 1 : 0;
