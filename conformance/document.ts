/**
 * The OpenAPI document every response is checked against (rules document.status-documented and
 * document.body-matches-schema), and the list of operations the coverage report counts.
 *
 * - By default, the kit's own document, read as data from the bundle
 *   (openapi/generated/openapi.bundle.json; conformance never imports src/).
 * - With `--openapi <url|file>`, the target's own document (JSON or YAML, OpenAPI 3.0 or 3.1, with
 *   its references inside the one document).
 *
 * Either way the suite compiles its own validators with Ajv, each response schema the first time a
 * response needs it, kept for the rest of the run: it shares no validator code with the server it
 * checks, so a fault of the server's validator build cannot pass on both sides. The profiles'
 * overlay of the kit's document (a service create without `connection`) touches request schemas
 * only, so one document serves both profiles.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Profile } from './profiles.ts';

/** One documented operation. */
export interface DocOperation {
  /** `GET /v1/containers/{id}`. */
  key: string;
  method: string;
  /** The document's path template. */
  path: string;
  operationId?: string;
  /** The documented response keys (`200`, `4XX`, `default`). */
  statuses: readonly string[];
}

/** What is wrong with one response, by the document. */
interface ResponseVerdict {
  /** The status is one the operation documents (or a range or `default` covers it). */
  statusDocumented: boolean;
  /** The response key that covers the status (`404`, `4XX`, `default`). */
  documentedAs?: string;
  /** Problems of the body against the documented content and schema; empty when it matches. */
  bodyProblems: string[];
  /**
   * Where the schema is: `#/paths/~1v1~1containers/get/responses/200/content/application~1json/schema (Container)`.
   * Worked out when read: only a failure's message names it.
   */
  readonly schemaPath?: string;
}

/** A documented response's content by media type: its validator and where its schema is. */
type Content = Record<string, { validate: () => Validate | undefined; where: () => string } | null>;

export interface ApiDocument {
  /** What the responses are checked against, in words. */
  readonly source: string;
  /** Where the document is: a file path or a URL (reports locate operations in it). */
  readonly location: string;
  readonly operations: readonly DocOperation[];
  /** The operation a request addresses, by its method and path below the base URL (`/v1/...`, still percent-encoded). */
  match(method: string, path: string): DocOperation | undefined;
  /** Checks one response of `op`. */
  check(op: DocOperation, status: number, contentType: string, text: string, json: unknown): ResponseVerdict;
  /** The line (1-based) where an operation (`GET /v1/containers/{id}`) is written in the document's text; read only when a report asks. */
  lineOf(key: string): Promise<number | undefined>;
}

interface AjvLikeError {
  instancePath: string;
  schemaPath: string;
  message?: string;
  params?: Record<string, unknown>;
}

type Validate = ((data: unknown) => boolean) & { errors?: AjvLikeError[] | null };

const METHODS = ['get', 'put', 'post', 'patch', 'delete', 'head', 'options'] as const;

/**
 * `/v1/containers/{id}` → a matcher of request paths; more literal segments (earlier) win. Every
 * response is matched: the templates form a tree of segments per method, walked literal first, so
 * a match costs a map lookup per segment (a scan of all ~600 templates was once the suite's largest
 * cost of its own, docs/performance.md).
 */
class PathMatcher {
  private readonly roots = new Map<string, PathNode>();

  constructor(operations: readonly DocOperation[]) {
    for (const op of operations) {
      let node = this.roots.get(op.method);
      if (!node) this.roots.set(op.method, (node = newNode()));
      for (const segment of op.path.split('/').slice(1)) {
        if (/^\{[^}]+\}$/.test(segment)) node = node.param ??= newNode();
        else {
          let next = node.literal.get(segment);
          if (!next) node.literal.set(segment, (next = newNode()));
          node = next;
        }
      }
      // Two templates of one shape (`{id}`, `{name}`): the first in the document answers.
      node.op ??= op;
    }
  }

  match(method: string, path: string): DocOperation | undefined {
    const root = this.roots.get(method.toUpperCase());
    return root && find(root, path.split('/'), 1);
  }
}

/** One segment of the templates: the literal segments that may follow, the parameter, and the operation that ends here. */
interface PathNode {
  literal: Map<string, PathNode>;
  param?: PathNode;
  op?: DocOperation;
}

const newNode = (): PathNode => ({ literal: new Map() });

/** The operation under `node` that `parts[i..]` reach, a literal segment tried before a parameter at each step. */
function find(node: PathNode, parts: readonly string[], i: number): DocOperation | undefined {
  if (i === parts.length) return node.op;
  const literal = node.literal.get(decodeSegment(parts[i]!));
  const found = literal && find(literal, parts, i + 1);
  if (found) return found;
  return node.param && find(node.param, parts, i + 1);
}

