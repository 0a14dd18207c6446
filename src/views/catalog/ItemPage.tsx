import { Link, Outlet, useLocation, useNavigate } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { Suspense, useEffect, useState } from 'react';
import {
  type BlueprintJson,
  categoryLabels,
  type HistoryItem,
  isVideo,
  type PackJson,
  rarityLabels,
} from '#domain/catalog';
import { toDate } from '#domain/dates';
import { itemPageView } from '#domain/itemPage';
import { formatUsd } from '#domain/money';
import { type NftJson, seriesLabel } from '#domain/nft';
import { buyNowPath } from '#domain/routes';
import type { FreeClaimJson } from '#domain/schemas/checkout';
import type {
  CheckoutInput,
  CheckoutOutput,
  CheckoutReopen,
  checkoutMachine,
} from '../../../machines/checkout';
import { connectSession } from '../../../machines/session';
import { whenIdle } from '../../idle';
import { preloadable } from '../../lazy';
import { type AppActors, useApp } from '../AppContext';
import { Button } from '../components/Button';
import { ImageLoader } from '../components/ImageLoader';
import { HistoryList } from '../nft/HistoryList';
import { useReturnedPurchase } from '../nft/useReturnedPurchase';
import { preloadSignInModal } from '../shell/signInModal';
import { Countdown } from './Countdown';
import { FavoriteHeart } from './FavoriteHeart';
import '../nft/nft.css';
import './catalog.css';

/**
 * The checkout's dialog and panels (and through them the card and phone checks) load on the first
 * Buy, not with the item page: an item page's first load carries none of the checkout's code.
 */
const Checkout = preloadable(async () => (await import('../checkout/CheckoutDialog')).Checkout);
const loadCheckout = Checkout.preload;
/** The dialog that shows the artwork large loads on the first press of expand. */
const Modal = preloadable(async () => (await import('../components/Modal')).Modal);

/**
 * What the checkout needs before its first panel (its code, the machine, the rails the server
 * runs), fetched while a signed-in buyer reads the page (once the browser is idle) and again when
 * they head for Buy (pointer over it, focus, touch), so that the press itself finds it ready. Each
 * loads once; the rails are asked again on the press.
 */
function prepareCheckout({ flows, paymentRails }: Pick<AppActors, 'flows' | 'paymentRails'>) {
  void loadCheckout().catch(() => {});
  void flows.checkout().catch(() => {});
  void paymentRails().catch(() => {});
}

export interface ItemPageProps {
  item: BlueprintJson | PackJson;
  history: HistoryItem[];
  /** Resale listings of this blueprint, cheapest first. */
  listings: NftJson[];
  /** The signed-in user's claim of this free item, if they made one. */
  claim?: FreeClaimJson | null;
}

/**
 * Item detail for a blueprint or a pack (at /nft/{id}): title with
 * edition, the asset (mp4 looped and muted; images expand), price and available/total, a countdown
 * before a drop, tabs details and history. Buy (or Claim for free) opens the checkout; with no new
 * edition on sale, the cheapest resale opens it at the choice of editions. What it offers comes
 * from the item page's view model (domain/itemPage.ts): a blueprint sold only in a pack links to its
 * pack; a free item the user claimed says Claimed, with a link to the edition. Back from a top-up's
 * page that the checkout opened (`?listing=` or `?buy=balance`, and `?topup=`), the checkout opens
 * again on that listing or on the balance rail.
 */
