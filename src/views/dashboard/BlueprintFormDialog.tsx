import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { BlueprintJson } from '#domain/catalog';
import {
  BLUEPRINT_DESCRIPTION,
  BLUEPRINT_QUANTITY,
  BLUEPRINT_ROYALTY,
  BLUEPRINT_TITLE,
} from '#domain/schemas/blueprints';
import {
  type BlueprintFormEvent,
  blueprintDraftKey,
  type blueprintFormMachine,
  connectBlueprintForm,
} from '../../../machines/blueprintForm';
import { useApp } from '../AppContext';
import { Button, ConfirmModal, FileUpload, Modal, TextInput } from '../components';
import { useFlowActor } from '../useFlowActor';

const IMAGE_TYPES = 'image/png,image/jpeg,image/gif';

/** The two files of a product: preview (up to 1 MB) and asset (up to 2 MB), each with "optimize". */
const uploads = [
  {
    field: 'preview',
    url: 'previewImageUrl',
    optimize: 'optimizePreview',
    label: 'Preview image',
    advice: 'A square (1:1) image of 500 × 500 pixels or more looks best.',
    optimizeLabel: 'Optimize the preview (smaller file, same look)',
  },
  {
    field: 'asset',
    url: 'assetUrl',
    optimize: 'optimizeAsset',
    label: 'Asset',
    advice: 'The collectible itself: 1000 × 1000 pixels or more (1:1, 16:9 or 9:16) looks best.',
    optimizeLabel: 'Optimize the asset',
  },
] as const;

/**
 * Add or edit a product. Renders the blueprintForm machine's view model; `onDone(saved)` with the
 * machine's output once it is saved or canceled.
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
  const { drafts } = useApp();
  // A save the session's end interrupted comes back (the dialog's URL is the path signing in returns to).
  const draft = drafts.read(blueprintDraftKey(blueprint));
  const actor = useFlowActor(machine, { blueprint, draft }, (output) => onDone(output.blueprint !== null));
  return <BlueprintFormView actor={actor} />;
}

/** The blueprintForm machine's view model as a dialog. */
export function BlueprintFormView({ actor }: { actor: ActorRefFrom<typeof blueprintFormMachine> }) {
  const snapshot = useSelector(actor, (s) => s);
  const view = connectBlueprintForm(snapshot, (event: BlueprintFormEvent) => actor.send(event));

  const { values, fieldErrors } = view;
  const change = (field: 'title' | 'description' | 'price' | 'quantity' | 'royaltyPercent') => ({
    value: values[field],
    onChange: (e: { target: { value: string } }) => view.change(field, e.target.value),
    error: fieldErrors[field],
  });
  if (view.panel === 'ended') return null;

  return (
    <>
      <Modal
        open={view.panel === 'form'}
        onClose={view.canCancel ? view.cancel : () => {}}
        title={view.title}
        showCloseButton={view.canCancel}
        size="lg"
        footer={
          <>
            <Button variant="secondary" disabled={!view.canCancel} onClick={view.cancel}>
              Cancel
            </Button>
            <Button
              type="submit"
              form="blueprint-form"
              loading={view.busy}
              disabled={!view.busy && !view.canSubmit}
            >
              {view.saveLabel}
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
            view.submit();
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
              value={values.description}
              aria-invalid={!!fieldErrors.description}
              onChange={(e) => view.change('description', e.target.value)}
            />
            {fieldErrors.description && (
              <span className="vt-field__error" role="alert">
                {fieldErrors.description}
              </span>
            )}
          </label>
          <BlueprintNumbers change={change} />
          <BlueprintUploads view={view} />
          {view.status && (
            <p className="vt-muted" role="status">
              {view.status}
            </p>
          )}
          {view.error && (
            <p className="vt-alert vt-alert--error" role="alert">
              {view.error}
            </p>
          )}
        </form>
      </Modal>
      <ConfirmModal
        open={view.panel === 'confirmingCancel'}
        title="Discard changes?"
        message="You have unsaved changes. Leave without saving?"
        confirmLabel="Discard"
        cancelLabel="Keep editing"
        danger
        onConfirm={view.confirmCancel}
        onCancel={view.dismissCancel}
      />
    </>
  );
}

type BlueprintFormViewModel = ReturnType<typeof connectBlueprintForm>;
type NumberField = 'price' | 'quantity' | 'royaltyPercent';

/** Price, editions and royalty, side by side. */
function BlueprintNumbers({
  change,
}: {
  change: (field: NumberField) => {
    value: string;
    onChange: (e: { target: { value: string } }) => void;
    error?: string;
  };
}) {
  return (
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
  );
}

/** The artwork and preview uploads, each with its "optimize" choice. */
function BlueprintUploads({ view }: { view: BlueprintFormViewModel }) {
  const { values, fieldErrors } = view;
  return (
    <div className="vt-blueprint-form__row">
      {uploads.map((u) => (
        <div key={u.field} data-upload={u.field}>
          <FileUpload
            label={u.label}
            accept={IMAGE_TYPES}
            hint={`${view.fileRules[u.field]} ${u.advice}`}
            file={view.files[u.field] as File | null}
            previewUrl={view.urls[u.url] ?? undefined}
            error={fieldErrors[u.url]}
            onFile={(file) => view.chooseFile(u.field, file)}
            onRemove={view.files[u.field] ? () => view.chooseFile(u.field, null) : undefined}
            disabled={view.busy}
          />
          <label className="vt-check">
            <input
              type="checkbox"
              checked={values[u.optimize]}
              onChange={(e) => view.change(u.optimize, e.target.checked)}
            />
            {u.optimizeLabel}
          </label>
        </div>
      ))}
    </div>
  );
}
