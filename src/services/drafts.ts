/**
 * Form drafts kept in the tab's session storage, by the form's key ("settings.account",
 * "storefront.<id>", "blueprint.new"): the values of a save the session's end interrupted, read
 * back when the form opens after signing in again, and forgotten once saved or dropped. Never a
 * password or a file. The tab's storage: another tab, or the browser closed, starts clean.
 */
const PREFIX = 'vitrine.draft.';

export const formDrafts = {
  read(key: string): Record<string, unknown> | null {
    try {
      const raw = sessionStorage.getItem(PREFIX + key);
      const value: unknown = raw ? JSON.parse(raw) : null;
      return value && typeof value === 'object' && !Array.isArray(value)
        ? (value as Record<string, unknown>)
        : null;
    } catch {
      return null;
    }
  },
  /** Keeps the values; no values keep nothing. */
  write(key: string, values: Record<string, unknown>) {
    try {
      if (Object.keys(values).length === 0) sessionStorage.removeItem(PREFIX + key);
      else sessionStorage.setItem(PREFIX + key, JSON.stringify(values));
    } catch {
      // Without storage the edit lasts as long as the page.
    }
  },
  clear(key: string) {
    try {
      sessionStorage.removeItem(PREFIX + key);
    } catch {
      // Nothing was kept.
    }
  },
};
