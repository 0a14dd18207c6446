import type { InspectionEvent } from 'xstate';
import { redact } from '../domain/redact';

/**
 * The Stately inspector, connected at boot to every actor when `?inspect=1` or VITE_INSPECT=1.
 * It is loaded with import(), so without the flag it never reaches the browser.
 */
export function inspectorWanted(search: string): boolean {
  return import.meta.env.VITE_INSPECT === '1' || new URLSearchParams(search).get('inspect') === '1';
}

export async function loadInspector(): Promise<(event: InspectionEvent) => void> {
  const { createBrowserInspector } = await import('@statelyai/inspect');
  const inspector = createBrowserInspector({
    sanitizeContext: (context) => redact(context),
    sanitizeEvent: (event) => redact(event),
  });
  return inspector.inspect as (event: InspectionEvent) => void;
}
