import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import { type AnyActorRef, type AnyMachineSnapshot, fromPromise } from 'xstate';
import type { NftJson } from '#domain/nft';
import { connectCollectionSelection } from '../machines/collectionSelection';
import { transferNftsMachine } from '../machines/transferNfts';
import { type AppActors, AppContext } from '../src/views/AppContext';
import { CollectionGridView } from '../src/views/profile/CollectionGrid';
import { collectionSelectionModel, SELECTION_IDS } from './collectionSelection.model';
import { flushCoverage } from './coverage-store';
import { clickControl, clickFirst, typeInto } from './dom';
import { coveringPaths, type PathStep, recordMicrosteps, runPath } from './harness';

const WALLET = '0x01cf0e2f2f715450';
const RECIPIENT = '0x179b6b1cb6755e31';

const nft = (id: string, listed: boolean): NftJson => ({
  id,
  blueprint: null,
  blueprintId: '7',
  seriesNumber: Number(id),
  serialNumber: Number(id),
  metadata: { title: `Piece ${id}` },
  status: listed ? 'forSale' : 'parked',
  owner: { id: 'u1', username: 'ada', avatarUrl: null, wallet: { walletAddress: WALLET } },
  activeSaleListing: listed ? { id: `l${id}`, price: 2500, blockchainListingId: `9${id}` } : null,
  nftPurchase: null,
  shareImage: { url: `/og/nft/${id}.png?v=0123456789abcdef`, width: 1200, height: 630 },
});
const NFTS = [
  nft(SELECTION_IDS.first, false),
  nft(SELECTION_IDS.second, false),
  nft(SELECTION_IDS.listed, true),
];

/** The transfer dialog's flow, its wallet transaction answered at once. */
const transferMachine = transferNftsMachine.provide({
  actors: {
    transferNfts: fromPromise<unknown, { address: string; to: string; ids: string[] }>(async () => ({})),
  },
});

const card = (id: string) => screen.getByText(`Piece ${id}`).closest('li')!;
const settle = () => act(() => new Promise<void>((r) => setTimeout(r, 0)));

/**
 * Select-and-transfer paths through the collection: the Select/Transfer/Cancel buttons, a card's
 * checkbox, and the transfer dialog itself for how the transfer ended (sent, or closed before).
 */
async function perform(step: PathStep) {
  const e = step.event as { type: string; id?: string; changed?: boolean };
  switch (e.type) {
    case 'selection.start':
      return clickFirst('Select to transfer');
    case 'selection.toggle':
      return clickControl(within(card(e.id!)).queryByRole('checkbox'), `The checkbox of ${e.id}`);
    case 'selection.cancel':
      return clickFirst('Cancel');
    case 'selection.transfer':
      return clickFirst(/^Transfer selected/);
    case 'selection.transfer.end': {
      const dialog = within(screen.getByRole('dialog'));
      if (!e.changed) {
        fireEvent.click(dialog.getByRole('button', { name: 'Cancel' }));
        await settle();
        return true;
      }
      typeInto(dialog.queryByLabelText<HTMLInputElement>("Recipient's Flow address"), RECIPIENT);
      fireEvent.click(dialog.getByRole('button', { name: 'Transfer' }));
      await settle();
      fireEvent.click(await screen.findByRole('button', { name: 'Done' }));
      await settle();
      return true;
    }
    default:
      return false;
  }
}

/** The collection shows what the view model of the expected snapshot says. */
function check(expected: AnyMachineSnapshot) {
  const view = connectCollectionSelection(expected as never, () => {});
  expect(screen.queryByRole('button', { name: 'Select to transfer' }) !== null).toBe(view.canStart);
  const transfer = screen.queryByRole<HTMLButtonElement>('button', { name: /^Transfer selected/ });
  expect(transfer?.textContent ?? null).toBe(view.selecting ? view.transferLabel : null);
  if (transfer) expect(transfer.disabled).toBe(!view.canTransfer);
  for (const item of NFTS) {
    const box = within(card(item.id)).queryByRole<HTMLInputElement>('checkbox');
    expect(box !== null).toBe(view.selecting);
    if (box) {
      expect(box.checked).toBe(view.isSelected(item.id));
      expect(box.disabled).toBe(!view.isTransferable(item.id) || view.transferring !== null);
    }
  }
  const dialog = screen.queryByRole('dialog');
  expect(dialog !== null).toBe(view.transferring !== null);
  if (view.transferring)
    expect(within(dialog!).getByRole('heading', { level: 2 }).textContent).toBe(
      view.transferring.length === 1
        ? 'Transfer this collectible'
        : `Transfer ${view.transferring.length} collectibles`,
    );
}

describe('select-and-transfer paths through the collection', () => {
  for (const path of coveringPaths(collectionSelectionModel)) {
    it(path.description, () =>
      runPath(collectionSelectionModel, path, {
        mount: (actor: AnyActorRef) => {
          render(
            <AppContext.Provider value={{ inspect: recordMicrosteps } as unknown as AppActors}>
              <CollectionGridView
                actor={actor as never}
                nfts={NFTS}
                wallet={WALLET}
                transferMachine={transferMachine}
                onView={() => {}}
                onTransferred={() => {}}
              />
            </AppContext.Provider>,
          );
        },
        perform,
        check,
        wrap: (fn) => act(fn),
      }),
    );
  }
  afterAll(() => flushCoverage('view'));
});
