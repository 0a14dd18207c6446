import { useState } from 'react';
import type { OfferRow } from '../../../machines/offerRows';
import { useApp } from '../AppContext';
import type { OfferDialogRequest } from './OfferDialogs';

/**
 * Opens the offer dialogs of a list: each loads its flow first. `rates` gives the royalty and fee of
 * the NFT an offer is for (the seller's net of an accept). A flow that fails to load opens nothing.
 */
export function useOfferDialogs(
  wallet: string | null,
  kycApproved: boolean,
  rates: (row: OfferRow) => Promise<{ royaltyPercent: number; platformFeePercent: number }>,
) {
  const { flows } = useApp();
  const [request, setRequest] = useState<OfferDialogRequest | null>(null);
  const open = (load: () => Promise<OfferDialogRequest>) =>
    void load().then(setRequest, (err: unknown) => console.warn('The offer flow did not load:', err));
  return {
    request,
    close: () => setRequest(null),
    make: (nftId: string) =>
      wallet &&
      open(async () => ({
        kind: 'make',
        machine: await flows.makeOffer(),
        input: { nft: { id: nftId }, walletAddress: wallet },
      })),
    accept: (row: OfferRow) =>
      wallet &&
      open(async () => {
        const [machine, shares] = await Promise.all([flows.acceptOffer(), rates(row)]);
        const { chainOfferId, amount, buyer } = row.offer;
        return {
          kind: 'accept',
          machine,
          input: {
            offer: { chainOfferId, amount, buyerAddress: buyer.walletAddress },
            walletAddress: wallet,
            kycApproved,
            ...shares,
          },
        };
      }),
    cancel: (row: OfferRow) =>
      wallet &&
      open(async () => ({
        kind: 'cancel',
        machine: await flows.cancelOffer(),
        input: {
          offer: { chainOfferId: row.offer.chainOfferId, amount: row.offer.amount },
          walletAddress: wallet,
        },
      })),
  };
}
