/**
 * Transition coverage: the transitions each machine declares against those the model-based tests
 * actually took (recorded from @xstate.microstep inspection events into model-tests/.coverage).
 * Prints one line per machine and a total; exits 1 below 100 %.
 */
import { allMachines } from '../machines';
import { readCoverage } from './coverage-store';
import { allTransitionKeys } from './transitions';

const taken = readCoverage();
let covered = 0;
let total = 0;
const missing: string[] = [];
for (const machine of allMachines) {
  const keys = allTransitionKeys(machine);
  const hit = taken.get(machine.id) ?? new Set<string>();
  const c = keys.filter((k) => hit.has(k)).length;
  covered += c;
  total += keys.length;
  console.log(`machine ${machine.id}: ${c}/${keys.length} transitions`);
  for (const k of keys) if (!hit.has(k)) missing.push(`  not taken: ${machine.id}: ${k}`);
}
const percent = total === 0 ? 100 : Math.floor((covered / total) * 10000) / 100;
if (missing.length) console.log(missing.join('\n'));
console.log(`transitions: ${covered}/${total} covered (${percent}%)`);
if (covered < total) process.exit(1);
