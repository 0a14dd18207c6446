import { useLocation, useNavigate } from '@tanstack/react-router';
import { useCallback, useMemo, useRef } from 'react';
import { type ItemPageSearch, parseItemPageSearch } from '#domain/routes';

/**
 * The purchase dialog a top-up's payment page sent the buyer back to: the item page's `listing` or
 * `buy=balance`, and `topup` (domain/routes.ts purchaseReturnPath). `take` hands it over once and
 * drops it from the address (replacing the history entry), so a reload does not open it again.
 */
export function useReturnedPurchase(): { search: ItemPageSearch; take: () => ItemPageSearch | null } {
  const location = useLocation();
  const navigate = useNavigate();
  const search = useMemo(
    () => parseItemPageSearch(location.search as Record<string, unknown>),
    [location.search],
  );
  const taken = useRef(false);
  const take = useCallback(() => {
    if (taken.current || (!search.listing && !search.buy)) return null;
    taken.current = true;
    void navigate({ to: location.pathname, search: {}, replace: true });
    return search;
  }, [search, navigate, location.pathname]);
  return { search, take };
}
