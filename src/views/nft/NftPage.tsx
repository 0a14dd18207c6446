import { Link, Outlet, useLocation } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import type { HistoryItem } from '#domain/catalog';
import { formatUsd } from '#domain/money';
import { type NftJson, nftImage, nftTitle, seriesLabel } from '#domain/nft';
import { Avatar } from '../components/Avatar';
import { ImageLoader } from '../components/ImageLoader';
import { HistoryList } from './HistoryList';
import { NftActions, type NftMachines } from './NftActions';
import './nft.css';

/** The Offers section (its list, dialogs and flows) loads after the page, in the browser. */
const NftOffers = lazy(() => import('../offers/NftOffers').then((m) => ({ default: m.NftOffers })));

const statusLabel = { minting: 'Minting', parked: 'In a collection', forSale: 'For sale' } as const;

/**
 * Item detail of one NFT (/nft/{id}): its preview, edition, owner and listing, what the viewer may
 * do, its offers (under its details), and its history (its mint and every purchase).
 */
export function NftPage({
  nft,
  history,
  machines,
}: {
  nft: NftJson;
  history: HistoryItem[];
  machines: NftMachines;
}) {
  const pathname = useLocation({ select: (l) => l.pathname });
  const title = nftTitle(nft);
  const owner = nft.owner;
  const listing = nft.activeSaleListing;
  return (
    <article className="vt-page vt-nft">
      <div className="vt-nft__media">
        <ImageLoader src={nftImage(nft)} alt={title} aspectRatio={1} radius="lg" />
      </div>
      <div className="vt-nft__info">
        <p className="vt-eyebrow">{statusLabel[nft.status]}</p>
        <h1 className="vt-page__title">
          {title} <span className="vt-muted">{seriesLabel(nft.seriesNumber)}</span>
        </h1>
        <p className="vt-nft__price">
          {listing ? (
            <>
              <span className="vt-muted">Price</span> <strong>{formatUsd(listing.price)}</strong>
            </>
          ) : (
            <span className="vt-muted">Not for sale</span>
          )}
        </p>
        <NftActions nft={nft} machines={machines} />
        <nav className="vt-tabs-nav" aria-label="Item">
          <Link
            to="/nft/$id"
            params={{ id: nft.id }}
            activeOptions={{ exact: true }}
            className={/\/(history|activity)$/.test(pathname) ? '' : 'is-active'}
          >
            Details
          </Link>
          <Link
            to="/nft/$id/history"
            params={{ id: nft.id }}
            className={pathname.endsWith('/history') ? 'is-active' : ''}
          >
            History
          </Link>
          <Link
            to="/nft/$id/activity"
            params={{ id: nft.id }}
            className={pathname.endsWith('/activity') ? 'is-active' : ''}
          >
            Activity
          </Link>
        </nav>
        {pathname.endsWith('/activity') ? (
          <Outlet />
        ) : pathname.endsWith('/history') ? (
          <div className="vt-stack">
            <HistoryList items={history} />
            {nft.blueprint && (
              <Link to="/nft/$id/history" params={{ id: nft.blueprint.id }}>
                The history of {nft.blueprint.title}: its creation and every purchase
              </Link>
            )}
          </div>
        ) : (
          <>
            <dl className="vt-nft__details">
              <dt>Owner</dt>
              <dd className="vt-nft__owner">
                <Avatar
                  src={owner.avatarUrl ?? undefined}
                  seed={owner.wallet.walletAddress}
                  alt=""
                  size={32}
                />
                <span>{owner.username ? `@${owner.username}` : owner.wallet.walletAddress}</span>
              </dd>
              <dt>Edition</dt>
              <dd>{seriesLabel(nft.seriesNumber)}</dd>
              <dt>Token</dt>
              <dd>
                <code>{nft.id}</code>
              </dd>
              {nft.metadata.description && (
                <>
                  <dt>Description</dt>
                  <dd>{nft.metadata.description}</dd>
                </>
              )}
            </dl>
            <Suspense fallback={null}>
              <NftOffers nft={nft} />
            </Suspense>
          </>
        )}
      </div>
    </article>
  );
}
