import { getRouteApi, Link, useBlocker, useNavigate, useRouter } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import { type RefObject, useCallback, useEffect, useRef } from 'react';
import { type ActorRefFrom, waitFor } from 'xstate';
import { categoryLabels, type StorefrontJson } from '#domain/catalog';
import { type StorefrontCategory, storefrontCategories } from '#domain/enums';
import { STOREFRONT_BIO, STOREFRONT_NAME } from '#domain/schemas/storefronts';
import {
  type AccountImageField,
  type AccountTextField,
  type DashboardAccountEvent,
  type dashboardAccountMachine,
  storefrontDraftKey,
} from '../../../machines/dashboardAccount';
import { connectDashboardAccount, type DashboardAccountView } from '../../../machines/dashboardAccountView';
import { isLoggedIn } from '../../../machines/session';
import { useApp } from '../AppContext';
import { Avatar, Button, ConfirmModal, FileUpload, TextInput, useObjectUrl } from '../components';
import './account.css';

type Actor = ActorRefFrom<typeof dashboardAccountMachine>;

const dashboardRoute = getRouteApi('/_authenticated/dashboard');
const route = getRouteApi('/_authenticated/dashboard/account');

/** /dashboard/account: the account machine for the caller's storefront; a save refreshes the dashboard. */
export function AccountPanel() {
  const { storefront } = dashboardRoute.useLoaderData();
  const { machine } = route.useLoaderData();
  const { inspect, drafts, session } = useApp();
  const router = useRouter();
  // A save the session's end interrupted comes back over the storefront.
  const draft = storefront ? drafts.read(storefrontDraftKey(storefront.id)) : null;
  const actor = useActorRef(machine, { input: { storefront, draft }, inspect });
  const onSaved = useCallback(() => void router.invalidate(), [router]);
  const signedOut = useCallback(() => !isLoggedIn(session.getSnapshot()), [session]);
  return <AccountPanelView actor={actor} onSaved={onSaved} signedOut={signedOut} />;
}

const imageFields: AccountImageField[] = ['logo', 'banner'];

/** The image's size when the browser can decode it; the server checks it again. */
async function imageSize(file: File): Promise<{ width?: number; height?: number }> {
  if (typeof createImageBitmap !== 'function') return {};
  try {
    const bitmap = await createImageBitmap(file);
    const size = { width: bitmap.width, height: bitmap.height };
    bitmap.close?.();
    return size;
  } catch {
    return {};
  }
}

/**
 * Dashboard → Account: edit the storefront with a preview of its header, enable or disable it, or
 * create one. Save and Discard work only when something changed; a failed check scrolls to and
 * focuses its field. Leaving with unsaved changes asks first, and the browser warns on unload.
 */
export function AccountPanelView({
  actor,
  onSaved,
  signedOut = () => false,
}: {
  actor: Actor;
  /** The storefront changed on the server (saved, enabled or disabled). */
  onSaved?: (storefront: StorefrontJson) => void;
  /** The session ended (the page is leaving for sign in). */
  signedOut?: () => boolean;
}) {
  const snapshot = useSelector(actor, (s) => s);
  const view = connectDashboardAccount(snapshot, (event: DashboardAccountEvent) => actor.send(event));
  const navigate = useNavigate();

  const shouldBlockFn = useCallback(async () => {
    const viewOf = (s: typeof snapshot) => connectDashboardAccount(s, actor.send);
    // A save in progress finishes first; then unsaved changes ask. A session that ended goes to
    // sign in without asking: its save kept the draft, which comes back after signing in.
    await waitFor(actor, (s) => !viewOf(s).busy);
    if (signedOut()) return false;
    viewOf(actor.getSnapshot()).leave();
    const answered = await waitFor(actor, (s) => viewOf(s).leaveQuestion === null);
    return viewOf(answered).dirty;
  }, [actor, signedOut]);
  const enableBeforeUnload = useCallback(
    () => connectDashboardAccount(actor.getSnapshot(), actor.send).dirty,
    [actor],
  );
  useBlocker({ shouldBlockFn, enableBeforeUnload });

  // The machine emits every storefront the server answers.
  useEffect(() => {
    const sub = actor.on('account.changed', ({ storefront }) => onSaved?.(storefront));
    return () => sub.unsubscribe();
  }, [actor, onSaved]);

  if (view.panel === 'noStorefront' || !view.storefront)
    return (
      <section className="vt-account" data-state="noStorefront" aria-labelledby="account-title">
        <div className="vt-dashboard__empty">
          <h1 id="account-title" className="vt-page__title">
            You have no storefront yet
          </h1>
          <p>Create one to sell your collectibles: it is free and takes a couple of minutes.</p>
          <Button onClick={() => void navigate({ to: '/create-storefront' })}>Create storefront</Button>
        </div>
      </section>
    );
  return <AccountForm view={view} storefront={view.storefront} />;
}