function decodeSegment(s: string): string {
  if (!s.includes('%')) return s;
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The response key that covers a status: itself, its range (`4XX`), or `default`. */
function responseKey(statuses: readonly string[], status: number): string | undefined {
  const exact = String(status);
  if (statuses.includes(exact)) return exact;
  const range = `${exact[0]}XX`;
  const found = statuses.find((s) => s.toUpperCase() === range);
  if (found) return found;
  return statuses.includes('default') ? 'default' : undefined;
}

/** `application/json; charset=utf-8` → `application/json`. */
function mediaOf(contentType: string): string {
  return contentType.split(';')[0]!.trim().toLowerCase();
}

/** The documented media type that covers a response's (`application/*`, `*\/*` too). */
function mediaKey(documented: readonly string[], media: string): string | undefined {
  if (documented.includes(media)) return media;
  const [type] = media.split('/');
  return documented.find((d) => d === `${type}/*`) ?? documented.find((d) => d === '*/*');
}

const escapePointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

function errorsText(errors: readonly AjvLikeError[] | null | undefined): string {
  return (errors ?? [])
    .slice(0, 3)
    .map(
      (e) =>
        `${e.instancePath || '(the body)'} ${e.message ?? 'is invalid'}${e.params && Object.keys(e.params).length ? ` ${JSON.stringify(e.params)}` : ''} (schema ${e.schemaPath})`,
    )
    .join('; ');
}

/** The checks shared by both documents, given a way to find a schema's validator. */
function checkResponse(
  op: DocOperation,
  status: number,
  contentType: string,
  text: string,
  json: unknown,
  contentOf: (op: DocOperation, key: string) => Content | undefined,
): ResponseVerdict {
  const key = responseKey(op.statuses, status);
  if (!key) return { statusDocumented: false, bodyProblems: [] };
  const content = contentOf(op, key) ?? {};
  const medias = Object.keys(content);
  const problems: string[] = [];
  if (medias.length === 0) {
    // A `default` without content says too little to hold a body against.
    if (text.length > 0 && key !== 'default') problems.push(`a body (${contentType || 'no content type'}), where the document gives none for ${key}`);
    return { statusDocumented: true, documentedAs: key, bodyProblems: problems };
  }
  if (text.length === 0) {
    // HEAD-like answers aside, a documented body must be there.
    return { statusDocumented: true, documentedAs: key, bodyProblems: [`no body, where the document gives ${medias.join(' or ')}`] };
  }
  const media = mediaKey(medias, mediaOf(contentType));
  if (!media) return { statusDocumented: true, documentedAs: key, bodyProblems: [`content type ${contentType || '(none)'}, where the document gives ${medias.join(' or ')}`] };
  const entry = content[media];
  if (!entry) return { statusDocumented: true, documentedAs: key, bodyProblems: [] };
  const validate = entry.validate();
  if (validate) {
    const isJson = media.includes('json');
    if (isJson && json === undefined) problems.push('the body is not JSON');
    else if (!validate(isJson ? json : text)) problems.push(errorsText(validate.errors));
  }
  return {
    statusDocumented: true,
    documentedAs: key,
    bodyProblems: problems,
    get schemaPath() {
      return entry.where();
    },
  };
}

/** `contentOf` of a document, worked out once per operation and response key: every response is checked. */
function memoized(contentOf: (op: DocOperation, key: string) => Content | undefined): (op: DocOperation, key: string) => Content | undefined {
  const byOperation = new Map<DocOperation, Map<string, Content | undefined>>();
  return (op, key) => {
    let byKey = byOperation.get(op);
    if (!byKey) byOperation.set(op, (byKey = new Map()));
    if (!byKey.has(key)) byKey.set(key, contentOf(op, key));
    return byKey.get(key);
  };
}

// A target's document, given with --openapi.

type Json = Record<string, unknown>;

async function readSource(source: string): Promise<string> {
  if (/^https?:\/\//i.test(source)) {
    let res: Response;
    try {
      res = await fetch(source, { signal: AbortSignal.timeout(30_000), headers: { accept: 'application/json, application/yaml;q=0.9, */*;q=0.5' } });
    } catch (error) {
      throw new DocumentError(`--openapi ${source}: cannot fetch it: ${(error as Error).message}`);
    }
    if (!res.ok) throw new DocumentError(`--openapi ${source}: answered ${res.status}`);
    return res.text();
  }
  try {
    return await readFile(source, 'utf8');
  } catch (error) {
    throw new DocumentError(`--openapi ${source}: cannot read it: ${(error as Error).message}`);
  }
}

/** The --openapi document cannot be used (exit 2). */
export class DocumentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DocumentError';
  }
}

