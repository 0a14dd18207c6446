/**
 * Reading settings from the environment: an integer within its range, an on/off switch (unset: the
 * default), a provider's mode, and settings that go together.
 */

export function integer(
  name: string,
  raw: string | undefined,
  fallback: number,
  min: number,
  max: number,
): number {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new Error(`${name} must be an integer from ${min} to ${max}`);
  return n;
}

export function onOff(name: string, raw: string | undefined): boolean | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (raw === 'on' || raw === 'off') return raw === 'on';
  throw new Error(`${name} must be on or off`);
}

/**
 * A provider's mode: its switch (`<name>`: embedded, the real one's name, or off) when set. Unset,
 * with the embedded world (VITRINE_EMBEDDED=on) it is the sandbox, or the real provider once its URL
 * setting is given; without it, the real provider once any of its settings is given (the rest are
 * then required), else off. The sandbox is refused without the embedded world.
 */
export function providerMode<Real extends string>(
  env: NodeJS.ProcessEnv,
  name: string,
  real: Real,
  settings: { all: readonly string[]; url?: string },
  embedded: boolean,
): 'embedded' | Real | 'off' {
  const raw = env[name];
  if (raw && raw !== 'embedded' && raw !== real && raw !== 'off')
    throw new Error(`${name} must be embedded, ${real} or off`);
  if (raw === 'embedded' && !embedded)
    throw new Error(`${name}=embedded starts a sandbox: not with VITRINE_EMBEDDED=off`);
  if (raw) return raw as 'embedded' | Real | 'off';
  if (embedded) return settings.url && env[settings.url] ? real : 'embedded';
  return settings.all.some((setting) => env[setting]) ? real : 'off';
}

/** A line naming each of the settings that is not given. */
export function missing(env: NodeJS.ProcessEnv, names: readonly string[], why: string): string[] {
  return names.filter((name) => !env[name]).map((name) => `${name} is required ${why}`);
}

/** The values of settings that must all be given; else every missing one is named, one per line. */
export function required(env: NodeJS.ProcessEnv, names: readonly string[], why: string): string[] {
  const lines = missing(env, names, why);
  if (lines.length > 0) throw new Error(lines.join('\n'));
  return names.map((name) => env[name]!);
}
