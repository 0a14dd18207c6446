import { act, screen } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyActorRef, AnyMachineSnapshot } from 'xstate';
import { errorMessage } from '#domain/errors';
import { TransferDialog } from '../src/views/nft/ListingPanels';
import { flushCoverage } from './coverage-store';
import { clickFirst, typeInto } from './dom';
import { coveringPaths, type PathStep, runPath } from './harness';
import { renderWithRouter } from './router';
import { transferNftsModel } from './transferNfts.model';

/** Transfer paths through the dialog: typing the recipient, Transfer and Cancel. */
async function perform(step: PathStep) {
  const e = step.event as { type: string; value?: string };
  switch (e.type) {
    case 'transfer.recipient.change':
      return typeInto(
        screen.queryByLabelText<HTMLInputElement>("Recipient's Flow address"),
        e.value!,
        "Recipient's Flow address",
      );
    case 'transfer.submit':
      return clickFirst('Transfer');
    case 'transfer.close':
      return clickFirst('Cancel');
    default:
      return false;
  }
}

function check(expected: AnyMachineSnapshot) {
  const state = expected.value as string;
  if (state === 'closed') return expect(screen.queryByRole('dialog')).toBeNull();
  expect(screen.getByRole('heading', { level: 2 }).textContent).toBe(
    state === 'transferred' ? 'Transfer sent' : 'Transfer 2 collectibles',
  );
  const input = screen.queryByLabelText<HTMLInputElement>("Recipient's Flow address");
  const alerts = screen.queryAllByRole('alert').map((el) => el.textContent);
  const error = expected.context.error;
  if (error?.field === 'recipient') {
    expect(input?.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('dialog').textContent).toContain(errorMessage(error));
  } else if (error) expect(alerts).toEqual([errorMessage(error)]);
  else expect(alerts).toEqual([]);
  if (state === 'editing') expect(input?.value).toBe(expected.context.recipient);
  if (state === 'signing')
    expect(screen.getByRole('button', { name: 'Transfer' }).getAttribute('aria-busy')).toBe('true');
}

describe('transfer paths through the dialog', () => {
  for (const path of coveringPaths(transferNftsModel)) {
    it(path.description, () =>
      runPath(transferNftsModel, path, {
        mount: (actor: AnyActorRef) =>
          renderWithRouter(() => <TransferDialog actor={actor as never} onDone={() => {}} />),
        perform,
        check,
        wrap: (fn) => act(fn),
      }),
    );
  }
  afterAll(() => flushCoverage('view'));
});