export function ItemPage({ item, history, listings, claim = null }: ItemPageProps) {
  const { session } = useApp();
  const loggedIn = useSelector(session, (s) => connectSession(s, session.send).loggedIn);
  const pathname = useLocation({ select: (l) => l.pathname });
  const [expanded, setExpanded] = useState(false);
  const pack = 'isPack' in item && item.isPack;
  const asset = pack
    ? (item as PackJson).coverImageUrl
    : ((item as BlueprintJson).assetUrl ?? (item as BlueprintJson).previewImageUrl);
  const preview = pack ? (item as PackJson).coverImageUrl : (item as BlueprintJson).previewImageUrl;
  const availableAt = item.availableTime ? toDate(item.availableTime).getTime() : null;
  const [live, setLive] = useState(availableAt === null || availableAt <= Date.now());
  const showHistory = pathname.endsWith('/history');
  const showActivity = pathname.endsWith('/activity');
  const storefront = item.storefront;
  const view = itemPageView({ item, listings, claim, live, loggedIn });
  const { checkout, opening, buy, checkoutDone, prepare } = useItemCheckout(item, listings, view);

  return (
    <article className="vt-page vt-nft">
      <ItemMedia item={item} asset={asset} preview={preview} onExpand={() => setExpanded(true)} />
      <div className="vt-nft__info">
        {storefront && (
          <Link to="/s/$vanityUrl" params={{ vanityUrl: storefront.vanityUrl }} className="vt-eyebrow">
            {storefront.name}
          </Link>
        )}
        <h1 className="vt-page__title">
          {item.title} <span className="vt-muted">· Edition of {item.quantity.toLocaleString('en-US')}</span>
        </h1>
        {!item.isPack && <FavoriteHeart blueprintId={item.id} />}
        <ItemPrice item={item} view={view} availableAt={availableAt} onLive={setLive} />
        <ItemActions view={view} opening={opening} onBuy={buy} onPrepare={prepare} />
        <p id="buy-note" className="vt-muted">
          {view.note}
        </p>
        <nav className="vt-tabs-nav" aria-label="Item">
          <Link
            to="/nft/$id"
            params={{ id: item.id }}
            activeOptions={{ exact: true }}
            className={showHistory || showActivity ? '' : 'is-active'}
          >
            Details
          </Link>
          <Link to="/nft/$id/history" params={{ id: item.id }} className={showHistory ? 'is-active' : ''}>
            History
          </Link>
          {!pack && (
            <Link to="/nft/$id/activity" params={{ id: item.id }} className={showActivity ? 'is-active' : ''}>
              Activity
            </Link>
          )}
        </nav>
        {showActivity && !pack ? (
          <Outlet />
        ) : showHistory ? (
          <HistoryList items={history} />
        ) : (
          <ItemDetails item={item} pack={pack} />
        )}
        {listings.length > 0 && <ResaleListings listings={listings} />}
      </div>
      {checkout && (
        <Suspense fallback={null}>
          <Checkout machine={checkout.machine} input={checkout.input} onDone={checkoutDone} />
        </Suspense>
      )}
      {expanded && asset && (
        <Suspense fallback={null}>
          <Modal open onClose={() => setExpanded(false)} closeOnOutsideClick size="lg" title={item.title}>
            <img
              src={asset}
              alt={item.title}
              style={{ width: '100%', height: 'auto' }}
              width={1000}
              height={1000}
            />
          </Modal>
        </Suspense>
      )}
    </article>
  );
}

type ItemView = ReturnType<typeof itemPageView>;

/**
 * The item's checkout: opened by Buy, or again by itself when the buyer comes back from a top-up's
 * page the checkout opened; its end leaves for the page it names (or the sign-up, or 3-D Secure).
 */
