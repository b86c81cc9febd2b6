/**
 * Names (docs/behaviour.md "Validation and limits"): a classification create whose name the
 * profile's pattern (`entityNamePattern`: OpenMetadata 2.0 refuses `>`, `"`, control characters and
 * `::`; 1.x only `::`) refuses answers 400 and leaves no classification of that name; a name the
 * pattern allows (and that no other rule refuses) is created.
 */
import { KINDS } from '../kinds.ts';
import type { Session } from '../session.ts';
import type { Scenario } from './support.ts';

export const entityNames: Scenario = {
  name: 'names',
  rules: ['names.refused-characters'],
  async run(s: Session, m) {
    const c = s.checker;
    const pattern = new RegExp(s.ctx.exp.entityNamePattern, 'u');
    const base = m.freshName('n');
    // Each name once; a `"` is refused by both releases (1.x when quoting the FQN), so only the pattern's answer is checked for it.
    const names = [`${base}>gt`, `${base}\ttab`, `${base}::colons`, `${base}"quote`];
    for (const name of names) {
      const refused = !pattern.test(name);
      const ex = await s.send({ method: 'POST', path: KINDS.classification.path, body: { name, description: 'created by catalog-kit conform to test names' } });
      if (refused) {
        const ok = c.check(
          'names.refused-characters',
          ex.status === 400,
          `POST a classification named ${JSON.stringify(name)}: 400 (the name pattern refuses it)`,
          () => `${ex.status} ${ex.responseText.slice(0, 200)}`,
          ex,
        );
        if (!ok) continue;
        const listed = await s.send({ method: 'GET', path: KINDS.classification.path, query: { limit: 1000000, include: 'all' } });
        const names = (Array.isArray((listed.json as { data?: unknown })?.data) ? ((listed.json as { data: { name?: unknown }[] }).data ?? []) : []).map((e) => e.name);
        c.check(
          'names.refused-characters',
          listed.status === 200 && !names.includes(name),
          `no classification named ${JSON.stringify(name)} after the 400`,
          () => `${listed.status}, ${names.length} classifications`,
          listed,
        );
      } else if (!name.includes('"')) {
        c.check(
          'names.refused-characters',
          s.ctx.exp.createStatuses.includes(ex.status),
          `POST a classification named ${JSON.stringify(name)}: created (the name pattern allows it)`,
          () => `${ex.status} ${ex.responseText.slice(0, 200)}`,
          ex,
        );
        const id = (ex.json as { id?: unknown } | undefined)?.id;
        // Not part of the rule: what the check created does not stay.
        if (typeof id === 'string') await s.send({ method: 'DELETE', path: `${KINDS.classification.path}/${id}`, query: { hardDelete: true, recursive: true } });
      }
    }
  },
};
