import type { AnyStateMachine } from 'xstate';
import { acceptOfferMachine } from './acceptOffer';
import { activityFeedMachine } from './activityFeed';
import { adminListMachine } from './adminList';
import { authMachine } from './auth';
import { avatarUploadMachine } from './avatarUpload';
import { balancePaymentMachine } from './balancePayment';
import { blueprintFormMachine } from './blueprintForm';
import { buyListingMachine } from './buyListing';
import { cancelOfferMachine } from './cancelOffer';
import { cardPaymentMachine } from './cardPayment';
import { carouselMachine } from './carousel';
import { checkoutMachine } from './checkout';
import { checkoutFailedMachine } from './checkoutFailed';
import { collectionCheckMachine } from './collectionCheck';
import { collectionSelectionMachine } from './collectionSelection';
import { countdownMachine } from './countdown';
import { cryptoCanceledMachine } from './cryptoCanceled';
import { cryptoPaymentMachine } from './cryptoPayment';
import { cryptoTopupMachine } from './cryptoTopup';
import { dashboardAccountMachine } from './dashboardAccount';
import { favoriteMachine } from './favorite';
import { fusdBalanceMachine } from './fusdBalance';
import { imageJobMachine } from './imageJob';
import { imageUploadsMachine } from './imageUploads';
import { kycMachine } from './kyc';
import { ledgerExportMachine } from './ledgerExport';
import { linkActionMachine } from './linkAction';
import { listForSaleMachine } from './listForSale';
import { makeOfferMachine } from './makeOffer';
import { onrampPaymentMachine } from './onrampPayment';
import { payoutMachine } from './payout';
import { productActionsMachine } from './productActions';
import { publishMachine } from './publish';
import { purchaseCompleteMachine } from './purchaseComplete';
import { removeListingMachine } from './removeListing';
import { saleNoticesMachine } from './saleNotices';
import { salesChartMachine } from './salesChart';
import { savedCardsMachine } from './savedCards';
import { sessionMachine } from './session';
import { settingsFormMachine } from './settingsForm';
import { storefrontReportMachine } from './storefrontReport';
import { storefrontWizardMachine } from './storefrontWizard';
import { toastMachine } from './toast';
import { tokenChargeMachine } from './tokenCharge';
import { transferNftsMachine } from './transferNfts';
import { uiMachine } from './ui';
import { walletLinkMachine } from './walletLink';
import { walletPaymentMachine } from './walletPayment';

/** Every machine of the app; the transition coverage report walks this list. */
export const allMachines: AnyStateMachine[] = [
  sessionMachine,
  authMachine,
  uiMachine,
  toastMachine,
  settingsFormMachine,
  linkActionMachine,
  kycMachine,
  adminListMachine,
  activityFeedMachine,
  avatarUploadMachine,
  saleNoticesMachine,
  salesChartMachine,
  walletLinkMachine,
  collectionCheckMachine,
  collectionSelectionMachine,
  listForSaleMachine,
  removeListingMachine,
  favoriteMachine,
  makeOfferMachine,
  acceptOfferMachine,
  cancelOfferMachine,
  buyListingMachine,
  purchaseCompleteMachine,
  transferNftsMachine,
  countdownMachine,
  carouselMachine,
  storefrontReportMachine,
  storefrontWizardMachine,
  imageJobMachine,
  imageUploadsMachine,
  blueprintFormMachine,
  publishMachine,
  productActionsMachine,
  payoutMachine,
  ledgerExportMachine,
  dashboardAccountMachine,
  cardPaymentMachine,
  balancePaymentMachine,
  onrampPaymentMachine,
  walletPaymentMachine,
  tokenChargeMachine,
  cryptoPaymentMachine,
  cryptoTopupMachine,
  fusdBalanceMachine,
  savedCardsMachine,
  checkoutFailedMachine,
  checkoutMachine,
  cryptoCanceledMachine,
];
