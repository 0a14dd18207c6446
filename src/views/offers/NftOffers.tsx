import { useRouter } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { Suspense, useEffect, useState } from 'react';
import { type NftJson, saleRates } from '#domain/nft';
import type { OfferPage } from '#domain/responses/offers';
import { offerRows } from '../../../machines/offerRows';
import { useApp } from '../AppContext';
import { Button } from '../components';
import { OfferDialog, OfferList } from './OfferList';
import { useOfferDialogs } from './useOfferDialogs';

/**
 * The Offers section of an NFT's page: its offers, newest first (at most 50), and "Make offer" for
 * anyone but its owner once the NFT is on chain (a visitor is asked to sign in; a user without a
 * linked wallet is told to link one). The owner accepts an open offer; a buyer cancels theirs. The
 * offers are read in the browser after the page shows: when they cannot be read the section stays out.
 */
export function NftOffers({ nft }: { nft: NftJson }) {
  const app = useApp();
  const router = useRouter();
  const user = useSelector(app.session, (s) => s.context.user);
  const [page, setPage] = useState<OfferPage | null>(null);
  const [version, setVersion] = useState(0);
  const [walletNeeded, setWalletNeeded] = useState(false);
  const wallet = user?.wallet.walletAddress || null;
  const isOwner = !!user && (nft.owner.id === user.id || nft.owner.wallet.walletAddress === wallet);
  const dialogs = useOfferDialogs(wallet, user?.kyc.status === 'approved', async () => saleRates(nft));
  // biome-ignore lint/correctness/useExhaustiveDependencies: read again after an offer changed (version).
  useEffect(() => {
    let live = true;
    Promise.resolve()
      .then(() => app.flows.offers({ nftId: nft.id }))
      .then(
        (answer) => live && setPage(answer),
        (err: unknown) => console.warn('The offers could not be read:', err),
      );
    return () => {
      live = false;
    };
  }, [nft.id, version]);
  if (!page) return null;
  const viewer = user ? { id: user.id, walletAddress: wallet } : null;
  const rows = offerRows(page.results, viewer, new Date(), isOwner);
  const makeOffer = () => {
    if (!user) app.ui.send({ type: 'ui.signup.show' });
    else if (!wallet) setWalletNeeded(true);
    else dialogs.make(nft.id);
  };
  const done = (changed: boolean) => {
    dialogs.close();
    if (!changed) return;
    setVersion((v) => v + 1);
    // An accepted offer sold the NFT: its owner and listing changed.
    if (dialogs.request?.kind === 'accept') void router.invalidate();
  };
  return (
    <section className="vt-stack" aria-labelledby="nft-offers">
      <div className="vt-offers__head">
        <h2 id="nft-offers">Offers</h2>
        {!isOwner && nft.status !== 'minting' && (
          <Button variant="secondary" onClick={makeOffer}>
            Make offer
          </Button>
        )}
      </div>
      {walletNeeded && (
        <p className="vt-alert vt-alert--error" role="alert">
          Link a Flow wallet in Settings → Wallet first.
        </p>
      )}
      {rows.length === 0 ? (
        <p className="vt-muted">No offers yet.</p>
      ) : (
        <OfferList rows={rows} label="Offers" onAccept={dialogs.accept} onCancel={dialogs.cancel} />
      )}
      <Suspense fallback={null}>
        {dialogs.request && <OfferDialog request={dialogs.request} onDone={done} />}
      </Suspense>
    </section>
  );
}
