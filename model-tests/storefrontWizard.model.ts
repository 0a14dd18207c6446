import { storefrontWizardMachine } from '../machines/storefrontWizard';
import type { MachineModel } from './harness';

const storefront = { id: 's1', name: 'Night Loops', vanityUrl: 'Night-Loops-ab12c' };

export const storefrontWizardModel: MachineModel<typeof storefrontWizardMachine> = {
  machine: storefrontWizardMachine,
  fakes: ['uploadLogo', 'uploadBanner', 'createStorefront'],
  scenarios: [{ name: 'a signed-in creator', input: undefined }],
  events: () => [
    { type: 'wizard.next' },
    { type: 'wizard.back' },
    { type: 'wizard.skip' },
    { type: 'wizard.change', field: 'name', value: 'Night Loops' },
    { type: 'wizard.change', field: 'name', value: 'x' },
    { type: 'wizard.change', field: 'description', value: 'Loops recorded at night.' },
    { type: 'wizard.change', field: 'contactEmail', value: 'hello@example.com' },
    { type: 'wizard.category', value: 'music' },
    { type: 'wizard.theme', value: 'dark' },
    {
      type: 'wizard.file',
      field: 'logo',
      file: new File([new Uint8Array(2048)], 'logo.png', { type: 'image/png' }),
    },
    {
      type: 'wizard.file',
      field: 'banner',
      file: new File([new Uint8Array(4096)], 'banner.jpg', { type: 'image/jpeg' }),
    },
    { type: 'wizard.launch' },
    { type: 'xstate.done.actor.uploadLogo', output: { url: '/media/uploads/u/logo.png' } },
    {
      type: 'xstate.error.actor.uploadLogo',
      error: { body: { code: 'IMAGE_MIN_WIDTH', message: 'narrow' } },
    },
    { type: 'xstate.done.actor.uploadBanner', output: { url: '/media/uploads/u/banner.jpg' } },
    { type: 'xstate.error.actor.uploadBanner', error: { body: { code: 'FILE_SIZE_BIG', message: 'big' } } },
    { type: 'xstate.done.actor.createStorefront', output: storefront },
    {
      type: 'xstate.error.actor.createStorefront',
      error: { body: { code: 'STOREFRONT_NAME_EXISTS', field: 'name', message: 'taken' } },
    },
    {
      type: 'xstate.error.actor.createStorefront',
      error: { body: { code: 'NETWORK_FAILURE', message: 'x' } },
    },
  ],
  // What the guards read: which texts are valid, which files wait for upload, the error's field.
  serializeState: (s) =>
    JSON.stringify([
      s.value,
      s.context.name.trim().length >= 2,
      s.context.description.trim().length >= 2,
      s.context.contactEmail.includes('@'),
      !!s.context.logo && !s.context.logoUrl,
      !!s.context.banner && !s.context.bannerUrl,
      s.context.error?.code ?? null,
      s.context.error?.field ?? null,
    ]),
};