function useItemCheckout(item: BlueprintJson | PackJson, listings: NftJson[], view: ItemView) {
  const { session, ui, flows, cardCheckpoint, billingCountry, paymentRails, tokenRail } = useApp();
  const navigate = useNavigate();
  const user = useSelector(session, (s) => connectSession(s, session.send).user);
  const pathname = useLocation({ select: (l) => l.pathname });
  const [checkout, setCheckout] = useState<{ machine: typeof checkoutMachine; input: CheckoutInput } | null>(
    null,
  );
  const [opening, setOpening] = useState(false);
  const pack = 'isPack' in item && item.isPack;
  const { onSale, free } = view;

  const openCheckout = async (reopen: CheckoutReopen | null = null) => {
    setOpening(true);
    try {
      const [machine, , rails, token, checkpoint] = await Promise.all([
        flows.checkout(),
        loadCheckout().then(() => null),
        paymentRails(),
        tokenRail(),
        cardCheckpoint(),
      ]);
      const buyer = user && {
        id: user.id,
        email: user.email ?? '',
        walletAddress: user.wallet.walletAddress,
        firstName: user.firstName,
        lastName: user.lastName,
        billingCountry: billingCountry(),
      };
      const kind = pack ? ('pack' as const) : ('blueprint' as const);
      const { id, title, price } = item;
      setCheckout({
        machine,
        input: {
          item: { kind, id, title, price, free, soldOut: !onSale, printed: item.state === 'printed' },
          listings,
          user: buyer,
          checkpoint,
          rails,
          token,
          reopen,
        },
      });
    } finally {
      setOpening(false);
    }
  };
  // Back from a top-up's page opened in the checkout: it opens again where it was, once the buyer is known.
  const returned = useReturnedPurchase();
  const buyerKnown = !!user;
  // biome-ignore lint/correctness/useExhaustiveDependencies: opens once, when the buyer is known.
  useEffect(() => {
    const search = buyerKnown ? returned.take() : null;
    if (search?.buy === 'now') void openCheckout();
    else if (search) void openCheckout({ listing: search.listing ?? null, topup: search.topup ?? null });
  }, [buyerKnown]);
  const signUp = () => ui.send({ type: 'ui.signup.show', returnTo: buyNowPath(pathname) });
  const checkoutDone = (output: CheckoutOutput) => {
    if (output?.kind === 'redirecting') return; // the browser leaves for 3-D Secure
    setCheckout(null);
    // Signed in, the visitor comes back to this item with its checkout opening again.
    if (output?.kind === 'signUp') signUp();
    if (output?.kind === 'purchased') void navigate(output.target);
    if (output?.kind === 'failed')
      void navigate({ to: '/checkoutcomfailed/$reference', params: { reference: output.orderId } });
  };
  // A visitor is asked to sign up at once: only a buyer's Buy needs the checkout and its code.
  const buy = () => (view.asksToSignUp ? signUp() : void openCheckout());
  const prepare = () => (view.asksToSignUp ? preloadSignInModal() : prepareCheckout({ flows, paymentRails }));
  const buyable = !view.asksToSignUp && !!view.action?.enabled;
  // biome-ignore lint/correctness/useExhaustiveDependencies: once a buyer can buy, not on every render.
  useEffect(() => (buyable ? whenIdle(prepare) : undefined), [buyable]);
  return { checkout, opening, buy, checkoutDone, prepare };
}

/** The asset: a video plays looped and muted; an image is a button that expands it. */
function ItemMedia({
  item,
  asset,
  preview,
  onExpand,
}: {
  item: BlueprintJson | PackJson;
  asset: string | null | undefined;
  preview: string | null | undefined;
  onExpand: () => void;
}) {
  return (
    <div className="vt-item__media">
      {isVideo(asset) ? (
        <video
          src={asset!}
          poster={preview ?? undefined}
          autoPlay
          loop
          muted
          playsInline
          width={720}
          height={720}
        />
      ) : (
        <button type="button" onClick={onExpand} aria-label={`Expand the image of ${item.title}`}>
          <ImageLoader
            src={asset}
            alt={item.title}
            aspectRatio={1}
            radius="lg"
            loading="eager"
            sizes="(max-width: 900px) 100vw, 560px"
          />
        </button>
      )}
    </div>
  );
}

