import { preloadable } from '../../lazy';

/**
 * The History tab's list of an item or an NFT (with its "3 hours ago" wording): its code loads with
 * that tab, whose route fetches it (src/routes/nft.$id.history.tsx).
 */
export const HistoryList = preloadable(async () => (await import('./History')).History);
