/**
 * `catalog-kit conform`: parse arguments, get a token and a target (or start the reference server
 * through deps), run, print the rule table and failures, write reports, return the exit code.
 */
import { exec } from 'node:child_process';
import { CONFORM_USAGE, parseConformArgs, UsageError, type ConformArgs } from './args.ts';
import { interruptible, runFailure } from './run-failure.ts';
import { loadDocument } from './document.ts';
import type { Fetch } from './http.ts';
import { catalogueText, consoleReport } from './report/console.ts';
import { conformCtrf } from './report/ctrf.ts';
import { jsonReport, junitXml } from './report/files.ts';
import { conformHtml } from './report/html.ts';
import { conformSarif } from './report/sarif.ts';
import { writeReportFiles } from './report/write.ts';
import { runConformance, type ConformanceOptions, type ConformanceReport } from './run.ts';

export type Writer = ((text: string) => void) | { write(text: string): unknown };

/** A reference catalog the suite runs against when no --target is given: on a port, or in-process with its own `fetch`. */
export interface ReferenceServer {
  baseUrl: string;
  token: string;
  restrictedToken?: string;
  /** How to reach it when it answers in-process (default: `globalThis.fetch` to baseUrl). */
  fetch?: Fetch;
  close(): Promise<void>;
}

export interface ConformDeps {
  /** Starts the in-process reference server (used when --target is absent). */
  startReference?: (opts: { profile: string }) => Promise<ReferenceServer>;
  stdout?: Writer;
  stderr?: Writer;
  /** Environment for CK_TOKEN / CK_RESTRICTED_TOKEN (default process.env). */
  env?: Record<string, string | undefined>;
  /** Install a SIGINT handler that stops the run and cleans up (default true). */
  handleSigint?: boolean;
}

/** A Writer as a function, or the process stream when none is given. */
export function writer(w: Writer | undefined, fallback: NodeJS.WriteStream): (text: string) => void {
  if (!w) return (text) => void fallback.write(text);
  return typeof w === 'function' ? w : (text) => void w.write(text);
}

/** Runs a shell command and returns its trimmed stdout (the token). */
export function runTokenCommand(command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    exec(command, { timeout: 60_000, maxBuffer: 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) return reject(new UsageError(`--token-command failed: ${err.message.trim()}${stderr ? `\n${stderr.trim()}` : ''}`));
      const token = stdout.trim().split(/\s+/).pop() ?? '';
      if (!token) return reject(new UsageError('--token-command printed nothing'));
      resolve(token);
    });
  });
}

export async function conformMain(argv: string[], deps: ConformDeps = {}): Promise<number> {
  const out = writer(deps.stdout, process.stdout);
  const err = writer(deps.stderr, process.stderr);
  const env = deps.env ?? process.env;
  let args: ConformArgs;
  try {
    args = parseConformArgs(argv);
  } catch (e) {
    if (e instanceof UsageError) {
      // One line naming the problem and pointing at --help, like the other catalog-kit commands
      // (an unknown --rules id adds the list of known ids on the lines after it).
      err(`catalog-kit conform: ${e.message}${e.message.includes('\n') ? '\n' : ' '}(see catalog-kit conform --help)\n`);
      return 2;
    }
    throw e;
  }
  if (args.help) {
    out(CONFORM_USAGE);
    return 0;
  }
  if (args.listRules) {
    out(catalogueText());
    return 0;
  }

  let reference: ReferenceServer | undefined;
  const interrupt = interruptible(err, deps.handleSigint ?? true);
  try {
    let baseUrl: string;
    let fetch: Fetch | undefined;
    let token: string | undefined;
    let restrictedToken = args.restrictedToken ?? env.CK_RESTRICTED_TOKEN;
    if (args.target) {
      baseUrl = args.target;
      token = args.tokenCommand ? await runTokenCommand(args.tokenCommand) : (args.token ?? env.CK_TOKEN);
      if (!token) throw new UsageError('--target needs a token: --token, --token-command or CK_TOKEN');
    } else {
      if (!deps.startReference) throw new UsageError('no --target given, and no in-process reference server is available here');
      err('conform: no --target: starting the in-process reference server\n');
      reference = await deps.startReference({ profile: args.profile });
      baseUrl = reference.baseUrl;
      fetch = reference.fetch;
      token = args.token ?? reference.token;
      restrictedToken = restrictedToken ?? reference.restrictedToken;
    }
    const options: ConformanceOptions = {
      baseUrl,
      fetch,
      token,
      restrictedToken,
      profile: args.profile,
      runs: args.runs,
      seed: args.seed,
      path: args.path,
      rules: args.rules,
      timeoutMs: args.timeoutMs,
      settleTimeoutMs: args.settleTimeoutMs,
      openapi: args.openapi,
      minCoverage: args.minCoverage,
      log: (line) => err(`conform: ${line}\n`),
      isAborted: interrupt.aborted,
    };
    const report = await runConformance(options);
    await writeReports(args, report);
    out(consoleReport(report));
    return report.failed > 0 || report.coverage.minimum?.met === false ? 1 : 0;
  } catch (e) {
    err(runFailure('conform', e, 'the target', Boolean(env.CK_DEBUG)));
    return 2;
  } finally {
    interrupt.dispose();
    if (reference) await reference.close().catch(() => {});
  }
}

function writeReports(args: ConformArgs, report: ConformanceReport): Promise<void> {
  return writeReportFiles(args, {
    junit: () => junitXml(report),
    ctrf: () => conformCtrf(report),
    // The document is read again (its validators are compiled lazily: nothing is compiled twice).
    sarif: async () => conformSarif(report, await loadDocument(report.profile, args.openapi)),
    html: () => conformHtml(report),
    json: () => jsonReport(report),
  });
}

export { runConformance } from './run.ts';
export type { ConformanceOptions, ConformanceReport } from './run.ts';
