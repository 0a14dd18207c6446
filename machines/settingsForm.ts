import * as v from 'valibot';
import { assign, fromPromise, type SnapshotFrom, setup } from 'xstate';
import { type ApiErrorBody, ErrorCode, errorMessage, errorTexts, toErrorBody } from '#domain/errors';
import type { SaveResult, SettingsKind } from '#domain/ports/accounts';
import { AccountForm, PasswordForm } from '#domain/schemas/accounts';
import { fieldErrors } from '#domain/validation';

export type { SaveResult, SettingsKind } from '#domain/ports/accounts';

/**
 * A settings section with a view/edit toggle (Settings → Account, Settings → Security's password):
 * edit, validate with the schema the server uses too, save, and close edit mode on success.
 *
 * A save keeps a draft of the values (never a password) in the tab's storage until it succeeds: a
 * save refused because the session ended elsewhere (401) keeps it, the user signs in again, and
 * the form opens in edit mode with those values (input `draft`). Cancel, a saved form or any other
 * refusal forgets it.
 */
const forms = { account: AccountForm, password: PasswordForm } as const;
const fields: Record<SettingsKind, readonly string[]> = {
  account: ['email', 'username', 'firstName', 'lastName', 'oldPassword'],
  password: ['oldPassword', 'newPassword', 'confirm'],
};
/** The values a draft keeps: the account's, never a password. */
const draftFields: Record<SettingsKind, readonly string[]> = {
  account: ['email', 'username', 'firstName', 'lastName'],
  password: [],
};
/** Where a form's draft is kept (see src/services/drafts.ts). */
export const settingsDraftKey = (kind: SettingsKind) => `settings.${kind}`;
/** The draft's values of a form, from what the tab kept (text fields it takes, nothing else). */
export function draftValues(kind: SettingsKind, kept: Record<string, unknown> | null | undefined) {
  const values: Record<string, string> = {};
  for (const field of draftFields[kind]) {
    const value = kept?.[field];
    if (typeof value === 'string') values[field] = value;
  }
  return values;
}
/** A server error about a field of this form shows at the field; any other shows for the form. */
const atField = (kind: SettingsKind, body: ApiErrorBody) => !!body.field && fields[kind].includes(body.field);

export interface SettingsFormContext {
  kind: SettingsKind;
  /** The values last submitted (errors are shown only for non-empty fields). */
  values: Record<string, string>;
  errors: Record<string, ApiErrorBody>;
  error: ApiErrorBody | null;
}
export interface SettingsFormInput {
  kind: SettingsKind;
  /** What the tab kept of a save the session's end interrupted: the form opens with it. */
  draft?: Record<string, unknown> | null;
}
export type SettingsFormEvent =
  | { type: 'settings.edit' }
  | { type: 'settings.cancel' }
  | { type: 'settings.submit'; values: Record<string, string> };

const forgetDraft = {
  type: 'forgetDraft',
  params: ({ context }: { context: SettingsFormContext }) => ({ key: settingsDraftKey(context.kind) }),
} as const;

