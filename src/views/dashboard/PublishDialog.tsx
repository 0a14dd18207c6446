import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useRef } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { BlueprintJson } from '#domain/catalog';
import { timings } from '#domain/constants';
import { errorMessage } from '#domain/errors';
import type { publishMachine } from '../../../machines/publish';
import { useApp } from '../AppContext';
import { Button, Modal, Spinner } from '../components';

/**
 * Publishing a draft (SPEC §4): the warning and confirmation, then the wait while the item is put on
 * chain (polled every 2 s, 50 times at most). `onStarted` once the status is set (the list shows the
 * item as pending), `onDone(changed)` when the dialog closes.
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
  const { inspect } = useApp();
  const actor = useActorRef(machine, {
    input: { blueprintId: blueprint.id, title: blueprint.title },
    inspect,
  });
  return <PublishView actor={actor} onStarted={onStarted} onDone={onDone} />;
}

/** The publish machine's states as a dialog. */
export function PublishView({
  actor,
  onStarted,
  onDone,
}: {
  actor: ActorRefFrom<typeof publishMachine>;
  onStarted: () => void;
  onDone: (changed: boolean) => void;
}) {
  const state = useSelector(actor, (s) => s.value as string);
  const ctx = useSelector(actor, (s) => s.context);
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const started = state === 'waiting' || state === 'checking';
  // Each callback once per dialog, whatever the parent re-renders.
  const told = useRef({ started: false, done: false });
  useEffect(() => {
    if (started && !told.current.started) {
      told.current.started = true;
      onStarted();
    }
  }, [started, onStarted]);
  useEffect(() => {
    if ((state === 'canceled' || state === 'closed') && !told.current.done) {
      told.current.done = true;
      onDone(state === 'closed');
    }
  }, [state, onDone]);
  const close = () => actor.send({ type: state === 'confirming' ? 'publish.cancel' : 'publish.close' });

  return (
    <Modal
      open
      onClose={busy ? () => {} : close}
      showCloseButton={!busy}
      title={state === 'published' ? 'Published' : `Publish “${ctx.title}”?`}
      footer={
        state === 'confirming' ? (
          <>
            <Button variant="secondary" onClick={close}>
              Not yet
            </Button>
            <Button onClick={() => actor.send({ type: 'publish.confirm' })}>Publish</Button>
          </>
        ) : state === 'failed' ? (
          <>
            <Button variant="secondary" onClick={close}>
              Close
            </Button>
            <Button onClick={() => actor.send({ type: 'publish.retry' })}>Try again</Button>
          </>
        ) : state === 'published' ? (
          <Button onClick={close}>Done</Button>
        ) : null
      }
    >
      {state === 'confirming' && (
        <p>
          Publishing puts this collectible on the Flow blockchain.{' '}
          <strong>Once it is on chain it cannot be edited</strong>: check the title, price, editions and files
          first.
        </p>
      )}
      {busy && (
        <div className="vt-publish__wait" role="status">
          <Spinner decorative />
          <p>
            Putting it on chain… This usually takes a few seconds.
            {ctx.polls > 0 && (
              <span className="vt-muted">
                {' '}
                Check {ctx.polls} of {timings.publishPollMaxTries}.
              </span>
            )}
          </p>
        </div>
      )}
      {state === 'published' && (
        <p>“{ctx.title}” is active: it is on your storefront and in the marketplace.</p>
      )}
      {state === 'failed' && (
        <p className="vt-alert vt-alert--error" role="alert">
          {errorMessage(ctx.error)}
        </p>
      )}
    </Modal>
  );
}
