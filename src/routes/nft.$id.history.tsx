import { createFileRoute } from '@tanstack/react-router';
import { HistoryList } from '../views/nft/HistoryList';

/** An item's or an NFT's History tab: its list's code arrives with the tab. */
export const Route = createFileRoute('/nft/$id/history')({ loader: () => HistoryList.preload() });
