import { getRouteApi, Link, useLocation, useRouter } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { formatUsd } from '#domain/money';
import { type NftJson, nftImage, nftTitle, seriesLabel } from '#domain/nft';
import { routePaths } from '#domain/routes';
import { useApp } from '../AppContext';
import { Button, ImageLoader, Modal } from '../components';
import { NftActions, TransferNftsDialog } from '../nft/NftActions';
import '../nft/nft.css';
import { AvatarEditor } from './AvatarEditor';

const profileRoute = getRouteApi('/_authenticated/profile');

/**
 * The private profile (SPEC §2): avatar, full name, @username, tabs of collectibles and of those for
 * sale with their counts. A collectible opens in a viewer overlay with its actions; several can be
 * selected and transferred in one transaction.
 */
export function ProfilePage() {
  const { session } = useApp();
  const router = useRouter();
  const { owned, machines, avatarUpload, storefront } = profileRoute.useLoaderData();
  const user = useSelector(session, (s) => s.context.user);
  const pathname = useLocation({ select: (l) => l.pathname });
  const [viewing, setViewing] = useState<string | null>(null);
  const [selecting, setSelecting] = useState(false);
  const [selected, setSelected] = useState<string[]>([]);
  const [transferring, setTransferring] = useState(false);
  const [emptyDismissed, setEmptyDismissed] = useState(false);
  if (!user) return <section className="vt-page" aria-busy="true" />;

  const fullName = `${user.firstName} ${user.lastName}`.trim();
  const forSale = owned.results.filter((n) => n.activeSaleListing);
  const showingForSale = pathname.endsWith('/for-sale');
  const shown = showingForSale ? forSale : owned.results;
  const current = owned.results.find((n) => n.id === viewing) ?? null;
  const wallet = user.wallet.walletAddress;
  const transferable = (n: NftJson) => !n.activeSaleListing && n.status !== 'minting';
  const toggle = (id: string) =>
    setSelected((ids) => (ids.includes(id) ? ids.filter((x) => x !== id) : [...ids, id]));

  return (
    <section className="vt-page vt-profile">
      <header className="vt-profile__header">
        <AvatarEditor machine={avatarUpload} user={user} />
        <div>
          <h1 className="vt-page__title">{fullName}</h1>
          <p className="vt-muted">@{user.username}</p>
        </div>
        <div className="vt-actions">
          <Link className="vt-button vt-button--secondary" to={routePaths.Payouts}>
            Payouts
          </Link>
          {storefront ? (
            <Link
              className="vt-button vt-button--primary"
              to="/s/$vanityUrl"
              params={{ vanityUrl: storefront.vanityUrl }}
            >
              View storefront
            </Link>
          ) : (
            <Link className="vt-button vt-button--primary" to={routePaths.CreateStorefront}>
              Create storefront
            </Link>
          )}
        </div>
      </header>
      <nav className="vt-tabs-nav" aria-label="Collection">
        <Link to="/profile/collection" className={showingForSale ? '' : 'is-active'}>
          Collectibles ({owned.total})
        </Link>
        <Link to="/profile/for-sale" className={showingForSale ? 'is-active' : ''}>
          For sale ({forSale.length})
        </Link>
      </nav>

      {!showingForSale && wallet && owned.results.some(transferable) && (
        <div className="vt-actions">
          {selecting ? (
            <>
              <Button
                disabled={selected.length === 0}
                onClick={() => setTransferring(true)}
              >{`Transfer selected (${selected.length})`}</Button>
              <Button
                variant="secondary"
                onClick={() => {
                  setSelecting(false);
                  setSelected([]);
                }}
              >
                Cancel
              </Button>
            </>
          ) : (
            <Button variant="secondary" onClick={() => setSelecting(true)}>
              Select to transfer
            </Button>
          )}
        </div>
      )}

      {shown.length > 0 ? (
        <ul className="vt-nft-grid" aria-label={showingForSale ? 'For sale' : 'Collectibles'}>
          {shown.map((nft) => (
            <li key={nft.id}>
              {selecting && !showingForSale ? (
                <label className="vt-nft-card">
                  <NftCardBody nft={nft} />
                  <span className="vt-check">
                    <input
                      type="checkbox"
                      disabled={!transferable(nft)}
                      checked={selected.includes(nft.id)}
                      onChange={() => toggle(nft.id)}
                    />
                    <span>{transferable(nft) ? 'Select' : 'Listed for sale'}</span>
                  </span>
                </label>
              ) : (
                <button type="button" className="vt-nft-card vt-unbutton" onClick={() => setViewing(nft.id)}>
                  <NftCardBody nft={nft} />
                </button>
              )}
            </li>
          ))}
        </ul>
      ) : (
        <div className="vt-empty">
          <h2>{showingForSale ? 'Nothing for sale' : 'No collectibles yet'}</h2>
          <p className="vt-muted">
            {showingForSale
              ? 'Open a collectible and choose “List for sale” to offer it on the marketplace.'
              : 'Items you buy or claim are minted to your wallet and show up here.'}
          </p>
        </div>
      )}

      <Modal
        open={owned.total === 0 && !emptyDismissed}
        onClose={() => setEmptyDismissed(true)}
        closeOnOutsideClick
        size="sm"
        title="Start your collection"
        footer={
          <Link className="vt-button vt-button--primary" to={routePaths.Marketplace}>
            Go to the marketplace
          </Link>
        }
      >
        <p>You have no collectibles yet. Find drops, packs and editions from creators on the marketplace.</p>
      </Modal>

      {current && (
        <Modal open onClose={() => setViewing(null)} closeOnOutsideClick size="lg" title={nftTitle(current)}>
          <div className="vt-nft">
            <ImageLoader src={nftImage(current)} alt={nftTitle(current)} aspectRatio={1} radius="lg" />
            <div className="vt-nft__info">
              <p className="vt-muted">Edition {seriesLabel(current.seriesNumber)}</p>
              {current.activeSaleListing && <p>Listed for {formatUsd(current.activeSaleListing.price)}</p>}
              <NftActions nft={current} machines={machines} />
              <Link to="/nft/$id/details" params={{ id: current.id }}>
                Open the item page
              </Link>
            </div>
          </div>
        </Modal>
      )}

      {transferring && wallet && (
        <TransferNftsDialog
          machine={machines.transferNfts}
          input={{ ids: selected, walletAddress: wallet }}
          onDone={(changed) => {
            setTransferring(false);
            if (changed) {
              setSelecting(false);
              setSelected([]);
              void router.invalidate();
            }
          }}
        />
      )}
    </section>
  );
}

function NftCardBody({ nft }: { nft: NftJson }) {
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
