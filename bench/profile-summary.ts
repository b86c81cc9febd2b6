/**
 * Summarises a V8 `.cpuprofile` (from `node --cpu-prof`): self time per function and per package
 * (a node_modules package, a file of src/, or node's internals), largest first.
 *   usage: tsx bench/profile-summary.ts <file.cpuprofile> [top=25]
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface CpuProfile {
  startTime: number;
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface SelfTime {
  name: string;
  ms: number;
  share: number;
}

export function ownerOf(url: string): string {
  if (url === '') return '(native/VM)';
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules) return modules[1]!;
  if (url.startsWith('node:')) return 'node internals';
  const local = /\/((?:src|bench|conformance)\/.*)$/.exec(url);
  return local ? local[1]! : url;
}

/** Only samples inside [from, to] (µs, the profile's clock) when a window is given. */
export interface Window {
  from: number;
  to: number;
}

export function summarise(profile: CpuProfile, window?: Window): { total: number; functions: SelfTime[]; owners: SelfTime[] } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const fn = new Map<string, number>();
  const owner = new Map<string, number>();
  let total = 0;
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    const us = profile.timeDeltas[i] ?? 0;
    at += us;
    if (!node || (window && (at < window.from || at > window.to))) return;
    total += us;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url ? `${ownerOf(url)}:${lineNumber + 1}` : '';
    const key = `${functionName || '(anonymous)'} ${where}`.trim();
    fn.set(key, (fn.get(key) ?? 0) + us);
    const o = ownerOf(url);
    owner.set(o, (owner.get(o) ?? 0) + us);
  });
  const list = (m: Map<string, number>) => [...m.entries()].map(([name, us]) => ({ name, ms: us / 1000, share: total ? us / total : 0 })).sort((a, b) => b.ms - a.ms);
  return { total: total / 1000, functions: list(fn), owners: list(owner) };
}

/** Sampled time outside `(idle)`: how busy the profiled thread was. */
export function busyMs(file: string, window?: Window): number {
  const { total, functions } = summarise(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile, window);
  return total - (functions.find((f) => f.name === '(idle)')?.ms ?? 0);
}

export function formatSummary(file: string, top = 25, window?: Window): string {
  const { total, functions, owners } = summarise(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile, window);
  const row = (s: SelfTime) => `  ${(s.share * 100).toFixed(1).padStart(5)}%  ${s.ms.toFixed(0).padStart(7)} ms  ${s.name}`;
  return [
    `${file}${window ? ' (load window only)' : ''}: ${total.toFixed(0)} ms sampled, ${(total - (functions.find((f) => f.name === '(idle)')?.ms ?? 0)).toFixed(0)} ms busy`,
    'Self time by package / file:',
    ...owners.slice(0, 15).map(row),
    `Top ${top} functions by self time:`,
    ...functions.slice(0, top).map(row),
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [file, top] = process.argv.slice(2);
  if (!file) {
    process.stderr.write('usage: tsx bench/profile-summary.ts <file.cpuprofile> [top]\n');
    process.exit(2);
  }
  process.stdout.write(`${formatSummary(file, Number(top ?? 25))}\n`);
}
