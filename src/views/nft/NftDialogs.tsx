import { useNavigate } from '@tanstack/react-router';
import type { AnyStateMachine, InputFrom } from 'xstate';
import type { NftJson } from '#domain/nft';
import { type BuyListingOutput, buyListingInput, type buyListingMachine } from '../../../machines/buyListing';
import type { listForSaleMachine } from '../../../machines/listForSale';
import type { removeListingMachine } from '../../../machines/removeListing';
import type { transferNftsMachine } from '../../../machines/transferNfts';
import { useFlowActor } from '../useFlowActor';
import { BuyListingDialog, ListForSaleDialog, RemoveListingDialog, TransferDialog } from './ListingPanels';

/**
 * The dialogs of the NFT actions (list, remove a listing, buy, transfer), each running its flow.
 * They load when one opens (NftActions), not with the NFT page.
 */

interface DialogProps<M extends AnyStateMachine> {
  machine: M;
  input: InputFrom<M>;
  /** The flow is over: `changed` when the NFT changed (the page reloads it). */
  onDone: (changed: boolean) => void;
}
export function ListDialog({ machine, input, onDone }: DialogProps<typeof listForSaleMachine>) {
  return <ListForSaleDialog actor={useFlowActor(machine, input, (out) => onDone(out.changed))} />;
}
export function RemoveDialog({ machine, input, onDone }: DialogProps<typeof removeListingMachine>) {
  return <RemoveListingDialog actor={useFlowActor(machine, input, (out) => onDone(out.changed))} />;
}
/**
 * A completed purchase goes on to the purchase-complete page, which waits until the purchase is
 * recorded; a top-up's hosted page: the flow has sent the browser there.
 */
export function BuyDialog({ machine, input, onDone }: DialogProps<typeof buyListingMachine>) {
  const navigate = useNavigate();
  const ended = (output: BuyListingOutput) => {
    if (output.type === 'back') onDone(false);
    else if (output.type === 'paid') void navigate(output.target);
  };
  return <BuyListingDialog actor={useFlowActor(machine, input, ended)} />;
}
export function TransferNftsDialog({ machine, input, onDone }: DialogProps<typeof transferNftsMachine>) {
  return <TransferDialog actor={useFlowActor(machine, input, (out) => onDone(out.changed))} />;
}

/** Buying the NFT's listing: the purchase's input from the NFT, the buyer's wallet and `options`. */
export function BuyNftDialog({
  machine,
  nft,
  wallet,
  options,
  onDone,
}: Omit<DialogProps<typeof buyListingMachine>, 'input'> & {
  nft: NftJson;
  wallet: string;
  options: Parameters<typeof buyListingInput>[2];
}) {
  return <BuyDialog machine={machine} input={buyListingInput(nft, wallet, options)} onDone={onDone} />;
}
