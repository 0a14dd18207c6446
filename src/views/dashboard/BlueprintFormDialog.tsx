import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useRef } from 'react';
import type { ActorRefFrom } from 'xstate';
import { assetRules } from '#domain/assets';
import type { BlueprintJson } from '#domain/catalog';
import { errorMessage } from '#domain/errors';
import {
  BLUEPRINT_DESCRIPTION,
  BLUEPRINT_QUANTITY,
  BLUEPRINT_ROYALTY,
  BLUEPRINT_TITLE,
} from '#domain/schemas/blueprints';
import type { blueprintFormMachine } from '../../../machines/blueprintForm';
import { useApp } from '../AppContext';
import { Button, ConfirmModal, FileUpload, Modal, TextInput } from '../components';

const IMAGE_TYPES = 'image/png,image/jpeg,image/gif';

/** The two files of a product (SPEC §5): preview (≤ 1 MB) and asset (≤ 2 MB), each with "optimize". */
const uploads = [
  {
    field: 'preview',
    url: 'previewImageUrl',
    assetKind: 'blueprintPreviewImage',
    optimize: 'optimizePreview',
    label: 'Preview image',
    hint: 'PNG, JPG or GIF, square (1:1), at least 500×500 recommended (200×200 minimum), up to 1 MB.',
    optimizeLabel: 'Optimize the preview (smaller file, same look)',
  },
  {
    field: 'asset',
    url: 'assetUrl',
    assetKind: 'blueprintAsset',
    optimize: 'optimizeAsset',
    label: 'Asset',
    hint: 'The collectible itself: PNG, JPG or GIF, at least 1000×1000 recommended (1:1, 16:9 or 9:16), up to 2 MB.',
    optimizeLabel: 'Optimize the asset',
  },
] as const;

/**
 * Add or edit a product (SPEC §5 Blueprint form). Renders the blueprintForm machine; `onDone(saved)`
 * once it is saved or canceled.
 */
export function BlueprintFormDialog({
  machine,
  blueprint,
  onDone,
}: {
  machine: typeof blueprintFormMachine;
  blueprint: BlueprintJson | null;
  onDone: (saved: boolean) => void;
}) {
  const { inspect } = useApp();
  const actor = useActorRef(machine, { input: { blueprint }, inspect });
  return <BlueprintFormView actor={actor} onDone={onDone} />;
}

/** The blueprintForm machine's states as a dialog. */
export function BlueprintFormView({
  actor,
  onDone,
}: {
  actor: ActorRefFrom<typeof blueprintFormMachine>;
  onDone: (saved: boolean) => void;
}) {
  const state = useSelector(actor, (s) => s.value);
  const ctx = useSelector(actor, (s) => s.context);
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const send = actor.send;
  // Once per dialog, whatever the parent re-renders.
  const told = useRef(false);
  useEffect(() => {
    if ((state === 'saved' || state === 'canceled') && !told.current) {
      told.current = true;
      onDone(state === 'saved');
    }
  }, [state, onDone]);

  const fieldError = (field: string) => (ctx.errors[field] ? errorMessage(ctx.errors[field]) : undefined);
  const change = (field: 'title' | 'description' | 'price' | 'quantity' | 'royaltyPercent') => ({
    value: ctx.values[field],
    onChange: (e: { target: { value: string } }) =>
      send({ type: 'form.change', field, value: e.target.value }),
    error: fieldError(field),
  });
  const uploading =
    typeof state === 'object' && 'saving' in state
      ? ((
          { uploadingPreview: 'Uploading the preview…', uploadingAsset: 'Uploading the asset…' } as Record<
            string,
            string
          >
        )[String(state.saving)] ?? 'Saving…')
      : null;

  return (
    <>
      <Modal
        open={state !== 'confirmingCancel'}
        onClose={busy ? () => {} : () => send({ type: 'form.cancel' })}
        title={ctx.blueprint ? 'Edit product' : 'Add product'}
        showCloseButton={!busy}
        size="lg"
        footer={
          <>
            <Button variant="secondary" disabled={busy} onClick={() => send({ type: 'form.cancel' })}>
              Cancel
            </Button>
            <Button type="submit" form="blueprint-form" loading={busy}>
              {ctx.blueprint ? 'Save changes' : 'Save draft'}
            </Button>
          </>
        }
      >
        <form
          id="blueprint-form"
          className="vt-form vt-blueprint-form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            send({ type: 'form.submit' });
          }}
        >
          <TextInput label="Title" maxLength={BLUEPRINT_TITLE.max} required {...change('title')} />
          <label className="vt-field">
            <span className="vt-field__label">Description</span>
            <textarea
              className="vt-textarea"
              rows={4}
              maxLength={BLUEPRINT_DESCRIPTION.max}
              required
              value={ctx.values.description}
              aria-invalid={!!fieldError('description')}
              onChange={(e) => send({ type: 'form.change', field: 'description', value: e.target.value })}
            />
            {fieldError('description') && (
              <span className="vt-field__error" role="alert">
                {fieldError('description')}
              </span>
            )}
          </label>
          <div className="vt-blueprint-form__row">
            <TextInput
              label="Price (USD)"
              type="number"
              inputMode="decimal"
              min={0}
              max={10000}
              step={0.01}
              startAdornment="$"
              required
              {...change('price')}
            />
            <TextInput
              label="Editions"
              type="number"
              inputMode="numeric"
              min={BLUEPRINT_QUANTITY.min}
              max={BLUEPRINT_QUANTITY.max}
              step={1}
              required
              {...change('quantity')}
            />
            <TextInput
              label="Royalty on resales (%)"
              type="number"
              inputMode="decimal"
              min={BLUEPRINT_ROYALTY.min}
              max={BLUEPRINT_ROYALTY.max}
              step={0.5}
              {...change('royaltyPercent')}
            />
          </div>
          <div className="vt-blueprint-form__row">
            {uploads.map((u) => (
              <div key={u.field} data-upload={u.field}>
                <FileUpload
                  label={u.label}
                  accept={IMAGE_TYPES}
                  maxBytes={assetRules[u.assetKind].maxBytes}
                  hint={u.hint}
                  file={ctx.files[u.field] as File | null}
                  previewUrl={ctx.urls[u.url] ?? undefined}
                  error={fieldError(u.url)}
                  onFile={(file) => send({ type: 'form.file', field: u.field, file })}
                  onRemove={
                    ctx.files[u.field]
                      ? () => send({ type: 'form.file', field: u.field, file: null })
                      : undefined
                  }
                  disabled={busy}
                />
                <label className="vt-check">
                  <input
                    type="checkbox"
                    checked={ctx.values[u.optimize]}
                    onChange={(e) =>
                      send({ type: 'form.change', field: u.optimize, value: e.target.checked })
                    }
                  />
                  {u.optimizeLabel}
                </label>
              </div>
            ))}
          </div>
          {uploading && (
            <p className="vt-muted" role="status">
              {uploading}
            </p>
          )}
          {ctx.error && (
            <p className="vt-alert vt-alert--error" role="alert">
              {errorMessage(ctx.error)}
            </p>
          )}
        </form>
      </Modal>
      <ConfirmModal
        open={state === 'confirmingCancel'}
        title="Discard changes?"
        message="You have unsaved changes. Leave without saving?"
        confirmLabel="Discard"
        cancelLabel="Keep editing"
        danger
        onConfirm={() => send({ type: 'form.cancel.confirm' })}
        onCancel={() => send({ type: 'form.cancel.dismiss' })}
      />
    </>
  );
}
