import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { categoryLabels } from '#domain/catalog';
import { storefrontCategories } from '#domain/enums';
import { STOREFRONT_BIO } from '#domain/schemas/storefronts';
import {
  connectStorefrontWizard,
  type StorefrontWizardEvent,
  type storefrontWizardMachine,
  type StorefrontWizardView as WizardView,
} from '../../../machines/storefrontWizard';
import { Button, FileUpload, Spinner, TextInput } from '../components';
import './wizard.css';

type Actor = ActorRefFrom<typeof storefrontWizardMachine>;

/**
 * The storefront creation wizard: one screen per step, Back and Continue, "Skip for now" on
 * category, logo, banner and theme, Launch on the last step, then a loading screen.
 */
export function StorefrontWizardView({ actor }: { actor: Actor }) {
  const snapshot = useSelector(actor, (s) => s);
  const view = connectStorefrontWizard(snapshot, (event: StorefrontWizardEvent) => actor.send(event));
  const { step } = view;
  const error = view.fieldError ?? undefined;

  if (step === 'creating' || step === 'created')
    return (
      <section className="vt-wizard vt-wizard--loading" aria-busy="true" data-step="creating">
        <Spinner size="lg" label="Creating your storefront" />
        <h1>{view.launching}</h1>
        <p className="vt-muted">Uploading your images and opening your storefront.</p>
      </section>
    );

  const nav = <WizardNav view={view} />;
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    view.submit();
  };

  return (
    <section className="vt-wizard" data-step={step}>
      {view.progress && <p className="vt-eyebrow">{view.progress}</p>}
      {step === 'landing' && (
        <form onSubmit={submit}>
          <h1>Open your storefront</h1>
          <p className="vt-lead">
            Sell your collectibles from your own storefront: free, with a name, a bio, your logo and banner,
            and a light or dark theme. It takes a couple of minutes.
          </p>
          {nav}
        </form>
      )}
      {step === 'name' && (
        <form onSubmit={submit} noValidate>
          <h1>Name your storefront</h1>
          <TextInput
            label="Storefront name"
            value={view.name}
            maxLength={50}
            error={error}
            hint="2 to 50 characters. Collectors see it on your storefront and your items."
            onChange={(e) => view.change('name', e.target.value)}
          />
          {nav}
        </form>
      )}
      {step === 'bio' && (
        <form onSubmit={submit} noValidate>
          <h1>Tell collectors about you</h1>
          <BioField view={view} error={error} />
          {nav}
        </form>
      )}
      {step === 'category' && (
        <form onSubmit={submit}>
          <h1>Pick a category</h1>
          <fieldset className="vt-wizard__choices">
            <legend className="vt-field__label">Category</legend>
            {storefrontCategories.map((c) => (
              <label key={c} className="vt-wizard__choice">
                <input
                  type="radio"
                  name="category"
                  checked={view.category === c}
                  onChange={() => view.chooseCategory(c)}
                />
                <span>{categoryLabels[c]}</span>
              </label>
            ))}
          </fieldset>
          {nav}
        </form>
      )}
      {(step === 'logo' || step === 'banner') && (
        <form onSubmit={submit}>
          <h1>{step === 'logo' ? 'Add your logo' : 'Add a banner'}</h1>
          <FileUpload
            key={step}
            label={step === 'logo' ? 'Logo' : 'Banner'}
            accept="image/png,image/jpeg"
            file={view.file as File | null}
            hint={view.imageRule}
            error={error}
            onFile={(file) => view.chooseFile(file)}
            onRemove={() => view.chooseFile(null)}
          />
          {view.checking && (
            <p className="vt-muted" role="status">
              {view.checking}
            </p>
          )}
          {nav}
        </form>
      )}
      {step === 'theme' && (
        <form onSubmit={submit}>
          <h1>Choose a theme</h1>
          <fieldset className="vt-wizard__choices vt-wizard__themes">
            <legend className="vt-field__label">Theme</legend>
            {(['light', 'dark'] as const).map((theme) => (
              <label key={theme} className={`vt-wizard__choice vt-wizard__theme--${theme}`}>
                <input
                  type="radio"
                  name="theme"
                  checked={view.theme === theme}
                  onChange={() => view.chooseTheme(theme)}
                />
                <span>
                  {theme === 'light' ? 'Light: dark text on white' : 'Dark: white text on near-black'}
                </span>
              </label>
            ))}
          </fieldset>
          {nav}
        </form>
      )}
      {step === 'email' && (
        <form onSubmit={submit} noValidate>
          <h1>How can collectors reach you?</h1>
          <TextInput
            label="Contact email"
            type="email"
            autoComplete="email"
            value={view.contactEmail}
            error={error}
            onChange={(e) => view.change('contactEmail', e.target.value)}
          />
          {view.formError && (
            <p className="vt-alert vt-alert--error" role="alert">
              {view.formError}
            </p>
          )}
          {nav}
        </form>
      )}
    </section>
  );
}

/** The bio: a text area with its count of characters and its error. */
function BioField({ view, error }: { view: WizardView; error: string | undefined }) {
  return (
    <div className="vt-field">
      <label className="vt-field__label" htmlFor="wizard-bio">
        Bio
      </label>
      <textarea
        id="wizard-bio"
        className="vt-textarea"
        rows={6}
        maxLength={STOREFRONT_BIO.max}
        value={view.description}
        aria-invalid={!!error || undefined}
        aria-describedby="wizard-bio-count"
        onChange={(e) => view.change('description', e.target.value)}
      />
      <span id="wizard-bio-count" className="vt-field__hint">
        {view.bioCount}
      </span>
      {error && (
        <p className="vt-field__error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/** Back, "Skip for now" and Continue (or Launch), each where the step has it. */
function WizardNav({ view }: { view: WizardView }) {
  return (
    <div className="vt-wizard__actions">
      {view.canBack && (
        <Button variant="secondary" type="button" onClick={view.back}>
          Back
        </Button>
      )}
      {view.canSkip && (
        <Button variant="ghost" type="button" onClick={view.skip}>
          Skip for now
        </Button>
      )}
      <Button type="submit" disabled={!view.canSubmit}>
        {view.submitLabel}
      </Button>
    </div>
  );
}
