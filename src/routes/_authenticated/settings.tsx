import { createFileRoute, lazyRouteComponent } from '@tanstack/react-router';

/** Settings: the flows of every tab load with the layout. */
export const Route = createFileRoute('/_authenticated/settings')({
  loader: async ({ context }) => ({
    settingsForm: await context.app.flows.settingsForm(),
    kyc: await context.app.flows.kyc(),
    walletLink: await context.app.flows.walletLink(),
    collectionCheck: await context.app.flows.collectionCheck(),
    fusdBalance: await context.app.flows.fusdBalance(),
    cryptoTopup: await context.app.flows.cryptoTopup(),
    walletAvailable: await context.app.walletAvailable(),
  }),
  component: lazyRouteComponent(() => import('../../views/settings/SettingsLayout'), 'SettingsLayout'),
});
