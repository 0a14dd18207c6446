"""
Rules between fields that an OpenAPI document cannot state: the server checks them with valibot
(domain/schemas) or in a handler, and schemathesis generates only requests that keep them, so
that a generated request the server refuses is a real disagreement. Tables the rules need come from
the server's own code, through VITRINE_CONTRACT_RULES (JSON written by scripts/contract.ts).
"""

import json
import os

import schemathesis

RULES = json.loads(os.environ.get("VITRINE_CONTRACT_RULES", "{}"))


def _number(value):
    """The whole number a query value holds, or None for anything else (a negative case's junk)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.isdigit():
        return int(value)
    return None


# The lists whose page holds fewer than 100 rows: a buyer's purchases, offers, the activity feed,
# a user's favorites.
PAGE_SIZES = {"/nfts/purchases": 10, "/offers": 50, "/activity": 50, "/users/me/favorites": 24}


@schemathesis.hook
def filter_query(ctx, query):
    path = ctx.operation.path
    query = query if isinstance(query, dict) else {}

    # Lists page with from/to, 1-based and inclusive: to is at least from, and a page holds at most
    # 100 rows (fewer where PAGE_SIZES says). Without to, the page is the default size.
    first, last = _number(query.get("from", 1)), _number(query.get("to"))
    if first is not None and last is not None:
        size = PAGE_SIZES.get(path, 100)
        if not first <= last < first + size:
            return False

    # A price range's min is at most its max.
    low, high = _number(query.get("min")), _number(query.get("max"))
    if low is not None and high is not None and low > high:
        return False

    # Whether an account exists is asked by its email or by its wallet address.
    if path == "/queries/user-existence" and not (query.get("email") or query.get("walletAddress")):
        return False

    # An upload's type is one its asset kind takes, and the file name's extension names that type.
    if path == "/assets/upload-url":
        kinds = RULES.get("uploads", {})
        mime, kind, key = query.get("mimeType"), query.get("assetKind"), query.get("objectKey")
        if isinstance(mime, str) and isinstance(kind, str) and isinstance(key, str) and kind in kinds:
            extension = key.rsplit(".", 1)[-1].lower()
            if mime not in kinds[kind] or extension not in kinds[kind][mime]:
                return False

    return True
