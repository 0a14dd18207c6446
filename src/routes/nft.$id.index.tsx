import { createFileRoute } from '@tanstack/react-router';

/**
 * /nft/{id} shows its details tab (src/routes/nft.$id.tsx renders every tab): the item's one URL
 * that the server renders, links and previews share, and search engines index.
 */
export const Route = createFileRoute('/nft/$id/')();
