import { useActorRef, useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { formatUsd } from '#domain/money';
import { type NftJson, nftImage, nftTitle, seriesLabel, transferable } from '#domain/nft';
import {
  type CollectionSelectionEvent,
  collectionSelectionMachine,
  connectCollectionSelection,
} from '../../../machines/collectionSelection';
import type { transferNftsMachine } from '../../../machines/transferNfts';
import { useApp } from '../AppContext';
import { Button, ImageLoader } from '../components';
import { TransferNftsDialog } from '../nft/NftDialogs';

export interface CollectionGridProps {
  nfts: NftJson[];
  /** The owner's wallet: without one there is nothing to transfer from. */
  wallet: string | null;
  transferMachine: typeof transferNftsMachine;
  /** A card was opened (the viewer overlay). */
  onView: (id: string) => void;
  /** Collectibles left the collection: the page reloads it. */
  onTransferred: () => void;
}

/**
 * The profile's collection: cards that open the viewer, and select-and-transfer (the
 * collectionSelection machine) for the owner's wallet. A new list of collectibles starts a new
 * selection.
 */
export function CollectionGrid(props: CollectionGridProps) {
  return <SelectionActor key={props.nfts.map((n) => n.id).join(',')} {...props} />;
}

function SelectionActor(props: CollectionGridProps) {
  const { inspect } = useApp();
  const actor = useActorRef(collectionSelectionMachine, {
    input: { transferable: props.wallet ? props.nfts.filter(transferable).map((n) => n.id) : [] },
    inspect,
  });
  return <CollectionGridView actor={actor} {...props} />;
}

export function CollectionGridView({
  actor,
  nfts,
  wallet,
  transferMachine,
  onView,
  onTransferred,
}: CollectionGridProps & { actor: ActorRefFrom<typeof collectionSelectionMachine> }) {
  const view = connectCollectionSelection(
    useSelector(actor, (s) => s),
    (event: CollectionSelectionEvent) => actor.send(event),
  );
  return (
    <>
      {(view.canStart || view.selecting) && (
        <div className="vt-actions">
          {view.selecting ? (
            <>
              <Button disabled={!view.canTransfer} onClick={view.transfer}>
                {view.transferLabel}
              </Button>
              <Button variant="secondary" disabled={view.transferring !== null} onClick={view.cancel}>
                Cancel
              </Button>
            </>
          ) : (
            <Button variant="secondary" onClick={view.start}>
              Select to transfer
            </Button>
          )}
        </div>
      )}
      {nfts.length > 0 ? (
        <ul className="vt-nft-grid" aria-label="Collectibles">
          {nfts.map((nft) => (
            <li key={nft.id}>
              {view.selecting ? (
                <label className="vt-nft-card">
                  <NftCardBody nft={nft} />
                  <span className="vt-check">
                    <input
                      type="checkbox"
                      disabled={!view.isTransferable(nft.id) || view.transferring !== null}
                      checked={view.isSelected(nft.id)}
                      onChange={() => view.toggle(nft.id)}
                    />
                    <span>{view.isTransferable(nft.id) ? 'Select' : 'Listed for sale'}</span>
                  </span>
                </label>
              ) : (
                <button type="button" className="vt-nft-card vt-unbutton" onClick={() => onView(nft.id)}>
                  <NftCardBody nft={nft} />
                </button>
              )}
            </li>
          ))}
        </ul>
      ) : (
        <div className="vt-empty">
          <h2>No collectibles yet</h2>
          <p className="vt-muted">Items you buy or claim are minted to your wallet and show up here.</p>
        </div>
      )}
      {view.transferring && wallet && (
        <TransferNftsDialog
          machine={transferMachine}
          input={{ ids: view.transferring, walletAddress: wallet }}
          onDone={(changed) => {
            view.transferEnded(changed);
            if (changed) onTransferred();
          }}
        />
      )}
    </>
  );
}

export function NftCardBody({ nft }: { nft: NftJson }) {
  const title = nftTitle(nft);
  return (
    <>
      <ImageLoader src={nftImage(nft)} alt={title} aspectRatio={1} radius="md" />
      <span className="vt-nft-card__meta">
        <strong>{title}</strong>
        <span className="vt-muted">{seriesLabel(nft.seriesNumber)}</span>
      </span>
      <span className="vt-muted">
        {nft.activeSaleListing
          ? formatUsd(nft.activeSaleListing.price)
          : nft.status === 'minting'
            ? 'Minting'
            : ''}
      </span>
    </>
  );
}
