import { getRouteApi, Link, Outlet, useLocation, useRouter } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { formatUsd } from '#domain/money';
import { nftImage, nftTitle, seriesLabel } from '#domain/nft';
import { useApp } from '../AppContext';
import { ImageLoader, Modal } from '../components';
import { NftActions } from '../nft/NftActions';
import '../nft/nft.css';
import { AvatarEditor } from './AvatarEditor';
import { CollectionGrid, NftCardBody } from './CollectionGrid';

const profileRoute = getRouteApi('/_authenticated/profile');

/**
 * The private profile: avatar, full name, @username, tabs of collectibles and of those for
 * sale with their counts, of the saved items (Favorites, its own route) and of the offers received
 * and made (Offers, its own route). A collectible opens in a viewer overlay with its actions; several can be
 * selected and transferred in one transaction (CollectionGrid).
 */
export function ProfilePage() {
  const { session } = useApp();
  const router = useRouter();
  const { owned, machines, avatarUpload, storefront } = profileRoute.useLoaderData();
  const user = useSelector(session, (s) => s.context.user);
  const pathname = useLocation({ select: (l) => l.pathname });
  const [viewing, setViewing] = useState<string | null>(null);
  const [emptyDismissed, setEmptyDismissed] = useState(false);
  if (!user) return <section className="vt-page" aria-busy="true" />;

  const fullName = `${user.firstName} ${user.lastName}`.trim();
  const forSale = owned.results.filter((n) => n.activeSaleListing);
  const showingForSale = pathname.endsWith('/for-sale');
  const showingFavorites = pathname.endsWith('/favorites');
  const showingOffers = pathname.endsWith('/offers');
  const showingActivity = pathname.endsWith('/activity');
  const current = owned.results.find((n) => n.id === viewing) ?? null;
  const wallet = user.wallet.walletAddress;

  return (
    <section className="vt-page vt-profile">
      <header className="vt-profile__header">
        <AvatarEditor machine={avatarUpload} user={user} />
        <div>
          <h1 className="vt-page__title">{fullName}</h1>
          <p className="vt-muted">@{user.username}</p>
        </div>
        <div className="vt-actions">
          <Link className="vt-button vt-button--secondary" to="/payouts">
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
            <Link className="vt-button vt-button--primary" to="/create-storefront">
              Create storefront
            </Link>
          )}
        </div>
      </header>
      <nav className="vt-tabs-nav" aria-label="Collection">
        <Link
          to="/profile/collection"
          className={
            showingForSale || showingFavorites || showingOffers || showingActivity ? '' : 'is-active'
          }
        >
          Collectibles ({owned.total})
        </Link>
        <Link to="/profile/for-sale" className={showingForSale ? 'is-active' : ''}>
          For sale ({forSale.length})
        </Link>
        <Link to="/profile/favorites" className={showingFavorites ? 'is-active' : ''}>
          Favorites
        </Link>
        <Link to="/profile/offers" className={showingOffers ? 'is-active' : ''}>
          Offers
        </Link>
        <Link to="/profile/activity" className={showingActivity ? 'is-active' : ''}>
          Activity
        </Link>
      </nav>

      {showingFavorites || showingOffers || showingActivity ? (
        <Outlet />
      ) : showingForSale ? (
        forSale.length > 0 ? (
          <ul className="vt-nft-grid" aria-label="For sale">
            {forSale.map((nft) => (
              <li key={nft.id}>
                <button type="button" className="vt-nft-card vt-unbutton" onClick={() => setViewing(nft.id)}>
                  <NftCardBody nft={nft} />
                </button>
              </li>
            ))}
          </ul>
        ) : (
          <div className="vt-empty">
            <h2>Nothing for sale</h2>
            <p className="vt-muted">
              Open a collectible and choose “List for sale” to offer it on the marketplace.
            </p>
          </div>
        )
      ) : (
        <CollectionGrid
          nfts={owned.results}
          wallet={wallet}
          transferMachine={machines.transferNfts}
          onView={setViewing}
          onTransferred={() => void router.invalidate()}
        />
      )}

      <Modal
        open={owned.total === 0 && !emptyDismissed && !showingFavorites && !showingOffers && !showingActivity}
        onClose={() => setEmptyDismissed(true)}
        closeOnOutsideClick
        size="sm"
        title="Start your collection"
        footer={
          <Link className="vt-button vt-button--primary" to="/marketplace">
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
    </section>
  );
}
