/** Writes the report files a run was asked for (`--junit`, `--ctrf`, `--sarif`, `--html`, `--json`), all of them, creating their folders. */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/** The report files of a run, by format. */
export interface ReportFiles {
  junit?: string;
  ctrf?: string;
  sarif?: string;
  html?: string;
  json?: string;
}

export const REPORT_FORMATS = ['junit', 'ctrf', 'sarif', 'html', 'json'] as const;

/** `render` builds each asked format's text, only when asked. */
export async function writeReportFiles(files: ReportFiles, render: Record<keyof ReportFiles, () => string | Promise<string>>): Promise<void> {
  for (const format of REPORT_FORMATS) {
    const file = files[format];
    if (!file) continue;
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, await render[format]());
  }
}
