import { getRouteApi, useRouter } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { Suspense } from 'react';
import { saleRates } from '#domain/nft';
import { offerRows } from '../../../machines/offerRows';
import { useApp } from '../AppContext';
import { OfferDialog, OfferList } from '../offers/OfferList';
import { useOfferDialogs } from '../offers/useOfferDialogs';

const offersRoute = getRouteApi('/_authenticated/profile/offers');

/**
 * The profile's Offers tab: offers received on the user's NFTs (each open one with Accept) and the
 * offers the user made (each standing one with Cancel), newest first. A finished accept or cancel
 * reads the tab again.
 */
export function OffersTab() {
  const app = useApp();
  const router = useRouter();
  const { received, made } = offersRoute.useLoaderData();
  const user = useSelector(app.session, (s) => s.context.user);
  const wallet = user?.wallet.walletAddress || null;
  // An accept shows the seller's net: the royalty and fee of the NFT, read when Accept is pressed.
  const dialogs = useOfferDialogs(wallet, user?.kyc.status === 'approved', async (row) =>
    saleRates(await app.nfts.get(row.offer.nft.id)),
  );
  const viewer = user ? { id: user.id, walletAddress: wallet } : null;
  const now = new Date();
  const done = (changed: boolean) => {
    dialogs.close();
    if (changed) void router.invalidate();
  };
  return (
    <div className="vt-stack">
      <section className="vt-stack" aria-labelledby="offers-received">
        <h2 id="offers-received">Received</h2>
        {received.length === 0 ? (
          <p className="vt-muted">No offers on your collectibles yet.</p>
        ) : (
          <OfferList
            rows={offerRows(received, viewer, now)}
            label="Offers received"
            showItem
            onAccept={dialogs.accept}
            onCancel={dialogs.cancel}
          />
        )}
      </section>
      <section className="vt-stack" aria-labelledby="offers-made">
        <h2 id="offers-made">Made</h2>
        {made.length === 0 ? (
          <p className="vt-muted">You have made no offers. Open any collectible and choose “Make offer”.</p>
        ) : (
          <OfferList
            rows={offerRows(made, viewer, now)}
            label="Offers made"
            showItem
            onAccept={dialogs.accept}
            onCancel={dialogs.cancel}
          />
        )}
      </section>
      <Suspense fallback={null}>
        {dialogs.request && <OfferDialog request={dialogs.request} onDone={done} />}
      </Suspense>
    </div>
  );
}
