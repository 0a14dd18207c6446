import * as v from 'valibot';
import { assign, fromPromise, type SnapshotFrom, setup } from 'xstate';
import { type ApiErrorBody, errorMessage, errorTexts, toErrorBody } from '#domain/errors';
import type { SaveResult, SettingsKind } from '#domain/ports/accounts';
import { AccountForm, PasswordForm } from '#domain/schemas/accounts';
import { fieldErrors } from '#domain/validation';

export type { SaveResult, SettingsKind } from '#domain/ports/accounts';

/**
 * A settings section with a view/edit toggle (Settings → Account, Settings → Security's password):
 * edit, validate with the schema the server uses too, save, and close edit mode on success.
 */
const forms = { account: AccountForm, password: PasswordForm } as const;
const fields: Record<SettingsKind, readonly string[]> = {
  account: ['email', 'username', 'firstName', 'lastName', 'oldPassword'],
  password: ['oldPassword', 'newPassword', 'confirm'],
};
/** A server error about a field of this form shows at the field; any other shows for the form. */
const atField = (kind: SettingsKind, body: ApiErrorBody) => !!body.field && fields[kind].includes(body.field);

export interface SettingsFormContext {
  kind: SettingsKind;
  /** The values last submitted (errors are shown only for non-empty fields). */
  values: Record<string, string>;
  errors: Record<string, ApiErrorBody>;
  error: ApiErrorBody | null;
}
export type SettingsFormEvent =
  | { type: 'settings.edit' }
  | { type: 'settings.cancel' }
  | { type: 'settings.submit'; values: Record<string, string> };

export const settingsFormMachine = setup({
  types: {
    context: {} as SettingsFormContext,
    events: {} as SettingsFormEvent,
    input: {} as { kind: SettingsKind },
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
  },
  guards: {
    formValid: ({ context, event }) =>
      event.type === 'settings.submit' && v.safeParse(forms[context.kind], event.values).success,
  },
}).createMachine({
  id: 'settingsForm',
  context: ({ input }) => ({ kind: input.kind, values: {}, errors: {}, error: null }),
  initial: 'viewing',
  states: {
    viewing: {
      on: {
        'settings.edit': { target: 'editing', actions: assign({ values: {}, errors: {}, error: null }) },
      },
    },
    editing: {
      on: {
        'settings.cancel': { target: 'viewing', actions: assign({ values: {}, errors: {}, error: null }) },
        'settings.submit': [
          {
            guard: 'formValid',
            target: 'saving',
            actions: assign({ values: ({ event }) => event.values, errors: {}, error: null }),
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
          actions: [{ type: 'announceSaved', params: ({ event }) => event.output }, assign({ values: {} })],
        },
        onError: {
          target: 'editing',
          actions: assign(({ context, event }) => {
            const body = toErrorBody(event.error);
            return atField(context.kind, body)
              ? { errors: { [body.field!]: body }, error: null }
              : { errors: {}, error: body };
          }),
        },
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
    fieldErrors,
    required: required ? errorTexts['errors.required']! : null,
    error: error ? errorMessage(error) : null,
    edit: () => send({ type: 'settings.edit' }),
    cancel: () => send({ type: 'settings.cancel' }),
    submit: (submitted) => send({ type: 'settings.submit', values: submitted }),
  };
}