/** Price (or the pack it is sold in), editions available, and the countdown before a drop. */
function ItemPrice({
  item,
  view,
  availableAt,
  onLive,
}: {
  item: BlueprintJson | PackJson;
  view: ItemView;
  availableAt: number | null;
  onLive: (live: boolean) => void;
}) {
  return (
    <div className="vt-item__price">
      <div>
        <span className="vt-muted">{view.price.label}</span>{' '}
        {view.price.pack && (
          <>
            <Link to="/nft/$id" params={{ id: view.price.pack.id }}>
              {view.price.pack.title}
            </Link>{' '}
          </>
        )}
        <strong>{view.price.value}</strong>
      </div>
      <div>
        <span className="vt-muted">Available</span> <strong>{view.available}</strong>
      </div>
      {availableAt !== null && availableAt > Date.now() - 1000 && (
        <div>
          <span className="vt-muted">Drops in</span>{' '}
          <Countdown
            availableTime={availableAt}
            available={item.state === 'available' || item.state === 'active'}
            onEnd={(end) => onLive(end === 'live')}
          />
        </div>
      )}
    </div>
  );
}

/** The pack's link, Buy (or Claim, or why not), and the edition a claim gave. */
function ItemActions({
  view,
  opening,
  onBuy,
  onPrepare,
}: {
  view: ItemView;
  opening: boolean;
  onBuy: () => void;
  onPrepare: () => void;
}) {
  return (
    <div className="vt-actions">
      {view.packLink && (
        <Link
          to="/nft/$id"
          params={{ id: view.packLink.id }}
          className="vt-button vt-button--primary"
          aria-describedby="buy-note"
        >
          {view.packLink.label}
        </Link>
      )}
      {view.action &&
        (view.action.enabled ? (
          <Button
            loading={opening}
            onClick={onBuy}
            onPointerEnter={onPrepare}
            onFocus={onPrepare}
            onTouchStart={onPrepare}
            aria-describedby="buy-note"
          >
            {view.action.label}
          </Button>
        ) : (
          <Button disabled aria-describedby="buy-note">
            {view.action.label}
          </Button>
        ))}
      {view.claimed?.edition && (
        <Link
          to="/nft/$id"
          params={{ id: view.claimed.edition.nftId }}
          className="vt-button vt-button--secondary"
        >
          {view.claimed.edition.label}
        </Link>
      )}
    </div>
  );
}

/** The details tab: owner, category, rarity, description, and a pack's contents. */
function ItemDetails({ item, pack }: { item: BlueprintJson | PackJson; pack: boolean }) {
  const storefront = item.storefront;
  return (
    <dl className="vt-nft__details">
      <dt>Owner</dt>
      <dd>
        {storefront ? (
          <Link to="/s/$vanityUrl" params={{ vanityUrl: storefront.vanityUrl }}>
            {storefront.name}
          </Link>
        ) : (
          '—'
        )}
      </dd>
      <dt>Category</dt>
      <dd>{storefront?.category ? categoryLabels[storefront.category] : '—'}</dd>
      <dt>Rarity</dt>
      <dd>{rarityLabels[item.rarityLevel]}</dd>
      <dt>Description</dt>
      <dd>{item.description}</dd>
      {pack && (
        <>
          <dt>In this pack</dt>
          <dd>{(item as PackJson).blueprints.map((b) => b.title).join(', ')}</dd>
        </>
      )}
    </dl>
  );
}

/** Collectors' resale listings of this item, cheapest first. */
function ResaleListings({ listings }: { listings: NftJson[] }) {
  return (
    <section aria-labelledby="for-sale-heading">
      <h2 id="for-sale-heading" className="vt-h3">
        For sale by collectors
      </h2>
      <ul className="vt-history">
        {listings.map((n) => (
          <li key={n.id}>
            <Link to="/nft/$id" params={{ id: n.id }}>
              Edition {seriesLabel(n.seriesNumber)}
            </Link>
            <strong>{formatUsd(n.activeSaleListing!.price)}</strong>
            <span className="vt-muted">@{n.owner.username ?? n.owner.wallet.walletAddress}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
