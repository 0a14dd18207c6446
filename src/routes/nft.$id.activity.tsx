import { createFileRoute } from '@tanstack/react-router';
import { parseActivitySearch } from '#domain/activitySearch';

/** An item's or an NFT's Activity tab (?kinds= narrows it); the item page renders it. */
export const Route = createFileRoute('/nft/$id/activity')({ validateSearch: parseActivitySearch });
