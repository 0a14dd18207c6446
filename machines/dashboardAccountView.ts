import type { SnapshotFrom } from 'xstate';
import { imageRuleHint } from '#domain/assets';
import { categoryLabels, type StorefrontJson } from '#domain/catalog';
import { errorMessage, errorTexts } from '#domain/errors';
import { STOREFRONT_BIO } from '#domain/schemas/storefronts';
import {
  type AccountFile,
  type AccountImageField,
  type AccountTextField,
  type AccountValues,
  accountFieldOrder,
  type DashboardAccountEvent,
  type dashboardAccountMachine,
  imageKinds,
} from './dashboardAccount';

/**
 * Dashboard → Account's view model: the panel, the draft's values and the header preview, each
 * field's error (the first failed check) or the form's, and which of save, discard, the enabled
 * switch and leaving are possible now.
 */
export type AccountPanelState = 'noStorefront' | 'idle' | 'confirmingLeave' | 'saving' | 'toggling';
const ownFields = new Set<string>([...accountFieldOrder, 'logo', 'banner']);

export interface DashboardAccountView {
  panel: AccountPanelState;
  storefront: StorefrontJson | null;
  values: AccountValues;
  files: Record<AccountImageField, AccountFile | null>;
  /** The draft differs from the saved storefront (also what the browser warns about on unload). */
  dirty: boolean;
  busy: boolean;
  /** The header preview: the name (or a placeholder) and the category's label. */
  preview: { name: string; category: string | null };
  /** "12/2000" under the bio. */
  bioCount: string;
  /** Each image's rule in words, and what looks best, under its picker. */
  imageRules: Record<AccountImageField, string>;
  /** The field the error is about (the panel scrolls to it), and its text there. */
  errorField: string | null;
  fieldErrors: Partial<Record<AccountTextField | AccountImageField, string>>;
  /** An error about no field of the form. */
  formError: string | null;
  enabled: boolean;
  enabledHint: string;
  canToggle: boolean;
  canSave: boolean;
  saving: boolean;
  canDiscard: boolean;
  /** The "unsaved changes" question, while it is asked. */
  leaveQuestion: string | null;
  change: <F extends Exclude<keyof AccountValues, 'logoUrl' | 'bannerUrl'>>(
    field: F,
    value: AccountValues[F],
  ) => void;
  chooseFile: (
    field: AccountImageField,
    file: AccountFile,
    size: { width?: number; height?: number },
  ) => void;
  removeFile: (field: AccountImageField) => void;
  save: () => void;
  discard: () => void;
  toggleEnabled: () => void;
  leave: () => void;
  confirmLeave: () => void;
  cancelLeave: () => void;
}

export function connectDashboardAccount(
  snapshot: SnapshotFrom<typeof dashboardAccountMachine>,
  send: (event: DashboardAccountEvent) => void,
): DashboardAccountView {
  const { storefront, draft, dirty, error, logo, banner } = snapshot.context;
  const asking = snapshot.can({ type: 'account.leave.confirm' });
  const panel: AccountPanelState =
    storefront === null
      ? 'noStorefront'
      : asking
        ? 'confirmingLeave'
        : snapshot.hasTag('saving')
          ? 'saving'
          : snapshot.hasTag('toggling')
            ? 'toggling'
            : 'idle';
  const text = error ? errorMessage(error) : null;
  const field = error?.field && ownFields.has(error.field) ? error.field : null;
  return {
    panel,
    storefront,
    values: draft,
    files: { logo, banner },
    dirty,
    busy: snapshot.hasTag('busy'),
    preview: {
      name: draft.name.trim() || 'Your storefront',
      category: draft.category ? categoryLabels[draft.category] : null,
    },
    bioCount: `${draft.description.length}/${STOREFRONT_BIO.max}`,
    imageRules: {
      logo: `${imageRuleHint(imageKinds.logo)} A square (1:1) image looks best.`,
      banner: `${imageRuleHint(imageKinds.banner)} A wide (5:1) image looks best.`,
    },
    errorField: field,
    fieldErrors: field && text ? { [field]: text } : {},
    formError: error && !field ? text : null,
    enabled: storefront?.enabled ?? false,
    enabledHint: storefront?.enabled
      ? 'Your storefront and its items are visible to everyone.'
      : 'Your storefront is disabled: visitors cannot see it or its items.',
    canToggle: snapshot.can({ type: 'account.enabled.toggle' }),
    canSave: snapshot.can({ type: 'account.save' }),
    saving: panel === 'saving',
    canDiscard: snapshot.can({ type: 'account.discard' }),
    leaveQuestion: asking ? errorTexts['dashboard.unsaved']! : null,
    change: (f, value) => send({ type: 'account.change', field: f, value } as DashboardAccountEvent),
    chooseFile: (f, file, size) => send({ type: 'account.file', field: f, file, ...size }),
    removeFile: (f) => send({ type: 'account.file', field: f, file: null }),
    save: () => send({ type: 'account.save' }),
    discard: () => send({ type: 'account.discard' }),
    toggleEnabled: () => send({ type: 'account.enabled.toggle' }),
    leave: () => send({ type: 'account.leave' }),
    confirmLeave: () => send({ type: 'account.leave.confirm' }),
    cancelLeave: () => send({ type: 'account.leave.cancel' }),
  };
}
