import { eq, max } from 'drizzle-orm';
import type { Executor } from '../../db';
import { mints, nfts, orderItems } from '../../db/schema';

/** The next edition of a blueprint after every one minted, being minted or assigned. */
export async function nextSerial(tx: Executor, flowBlueprintId: number): Promise<number> {
  const [a] = await tx
    .select({ n: max(mints.serialNumber) })
    .from(mints)
    .where(eq(mints.blueprintId, flowBlueprintId));
  const [b] = await tx
    .select({ n: max(orderItems.serialNumber) })
    .from(orderItems)
    .where(eq(orderItems.flowBlueprintId, flowBlueprintId));
  const [c] = await tx
    .select({ n: max(nfts.serialNumber) })
    .from(nfts)
    .where(eq(nfts.blueprintId, flowBlueprintId));
  return Math.max(Number(a?.n ?? 0), Number(b?.n ?? 0), Number(c?.n ?? 0)) + 1;
}
