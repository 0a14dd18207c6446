import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { connectStorefrontWizard } from '../../../machines/storefrontWizard';
import { useApp } from '../AppContext';
import { StorefrontWizardView } from './StorefrontWizard';

const route = getRouteApi('/create-storefront');

/**
 * /create-storefront/{step}: the wizard; the URL follows its step, and after the launch the creator
 * goes to the dashboard.
 */
export function CreateStorefrontPage() {
  const { machine } = route.useLoaderData();
  const { inspect } = useApp();
  const navigate = useNavigate();
  const actor = useActorRef(machine, { inspect });
  const step = useSelector(actor, (s) => connectStorefrontWizard(s, actor.send).step);
  useEffect(() => {
    if (step === 'created') void navigate({ to: '/dashboard', replace: true });
    else if (step !== 'creating') void navigate({ to: `/create-storefront/${step}`, replace: true });
  }, [step, navigate]);
  return <StorefrontWizardView actor={actor} />;
}
