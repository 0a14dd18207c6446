import { useActorRef } from '@xstate/react';
import { useEffect, useRef } from 'react';
import type { AnyMachineSnapshot, AnyStateMachine, InputFrom, OutputFrom } from 'xstate';
import { useApp } from './AppContext';

/**
 * A flow's actor that lives while its component is mounted. `onEnd` gets the machine's output once
 * the flow is over (its final state), never when the component unmounts first: how a flow ended
 * reaches the page this one way.
 */
export function useFlowActor<M extends AnyStateMachine>(
  machine: M,
  input: InputFrom<M>,
  onEnd: (output: OutputFrom<M>) => void,
) {
  const { inspect } = useApp();
  const actor = useActorRef(machine, { input, inspect } as never);
  const end = useRef(onEnd);
  useEffect(() => {
    end.current = onEnd;
  });
  useEffect(() => {
    const subscription = actor.subscribe({
      complete: () => {
        const snapshot = actor.getSnapshot() as AnyMachineSnapshot;
        if (snapshot.status === 'done') end.current(snapshot.output as OutputFrom<M>);
      },
    });
    return () => subscription.unsubscribe();
  }, [actor]);
  return actor;
}
