/**
 * `--data` under SIGKILL: the built server takes concurrent creates and is killed at a random
 * moment; started again on the same file, it must hold every create it had answered 201, nothing
 * half-applied, no temporary file, and a store that passes src/core/integrity.ts. Each round
 * kills the server the previous round restarted, so N rounds are N + 1 starts. `SOAK_ROUNDS` sets
 * the number of rounds (default 5); a failure prints the seed, and `DURABILITY_SEED` replays it.
 * The server compacts every 7 records here, so kills also land in the middle of compactions.
 */
import type { ChildProcess } from 'node:child_process';
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { domainContext } from '../../../test/kit.ts';
import { checkIntegrity } from '../../core/integrity.ts';
import { loadDataFile } from './data-file.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const BIN = path.join(ROOT, 'dist/bin/catalog-kit.js');
const ROUNDS = Number(process.env.SOAK_ROUNDS ?? 5);
const IN_FLIGHT = 8;

/** mulberry32: a small seeded PRNG, so a failing round can be replayed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Running {
  child: ChildProcess;
  api: string;
}

const spawned = new Set<ChildProcess>();

function start(dataFile: string): Promise<Running> {
  const child = spawn(process.execPath, [BIN, 'serve', '--host', '127.0.0.1', '--port', '0', '--data', dataFile, '--fixtures', 'none', '--log', 'quiet'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    // Compacting every few records puts some kills in the middle of a compaction.
    env: { ...process.env, CATALOG_KIT_COMPACT_RECORDS: '7' },
  });
  spawned.add(child);
  child.once('exit', () => spawned.delete(child));
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /API base URL: (\S+)/.exec(out);
      if (match) resolve({ child, api: match[1]! });
    });
    child.stderr!.on('data', (chunk: Buffer) => void (err += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before listening:\n${out}${err}`)));
  });
}

function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

let token: string;
let dir: string;
let dataFile: string;

beforeAll(async () => {
  if (!existsSync(BIN)) execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, stdio: 'ignore' });
  token = execFileSync(process.execPath, [BIN, 'token'], { encoding: 'utf8' }).trim();
  dir = mkdtempSync(path.join(tmpdir(), 'ck-durability-'));
  dataFile = path.join(dir, 'state.json');
}, 60_000);

afterAll(async () => {
  await Promise.all([...spawned].map(kill));
});

async function call(api: string, method: string, route: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${api}${route}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

describe('--data survives SIGKILL during concurrent writes', () => {
  it(
    `keeps every answered create over ${ROUNDS} kill/restart rounds`,
    async () => {
      // A fixed seed by default, so a run is repeatable; DURABILITY_SEED picks another.
      const seed = Number(process.env.DURABILITY_SEED ?? 20_261_123);
      const random = prng(seed);
      const answered: string[] = [];
      const unanswered: string[] = [];
      let server = await start(dataFile);
      try {
        for (let round = 0; round < ROUNDS; round++) {
          const service = `s${round}`;
          const created = await call(server.api, 'POST', '/v1/services/storageServices', { name: service, serviceType: 'S3', connection: { config: { type: 'S3' } } });
          expect(created.status, `seed ${seed}`).toBe(201);
          answered.push(`storageService:${service}`);

          let next = 0;
          let stopped = false;
          const worker = async () => {
            while (!stopped) {
              const fqn = `${service}.c-${next++}`;
              unanswered.push(fqn);
              try {
                const result = await call(server.api, 'POST', '/v1/containers', { name: fqn.slice(service.length + 1), service });
                if (result.status !== 201) throw new Error(`create ${fqn}: ${result.status} ${JSON.stringify(result.body)} (seed ${seed})`);
                unanswered.splice(unanswered.indexOf(fqn), 1);
                answered.push(`container:${fqn}`);
              } catch (error) {
                if (stopped) return; // the connection died with the server: this create stays unanswered
                throw error;
              }
            }
          };
          const workers = Array.from({ length: IN_FLIGHT }, worker);
          await new Promise((resolve) => setTimeout(resolve, 30 + random() * 250));
          stopped = true;
          await kill(server.child);
          await Promise.all(workers);

          // The files as the crash left them load in-process with the same loader, into a sound store.
          const copy = path.join(dir, `crashed-${round}`);
          mkdirSync(copy);
          for (const name of readdirSync(dir)) if (name.startsWith('state.json')) cpSync(path.join(dir, name), path.join(copy, name));
          const fresh = await domainContext();
          expect(loadDataFile(fresh, path.join(copy, 'state.json')), `seed ${seed}`).not.toBe(false);
          expect(checkIntegrity(fresh.store), `seed ${seed}`).toEqual([]);

          server = await start(dataFile);
          expect(
            readdirSync(dir).filter((name) => name.endsWith('.tmp')),
            `seed ${seed}`,
          ).toEqual([]);
          for (const key of answered) {
            const [kind, fqn] = key.split(':') as [string, string];
            const route = kind === 'container' ? `/v1/containers/name/${fqn}` : `/v1/services/storageServices/name/${fqn}`;
            const got = await call(server.api, 'GET', route);
            expect(got.status, `${key} was answered 201 but is gone after the restart (seed ${seed})`).toBe(200);
          }
          for (const fqn of unanswered.splice(0)) {
            const got = await call(server.api, 'GET', `/v1/containers/name/${fqn}`);
            expect([200, 404], `seed ${seed}`).toContain(got.status);
            if (got.status === 200) {
              expect(got.body, `${fqn} is half there (seed ${seed})`).toMatchObject({ name: fqn.split('.')[1], fullyQualifiedName: fqn, version: 0.1, service: { name: service } });
              answered.push(`container:${fqn}`);
            }
          }
          const listed = await call(server.api, 'GET', `/v1/containers?service=${service}&limit=1000000`);
          expect(listed.status, `seed ${seed}`).toBe(200);
          for (const item of listed.body.data as { fullyQualifiedName: string }[]) {
            expect(answered, `${item.fullyQualifiedName} is listed but GET does not find it (seed ${seed})`).toContain(`container:${item.fullyQualifiedName}`);
          }
        }
      } catch (error) {
        process.stderr.write(`durability.test.ts failed with seed ${seed} (DURABILITY_SEED=${seed} replays it)\n`);
        throw error;
      } finally {
        await kill(server.child);
      }
      expect(answered.filter((key) => key.startsWith('container:')).length).toBeGreaterThan(ROUNDS);
    },
    20_000 + ROUNDS * 4_000,
  );
});
