import { createFileRoute, lazyRouteComponent } from '@tanstack/react-router';
import { optionalString } from '../-guards';

/** Back from paying a top-up on the crypto provider's page: `topup` names the charge. */
export const Route = createFileRoute('/_authenticated/settings/wallet')({
  validateSearch: optionalString('topup'),
  component: lazyRouteComponent(() => import('../../views/settings/WalletSettings'), 'WalletSettings'),
});
