/**
 * The test-only fault switch of the conformance self-test (issue 5): with `serve --allow-faults`,
 * `PUT /__admin/faults {"faults": [...]}` turns on deliberate misbehaviours (src/http/faults.ts),
 * one per conformance rule, so the self-test can prove each rule catches its fault. Without the
 * flag neither the route nor the fault middlewares exist.
 */
import express from 'express';
import type { Express } from 'express';
import { FAULTS } from './faults.ts';

export interface FaultSwitch {
  active(): ReadonlySet<string>;
}

export function mountFaultSwitch(app: Express): FaultSwitch {
  let active: ReadonlySet<string> = new Set();
  app.put('/__admin/faults', express.json(), (req, res) => {
    const list: unknown = (req.body as { faults?: unknown } | undefined)?.faults;
    if (!Array.isArray(list) || list.some((f) => typeof f !== 'string')) {
      res.status(400).json({ code: 400, errorType: 'BAD_REQUEST', message: 'Body must be {"faults": ["<fault-id>", ...]}' });
      return;
    }
    const unknown = (list as string[]).filter((f) => !Object.hasOwn(FAULTS, f));
    if (unknown.length) {
      res.status(400).json({ code: 400, errorType: 'BAD_REQUEST', message: `Unknown fault ${unknown.join(', ')}` });
      return;
    }
    active = new Set(list as string[]);
    res.json({ faults: [...active] });
  });
  return { active: () => active };
}
