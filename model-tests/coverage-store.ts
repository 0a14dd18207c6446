import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Transitions actually taken by tests, per machine id, written by each test file and merged by coverage.ts. */
export const coverageDir = join(import.meta.dirname, '.coverage');
const taken = new Map<string, Set<string>>();

export function recordTransition(machineId: string, key: string) {
  const set = taken.get(machineId) ?? new Set<string>();
  taken.set(machineId, set);
  set.add(key);
}

export function flushCoverage(label: string) {
  mkdirSync(coverageDir, { recursive: true });
  for (const [machineId, keys] of taken) {
    const file = join(coverageDir, `${machineId}.${label}.${process.pid}.${Date.now()}.json`);
    writeFileSync(file, JSON.stringify({ machineId, keys: [...keys] }));
  }
  taken.clear();
}

export function readCoverage(): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  let files: string[] = [];
  try {
    files = readdirSync(coverageDir).filter((f) => f.endsWith('.json'));
  } catch {
    return out;
  }
  for (const f of files) {
    const { machineId, keys } = JSON.parse(readFileSync(join(coverageDir, f), 'utf8')) as {
      machineId: string;
      keys: string[];
    };
    const set = out.get(machineId) ?? new Set<string>();
    out.set(machineId, set);
    for (const k of keys) set.add(k);
  }
  return out;
}
