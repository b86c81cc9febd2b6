/**
 * Base of the model-based commands. Commands hold positions, never ids or names: `run` resolves
 * them against the model (`position % candidates`), so any shrunk sequence is still valid.
 */
import type fc from 'fast-check';
import { DRIVEN_KINDS, KINDS, type Kind } from '../kinds.ts';
import type { Model } from '../model.ts';
import type { Session } from '../session.ts';

export abstract class BaseCommand implements fc.AsyncCommand<Model, Session> {
  /** What the last run resolved the positions to (printed in counterexamples). */
  protected resolved = '';

  abstract readonly label: string;
  protected abstract args(): unknown[];

  check(_m: Readonly<Model>): boolean {
    return true;
  }

  abstract run(m: Model, s: Session): Promise<void>;

  toString(): string {
    const args = this.args()
      .map((a) => JSON.stringify(a))
      .join(', ');
    return `${this.label}(${args})${this.resolved ? ` /* ${this.resolved} */` : ''}`;
  }
}

/** The kinds this target serves, in a fixed order, optionally filtered. */
export function drivenKinds(s: Session, filter: (k: Kind) => boolean = () => true): Kind[] {
  return DRIVEN_KINDS.map((id) => KINDS[id]).filter((k) => s.ctx.available.has(k.id) && filter(k));
}

export function pickKind(s: Session, index: number, filter?: (k: Kind) => boolean): Kind | undefined {
  const kinds = drivenKinds(s, filter);
  return kinds.length === 0 ? undefined : kinds[index % kinds.length];
}
