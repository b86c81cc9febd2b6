/**
 * Renders an OpenAPI 3.x document as one self-contained HTML page: tags and their operations
 * (parameters, request body, responses, each schema linked to its entry in the Schemas section),
 * a filter, an Authorize button and a "Try it" form per operation that calls this server. Everything
 * the page needs is inline (no script, style sheet, font or image is fetched), so it works offline;
 * src/app/docs/docs-routes.ts says why the project renders its own page instead of using a package.
 *
 * Descriptions are Markdown; the documents use only paragraphs, `code` and **bold** (and the odd
 * link), which is what `markdown` renders: everything else is shown as escaped text.
 */

type Json = Record<string, unknown>;

export interface PageOptions {
  /** The page's <title> and heading. */
  title: string;
  /** Where "Try it" sends requests: the document's paths are relative to it (`/api`, or `` for the Admin API). */
  apiBase: string;
  /** The reference pages, linked from the header. */
  pages: { href: string; label: string; current?: boolean }[];
  /** Where the document itself can be fetched. */
  downloads: { href: string; label: string }[];
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;
/** Inline object schemas nested deeper than this are shown by their type only. */
const MAX_DEPTH = 4;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const esc = (text: unknown): string => String(text).replace(/[&<>"']/g, (c) => ESCAPES[c]!);
const slug = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Paragraphs, `code`, **bold** and [links](…); a link to another site stays text, so nothing on the page points off the machine. */
export function markdown(text: unknown): string {
  if (typeof text !== 'string' || text.trim() === '') return '';
  return text
    .trim()
    .split(/\n\s*\n/)
    .map((p) => `<p>${inline(p.replace(/\s*\n\s*/g, ' '))}</p>`)
    .join('');
}

function inline(text: string): string {
  return esc(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_m, label: string, href: string) => (/^(#|\/(?!\/))/.test(href) ? `<a href="${href}">${label}</a>` : `${label} (${href})`));
}

/** The start of a description, up to its first full stop or colon: enough for a table cell. */
function firstSentence(text: unknown): string {
  const flat = typeof text === 'string' ? text.replace(/\s+/g, ' ').trim() : '';
  const end = flat.search(/[.:](\s|$)/);
  return end > 0 ? flat.slice(0, end) : flat;
}

class Renderer {
  constructor(private readonly doc: Json) {}

  /** The value a local reference (`#/components/…`) points at. */
  resolve(value: unknown, seen = 0): Json {
    if (!isObject(value)) return {};
    const ref = value.$ref;
    if (typeof ref !== 'string' || !ref.startsWith('#/') || seen > 20) return value;
    let target: unknown = this.doc;
    for (const part of ref.slice(2).split('/')) target = isObject(target) ? target[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
    return this.resolve(target, seen + 1);
  }

  schemaName(schema: Json): string | undefined {
    const ref = schema.$ref;
    return typeof ref === 'string' && ref.startsWith('#/components/schemas/') ? ref.slice('#/components/schemas/'.length) : undefined;
  }

  /** A one-line type: `string<date-time>`, `Table[]`, links to named schemas. */
  type(value: unknown): string {
    if (!isObject(value)) return value === false ? 'never' : 'any';
    const name = this.schemaName(value);
    if (name !== undefined) return `<a class="schema-link" href="#schema-${esc(slug(name))}">${esc(name)}</a>`;
    if ('const' in value) return `<code>${esc(JSON.stringify(value.const))}</code>`;
    for (const [key, sep] of [
      ['oneOf', ' | '],
      ['anyOf', ' | '],
      ['allOf', ' &amp; '],
    ] as const) {
      const parts = value[key];
      if (Array.isArray(parts) && parts.length > 0) return parts.map((p) => this.type(p)).join(sep);
    }
    const types = Array.isArray(value.type) ? (value.type as string[]) : typeof value.type === 'string' ? [value.type] : [];
    if (types.length === 0) return value.properties ? 'object' : value.items ? `${this.type(value.items)}[]` : 'any';
    return types
      .map((t) => {
        if (t === 'array') {
          const item = this.type(value.items);
          return item.includes(' | ') || item.includes(' &amp; ') ? `(${item})[]` : `${item}[]`;
        }
        if (t === 'object' && !value.properties && isObject(value.additionalProperties)) return `map&lt;string, ${this.type(value.additionalProperties)}&gt;`;
        return typeof value.format === 'string' && t !== 'null' ? `${t}&lt;${esc(value.format)}&gt;` : t;
      })
      .join(' | ');
  }

  /** Enum values, bounds, default, pattern…: the facts a reader needs beside the description. */
  facets(schema: Json): string {
    const s = this.schemaName(schema) ? {} : schema;
    const out: string[] = [];
    if (Array.isArray(s.enum)) out.push(`one of ${s.enum.map((v) => `<code>${esc(JSON.stringify(v))}</code>`).join(', ')}`);
    for (const [key, label] of [
      ['default', 'default'],
      ['minimum', 'min'],
      ['exclusiveMinimum', 'greater than'],
      ['maximum', 'max'],
      ['exclusiveMaximum', 'less than'],
      ['minLength', 'min length'],
      ['maxLength', 'max length'],
      ['minItems', 'min items'],
      ['maxItems', 'max items'],
      ['pattern', 'pattern'],
      ['example', 'example'],
    ] as const) {
      if (s[key] !== undefined) out.push(`${label} <code>${esc(typeof s[key] === 'string' && key === 'pattern' ? s[key] : JSON.stringify(s[key]))}</code>`);
    }
    if (s.uniqueItems) out.push('unique items');
    if (s.readOnly) out.push('read-only');
    if (s.writeOnly) out.push('write-only');
    if (s.deprecated) out.push('<span class="badge deprecated">deprecated</span>');
    return out.length ? `<div class="facets">${out.join(' · ')}</div>` : '';
  }

  /** Properties and required names of an object schema, with its allOf parts merged in. */
  collect(schema: Json, depth = 0, into = { properties: new Map<string, unknown>(), required: new Set<string>(), closed: false }) {
    const s = this.resolve(schema);
    if (depth > 10) return into;
    for (const part of Array.isArray(s.allOf) ? s.allOf : []) this.collect(part as Json, depth + 1, into);
    if (isObject(s.properties)) for (const [k, v] of Object.entries(s.properties)) into.properties.set(k, v);
    if (Array.isArray(s.required)) for (const k of s.required) into.required.add(String(k));
    if (s.unevaluatedProperties === false || s.additionalProperties === false) into.closed = true;
    return into;
  }

  /** The body of a schema: its property table, its variants, or what an array holds. */
  details(value: unknown, depth: number): string {
    if (!isObject(value) || depth > MAX_DEPTH) return '';
    if (this.schemaName(value) !== undefined && depth > 0) return '';
    const schema = this.resolve(value);
    const parts: string[] = [];
    const variants = (Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : []) as Json[];
    if (variants.length > 0) {
      parts.push(
        `<ul class="variants">${variants.map((v) => `<li>${this.type(v)}${markdown(this.schemaName(v) ? '' : v.description)}${this.details(v, depth + 1)}</li>`).join('')}</ul>`,
      );
    }
    const { properties, required, closed } = this.collect(schema);
    if (properties.size > 0) {
      const rows = [...properties].map(([name, prop]) => {
        const p = isObject(prop) ? prop : {};
        const nested = this.nested(p, depth + 1);
        return `<tr><td class="name"><code>${esc(name)}</code>${required.has(name) ? '<span class="required" title="required">*</span>' : ''}</td><td class="type">${this.type(p)}</td><td>${markdown(p.description)}${this.facets(p)}${nested}</td></tr>`;
      });
      parts.push(`<table class="props"><thead><tr><th>Property</th><th>Type</th><th>Description</th></tr></thead><tbody>${rows.join('')}</tbody></table>`);
      if (closed) parts.push('<div class="facets">No other properties.</div>');
    } else if (isObject(schema.items) && depth === 0) {
      parts.push(this.nested(schema, depth));
    }
    return parts.join('');
  }

  /** An inline object (or array of inline objects) inside a property: collapsed under its row. */
  nested(prop: Json, depth: number): string {
    const inner = isObject(prop.items) && !this.schemaName(prop.items) ? prop.items : prop;
    if (this.schemaName(inner) !== undefined) return '';
    const body = inner === prop && !prop.properties && !prop.allOf && !prop.oneOf && !prop.anyOf ? '' : this.details(inner, depth);
    return body ? `<details class="nested"><summary>${inner === prop ? 'properties' : 'item properties'}</summary>${body}</details>` : '';
  }

  /** A schema shown in an operation: its type line, then (for inline schemas) its details. */
  schemaBlock(value: unknown): string {
    if (!isObject(value)) return '';
    // A named schema (or an array of one) is described once, in the Schemas section; the page's
    // script copies that description here when the reader opens "properties".
    const named = this.schemaName(value) ?? (isObject(value.items) ? this.schemaName(value.items) : undefined);
    const expand = named === undefined ? '' : `<details class="nested expand" data-schema="schema-${esc(slug(named))}"><summary>${esc(named)} properties</summary></details>`;
    return `<div class="schema"><span class="type">${this.type(value)}</span>${this.schemaName(value) ? expand : markdown(value.description) + this.facets(value) + (this.details(value, 0) || expand)}</div>`;
  }

  /** A request body to start from: the document's example, or one made of the required properties. */
  sample(value: unknown, depth = 0): unknown {
    if (!isObject(value) || depth > 8) return null;
    const s = this.resolve(value);
    for (const key of ['example', 'default', 'const'] as const) if (s[key] !== undefined) return s[key];
    if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
    if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
    const variants = (s.oneOf ?? s.anyOf) as unknown[] | undefined;
    if (Array.isArray(variants) && variants.length > 0) return this.sample(variants[0], depth + 1);
    const type = Array.isArray(s.type) ? (s.type as string[]).find((t) => t !== 'null') : s.type;
    const { properties, required } = this.collect(s);
    if (type === 'object' || properties.size > 0) {
      const out: Json = {};
      for (const name of required) out[name] = this.sample(properties.get(name), depth + 1);
      return out;
    }
    if (type === 'array') return (Number(s.minItems) || 0) > 0 ? [this.sample(s.items, depth + 1)] : [];
    if (type === 'integer' || type === 'number') return typeof s.minimum === 'number' ? s.minimum : 0;
    if (type === 'boolean') return false;
    if (type === 'string') return s.format === 'uuid' ? '00000000-0000-0000-0000-000000000000' : s.format === 'date-time' ? new Date(0).toISOString() : 'string';
    return null;
  }

  sharedResponse(value: unknown): string | undefined {
    const ref = isObject(value) ? value.$ref : undefined;
    return typeof ref === 'string' && ref.startsWith('#/components/responses/') ? ref.slice('#/components/responses/'.length) : undefined;
  }

  parameters(list: unknown[]): Json[] {
    return list.map((p) => this.resolve(p)).filter((p) => typeof p.name === 'string' && typeof p.in === 'string');
  }

  operation(method: string, path: string, op: Json, pathParameters: unknown[], secured: boolean): string {
    const id = typeof op.operationId === 'string' ? op.operationId : `${method}-${path}`;
    const byKey = new Map<string, Json>();
    for (const p of [...this.parameters(pathParameters), ...this.parameters(Array.isArray(op.parameters) ? op.parameters : [])]) byKey.set(`${p.in} ${p.name}`, p);
    const params = [...byKey.values()];
    const needsAuth = Array.isArray(op.security) ? op.security.some((r) => isObject(r) && Object.keys(r).length > 0) : secured;
    const out: string[] = [];
    out.push(
      `<details class="op" id="op-${esc(id)}" data-filter="${esc(`${method} ${path} ${op.summary ?? ''} ${id}`.toLowerCase())}">`,
      `<summary><span class="method ${method}">${method.toUpperCase()}</span><code class="path">${esc(path)}</code><span class="summary">${esc(op.summary ?? '')}</span>${op.deprecated ? '<span class="badge deprecated">deprecated</span>' : ''}</summary>`,
      `<div class="op-body"><div class="op-meta">operationId <code class="operation-id">${esc(id)}</code>${needsAuth ? ' · <span class="badge auth" title="needs Authorization: Bearer">bearer token</span>' : ' · no token needed'} · <a href="#op-${esc(id)}">link</a></div>`,
      markdown(op.description),
    );
    if (params.length > 0) {
      const rows = params.map(
        (p) =>
          `<tr><td class="name"><code>${esc(p.name)}</code>${p.required ? '<span class="required" title="required">*</span>' : ''}</td><td>${esc(p.in)}</td><td class="type">${this.type(p.schema)}</td><td>${markdown(p.description)}${isObject(p.schema) ? this.facets(p.schema) : ''}</td></tr>`,
      );
      out.push(`<h4>Parameters</h4><table class="params"><thead><tr><th>Name</th><th>In</th><th>Type</th><th>Description</th></tr></thead><tbody>${rows.join('')}</tbody></table>`);
    }
    const body = this.resolve(op.requestBody);
    const bodyContent = isObject(body.content) ? Object.entries(body.content) : [];
    if (bodyContent.length > 0) {
      out.push(`<h4>Request body${body.required ? '' : ' (optional)'}</h4>${markdown(body.description)}`);
      for (const [type, media] of bodyContent)
        out.push(`<div class="media"><code class="media-type">${esc(type)}</code>${this.schemaBlock(isObject(media) ? media.schema : undefined)}</div>`);
    }
    if (isObject(op.responses)) {
      const rows = Object.entries(op.responses).map(([status, value]) => {
        const shared = this.sharedResponse(value);
        if (shared !== undefined) {
          // A shared response (mostly the errors every operation can give) is described once, in
          // the Common responses section: repeating it would double the page.
          const r = this.resolve(value);
          const content = isObject(r.content) ? Object.values(r.content) : [];
          const schema = content.map((media) => (isObject(media) ? this.type(media.schema) : '')).find(Boolean);
          return `<tr><td class="status s${esc(status[0])}">${esc(status)}</td><td><p>${inline(firstSentence(r.description))} <a href="#response-${esc(slug(shared))}">(${esc(shared)})</a></p>${schema ? `<div class="media"><span class="type">${schema}</span></div>` : ''}</td></tr>`;
        }
        const r = this.resolve(value);
        const content = isObject(r.content) ? Object.entries(r.content) : [];
        const schemas = content.map(
          ([type, media]) => `<div class="media"><code class="media-type">${esc(type)}</code>${this.schemaBlock(isObject(media) ? media.schema : undefined)}</div>`,
        );
        return `<tr><td class="status s${esc(status[0])}">${esc(status)}</td><td>${markdown(r.description)}${schemas.join('')}</td></tr>`;
      });
      out.push(`<h4>Responses</h4><table class="responses"><tbody>${rows.join('')}</tbody></table>`);
    }
    out.push(this.tryIt(method, path, params, bodyContent), '</div></details>');
    return out.join('');
  }

  /**
   * The "Try it" form: one input per parameter and a body prefilled with an example; the page's
   * script sends it. It sits in a <template> until opened: 435 live forms made Chromium take ~3 s
   * to load the API page, against ~0.6 s this way.
   */
  tryIt(method: string, path: string, params: Json[], bodyContent: [string, unknown][]): string {
    const inputs = params
      .filter((p) => p.in !== 'cookie')
      .map((p) => {
        const schema = isObject(p.schema) ? this.resolve(p.schema) : {};
        const value = p.in === 'path' || p.required ? this.sample(schema) : undefined;
        return `<label><span><code>${esc(p.name)}</code> <small>${esc(p.in)}${p.required ? ', required' : ''}</small></span><input name="${esc(p.name)}" data-in="${esc(p.in)}"${p.required ? ' required' : ''} value="${value === undefined || value === null ? '' : esc(typeof value === 'string' ? value : JSON.stringify(value))}"></label>`;
      });
    let body = '';
    if (bodyContent.length > 0) {
      const [type, media] = bodyContent[0]!;
      const m = isObject(media) ? media : {};
      const firstExample = isObject(m.examples)
        ? Object.values(m.examples)
            .map((e) => this.resolve(e).value)
            .find((v) => v !== undefined)
        : undefined;
      const example = m.example ?? firstExample ?? this.sample(m.schema);
      const text = typeof example === 'string' ? example : JSON.stringify(example, null, 2);
      body = `<label class="body"><span>Body <small>${esc(type)}</small></span><textarea name="body" data-type="${esc(type)}" rows="${Math.min(16, text.split('\n').length + 1)}" spellcheck="false">${esc(text)}</textarea></label>`;
    }
    return `<details class="try"><summary>Try it</summary><template><form class="try-form" data-method="${method.toUpperCase()}" data-path="${esc(path)}">${inputs.join('')}${body}<button type="submit">Send ${method.toUpperCase()} request</button></form></template><div class="result" hidden><div class="result-status"></div><pre class="result-body"></pre></div></details>`;
  }

  page(options: PageOptions): string {
    const doc = this.doc;
    const info = isObject(doc.info) ? doc.info : {};
    const paths = isObject(doc.paths) ? doc.paths : {};
    const secured = Array.isArray(doc.security) && doc.security.some((r) => isObject(r) && Object.keys(r).length > 0);
    const tagInfo = new Map<string, Json>();
    for (const t of Array.isArray(doc.tags) ? doc.tags : []) if (isObject(t) && typeof t.name === 'string') tagInfo.set(t.name, t);
    const groups = new Map<string, string[]>([...tagInfo.keys()].map((name) => [name, []]));
    const navItems = new Map<string, string[]>();
    for (const [path, itemValue] of Object.entries(paths)) {
      const item = this.resolve(itemValue);
      for (const method of METHODS) {
        const op = item[method];
        if (!isObject(op)) continue;
        const tags = Array.isArray(op.tags) && op.tags.length > 0 ? op.tags.map(String) : ['Other'];
        const id = typeof op.operationId === 'string' ? op.operationId : `${method}-${path}`;
        for (const tag of tags) {
          if (!groups.has(tag)) groups.set(tag, []);
          groups.get(tag)!.push(this.operation(method, path, op, Array.isArray(item.parameters) ? item.parameters : [], secured));
          if (!navItems.has(tag)) navItems.set(tag, []);
          navItems
            .get(tag)!
            .push(
              `<li><a href="#op-${esc(id)}" data-filter="${esc(`${method} ${path} ${op.summary ?? ''} ${id}`.toLowerCase())}"><span class="method ${method}">${method.toUpperCase()}</span>${esc(op.summary ?? path)}</a></li>`,
            );
        }
      }
    }
    const sections: string[] = [];
    const nav: string[] = [];
    for (const [tag, ops] of groups) {
      if (ops.length === 0) continue;
      const id = `tag-${slug(tag)}`;
      sections.push(
        `<section class="tag" id="${esc(id)}"><h2>${esc(tag)} <small>${ops.length} operation${ops.length === 1 ? '' : 's'}</small></h2>${markdown(tagInfo.get(tag)?.description)}${ops.join('')}</section>`,
      );
      nav.push(`<li class="nav-tag"><details><summary><a href="#${esc(id)}">${esc(tag)}</a></summary><ul>${navItems.get(tag)!.join('')}</ul></details></li>`);
    }
    const components = isObject(doc.components) ? doc.components : {};
    const schemas = isObject(components.schemas) ? Object.entries(components.schemas) : [];
    const responses = isObject(components.responses) ? Object.entries(components.responses) : [];
    if (responses.length > 0) {
      const entries = responses.map(([name, value]) => {
        const r = this.resolve(value);
        const content = isObject(r.content) ? Object.entries(r.content) : [];
        return `<div class="schema-entry" id="response-${esc(slug(name))}" data-filter="${esc(name.toLowerCase())}"><h3>${esc(name)}</h3>${markdown(r.description)}${content.map(([type, media]) => `<div class="media"><code class="media-type">${esc(type)}</code>${this.schemaBlock(isObject(media) ? media.schema : undefined)}</div>`).join('')}</div>`;
      });
      sections.push(`<section class="tag responses" id="responses"><h2>Common responses <small>${responses.length}</small></h2>${entries.join('')}</section>`);
      nav.push(`<li class="nav-tag"><a href="#responses">Common responses</a></li>`);
    }
    if (schemas.length > 0) {
      const entries = schemas.map(([name, schema]) => {
        const s = isObject(schema) ? schema : {};
        return `<div class="schema-entry" id="schema-${esc(slug(name))}" data-filter="${esc(name.toLowerCase())}"><h3>${esc(name)} <span class="type">${Array.isArray(s.allOf) ? this.type(s) : this.type({ ...s, description: undefined })}</span></h3>${markdown(s.description)}${this.facets(s)}${this.details(s, 0)}</div>`;
      });
      sections.push(`<section class="tag schemas" id="schemas"><h2>Schemas <small>${schemas.length}</small></h2>${entries.join('')}</section>`);
      nav.push(`<li class="nav-tag"><a href="#schemas">Schemas</a></li>`);
    }
    const config = JSON.stringify({ apiBase: options.apiBase, secured }).replace(/</g, '\\u003c');
    const links = options.pages.map((l) => `<a href="${esc(l.href)}"${l.current ? ' aria-current="page"' : ''}>${esc(l.label)}</a>`).join('');
    const downloads = options.downloads.map((l) => `<a href="${esc(l.href)}">${esc(l.label)}</a>`).join(' · ');
    return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(options.title)}</title>
<link rel="icon" href="data:,">
<style>${STYLE}</style>
</head>
<body>
<header class="top">
<div class="title"><h1>${esc(info.title ?? options.title)}</h1><span class="version">${esc(info.version ?? '')}</span> <span class="openapi">OpenAPI ${esc(doc.openapi ?? '')}</span></div>
<nav class="links">${links}</nav>
<div class="tools"><input id="filter" type="search" placeholder="Filter operations and schemas" aria-label="Filter">${
      secured
        ? `<div class="auth"><button type="button" id="authorize" aria-expanded="false" aria-controls="auth-form">Authorize</button><form id="auth-form" hidden><label>Bearer token <small>(printed by <code>catalog-kit serve</code>, or <code>catalog-kit token</code>)</small><input id="token" name="token" autocomplete="off" spellcheck="false"></label><button type="submit">Save</button> <button type="button" id="logout">Forget</button> <span id="auth-state" role="status"></span></form></div>`
        : ''
    }</div>
</header>
<div class="layout">
<nav class="side"><ul>${nav.join('')}</ul></nav>
<main>
<section class="intro">${markdown(info.summary)}${markdown(info.description)}<p class="base">"Try it" sends requests to <code>${esc(options.apiBase || '/')}</code> on this server.${downloads ? ` The document: ${downloads}.` : ''}</p></section>
${sections.join('\n')}
</main>
</div>
<script id="config" type="application/json">${config}</script>
<script>${SCRIPT}</script>
</body>
</html>
`;
  }
}

/** The reference page of an OpenAPI 3.x document. */
export function renderReferencePage(doc: Json, options: PageOptions): string {
  return new Renderer(doc).page(options);
}

const STYLE = `
:root { --fg:#1f2328; --muted:#59636e; --line:#d1d9e0; --bg:#fff; --soft:#f6f8fa; --accent:#0b5cad; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; font-size: 15px; color: var(--fg); background: var(--bg); }
* { box-sizing: border-box; }
body { margin: 0; }
code, pre, textarea, .path { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 0.9em; }
a { color: var(--accent); }
header.top { position: sticky; top: 0; z-index: 2; display: flex; flex-wrap: wrap; gap: 0.5rem 1.5rem; align-items: center; padding: 0.6rem 1rem; background: #24292f; color: #fff; }
header.top h1 { display: inline; font-size: 1.15rem; margin: 0 0.5rem 0 0; }
header.top .version, header.top .openapi { font-size: 0.8rem; background: #57606a; border-radius: 8px; padding: 1px 7px; }
header.top .links a { color: #fff; margin-right: 1rem; text-decoration: none; opacity: 0.85; }
header.top .links a[aria-current] { opacity: 1; font-weight: 600; border-bottom: 2px solid #fff; }
header.top .tools { margin-left: auto; display: flex; gap: 0.75rem; align-items: flex-start; }
#filter { width: 16rem; padding: 0.3rem 0.5rem; border-radius: 6px; border: 1px solid #57606a; }
.auth { position: relative; }
.auth > #authorize { padding: 0.25rem 0.8rem; border: 1px solid #2da44e; border-radius: 6px; background: transparent; color: #fff; font: inherit; }
.auth > #authorize.set { background: #2da44e; }
.auth > #authorize:focus-visible { outline: 2px solid #fff; outline-offset: 2px; }
.auth form { position: absolute; right: 0; top: 2.2rem; width: 30rem; background: var(--bg); color: var(--fg); border: 1px solid var(--line); border-radius: 8px; padding: 0.8rem; box-shadow: 0 8px 24px rgba(0,0,0,.2); }
.auth form[hidden] { display: none; }
.auth input { width: 100%; margin: 0.4rem 0; padding: 0.3rem; }
.layout { display: flex; align-items: flex-start; }
nav.side { position: sticky; top: var(--top, 3.2rem); width: 19rem; flex: none; max-height: calc(100vh - var(--top, 3.2rem)); overflow-y: auto; border-right: 1px solid var(--line); padding: 0.5rem 0; font-size: 0.9rem; background: var(--soft); }
nav.side ul { list-style: none; margin: 0; padding: 0; }
nav.side .nav-tag > details > summary, nav.side .nav-tag > a { display: block; padding: 0.25rem 1rem; cursor: pointer; font-weight: 600; }
nav.side .nav-tag a { text-decoration: none; color: var(--fg); }
nav.side li li a { display: flex; gap: 0.4rem; padding: 0.15rem 1rem 0.15rem 1.6rem; font-weight: normal; }
nav.side li li a:hover { background: #eaeef2; }
nav.side .method { font-size: 0.65rem; min-width: 3.3rem; }
main { flex: 1; min-width: 0; padding: 0 2rem 4rem; max-width: 75rem; }
.intro { color: var(--muted); max-width: 60rem; }
/* Sections off screen are not laid out until scrolled to: the API page has some 60,000 elements. */
section.tag { content-visibility: auto; contain-intrinsic-size: auto 1500px; }
section.tag > h2 { border-bottom: 1px solid var(--line); padding-bottom: 0.3rem; margin-top: 2rem; scroll-margin-top: calc(var(--top, 3.2rem) + 0.5rem); }
section.tag > h2 small { color: var(--muted); font-weight: normal; font-size: 0.8rem; }
details.op { border: 1px solid var(--line); border-radius: 6px; margin: 0.4rem 0; scroll-margin-top: calc(var(--top, 3.2rem) + 0.5rem); }
details.op > summary { display: flex; gap: 0.7rem; align-items: center; padding: 0.4rem 0.6rem; cursor: pointer; list-style: none; }
details.op[open] > summary { border-bottom: 1px solid var(--line); background: var(--soft); }
details.op .summary { color: var(--muted); }
.op-body { padding: 0.2rem 1rem 1rem; }
.op-meta { color: var(--muted); font-size: 0.85rem; margin: 0.5rem 0; }
.method { display: inline-block; min-width: 4.2rem; text-align: center; border-radius: 4px; color: #fff; font-weight: 700; font-size: 0.75rem; padding: 2px 4px; background: #6e7781; }
.method.get { background: #0969da; } .method.post { background: #1a7f37; } .method.put { background: #9a6700; } .method.patch { background: #8250df; } .method.delete { background: #cf222e; }
.path { font-weight: 600; word-break: break-all; }
table { border-collapse: collapse; width: 100%; margin: 0.3rem 0 0.6rem; font-size: 0.9rem; }
th, td { text-align: left; vertical-align: top; border-bottom: 1px solid var(--line); padding: 0.35rem 0.5rem; }
th { color: var(--muted); font-weight: 600; }
td p { margin: 0 0 0.3rem; }
td.name { white-space: nowrap; }
td.type, .schema > .type { color: #6639ba; font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 0.85em; }
td.status { font-weight: 700; width: 4rem; } td.status.s2 { color: #1a7f37; } td.status.s4 { color: #9a6700; } td.status.s5 { color: #cf222e; }
.required { color: #cf222e; margin-left: 2px; }
.facets { color: var(--muted); font-size: 0.85em; margin-top: 0.2rem; }
.badge { font-size: 0.75rem; border-radius: 8px; padding: 0 6px; border: 1px solid var(--line); }
.badge.deprecated { color: #cf222e; border-color: #cf222e; }
.media { margin: 0.3rem 0; }
.media-type { color: var(--muted); margin-right: 0.5rem; }
details.nested > summary { cursor: pointer; color: var(--accent); font-size: 0.85em; }
details.nested { margin-left: 0.5rem; padding-left: 0.5rem; border-left: 2px solid var(--line); }
ul.variants { margin: 0.3rem 0; padding-left: 1.2rem; }
.schema-entry { border-bottom: 1px solid var(--line); padding: 0.3rem 0 0.8rem; scroll-margin-top: calc(var(--top, 3.2rem) + 0.5rem); }
.schema-entry h3 { margin: 0.8rem 0 0.3rem; font-size: 1.05rem; }
.schema-entry h3 .type { font-weight: normal; margin-left: 0.5rem; }
details.try { margin-top: 0.8rem; border: 1px dashed #8c959f; border-radius: 6px; padding: 0.3rem 0.8rem; }
details.try > summary { cursor: pointer; font-weight: 600; }
.try-form { display: grid; grid-template-columns: repeat(auto-fill, minmax(16rem, 1fr)); gap: 0.5rem 1rem; margin: 0.6rem 0; }
.try-form label { display: flex; flex-direction: column; gap: 0.2rem; font-size: 0.85rem; }
.try-form label.body { grid-column: 1 / -1; }
.try-form input, .try-form textarea { padding: 0.3rem; border: 1px solid var(--line); border-radius: 4px; width: 100%; }
.try-form button { grid-column: 1 / -1; justify-self: start; }
button { padding: 0.35rem 0.9rem; border-radius: 6px; border: 1px solid #1a7f37; background: #1f883d; color: #fff; cursor: pointer; }
button[type=button] { background: var(--soft); color: var(--fg); border-color: var(--line); }
.result-status { font-weight: 700; margin-top: 0.5rem; }
.result-body { background: #0d1117; color: #e6edf3; padding: 0.6rem; border-radius: 6px; max-height: 28rem; overflow: auto; white-space: pre-wrap; word-break: break-word; }
.hidden-by-filter { display: none !important; }
`;

/** The page's behaviour: filter, deep links, the token, and "Try it" (fetch to this server only). */
const SCRIPT = `
(function () {
  'use strict';
  var config = JSON.parse(document.getElementById('config').textContent);
  // The sticky header's height, for the sidebar and for anchors not to hide under it.
  function measure() { document.documentElement.style.setProperty('--top', document.querySelector('header.top').offsetHeight + 'px'); }
  window.addEventListener('resize', measure);
  measure();
  var TOKEN_KEY = 'catalog-kit-docs-token';
  var storage = window.sessionStorage;
  function token() { try { return storage.getItem(TOKEN_KEY) || ''; } catch (e) { return ''; } }
  var authorize = document.getElementById('authorize');
  function showAuth() {
    if (!authorize) return;
    var set = token() !== '';
    authorize.classList.toggle('set', set);
    authorize.textContent = set ? 'Authorized' : 'Authorize';
    var state = document.getElementById('auth-state');
    if (state) state.textContent = set ? 'token saved for this tab' : 'no token';
  }
  var authForm = document.getElementById('auth-form');
  // A disclosure button: it opens the token form with the focus in its field; Escape closes it
  // and gives the focus back to the button.
  function showForm(open) {
    authForm.hidden = !open;
    authorize.setAttribute('aria-expanded', String(open));
    if (open) document.getElementById('token').focus();
  }
  if (authForm && authorize) {
    document.getElementById('token').value = token();
    authorize.addEventListener('click', function () { showForm(authForm.hidden); });
    authForm.addEventListener('keydown', function (event) {
      if (event.key !== 'Escape') return;
      showForm(false);
      authorize.focus();
    });
    authForm.addEventListener('submit', function (event) {
      event.preventDefault();
      var value = document.getElementById('token').value.trim().replace(/^Bearer\\s+/i, '');
      try { value ? storage.setItem(TOKEN_KEY, value) : storage.removeItem(TOKEN_KEY); } catch (e) {}
      showAuth();
      showForm(false);
      authorize.focus();
    });
    document.getElementById('logout').addEventListener('click', function () {
      try { storage.removeItem(TOKEN_KEY); } catch (e) {}
      document.getElementById('token').value = '';
      showAuth();
    });
  }
  showAuth();

  function openTarget() {
    var id = decodeURIComponent(location.hash.slice(1));
    if (!id) return;
    var target = document.getElementById(id);
    if (!target) return;
    if (target.tagName === 'DETAILS') target.open = true;
    var tag = target.closest('section.tag');
    if (tag) tag.classList.remove('hidden-by-filter');
    target.scrollIntoView();
  }
  window.addEventListener('hashchange', openTarget);
  // "properties" of a named schema: filled from its entry in the Schemas section on first opening.
  document.addEventListener('toggle', function (event) {
    var el = event.target;
    if (el.open && el.classList && el.classList.contains('try')) {
      var template = el.querySelector(':scope > template');
      if (template) { el.insertBefore(template.content, template); el.removeChild(template); }
      return;
    }
    if (!el.open || !el.classList || !el.classList.contains('expand') || el.getAttribute('data-filled')) return;
    el.setAttribute('data-filled', '1');
    var entry = document.getElementById(el.getAttribute('data-schema'));
    if (!entry) return;
    Array.prototype.forEach.call(entry.children, function (child) {
      if (child.tagName !== 'H3') el.appendChild(child.cloneNode(true));
    });
  }, true);
  openTarget();

  var filter = document.getElementById('filter');
  filter.addEventListener('input', function () {
    var words = filter.value.toLowerCase().split(/\\s+/).filter(Boolean);
    function match(el) { var text = el.getAttribute('data-filter'); return words.every(function (w) { return text.indexOf(w) >= 0; }); }
    document.querySelectorAll('main section.tag').forEach(function (section) {
      var any = false;
      section.querySelectorAll('[data-filter]').forEach(function (el) { var ok = match(el); el.classList.toggle('hidden-by-filter', !ok); any = any || ok; });
      section.classList.toggle('hidden-by-filter', !any);
    });
    document.querySelectorAll('nav.side li li a[data-filter]').forEach(function (a) { a.parentElement.classList.toggle('hidden-by-filter', !match(a)); });
    document.querySelectorAll('nav.side .nav-tag > details').forEach(function (d) {
      var visible = d.querySelectorAll('li:not(.hidden-by-filter)').length;
      d.parentElement.classList.toggle('hidden-by-filter', visible === 0);
      d.open = words.length > 0 && visible > 0;
    });
  });

  document.addEventListener('submit', function (event) {
    var form = event.target;
    if (!form.classList || !form.classList.contains('try-form')) return;
    event.preventDefault();
    var path = form.getAttribute('data-path');
    var query = new URLSearchParams();
    var headers = {};
    form.querySelectorAll('input[data-in]').forEach(function (input) {
      var where = input.getAttribute('data-in');
      var value = input.value;
      if (where === 'path') path = path.split('{' + input.name + '}').join(encodeURIComponent(value));
      else if (value === '') return;
      else if (where === 'query') query.append(input.name, value);
      else if (where === 'header') headers[input.name] = value;
    });
    var init = { method: form.getAttribute('data-method'), headers: headers };
    var body = form.querySelector('textarea[name=body]');
    if (body && body.value.trim() !== '') { headers['Content-Type'] = body.getAttribute('data-type'); init.body = body.value; }
    if (config.secured && token()) headers['Authorization'] = 'Bearer ' + token();
    var qs = query.toString();
    // Relative URL: the request goes to this server and nowhere else.
    var url = config.apiBase + path + (qs ? '?' + qs : '');
    var result = form.parentElement.querySelector('.result');
    var status = result.querySelector('.result-status');
    var out = result.querySelector('.result-body');
    result.hidden = false;
    status.textContent = init.method + ' ' + url + ' …';
    out.textContent = '';
    var started = performance.now();
    fetch(url, init).then(function (response) {
      return response.text().then(function (text) {
        var ms = Math.round(performance.now() - started);
        status.textContent = response.status + ' ' + response.statusText + ' · ' + init.method + ' ' + url + ' · ' + ms + ' ms';
        status.setAttribute('data-status', String(response.status));
        try { text = JSON.stringify(JSON.parse(text), null, 2); } catch (e) {}
        out.textContent = text;
      });
    }).catch(function (error) {
      status.textContent = 'Request failed: ' + error.message;
    });
  });
})();
`;
