import { useSelector } from '@xstate/react';
import { useEffect, useRef } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { BlueprintJson } from '#domain/catalog';
import { connectPublish, type PublishEvent, type publishMachine } from '../../../machines/publish';
import { Button, Modal, Spinner } from '../components';
import { useFlowActor } from '../useFlowActor';

/**
 * Publishing a draft: the warning and confirmation, then the wait while the item is put on chain.
 * `onStarted` when the machine says the status is set (the list shows the item as publishing),
 * `onDone(changed)` with the machine's output when the dialog ends.
 */
export function PublishDialog({
  machine,
  blueprint,
  onStarted,
  onDone,
}: {
  machine: typeof publishMachine;
  blueprint: BlueprintJson;
  onStarted: () => void;
  onDone: (changed: boolean) => void;
}) {
  const input = { blueprintId: blueprint.id, title: blueprint.title };
  const actor = useFlowActor(machine, input, (output) => onDone(output.changed));
  return <PublishView actor={actor} onStarted={onStarted} />;
}

/** The publish machine's view model as a dialog; its emitted start reaches the parent. */
export function PublishView({
  actor,
  onStarted,
}: {
  actor: ActorRefFrom<typeof publishMachine>;
  onStarted: () => void;
}) {
  const snapshot = useSelector(actor, (s) => s);
  const view = connectPublish(snapshot, (event: PublishEvent) => actor.send(event));
  // The latest callback, for the subscription made once per actor.
  const started = useRef(onStarted);
  useEffect(() => {
    started.current = onStarted;
  });
  useEffect(() => {
    const subscription = actor.on('publish.started', () => started.current());
    return () => subscription.unsubscribe();
  }, [actor]);
  if (view.panel === 'ended') return null;

  return (
    <Modal
      open
      onClose={view.canClose ? view.close : () => {}}
      showCloseButton={view.canClose}
      title={view.title}
      footer={
        view.panel === 'confirming' ? (
          <>
            <Button variant="secondary" onClick={view.close}>
              Not yet
            </Button>
            <Button onClick={view.confirm}>Publish</Button>
          </>
        ) : view.panel === 'failed' ? (
          <>
            <Button variant="secondary" onClick={view.close}>
              Close
            </Button>
            <Button onClick={view.retry}>Try again</Button>
          </>
        ) : view.panel === 'published' ? (
          <Button onClick={view.close}>Done</Button>
        ) : null
      }
    >
      {view.panel === 'confirming' && (
        <p>
          Publishing puts this collectible on the Flow blockchain.{' '}
          <strong>Once it is on chain it cannot be edited</strong>: check the title, price, editions and files
          first.
        </p>
      )}
      {view.busy && (
        <div className="vt-publish__wait" role="status">
          <Spinner decorative />
          <p>
            Putting it on chain… This usually takes a few seconds.
            {view.progress && <span className="vt-muted"> {view.progress}</span>}
          </p>
        </div>
      )}
      {view.note && <p>{view.note}</p>}
      {view.error && (
        <p className="vt-alert vt-alert--error" role="alert">
          {view.error}
        </p>
      )}
    </Modal>
  );
}