function AccountForm({ view, storefront }: { view: DashboardAccountView; storefront: StorefrontJson }) {
  const { values: draft, files } = view;
  const root = useRef<HTMLElement>(null);

  const { fieldErrors } = view;
  useFocusFirstError(root, view);

  const chooseImage = (field: AccountImageField) => async (file: File) => {
    view.chooseFile(field, file, await imageSize(file));
  };
  const text = (field: AccountTextField) => ({
    id: `account-${field}`,
    value: draft[field],
    error: fieldErrors[field],
    onChange: (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
      view.change(field, e.target.value),
  });

  return (
    <section ref={root} className="vt-account" data-state={view.panel} aria-labelledby="account-title">
      <div className="vt-dashboard__head">
        <h1 id="account-title" className="vt-page__title">
          Account
        </h1>
        <label className="vt-account__switch">
          <input
            type="checkbox"
            role="switch"
            aria-checked={view.enabled}
            checked={view.enabled}
            disabled={!view.canToggle}
            aria-describedby="account-enabled-hint"
            onChange={view.toggleEnabled}
          />
          <span>Storefront enabled</span>
        </label>
      </div>
      <p id="account-enabled-hint" className="vt-muted">
        {view.enabledHint}
      </p>

      <div className="vt-account__layout">
        <form
          className="vt-account__form vt-card"
          noValidate
          aria-busy={view.busy || undefined}
          onSubmit={(e) => {
            e.preventDefault();
            view.save();
          }}
        >
          <fieldset disabled={view.busy} className="vt-account__fields">
            <div data-field="name">
              <TextInput label="Storefront name" maxLength={STOREFRONT_NAME.max} {...text('name')} />
            </div>
            <BioField view={view} />
            <div data-field="category" className="vt-field">
              <label className="vt-field__label" htmlFor="account-category">
                Category
              </label>
              <select
                id="account-category"
                className="vt-account__select"
                value={draft.category ?? ''}
                onChange={(e) =>
                  view.change('category', (e.target.value || null) as StorefrontCategory | null)
                }
              >
                <option value="">None</option>
                {storefrontCategories.map((c) => (
                  <option key={c} value={c}>
                    {categoryLabels[c]}
                  </option>
                ))}
              </select>
            </div>
            <fieldset data-field="theme" className="vt-account__themes">
              <legend className="vt-field__label">Theme</legend>
              {(['light', 'dark'] as const).map((theme) => (
                <label key={theme} className={`vt-account__theme vt-account__theme--${theme}`}>
                  <input
                    type="radio"
                    name="theme"
                    checked={draft.theme === theme}
                    onChange={() => view.change('theme', theme)}
                  />
                  <span>
                    {theme === 'light' ? 'Light: dark text on white' : 'Dark: white text on near-black'}
                  </span>
                </label>
              ))}
            </fieldset>
            {imageFields.map((field) => (
              <div key={field} data-field={field}>
                <FileUpload
                  label={field === 'logo' ? 'Logo' : 'Banner'}
                  accept="image/png,image/jpeg"
                  file={files[field] as File | null}
                  previewUrl={(field === 'logo' ? draft.logoUrl : draft.bannerUrl) ?? undefined}
                  hint={view.imageRules[field]}
                  error={fieldErrors[field]}
                  disabled={view.busy}
                  onFile={chooseImage(field)}
                  onRemove={() => view.removeFile(field)}
                />
              </div>
            ))}
            <div data-field="contactEmail">
              <TextInput label="Contact email" type="email" autoComplete="email" {...text('contactEmail')} />
            </div>
            <div data-field="vanityUrl">
              <TextInput
                label="Vanity URL"
                startAdornment="/s/"
                maxLength={50}
                hint="2 to 50 letters, digits, underscores or hyphens."
                {...text('vanityUrl')}
              />
            </div>
          </fieldset>
          {view.formError && (
            <p className="vt-form-error" role="alert">
              {view.formError}
            </p>
          )}
          <div className="vt-actions">
            <Button type="button" variant="ghost" disabled={!view.canDiscard} onClick={view.discard}>
              Discard changes
            </Button>
            <Button type="submit" disabled={!view.canSave} loading={view.saving}>
              Save
            </Button>
          </div>
        </form>

        <HeaderPreview view={view} storefront={storefront} />
      </div>

      <ConfirmModal
        open={view.leaveQuestion !== null}
        title="Unsaved changes"
        message={view.leaveQuestion}
        confirmLabel="Leave"
        cancelLabel="Stay"
        danger
        onConfirm={view.confirmLeave}
        onCancel={view.cancelLeave}
      />
    </section>
  );
}

/** The bio: a text area with its count of characters and its error. */
function BioField({ view }: { view: DashboardAccountView }) {
  const { values: draft, fieldErrors } = view;
  return (
    <div data-field="description" className="vt-field">
      <label className="vt-field__label" htmlFor="account-description">
        Bio
      </label>
      <textarea
        className="vt-account__textarea"
        rows={5}
        maxLength={STOREFRONT_BIO.max}
        aria-invalid={!!fieldErrors.description || undefined}
        aria-describedby="account-description-count"
        id="account-description"
        value={draft.description}
        onChange={(e) => view.change('description', e.target.value)}
      />
      <span id="account-description-count" className="vt-field__hint">
        {view.bioCount}
      </span>
      {fieldErrors.description && (
        <p className="vt-field__error" role="alert">
          {fieldErrors.description}
        </p>
      )}
    </div>
  );
}

/** The first failed check scrolls to its field and focuses it. */
function useFocusFirstError(root: RefObject<HTMLElement | null>, view: DashboardAccountView) {
  const { errorField, fieldErrors } = view;
  const errorText = errorField ? fieldErrors[errorField as AccountTextField] : undefined;
  useEffect(() => {
    if (!errorField || !errorText) return;
    const box = root.current?.querySelector<HTMLElement>(`[data-field="${errorField}"]`);
    if (!box) return;
    box.scrollIntoView?.({ block: 'center', behavior: 'smooth' });
    box
      .querySelector<HTMLElement>('input:not([type="file"]), textarea, select, button')
      ?.focus({ preventScroll: true });
  }, [root, errorField, errorText]);
}

/** The storefront's header as the draft makes it (banner, logo, name, category), and its public page. */
function HeaderPreview({ view, storefront }: { view: DashboardAccountView; storefront: StorefrontJson }) {
  const { values: draft, files } = view;
  const logoPreview = useObjectUrl(files.logo as File | null) ?? draft.logoUrl ?? undefined;
  const bannerPreview = useObjectUrl(files.banner as File | null) ?? draft.bannerUrl ?? undefined;
  return (
    <aside className="vt-account__aside" aria-label="Header preview">
      <p className="vt-field__label">Preview</p>
      <div className={`vt-account-preview vt-account-preview--${draft.theme}`} data-theme={draft.theme}>
        <div className="vt-account-preview__banner">
          {bannerPreview && <img src={bannerPreview} alt="" />}
        </div>
        <div className="vt-account-preview__body">
          <span className="vt-account-preview__logo">
            <Avatar src={logoPreview} seed={storefront.id} alt="" size={56} shape="rounded" />
          </span>
          <div>
            <strong data-testid="preview-name">{view.preview.name}</strong>
            {view.preview.category && (
              <span className="vt-account-preview__muted">{view.preview.category}</span>
            )}
          </div>
        </div>
      </div>
      <Link
        to="/s/$vanityUrl"
        params={{ vanityUrl: storefront.vanityUrl }}
        className="vt-button vt-button--secondary vt-button--sm"
      >
        View public page
      </Link>
    </aside>
  );
}
