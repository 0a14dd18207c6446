import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition } from 'xstate';

/**
 * A transition's identity: source state node, event type and its position among that event's
 * candidates (guarded alternatives count separately). Eventless transitions use the type "always".
 */
export function transitionKey(t: AnyTransitionDefinition): string {
  const source = t.source as AnyStateNode;
  const list = t.eventType ? source.transitions.get(t.eventType) : source.always;
  const index = list ? list.indexOf(t) : -1;
  return `${source.id} | ${t.eventType || 'always'} | ${index}`;
}

/** Every transition a machine declares (the denominator of transition coverage). */
export function allTransitionKeys(machine: AnyStateMachine): string[] {
  const keys: string[] = [];
  const visit = (node: AnyStateNode) => {
    for (const list of node.transitions.values()) for (const t of list) keys.push(transitionKey(t));
    for (const t of node.always ?? []) keys.push(transitionKey(t));
    for (const child of Object.values(node.states) as AnyStateNode[]) visit(child);
  };
  visit(machine.root);
  return keys;
}
