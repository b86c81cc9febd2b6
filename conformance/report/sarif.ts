/**
 * SARIF 2.1.0 (`--sarif FILE`), the format code-scanning views read: the rules as the tool's
 * `rules`, one result per failed rule (`conform`) or differing operation (`drift`), located at the
 * operation in the OpenAPI document the run checked against, by file and line.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ApiDocument } from '../document.ts';
import { describeSource } from '../rules.ts';
import { failureText } from './console.ts';
import type { ConformanceReport } from './model.ts';

export interface SarifRule {
  id: string;
  /** The rule, stated as an assertion. */
  text: string;
  /** Where it comes from, or what it means in more words. */
  help: string;
}

export interface SarifResult {
  ruleId: string;
  message: string;
  /** The operation the result is about (`GET /v1/containers/{id}`), when there is one. */
  operation?: string;
}

/** The document's place as an artifact URI: relative to the working directory when inside it, a file: URL otherwise, a URL as it is. */
function artifactUri(location: string): { uri: string; uriBaseId?: string } {
  if (/^https?:\/\//i.test(location)) return { uri: location };
  const relative = path.relative(process.cwd(), location);
  if (relative && !relative.startsWith('..') && !path.isAbsolute(relative)) return { uri: relative.split(path.sep).join('/'), uriBaseId: '%SRCROOT%' };
  return { uri: pathToFileURL(location).href };
}

export async function sarifLog(
  tool: string,
  rules: readonly SarifRule[],
  results: readonly SarifResult[],
  document: ApiDocument,
  properties: Record<string, unknown>,
): Promise<string> {
  const artifact = artifactUri(document.location);
  const index = new Map(rules.map((r, i) => [r.id, i]));
  const sarifResults = await Promise.all(
    results.map(async (r) => {
      const line = r.operation ? await document.lineOf(r.operation) : undefined;
      return {
        ruleId: r.ruleId,
        ...(index.has(r.ruleId) ? { ruleIndex: index.get(r.ruleId) } : {}),
        level: 'error',
        message: { text: r.message },
        locations: [
          {
            physicalLocation: { artifactLocation: artifact, region: { startLine: line ?? 1 } },
            ...(r.operation ? { logicalLocations: [{ name: r.operation, kind: 'function' }] } : {}),
          },
        ],
      };
    }),
  );
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: tool,
            rules: rules.map((r) => ({ id: r.id, shortDescription: { text: r.text }, fullDescription: { text: r.text }, help: { text: r.help } })),
          },
        },
        results: sarifResults,
        properties,
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

/** `conform --sarif`: every selected rule, one result per failed rule at the operation of its failing request. */
export function conformSarif(report: ConformanceReport, document: ApiDocument): Promise<string> {
  const rules = report.rules.map((r) => ({ id: r.id, text: r.name, help: `Source: ${describeSource(r.source)}` }));
  let n = 0;
  const results = report.rules
    .filter((r) => r.status === 'fail')
    .map((rule) => {
      const f = rule.failures[0]!;
      return { ruleId: rule.id, message: failureText(report, rule, f, ++n), ...(f.exchange?.operation ? { operation: f.exchange.operation } : {}) };
    });
  return sarifLog('catalog-kit conform', rules, results, document, { target: report.target, profile: report.profile, seed: report.seed, runs: report.runs });
}
