/**
 * A Session is the "real system" side of one sequence: the client, the exchanges sent so far
 * (the trace a failure prints), the checker, and what to remove at the end.
 */
import { Checker, type Tally } from './checker.ts';
import type { ApiDocument } from './document.ts';
import type { Exchange, HttpClient, RequestSpec } from './http.ts';
import { asObject } from './http.ts';
import { quoteName, type Kind, type KindId } from './kinds.ts';
import { observe } from './observer.ts';
import { ERROR_TYPES, type Profile, type ProfileExpectations } from './profiles.ts';

/** Everything a run shares between its sequences and scenarios. */
export interface RunContext {
  client: HttpClient;
  profile: Profile;
  exp: ProfileExpectations;
  /** Unique prefix of every name this run creates (`ck_<runid>`). */
  runPrefix: string;
  /** The id of the admin token's user (for followers), when the target tells it. */
  userId: string | null;
  /** The name of the admin token's user (updatedBy of every change the run makes), when known. */
  userName: string | null;
  /** When the run started, on the suite's clock (epoch ms). */
  startedAt: number;
  /** The OpenAPI document every response is checked against. */
  document: ApiDocument;
  /** The greatest updatedAt seen so far, by entity id (rule meaning.updated-at-monotonic). */
  lastUpdatedAt: Map<string, number>;
  /** Hrefs already resolved in this run, with the id they answered (rule meaning.href-resolves). */
  resolvedHrefs: Map<string, string>;
  /** `--settle-timeout` in milliseconds: how long the scenarios retry what a target may record in the background; undefined for each scenario's default. */
  settleTimeoutMs?: number;
  /** Kinds the target serves. */
  available: ReadonlySet<KindId>;
  tally: Tally;
  cleanup: CleanupRegistry;
}

/** A root entity (service, classification) the run may have created. */
export interface RootRecord {
  kind: Kind;
  name: string;
  id?: string;
}

/**
 * Every root the run may have created, registered BEFORE the request that could create it,
 * so an interrupted or failed run still removes it.
 */
export class CleanupRegistry {
  private readonly roots = new Map<string, RootRecord>();
  /** Other things to hard-delete before the roots, by path (e.g. data contracts). */
  private readonly extras = new Set<string>();

  registerExtra(path: string): void {
    this.extras.add(path);
  }

  register(kind: Kind, name: string, id?: string): void {
    const key = `${kind.path}|${name}`;
    const prev = this.roots.get(key);
    this.roots.set(key, { kind, name, id: id ?? prev?.id });
  }

  get size(): number {
    return this.roots.size;
  }

  /** Hard, recursive delete of the given roots (all when omitted); forgets those that are gone. */
  async remove(client: HttpClient, only?: ReadonlyArray<{ kind: Kind; name: string }>): Promise<string[]> {
    const problems: string[] = [];
    const extras = only ? [] : [...this.extras];
    await this.removeExtras(client, extras, problems);
    const keys = only ? only.map((r) => `${r.kind.path}|${r.name}`) : [...this.roots.keys()];
    // Children kinds first would not matter: every delete is recursive.
    await Promise.all(
      keys.map(async (key) => {
        const root = this.roots.get(key);
        if (!root) return;
        const query = { hardDelete: true, recursive: true };
        try {
          let ex = root.id ? await client.send({ method: 'DELETE', path: `${root.kind.path}/${root.id}`, query }) : undefined;
          if (!ex || ex.status === 404) {
            ex = await client.send({
              method: 'DELETE',
              path: `${root.kind.path}/name/${encodeURIComponent(quoteName(root.name))}`,
              query,
            });
          }
          if (ex.status < 300 || ex.status === 404) this.roots.delete(key);
          else problems.push(`${root.kind.id} ${root.name}: DELETE answered ${ex.status}`);
        } catch (err) {
          problems.push(`${root.kind.id} ${root.name}: ${(err as Error).message}`);
        }
      }),
    );
    return problems;
  }

