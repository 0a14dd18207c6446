import type { AcceptOfferInput, acceptOfferMachine } from '../../../machines/acceptOffer';
import type { CancelOfferInput, cancelOfferMachine } from '../../../machines/cancelOffer';
import type { MakeOfferInput, makeOfferMachine } from '../../../machines/makeOffer';
import { useFlowActor } from '../useFlowActor';
import { AcceptOfferDialog, CancelOfferDialog, MakeOfferDialog } from './OfferPanels';

/**
 * The offer dialogs, each running its flow. They load when one opens (OfferList's hosts), not with
 * the page: `onDone(changed)` once the flow is over, `changed` when an offer or the NFT changed.
 */
export type OfferDialogRequest =
  | { kind: 'make'; machine: typeof makeOfferMachine; input: MakeOfferInput }
  | { kind: 'accept'; machine: typeof acceptOfferMachine; input: AcceptOfferInput }
  | { kind: 'cancel'; machine: typeof cancelOfferMachine; input: CancelOfferInput };

interface Props<R> {
  request: R;
  onDone: (changed: boolean) => void;
}
type Of<K> = Extract<OfferDialogRequest, { kind: K }>;

function Make({ request, onDone }: Props<Of<'make'>>) {
  return (
    <MakeOfferDialog actor={useFlowActor(request.machine, request.input, (out) => onDone(out.changed))} />
  );
}
function Accept({ request, onDone }: Props<Of<'accept'>>) {
  return (
    <AcceptOfferDialog actor={useFlowActor(request.machine, request.input, (out) => onDone(out.changed))} />
  );
}
function Cancel({ request, onDone }: Props<Of<'cancel'>>) {
  return (
    <CancelOfferDialog actor={useFlowActor(request.machine, request.input, (out) => onDone(out.changed))} />
  );
}

export function OfferDialog({ request, onDone }: Props<OfferDialogRequest>) {
  if (request.kind === 'make') return <Make request={request} onDone={onDone} />;
  if (request.kind === 'accept') return <Accept request={request} onDone={onDone} />;
  return <Cancel request={request} onDone={onDone} />;
}
