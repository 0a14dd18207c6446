import { useSelector } from '@xstate/react';
import { useApp } from '../AppContext';

/** Settings → Wallet: the account's email and linked Flow address. */
export function WalletSettings() {
  const { session } = useApp();
  const user = useSelector(session, (s) => s.context.user);
  if (!user) return null;
  return (
    <section className="vt-card">
      <h2>Wallet</h2>
      <dl className="vt-dl">
        <dt>Email</dt>
        <dd>{user.email}</dd>
        <dt>Flow address</dt>
        <dd className="vt-mono">{user.wallet.walletAddress ?? 'No wallet linked yet'}</dd>
      </dl>
    </section>
  );
}
