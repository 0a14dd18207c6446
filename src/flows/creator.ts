import { fromPromise } from 'xstate';
import { once } from '../lazy';
import { formDrafts } from '../services/drafts';
import type { FlowDeps } from './deps';
import type { SharedFlowParts } from './shared';

/** The creator's flows (storefront, products, sales, payouts) and the back office's lists. */
export function creatorFlows(deps: FlowDeps, shared: SharedFlowParts) {
  return { ...storefrontFlows(deps, shared), ...salesAndAdminFlows(deps, shared) };
}

/** The storefront and its products: the wizard, the product form, publishing, the storefront's settings. */
function storefrontFlows(deps: FlowDeps, shared: SharedFlowParts) {
  const { catalog } = deps;
  const { toast, imageUploads, inspectImage } = shared;
  return {
    storefrontWizard: once(async () => {
      const uploadImages = await imageUploads();
      return (await import('../../machines/storefrontWizard')).storefrontWizardMachine.provide({
        actors: {
          uploadImages,
          inspectImage,
          createStorefront: fromPromise(({ input }) => catalog.createStorefront(input)),
        },
        actions: { announceCreated: () => toast('storefront-created', 'Your storefront is live') },
      });
    }),
    blueprintForm: once(async () => {
      const uploadImages = await imageUploads();
      return (await import('../../machines/blueprintForm')).blueprintFormMachine.provide({
        actors: {
          uploadImages,
          inspectImage,
          saveBlueprint: fromPromise(({ input }) =>
            input.id === null
              ? catalog.createBlueprint(input.body)
              : catalog.updateBlueprint(input.id, input.body),
          ),
        },
        actions: {
          announceSaved: () => toast('product-saved', 'Saved'),
          stashDraft: (_, { key, values }) => formDrafts.write(key, { ...values }),
          forgetDraft: (_, { key }) => formDrafts.clear(key),
        },
      });
    }),
    publish: once(async () =>
      (await import('../../machines/publish')).publishMachine.provide({
        actors: {
          setReadyToSell: fromPromise(({ input }) =>
            catalog.updateBlueprint(input.blueprintId, { status: 'readyToSell' }),
          ),
          fetchBlueprint: fromPromise(({ input }) => catalog.blueprint(input.blueprintId)),
        },
      }),
    ),
    productActions: once(async () =>
      (await import('../../machines/productActions')).productActionsMachine.provide({
        actors: {
          updateProduct: fromPromise(({ input }) => catalog.updateBlueprint(input.id, input.change)),
        },
      }),
    ),
    dashboardAccount: once(async () => {
      const uploadImages = await imageUploads();
      return (await import('../../machines/dashboardAccount')).dashboardAccountMachine.provide({
        actors: {
          uploadImages,
          saveStorefront: fromPromise(({ input }) => catalog.updateStorefront(input.id, input.patch)),
          setEnabled: fromPromise(({ input }) =>
            catalog.updateStorefront(input.id, { enabled: input.enabled }),
          ),
        },
        actions: {
          stashDraft: (_, { key, values }) => formDrafts.write(key, { ...values }),
          forgetDraft: (_, { key }) => formDrafts.clear(key),
          announceSaved: () => toast('storefront-saved', 'Saved'),
          announceEnabled: (_, { storefront }) =>
            toast('storefront-enabled', storefront.enabled ? 'Storefront enabled' : 'Storefront disabled'),
        },
      });
    }),
  };
}

/** The sales chart, payouts, the ledger export and the back office's lists. */
function salesAndAdminFlows(deps: FlowDeps, shared: SharedFlowParts) {
  const { api, sales } = deps;
  const { toast } = shared;
  return {
    salesChart: once(async () =>
      (await import('../../machines/salesChart')).salesChartMachine.provide({
        actors: {
          fetchChart: fromPromise(({ input }) =>
            api.get('/sales/chart', {
              query: { storefrontId: input.storefrontId, days: input.days, bucket: input.bucket },
            }),
          ),
        },
      }),
    ),
    payout: once(async () =>
      (await import('../../machines/payout')).payoutMachine.provide({
        actors: {
          loadPayouts: fromPromise(() => sales.payouts()),
          createPayout: fromPromise(({ input }) => sales.requestPayout(input)),
          cancelPayout: fromPromise(({ input }) => sales.cancelPayout(input)),
        },
        actions: {
          announceRequested: () => toast('payout-requested', 'Payout requested'),
          announceCancelled: () => toast('payout-cancelled', 'Payout request cancelled'),
        },
      }),
    ),
    ledgerExport: once(async () =>
      (await import('../../machines/ledgerExport')).ledgerExportMachine.provide({
        actors: { exportLedger: fromPromise(({ input }) => sales.exportLedger(input)) },
        actions: { announceExported: () => toast('ledger-exported', 'Ledger exported') },
      }),
    ),
    adminList: once(async () =>
      (await import('../../machines/adminList')).adminListMachine.provide({
        actors: {
          fetchList: fromPromise(({ input }) =>
            api.get(`/admin/${input.list}`, {
              query: {
                page: input.query.page,
                pageSize: input.query.pageSize,
                searchText: input.query.searchText,
                status: input.query.status,
              },
            }),
          ),
          performAction: fromPromise(({ input }) =>
            api.patch(input.route, { params: { id: input.id }, json: input.body }),
          ),
        },
      }),
    ),
  };
}
