import { getRouteApi, Link } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import { useState } from 'react';
import type { ActorRefFrom } from 'xstate';
import { chargeRailOf } from '#domain/chargeProgress';
import { type OrderCompleteSearch, queryText } from '#domain/purchase';
import type { PurchaseCompleteInput, purchaseCompleteMachine } from '../../../machines/purchaseComplete';
import { connectPurchaseComplete } from '../../../machines/purchaseCompleteView';
import { useApp } from '../AppContext';
import { ImageLoader, Spinner } from '../components';
import '../checkout/card.css';
import './purchase.css';
import { OrderTimeline, WayBack } from './Outcome';

const orderCompleteRoute = getRouteApi('/ordercomplete/$id');

/**
 * /ordercomplete/{id}?e&t&serial&type[&order][&charge]: where a purchase ends. The buyer's email and
 * wallet come from the session; a visitor sees the page with what the purchase itself tells. The
 * order a purchase of new editions names (`order`) is followed, through the charge that paid it
 * (`charge`; its rail by `type`: creditCard, coinbase or wert) when there is one: when the order was
 * not served the page tells the refund, with the order's timeline.
 */
export function PurchaseCompletePage() {
  const { id } = orderCompleteRoute.useParams();
  const search = orderCompleteRoute.useSearch();
  // Another purchase's link starts another wait.
  return <PurchaseComplete key={`${id}?${search.e}&${search.t}`} id={id} search={search} />;
}

function PurchaseComplete({ id, search }: { id: string; search: OrderCompleteSearch }) {
  const { session, inspect } = useApp();
  const machine = orderCompleteRoute.useLoaderData({ select: (d) => d.machine });
  const user = useSelector(session, (s) => s.context.user);
  const [input] = useState<PurchaseCompleteInput>(() => ({
    id,
    kind: search.e ?? '',
    time: queryText(search.t),
    serial: queryText(search.serial),
    type: search.type,
    email: user?.email ?? null,
    walletAddress: user?.wallet.walletAddress ?? null,
    order: search.order ?? null,
    charge: search.charge
      ? { rail: chargeRailOf(search.type), id: search.charge, ckoSessionId: search['cko-session-id'] ?? null }
      : null,
  }));
  const actor = useActorRef(machine, { input, inspect });
  return <PurchaseCompleteView actor={actor} />;
}

export function PurchaseCompleteView({ actor }: { actor: ActorRefFrom<typeof purchaseCompleteMachine> }) {
  const view = useSelector(actor, connectPurchaseComplete);
  const { details, help } = view;
  const failed = view.panel === 'error';
  const refund = view.panel === 'refund';
  return (
    <article className="vt-page vt-purchase vt-stack" aria-busy={view.busy || undefined}>
      <h1 className="vt-page__title">{view.title}</h1>
      {view.busy && <Spinner size="lg" label="Confirming your purchase" />}
      <p
        className={view.alert ? 'vt-form-error' : 'vt-lead'}
        role={view.alert ? 'alert' : undefined}
        aria-live="polite"
      >
        {view.text}
      </p>
      {help && (
        <p>
          {help.text} Support: <a href={`mailto:${help.supportEmail}`}>{help.supportEmail}</a>
        </p>
      )}
      {details && (
        <section className="vt-purchase__card" aria-label="Your purchase">
          <ImageLoader src={details.previewImageUrl} alt={details.title} aspectRatio={1} />
          <dl className="vt-purchase__details">
            <dt>{details.itemLabel}</dt>
            <dd>{details.title}</dd>
            {details.cards.length > 0 && (
              <>
                <dt>Cards</dt>
                <dd>
                  <ul className="vt-purchase__cards" aria-label="Cards in this pack">
                    {details.cards.map((card) => (
                      <li key={card.nftId}>
                        <Link to="/nft/$id" params={{ id: card.nftId }}>
                          {card.title}
                        </Link>{' '}
                        <span className="vt-muted">Edition {card.edition}</span>
                      </li>
                    ))}
                  </ul>
                </dd>
              </>
            )}
            {details.edition && (
              <>
                <dt>Edition</dt>
                <dd>{details.edition}</dd>
              </>
            )}
            {details.partner && (
              <>
                <dt>Partner company</dt>
                <dd>{details.partner}</dd>
              </>
            )}
            <dt>Total</dt>
            <dd>{details.total}</dd>
            <dt>Date and time</dt>
            <dd>{details.purchasedOn}</dd>
            {details.email && (
              <>
                <dt>Email</dt>
                <dd>{details.email}</dd>
              </>
            )}
            <dt>Wallet address</dt>
            <dd>{details.walletAddress}</dd>
          </dl>
        </section>
      )}
      {view.panel === 'success' && (
        <div className="vt-actions">
          <Link className="vt-button vt-button--primary" to="/marketplace">
            Back to marketplace
          </Link>
        </div>
      )}
      {refund && (
        <>
          <section className="vt-card vt-stack" aria-label="Your order">
            <OrderTimeline timeline={view.timeline ?? []} />
          </section>
          <WayBack itemId={view.itemId ?? null} />
        </>
      )}
      {failed && (
        <div className="vt-actions">
          <Link className="vt-button vt-button--secondary" to="/profile/collection">
            My collection
          </Link>
        </div>
      )}
    </article>
  );
}
