import { act, screen } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyActorRef, AnyMachineSnapshot } from 'xstate';
import { connectTransferNfts } from '../machines/transferNfts';
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
      return clickFirst('Cancel', 'Done');
    default:
      return false;
  }
}

/** The dialog shows what the view model of the expected snapshot says, and nothing once it is over. */
function check(expected: AnyMachineSnapshot) {
  const view = connectTransferNfts(expected as never, () => {});
  const dialog = screen.queryByRole('dialog');
  if (view.panel === 'done') return expect(dialog).toBeNull();
  expect(screen.getByRole('heading', { level: 2 }).textContent).toBe(view.title);
  const input = screen.queryByLabelText<HTMLInputElement>("Recipient's Flow address");
  const alerts = screen.queryAllByRole('alert').map((el) => el.textContent);
  expect(alerts).toEqual([view.recipientError, view.error].filter(Boolean));
  expect(input === null).toBe(view.panel !== 'form');
  if (input) {
    expect(input.value).toBe(view.recipient);
    expect(input.readOnly).toBe(view.busy);
    expect(input.getAttribute('aria-invalid')).toBe(view.recipientError ? 'true' : null);
    expect(screen.getByRole('button', { name: 'Transfer' }).getAttribute('aria-busy')).toBe(
      view.busy ? 'true' : null,
    );
  }
  if (view.status) expect(dialog!.textContent).toContain(view.status);
  if (view.panel === 'transferred') expect(dialog!.textContent).toContain(`Sent to ${view.sentTo}`);
}

describe('transfer paths through the dialog', () => {
  for (const path of coveringPaths(transferNftsModel)) {
    it(path.description, () =>
      runPath(transferNftsModel, path, {
        mount: (actor: AnyActorRef) => renderWithRouter(() => <TransferDialog actor={actor as never} />),
        perform,
        check,
        wrap: (fn) => act(fn),
      }),
    );
  }
  afterAll(() => flushCoverage('view'));
});