  async removeExtras(client: HttpClient, paths: readonly string[], problems: string[] = []): Promise<string[]> {
    await Promise.all(
      paths.map(async (path) => {
        try {
          const ex = await client.send({ method: 'DELETE', path, query: { hardDelete: true, recursive: true } });
          if (ex.status < 300 || ex.status === 404) this.extras.delete(path);
          else problems.push(`${path}: DELETE answered ${ex.status}`);
        } catch (err) {
          problems.push(`${path}: ${(err as Error).message}`);
        }
      }),
    );
    return problems;
  }
}

export class Session {
  readonly trace: Exchange[] = [];
  readonly checker: Checker;
  /** Roots this session may have created (removed by `cleanup`). */
  private readonly roots: Array<{ kind: Kind; name: string }> = [];
  private readonly extras: string[] = [];

  /**
   * @param judging false for `catalog-kit drift`: the commands make every request, no rule is
   * judged and no response is checked against the document (conformance/drift/ compares answers).
   */
  constructor(
    readonly ctx: RunContext,
    active: ReadonlySet<string>,
    private readonly judging = true,
  ) {
    this.checker = new Checker(active, ctx.tally, this.trace, judging);
  }

  /** Registers a root BEFORE the request that may create it. */
  registerRoot(kind: Kind, name: string, id?: string): void {
    if (!this.roots.some((r) => r.kind === kind && r.name === name)) this.roots.push({ kind, name });
    this.ctx.cleanup.register(kind, name, id);
  }

  /** Registers something outside the roots (a data contract...) to hard-delete at cleanup. */
  registerExtra(path: string): void {
    this.extras.push(path);
    this.ctx.cleanup.registerExtra(path);
  }

  /** Removes (hard, recursive) everything this session registered. */
  async cleanup(): Promise<string[]> {
    const problems = await this.ctx.cleanup.removeExtras(this.ctx.client, this.extras);
    return [...problems, ...(await this.ctx.cleanup.remove(this.ctx.client, this.roots))];
  }

  /** Sends a request; its response is checked against the document and for the meaning of its values (conformance/observer.ts). */
  async send(spec: RequestSpec): Promise<Exchange> {
    const ex = await this.ctx.client.send(spec);
    this.trace.push(ex);
    if (this.judging) observe(this.ctx, this.checker, ex);
    return ex;
  }

  /** Checks that an error response has the body docs/behaviour.md "Errors" fixes (rule errors.body-shape). */
  errorBody(ex: Exchange): boolean {
    const body = asObject(ex.json);
    const problems: string[] = [];
    if (!ex.responseContentType.includes('json')) problems.push(`content-type ${ex.responseContentType || 'missing'}`);
    if (!body) problems.push('body is not a JSON object');
    else {
      if (body.code !== ex.status) problems.push(`code ${JSON.stringify(body.code)} is not the status ${ex.status}`);
      if (typeof body.message !== 'string') problems.push('no message');
      const wanted = ERROR_TYPES[ex.status];
      if (this.ctx.exp.errorTypeInBody && wanted && body.errorType !== wanted) {
        problems.push(`errorType ${JSON.stringify(body.errorType)} instead of ${wanted}`);
      }
      if (body.errorType !== undefined && typeof body.errorType !== 'string') problems.push('errorType is not a string');
    }
    const expected = this.ctx.exp.errorTypeInBody
      ? `an error body {code: ${ex.status}, errorType: ${ERROR_TYPES[ex.status] ?? '<type>'}, message}`
      : `an error body {code: ${ex.status}, message}`;
    return this.checker.check('errors.body-shape', problems.length === 0, expected, () => problems.join('; '), ex);
  }

  /** Status check that also checks the error body when the expected status is an error. */
  expectError(ruleId: string, ex: Exchange, status: number, what: string): boolean {
    const ok = this.checker.status(ruleId, ex, [status], what);
    if (ok && ex.status >= 400) this.errorBody(ex);
    return ok;
  }
}
