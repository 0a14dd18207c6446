import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { assetRules } from '#domain/assets';
import { categoryLabels } from '#domain/catalog';
import { storefrontCategories } from '#domain/enums';
import { errorMessage } from '#domain/errors';
import { STOREFRONT_BIO } from '#domain/schemas/storefronts';
import type { storefrontWizardMachine } from '../../../machines/storefrontWizard';
import { Button, FileUpload, Spinner, TextInput } from '../components';
import './wizard.css';

type Actor = ActorRefFrom<typeof storefrontWizardMachine>;

const steps = ['landing', 'name', 'bio', 'category', 'logo', 'banner', 'theme', 'email'] as const;
export type WizardStep = (typeof steps)[number];

/** The step a wizard state shows (the loading screen while creating). */
export function wizardStep(value: unknown): WizardStep | 'creating' | 'created' {
  if (typeof value === 'string' && (steps as readonly string[]).includes(value)) return value as WizardStep;
  return value === 'created' ? 'created' : 'creating';
}

/**
 * The storefront creation wizard (SPEC §2): one screen per step, Back and Continue, "Skip for now"
 * on category, logo, banner and theme, Launch on the last step, then a loading screen.
 */
export function StorefrontWizardView({ actor }: { actor: Actor }) {
  const step = useSelector(actor, (s) => wizardStep(s.value));
  const ctx = useSelector(actor, (s) => s.context);
  const send = actor.send;
  const error = ctx.error ? errorMessage(ctx.error) : undefined;
  const index = (steps as readonly string[]).indexOf(step);

  if (step === 'creating' || step === 'created')
    return (
      <section className="vt-wizard vt-wizard--loading" aria-busy="true" data-step="creating">
        <Spinner size="lg" label="Creating your storefront" />
        <h1>Launching {ctx.name.trim()}…</h1>
        <p className="vt-muted">Uploading your images and opening your storefront.</p>
      </section>
    );

  const nav = (opts: { skip?: boolean; next?: string } = {}) => (
    <div className="vt-wizard__actions">
      {step !== 'landing' && (
        <Button variant="secondary" type="button" onClick={() => send({ type: 'wizard.back' })}>
          Back
        </Button>
      )}
      {opts.skip && (
        <Button variant="ghost" type="button" onClick={() => send({ type: 'wizard.skip' })}>
          Skip for now
        </Button>
      )}
      <Button type="submit">{opts.next ?? 'Continue'}</Button>
    </div>
  );
  const submit = (type: 'wizard.next' | 'wizard.launch') => (e: React.FormEvent) => {
    e.preventDefault();
    send({ type });
  };

  return (
    <section className="vt-wizard" data-step={step}>
      {step !== 'landing' && (
        <p className="vt-eyebrow">
          Step {index} of {steps.length - 1}
        </p>
      )}
      {step === 'landing' && (
        <form onSubmit={submit('wizard.next')}>
          <h1>Open your storefront</h1>
          <p className="vt-lead">
            Sell your collectibles from your own storefront: free, with a name, a bio, your logo and banner,
            and a light or dark theme. It takes a couple of minutes.
          </p>
          {nav({ next: 'Get started' })}
        </form>
      )}
      {step === 'name' && (
        <form onSubmit={submit('wizard.next')} noValidate>
          <h1>Name your storefront</h1>
          <TextInput
            label="Storefront name"
            value={ctx.name}
            maxLength={50}
            error={ctx.error?.field === 'name' ? error : undefined}
            hint="2 to 50 characters. Collectors see it on your storefront and your items."
            onChange={(e) => send({ type: 'wizard.change', field: 'name', value: e.target.value })}
          />
          {nav()}
        </form>
      )}
      {step === 'bio' && (
        <form onSubmit={submit('wizard.next')} noValidate>
          <h1>Tell collectors about you</h1>
          <div className="vt-field">
            <label className="vt-field__label" htmlFor="wizard-bio">
              Bio
            </label>
            <textarea
              id="wizard-bio"
              className="vt-textarea"
              rows={6}
              maxLength={STOREFRONT_BIO.max}
              value={ctx.description}
              aria-invalid={ctx.error?.field === 'description' || undefined}
              aria-describedby="wizard-bio-count"
              onChange={(e) => send({ type: 'wizard.change', field: 'description', value: e.target.value })}
            />
            <span id="wizard-bio-count" className="vt-field__hint">
              {ctx.description.length}/{STOREFRONT_BIO.max}
            </span>
            {ctx.error?.field === 'description' && (
              <p className="vt-field__error" role="alert">
                {error}
              </p>
            )}
          </div>
          {nav()}
        </form>
      )}
      {step === 'category' && (
        <form onSubmit={submit('wizard.next')}>
          <h1>Pick a category</h1>
          <fieldset className="vt-wizard__choices">
            <legend className="vt-field__label">Category</legend>
            {storefrontCategories.map((c) => (
              <label key={c} className="vt-wizard__choice">
                <input
                  type="radio"
                  name="category"
                  checked={ctx.category === c}
                  onChange={() => send({ type: 'wizard.category', value: c })}
                />
                <span>{categoryLabels[c]}</span>
              </label>
            ))}
          </fieldset>
          {nav({ skip: true })}
        </form>
      )}
      {(step === 'logo' || step === 'banner') && (
        <form onSubmit={submit('wizard.next')}>
          <h1>{step === 'logo' ? 'Add your logo' : 'Add a banner'}</h1>
          <FileUpload
            label={step === 'logo' ? 'Logo' : 'Banner'}
            accept="image/png,image/jpeg"
            maxBytes={assetRules[step === 'logo' ? 'storefrontLogo' : 'storefrontBanner'].maxBytes}
            file={(step === 'logo' ? ctx.logo : ctx.banner) as File | null}
            hint={
              step === 'logo'
                ? 'PNG or JPG, square (1:1), at least 300×300, up to 1 MB.'
                : 'PNG or JPG, wide (5:1), at least 1440×280, up to 2 MB.'
            }
            error={ctx.error?.field === step ? error : undefined}
            onFile={(file) => send({ type: 'wizard.file', field: step, file })}
            onRemove={() => send({ type: 'wizard.file', field: step, file: null })}
          />
          {nav({ skip: true })}
        </form>
      )}
      {step === 'theme' && (
        <form onSubmit={submit('wizard.next')}>
          <h1>Choose a theme</h1>
          <fieldset className="vt-wizard__choices vt-wizard__themes">
            <legend className="vt-field__label">Theme</legend>
            {(['light', 'dark'] as const).map((theme) => (
              <label key={theme} className={`vt-wizard__choice vt-wizard__theme--${theme}`}>
                <input
                  type="radio"
                  name="theme"
                  checked={ctx.theme === theme}
                  onChange={() => send({ type: 'wizard.theme', value: theme })}
                />
                <span>
                  {theme === 'light' ? 'Light: dark text on white' : 'Dark: white text on near-black'}
                </span>
              </label>
            ))}
          </fieldset>
          {nav({ skip: true })}
        </form>
      )}
      {step === 'email' && (
        <form onSubmit={submit('wizard.launch')} noValidate>
          <h1>How can collectors reach you?</h1>
          <TextInput
            label="Contact email"
            type="email"
            autoComplete="email"
            value={ctx.contactEmail}
            error={ctx.error?.field === 'contactEmail' ? error : undefined}
            onChange={(e) => send({ type: 'wizard.change', field: 'contactEmail', value: e.target.value })}
          />
          {ctx.error &&
            !['contactEmail', 'name', 'description', 'logo', 'banner'].includes(ctx.error.field ?? '') && (
              <p className="vt-alert vt-alert--error" role="alert">
                {error}
              </p>
            )}
          {nav({ next: 'Launch' })}
        </form>
      )}
    </section>
  );
}
