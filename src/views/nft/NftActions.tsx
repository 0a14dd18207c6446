import { useRouter } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { lazy, type ReactNode, Suspense, useEffect, useState } from 'react';
import { type NftJson, saleRates } from '#domain/nft';
import { purchaseReturnPath } from '#domain/routes';
import type { buyListingMachine } from '../../../machines/buyListing';
import type { listForSaleMachine } from '../../../machines/listForSale';
import type { removeListingMachine } from '../../../machines/removeListing';
import type { transferNftsMachine } from '../../../machines/transferNfts';
import { once } from '../../lazy';
import { useApp } from '../AppContext';
import { Button } from '../components/Button';
import { useReturnedPurchase } from './useReturnedPurchase';

/** The action dialogs and their panels load when one opens, not with the NFT page. */
const loadDialogs = once(() => import('./NftDialogs'));
const ListDialog = lazy(() => loadDialogs().then((m) => ({ default: m.ListDialog })));
const RemoveDialog = lazy(() => loadDialogs().then((m) => ({ default: m.RemoveDialog })));
const BuyNftDialog = lazy(() => loadDialogs().then((m) => ({ default: m.BuyNftDialog })));
const TransferNftsDialog = lazy(() => loadDialogs().then((m) => ({ default: m.TransferNftsDialog })));

/** The flow machines of the NFT actions, as the route loaders hand them over. */
export interface NftMachines {
  listForSale: typeof listForSaleMachine;
  removeListing: typeof removeListingMachine;
  buyListing: typeof buyListingMachine;
  transferNfts: typeof transferNftsMachine;
}

type Open =
  | { kind: 'list' }
  | { kind: 'remove' }
  /** Buying the listing; `returnedTopup`: back from a top-up's page, its charge. */
  | { kind: 'buy'; canTopUp: boolean; returnedTopup: string | null }
  | { kind: 'transfer'; ids: string[] }
  | null;

/**
 * What the viewer may do with an NFT: its owner lists it for sale, removes the listing or transfers
 * it; anyone else buys its listing. Visitors are asked to sign in first. A top-up opened from the
 * buy dialog returns here with `?listing={its id}&topup={charge}`: the dialog opens again on the
 * same listing, once the buyer is known, and follows the top-up.
 */
export function NftActions({ nft, machines }: { nft: NftJson; machines: NftMachines }) {
  const { session, ui, paymentRails } = useApp();
  const router = useRouter();
  const user = useSelector(session, (s) => s.context.user);
  const [open, setOpen] = useState<Open>(null);
  const done = (changed: boolean) => {
    setOpen(null);
    if (changed) void router.invalidate();
  };
  const listing = nft.activeSaleListing;
  const wallet = user?.wallet.walletAddress ?? null;
  const isOwner = !!user && (nft.owner.id === user.id || nft.owner.wallet.walletAddress === wallet);
  const returned = useReturnedPurchase();
  const buyAgain = !!listing && !isOwner && !!user && returned.search.listing === listing.id;
  const openBuy = (returnedTopup: string | null) =>
    void paymentRails().then((rails) =>
      setOpen({ kind: 'buy', canTopUp: rails.includes('crypto'), returnedTopup }),
    );
  // biome-ignore lint/correctness/useExhaustiveDependencies: opens once, when the buyer is known.
  useEffect(() => {
    const search = buyAgain ? returned.take() : null;
    if (search) openBuy(search.topup ?? null);
  }, [buyAgain]);

  if (isOwner && !listing && nft.status === 'minting') return null;
  let actions: ReactNode = null;
  if (isOwner) {
    actions = listing ? (
      <Button variant="secondary" onClick={() => setOpen({ kind: 'remove' })}>
        Remove listing
      </Button>
    ) : (
      <>
        <Button onClick={() => setOpen({ kind: 'list' })}>List for sale</Button>
        <Button variant="secondary" onClick={() => setOpen({ kind: 'transfer', ids: [nft.id] })}>
          Transfer
        </Button>
      </>
    );
  } else if (listing) {
    actions = (
      <Button
        onClick={() => {
          if (!user) ui.send({ type: 'ui.signup.show' });
          // A short balance can be topped up with crypto where the crypto rail runs.
          else openBuy(null);
        }}
      >
        Buy now
      </Button>
    );
  }
  if (!actions) return null;
  const needsWallet = !!user && !wallet && open !== null;
  return (
    <div className="vt-actions">
      {actions}
      <Suspense fallback={null}>
        {needsWallet && (
          <p className="vt-alert vt-alert--error" role="alert">
            Link a Flow wallet in Settings → Wallet first.
          </p>
        )}
        {wallet && open?.kind === 'list' && (
          <ListDialog
            machine={machines.listForSale}
            input={{
              nft: { id: nft.id, flowBlueprintId: nft.blueprintId, seriesNumber: nft.seriesNumber },
              walletAddress: wallet,
              kycApproved: user?.kyc.status === 'approved',
              ...saleRates(nft),
            }}
            onDone={done}
          />
        )}
        {wallet && open?.kind === 'remove' && listing && (
          <RemoveDialog
            machine={machines.removeListing}
            input={{ blockchainListingId: listing.blockchainListingId, walletAddress: wallet }}
            onDone={done}
          />
        )}
        {wallet && open?.kind === 'buy' && listing && (
          <BuyNftDialog
            machine={machines.buyListing}
            nft={nft}
            wallet={wallet}
            options={{
              canTopUp: open.canTopUp,
              returnTo: purchaseReturnPath(nft.id, { listing: listing.id }),
              returnedTopup: open.returnedTopup,
            }}
            onDone={done}
          />
        )}
        {wallet && open?.kind === 'transfer' && (
          <TransferNftsDialog
            machine={machines.transferNfts}
            input={{ ids: open.ids, walletAddress: wallet }}
            onDone={done}
          />
        )}
      </Suspense>
    </div>
  );
}
