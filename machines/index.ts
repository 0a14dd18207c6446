import type { AnyStateMachine } from 'xstate';
import { authMachine } from './auth';
import { sessionMachine } from './session';

/** Every machine of the app; the transition coverage report walks this list. */
export const allMachines: AnyStateMachine[] = [sessionMachine, authMachine];
