import type { Log } from '../../../server/clock';
import { createLogger } from '../../../server/log';

// biome-ignore lint/suspicious/noExplicitAny: log lines are read field by field in assertions
export type LogLine = Record<string, any>;

/** The server's JSON logger (server/log.ts) writing into memory: the lines as written, and parsed. */
export function capturedLog(): { log: Log; text(): string; lines(): LogLine[] } {
  const written: string[] = [];
  const log = createLogger({ destination: { write: (line: string) => written.push(line) } });
  return {
    log,
    text: () => written.join(''),
    lines: () => written.map((line) => JSON.parse(line) as LogLine),
  };
}
