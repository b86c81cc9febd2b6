/**
 * How a `conform` or `drift` run that could not finish ends: one line on stderr saying why, and
 * exit 2 — a wrong command line, a target that is not this API or stopped answering, an interrupt
 * (what the run created is removed first), or a bug of the suite (its stack with CK_DEBUG=1); and
 * how Ctrl-C asks a run to stop.
 */
import { UsageError } from './args.ts';
import { DocumentError } from './document.ts';
import { AbortedError, TransportError } from './http.ts';
import { TargetError } from './probe.ts';

/** The line to print for `error`; `stopped` names who stopped answering (`the target`, `a server`). */
export function runFailure(command: 'conform' | 'drift', error: unknown, stopped: string, debug: boolean): string {
  const prefix = `catalog-kit ${command}:`;
  // A wrong command line points at the command's --help, as every catalog-kit command's does.
  if (error instanceof UsageError) return `${prefix} ${error.message} (see catalog-kit ${command} --help)\n`;
  if (error instanceof TargetError || error instanceof DocumentError) return `${prefix} ${error.message}\n`;
  if (error instanceof AbortedError) return `${prefix} interrupted; what the run created was removed\n`;
  if (error instanceof TransportError) return `${prefix} ${stopped} stopped answering: ${error.message}\n`;
  const detail = error instanceof Error ? (debug && error.stack) || error.message : String(error);
  return `${prefix} internal error of the suite: ${detail}${debug ? '' : ' (set CK_DEBUG=1 for the stack)'}\n`;
}

/**
 * Ctrl-C during a run (when `enabled`): the first asks the run to stop (`aborted()` turns true, and
 * the run removes what it created before it ends); a second quits at once. `dispose` stops listening.
 */
export function interruptible(err: (text: string) => void, enabled: boolean): { aborted(): boolean; dispose(): void } {
  let aborted = false;
  const onSigint = () => {
    if (aborted) process.exit(2);
    aborted = true;
    err('\ninterrupted: stopping and removing what the run created (Ctrl-C again to quit at once)\n');
  };
  if (enabled) process.on('SIGINT', onSigint);
  return { aborted: () => aborted, dispose: () => void (enabled && process.off('SIGINT', onSigint)) };
}
