import type { AnyStateMachine } from 'xstate';
import { authMachine } from './auth';
import { collectionCheckMachine } from './collectionCheck';
import { sessionMachine } from './session';
import { settingsFormMachine } from './settingsForm';
import { toastMachine } from './toast';
import { uiMachine } from './ui';
import { walletLinkMachine } from './walletLink';

/** Every machine of the app; the transition coverage report walks this list. */
export const allMachines: AnyStateMachine[] = [
  sessionMachine,
  authMachine,
  uiMachine,
  toastMachine,
  settingsFormMachine,
  walletLinkMachine,
  collectionCheckMachine,
];