function resolvePointer(doc: Json, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = doc;
  for (const raw of ref.slice(2).split('/')) {
    const part = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    node = node && typeof node === 'object' ? (node as Json)[part] : undefined;
  }
  return node;
}

/** Loads the target's document. */
async function targetDocument(source: string): Promise<ApiDocument> {
  const text = await readSource(source);
  let doc: Json;
  try {
    doc = (text.trimStart().startsWith('{') ? JSON.parse(text) : (await import('yaml')).parse(text)) as Json;
  } catch (error) {
    throw new DocumentError(`--openapi ${source}: neither JSON nor YAML: ${(error as Error).message}`);
  }
  const version = typeof doc.openapi === 'string' ? doc.openapi : '';
  if (!/^3\.[01]\./.test(version) || typeof doc.paths !== 'object' || doc.paths === null) {
    throw new DocumentError(`--openapi ${source}: not an OpenAPI 3.0 or 3.1 document (openapi: ${JSON.stringify(doc.openapi)}, paths ${doc.paths ? 'present' : 'missing'})`);
  }
  return compileDocument(doc, `the target's OpenAPI document ${source}`, source, { text: async () => text, paths: ['paths'] });
}

/** openapi/generated/openapi.bundle.json, from conformance/ and from dist/conformance/ alike (scripts/build.mjs copies it). */
const BUNDLE_PATH = fileURLToPath(new URL('../openapi/generated/openapi.bundle.json', import.meta.url));

/** The kit's own document, as the bundle holds it. */
async function kitDocument(profile: Profile): Promise<ApiDocument> {
  let doc: Json;
  try {
    doc = (JSON.parse(await readFile(BUNDLE_PATH, 'utf8')) as { document: Json }).document;
  } catch (error) {
    throw new Error(`the kit's OpenAPI document cannot be read (${BUNDLE_PATH}): ${(error as Error).message}`);
  }
  return compileDocument(doc, `the kit's OpenAPI document (profile ${profile})`, BUNDLE_PATH, {
    text: () => readFile(BUNDLE_PATH, 'utf8'),
    paths: ['document', 'paths'],
    schemasMustCompile: true,
  });
}

/** Where the document's text is, to find an operation's line in it. */
interface DocumentText {
  text: () => Promise<string>;
  /** The keys leading to `paths` in the text (the bundle wraps the document). */
  paths: readonly string[];
  /** A schema Ajv cannot compile is the suite's fault (the kit's own document), not a body to leave unchecked. */
  schemasMustCompile?: boolean;
}

/** Finds the line of each operation in a JSON or YAML text, with the positions the yaml parser keeps; parsed once, when a report first asks. */
function lineFinder(source: DocumentText): (key: string) => Promise<number | undefined> {
  let lines: Promise<Map<string, number>> | undefined;
  const read = async () => {
    const found = new Map<string, number>();
    const { parseDocument, LineCounter, isMap, isScalar } = await import('yaml');
    const counter = new LineCounter();
    const doc = parseDocument(await source.text(), { lineCounter: counter });
    const paths = doc.getIn(source.paths, true);
    if (!isMap(paths)) return found;
    for (const item of paths.items) {
      if (!isScalar(item.key) || !isMap(item.value)) continue;
      for (const op of item.value.items) {
        if (!isScalar(op.key) || !op.key.range) continue;
        found.set(`${String(op.key.value).toUpperCase()} ${String(item.key.value)}`, counter.linePos(op.key.range[0]).line);
      }
    }
    return found;
  };
  return async (key) => {
    lines ??= read().catch(() => new Map());
    return (await lines).get(key);
  };
}