export const settingsFormMachine = setup({
  types: {
    context: {} as SettingsFormContext,
    events: {} as SettingsFormEvent,
    input: {} as SettingsFormInput,
    tags: {} as 'busy',
  },
  actors: {
    save: fromPromise<SaveResult, { kind: SettingsKind; values: Record<string, unknown> }>(async () => {
      throw new Error('save not provided');
    }),
  },
  actions: {
    /** Hands the saved user (and a fresh token after a password change) to the session; shows "Saved". */
    announceSaved: (_, _params: SaveResult) => {},
    /** Keeps the values in the tab's storage (a form without draft fields keeps nothing). */
    stashDraft: (_, _params: { key: string; values: Record<string, string> }) => {},
    forgetDraft: (_, _params: { key: string }) => {},
  },
  guards: {
    restored: ({ context }) => Object.keys(context.values).length > 0,
    /** The session ended (401): the user signs in again and the draft comes back. */
    signedOut: (_, { error }: { error: unknown }) => toErrorBody(error).code === ErrorCode.UNAUTHORIZED,
    formValid: ({ context, event }) =>
      event.type === 'settings.submit' && v.safeParse(forms[context.kind], event.values).success,
  },
}).createMachine({
  id: 'settingsForm',
  context: ({ input }) => ({
    kind: input.kind,
    values: draftValues(input.kind, input.draft),
    errors: {},
    error: null,
  }),
  initial: 'opening',
  states: {
    /** A kept draft opens the form in edit mode with its values. */
    opening: {
      always: [{ guard: 'restored', target: 'editing' }, { target: 'viewing' }],
    },
    viewing: {
      on: {
        'settings.edit': { target: 'editing', actions: assign({ values: {}, errors: {}, error: null }) },
      },
    },
    editing: {
      on: {
        'settings.cancel': {
          target: 'viewing',
          actions: [assign({ values: {}, errors: {}, error: null }), forgetDraft],
        },
        'settings.submit': [
          {
            guard: 'formValid',
            target: 'saving',
            actions: [
              assign({ values: ({ event }) => event.values, errors: {}, error: null }),
              {
                type: 'stashDraft',
                params: ({ context }) => ({
                  key: settingsDraftKey(context.kind),
                  values: draftValues(context.kind, context.values),
                }),
              },
            ],
          },
          {
            actions: assign(({ context, event }) => {
              const r = v.safeParse(forms[context.kind], event.values);
              return { values: event.values, errors: r.success ? {} : fieldErrors(r.issues), error: null };
            }),
          },
        ],
      },
    },
    saving: {
      tags: ['busy'],
      invoke: {
        id: 'save',
        src: 'save',
        input: ({ context }) => {
          const out = v.parse(forms[context.kind], context.values) as Record<string, unknown>;
          const { confirm: _c, ...values } = out;
          return { kind: context.kind, values };
        },
        onDone: {
          target: 'viewing',
          actions: [
            { type: 'announceSaved', params: ({ event }) => event.output },
            assign({ values: {} }),
            forgetDraft,
          ],
        },
        onError: [
          // The page goes to sign in (the session's 401 handling); the draft waits for the user.
          {
            guard: { type: 'signedOut', params: ({ event }) => ({ error: event.error }) },
            target: 'editing',
          },
          {
            target: 'editing',
            actions: [
              assign(({ context, event }) => {
                const body = toErrorBody(event.error);
                return atField(context.kind, body)
                  ? { errors: { [body.field!]: body }, error: null }
                  : { errors: {}, error: body };
              }),
              forgetDraft,
            ],
          },
        ],
      },
    },
  },
});

/** What a settings section shows: view or edit mode, its errors and whether it saves. */
export interface SettingsFormView {
  mode: 'viewing' | 'editing';
  busy: boolean;
  canEdit: boolean;
  canCancel: boolean;
  /** The values the form opens with in edit mode (a restored draft, the last submitted values). */
  values: Record<string, string>;
  /** The message beside each field. */
  fieldErrors: Record<string, string>;
  /** "Please fill in all the required information", once for all empty required fields. */
  required: string | null;
  error: string | null;
  edit: () => void;
  cancel: () => void;
  submit: (values: Record<string, string>) => void;
}

/**
 * The account form shows a field's error only when the field is not empty; empty required fields
 * are reported once, under the form. The password form shows every field's error.
 */
export function connectSettingsForm(
  snapshot: SnapshotFrom<typeof settingsFormMachine>,
  send: (event: SettingsFormEvent) => void,
): SettingsFormView {
  const { kind, values, errors, error } = snapshot.context;
  const fieldErrors: Record<string, string> = {};
  let required = false;
  for (const [field, err] of Object.entries(errors)) {
    if (kind === 'password' || (values[field] ?? '').trim() !== '')
      fieldErrors[field] = err.message || errorMessage(err);
    else required = true;
  }
  const busy = snapshot.hasTag('busy');
  const canEdit = snapshot.can({ type: 'settings.edit' });
  return {
    mode: canEdit ? 'viewing' : 'editing',
    busy,
    canEdit,
    canCancel: snapshot.can({ type: 'settings.cancel' }),
    values,
    fieldErrors,
    required: required ? errorTexts['errors.required']! : null,
    error: error ? errorMessage(error) : null,
    edit: () => send({ type: 'settings.edit' }),
    cancel: () => send({ type: 'settings.cancel' }),
    submit: (submitted) => send({ type: 'settings.submit', values: submitted }),
  };
}
