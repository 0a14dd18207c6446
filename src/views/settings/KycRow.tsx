import { getRouteApi, Link, useLocation } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { User } from '#domain/user';
import { connectKyc, type kycMachine } from '../../../machines/kyc';
import { useApp } from '../AppContext';
import { Button, Modal, TextInput } from '../components';

const settingsRoute = getRouteApi('/_authenticated/settings');

/** The KYC row of Settings → Account, its machine fed from the signed-in account. */
export function KycRow({ user }: { user: User }) {
  const { inspect } = useApp();
  const machine = settingsRoute.useLoaderData({ select: (d) => d.kyc });
  // The identity provider sends the person back to /settings/account?kyc=returned.
  const returned = useLocation({ select: (l) => (l.search as Record<string, unknown>).kyc === 'returned' });
  const actor = useActorRef(machine, {
    input: {
      status: user.kyc.status,
      url: user.kyc.url,
      ownsNfts: user.nfts > 0,
      firstName: user.kyc.firstName ?? user.firstName,
      lastName: user.kyc.lastName ?? user.lastName,
      returned,
    },
    inspect,
  });
  // A fresh profile (the decision arrived, a collectible was bought) reaches the machine.
  useEffect(() => {
    actor.send({ type: 'kyc.update', status: user.kyc.status, url: user.kyc.url, ownsNfts: user.nfts > 0 });
  }, [actor, user.kyc.status, user.kyc.url, user.nfts]);
  return <KycRowView actor={actor} />;
}

export function KycRowView({ actor }: { actor: ActorRefFrom<typeof kycMachine> }) {
  const view = connectKyc(
    useSelector(actor, (s) => s),
    (event) => actor.send(event),
  );
  return (
    <section className="vt-card vt-row">
      <div>
        <h2>Identity verification</h2>
        <p className="vt-muted">
          Selling on the marketplace requires identity verification. Buying does not.
        </p>
        {view.awaiting && (
          <p className="vt-muted" role="status">
            {view.awaiting}
          </p>
        )}
      </div>
      <Button
        variant={view.canStart ? 'primary' : 'secondary'}
        {...view.getStartButtonProps()}
        loading={view.panel === 'redirecting'}
      >
        {view.label}
      </Button>

      <Modal
        open={view.panel === 'blocked'}
        onClose={view.close}
        title="Collect first"
        footer={
          <>
            <Button variant="secondary" {...view.getCloseButtonProps()}>
              Close
            </Button>
            <Button as={Link} to="/marketplace">
              Explore the marketplace
            </Button>
          </>
        }
      >
        <p>{view.blockedText}</p>
      </Modal>

      <Modal
        open={view.panel === 'name'}
        onClose={view.close}
        title="Verify your identity"
        description="Enter your legal name as it is written on your ID. Our partner Veriff checks it with a photo of your document."
        footer={
          <>
            <Button variant="secondary" {...view.getCloseButtonProps()}>
              Cancel
            </Button>
            <Button type="submit" form="kyc-name" loading={view.busy}>
              Continue to Veriff
            </Button>
          </>
        }
      >
        <form id="kyc-name" className="vt-stack" {...view.getFormProps()}>
          <fieldset disabled={view.busy} className="vt-stack">
            <TextInput
              label="First name"
              name="firstName"
              autoComplete="given-name"
              value={view.firstName}
              error={view.fieldErrors.firstName}
              onChange={(e) => view.setFirstName(e.target.value)}
            />
            <TextInput
              label="Last name"
              name="lastName"
              autoComplete="family-name"
              value={view.lastName}
              error={view.fieldErrors.lastName}
              onChange={(e) => view.setLastName(e.target.value)}
            />
          </fieldset>
          {view.error && (
            <p className="vt-form-error" role="alert">
              {view.error}
            </p>
          )}
        </form>
      </Modal>
    </section>
  );
}