/** A document's operations, and validators of its response schemas compiled with Ajv on first use. */
async function compileDocument(doc: Json, source: string, location: string, text: DocumentText): Promise<ApiDocument> {
  const schemasMustCompile = text.schemasMustCompile ?? false;
  const version = String(doc.openapi);
  // CommonJS modules: their default export is the class (as scripts/compile-validators.ts loads them).
  const [ajvModule, ajv2020Module, formatsModule] = await Promise.all([import('ajv'), import('ajv/dist/2020.js'), import('ajv-formats')]);
  const AjvDraft7 = ajvModule.default as unknown as typeof ajvModule.default.default;
  const Ajv2020 = ajv2020Module.default as unknown as typeof ajv2020Module.default.default;
  const addFormats = formatsModule.default as unknown as typeof formatsModule.default.default;
  // Each component compiled once and shared, and the code not optimised: a run compiles a few hundred
  // schemas and runs each a few times (bench/conformance-speed.ts, the wall time of a default run).
  const options = { strict: false, allErrors: false, validateSchema: false, discriminator: true, inlineRefs: false, code: { optimize: false } } as const;
  const ajv = version.startsWith('3.1.') ? new Ajv2020(options) : new AjvDraft7(options);
  addFormats(ajv);
  // The whole document under one id: `#/components/...` references resolve inside it.
  ajv.addSchema(doc, 'openapi:target');

  const operations: DocOperation[] = [];
  const responsesOf = new Map<string, Record<string, unknown>>();
  for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
    for (const method of METHODS) {
      const operation = item?.[method] as Json | undefined;
      if (!operation || typeof operation !== 'object') continue;
      const responses = (operation.responses ?? {}) as Record<string, unknown>;
      const op: DocOperation = {
        key: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        ...(typeof operation.operationId === 'string' ? { operationId: operation.operationId } : {}),
        statuses: Object.keys(responses),
      };
      operations.push(op);
      responsesOf.set(op.key, responses);
    }
  }
  const compiled = new Map<string, Validate | null>();
  const compile = (pointer: string): Validate | undefined => {
    if (!compiled.has(pointer)) {
      try {
        compiled.set(pointer, ajv.compile({ $ref: `openapi:target${pointer.replace(/[{}]/g, encodeURIComponent)}` }) as Validate);
      } catch (error) {
        if (schemasMustCompile) throw new Error(`${source}: the schema at ${pointer} does not compile: ${(error as Error).message}`);
        // A schema of a target's document that Ajv cannot compile is not the target's fault: that body goes unchecked.
        compiled.set(pointer, null);
      }
    }
    return compiled.get(pointer) ?? undefined;
  };
  const matcher = new PathMatcher(operations);
  const contentOf = memoized(responseContent(doc, responsesOf, compile));
  /** The document's server path (`/api` of `http://host/api`), which its paths may sit under. */
  const servers = Array.isArray(doc.servers) ? (doc.servers as Json[]) : [];
  const basePaths = servers.map((s) => (typeof s.url === 'string' ? new URL(s.url, 'http://x').pathname.replace(/\/+$/, '') : '')).filter(Boolean);
  return {
    source,
    location,
    operations,
    match(method, path) {
      return matcher.match(method, path) ?? basePaths.map((base) => (path.startsWith(`${base}/`) ? matcher.match(method, path.slice(base.length)) : undefined)).find(Boolean);
    },
    check: (op, status, contentType, body, json) => checkResponse(op, status, contentType, body, json, contentOf),
    lineOf: lineFinder(text),
  };
}

/** A document's content of one response of `op`, its $refs followed. */
function responseContent(
  doc: Json,
  responsesOf: ReadonlyMap<string, Record<string, unknown>>,
  compile: (pointer: string) => Validate | undefined,
): (op: DocOperation, key: string) => Content | undefined {
  return (op, key) => {
    const responses = responsesOf.get(op.key) ?? {};
    let response = responses[key] as Json | undefined;
    const operationPointer = `#/paths/${escapePointer(op.path)}/${op.method.toLowerCase()}/responses/${escapePointer(key)}`;
    let pointer = operationPointer;
    for (let hops = 0; typeof response?.$ref === 'string' && hops < 5; hops++) {
      pointer = response.$ref as string;
      response = resolvePointer(doc, pointer) as Json | undefined;
    }
    const content = response?.content as Record<string, Json> | undefined;
    if (!response) return undefined;
    return Object.fromEntries(
      Object.entries(content ?? {}).map(([media, entry]) => {
        const schemaPointer = `${pointer}/content/${escapePointer(media)}/schema`;
        const schema = entry?.schema as Json | undefined;
        // Named from the operation, with the components it goes through (a shared response, a schema).
        const named = [pointer === operationPointer ? '' : pointer, typeof schema?.$ref === 'string' ? schema.$ref : ''].filter(Boolean);
        const where = `${operationPointer}/content/${escapePointer(media)}/schema${named.length > 0 ? ` (${named.join(', ')})` : ''}`;
        return [media, schema ? { validate: () => compile(schemaPointer), where: () => where } : null];
      }),
    );
  };
}

/** The document a run checks responses against. */
export async function loadDocument(profile: Profile, openapi?: string): Promise<ApiDocument> {
  return openapi ? targetDocument(openapi) : kitDocument(profile);
}
