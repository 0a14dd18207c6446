import type { InspectionEvent } from 'xstate';

/** The build settings the inspector depends on (Vite's import.meta.env). */
export interface InspectorEnv {
  DEV: boolean;
  VITE_INSPECT?: string;
}

/**
 * The Stately inspector, connected at boot to every actor. It opens a popup to an outside site
 * (stately.ai), so a production build offers it only when built for QA:
 * - development builds (`npm run dev`): when the page is opened with `?inspect=1`;
 * - a production build made with VITE_INSPECT=allow: the same `?inspect=1`;
 * - any build made with VITE_INSPECT=1: always, from boot;
 * - any other production build: never, whatever the address says.
 * It and the redaction are loaded with import(), so without the flag neither reaches the browser.
 */
export function inspectorWanted(search: string, env: InspectorEnv = import.meta.env): boolean {
  if (env.VITE_INSPECT === '1') return true;
  if (!env.DEV && env.VITE_INSPECT !== 'allow') return false;
  return new URLSearchParams(search).get('inspect') === '1';
}

export async function loadInspector(): Promise<(event: InspectionEvent) => void> {
  const [{ createBrowserInspector }, { redact }] = await Promise.all([
    import('@statelyai/inspect'),
    import('#domain/redact'),
  ]);
  const inspector = createBrowserInspector({
    sanitizeContext: (context) => redact(context),
    sanitizeEvent: (event) => redact(event),
  });
  return inspector.inspect as (event: InspectionEvent) => void;
}
