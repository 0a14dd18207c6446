import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createPublisher } from '../../server/blueprints/publisher';
import { getChainBlueprint, registerBlueprintArgs } from '../../server/chain/actions';
import { blueprintRegistrations, blueprints } from '../../server/db/schema';
import { type Json, register, type TestApi, useTestApp } from '../api/support/harness';
import { uploadImage } from '../api/support/uploads';
import { chainClient, freshBlueprintId } from './support';

/** Publishing: the durable job registers the blueprint on the real emulator, then it is active. */
const client = chainClient();

async function publishedDraft(t: TestApi, over: Json = {}) {
  const me = await register(t);
  await t.request('POST', '/api/storefronts', {
    token: me.authToken,
    body: {
      name: `Shop ${Math.random().toString(36).slice(2, 8)}`,
      description: 'Loops',
      contactEmail: 'a@b.co',
    },
  });
  const created = await t.request('POST', '/api/blueprints', {
    token: me.authToken,
    body: {
      title: 'Chain Loop',
      description: 'Registered on chain.',
      price: 1250,
      quantity: 3,
      royaltyPercent: 7.5,
      previewImageUrl: await uploadImage(t, me.authToken, 'blueprintPreviewImage'),
      assetUrl: await uploadImage(t, me.authToken, 'blueprintAsset'),
      ...over,
    },
  });
  expect(created.status).toBe(201);
  return { token: me.authToken, blueprint: created.body };
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Blueprint numbers of this test database start where no other test's do (one shared emulator). */
async function freshFlowIds(t: TestApi) {
  await t.database.db.execute(
    sql.raw(
      `alter table blueprints alter column flow_blueprint_id restart with ${freshBlueprintId() * 1000}`,
    ),
  );
}

describe('publishing a blueprint', () => {
  const t = useTestApp(
    'pglite',
    {},
    {
      chainClient: client,
      publisher: (db) =>
        createPublisher({ db, client, retryDelayMs: 50, maxAttempts: 2, log: { info() {}, error() {} } }),
    },
  );

  it('registers it on chain with its terms, then it is active and public', async () => {
    await freshFlowIds(t);
    const { token, blueprint } = await publishedDraft(t);
    const started = Date.now();
    const res = await t.request('PATCH', `/api/blueprints/${blueprint.id}`, {
      token,
      body: { status: 'readyToSell' },
    });
    expect(res.body).toMatchObject({ state: 'created', status: 'readyToSell' });
    const active = await until(
      async () => (await t.request('GET', `/api/blueprints/${blueprint.id}`, { token })).body,
      (b) => b.state === 'active',
    );
    expect(active).toMatchObject({ state: 'active', status: null });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await getChainBlueprint(client, blueprint.flowBlueprintId)).toMatchObject({
      id: blueprint.flowBlueprintId,
      maxEditions: '3',
      price: '12.50000000',
      royalty: '0.07500000',
      // The platform's cut of an accepted offer (VitrineOffers): the item's totalFeePercent (5 %).
      metadata: expect.objectContaining({ platformFeeRate: '0.05000000' }),
      open: true,
    });
    const [job] = await t.database.db
      .select()
      .from(blueprintRegistrations)
      .where(eq(blueprintRegistrations.blueprintId, blueprint.id));
    expect(job).toMatchObject({ status: 'sealed', attempts: 1, error: null });
    expect(job!.transactionId).toMatch(/^[0-9a-f]{64}$/);
    expect((await t.request('GET', `/api/blueprints/${blueprint.id}`)).status).toBe(200);
  });

  it('closes a canceled sale on chain, also when the close resumes after a restart', async () => {
    await freshFlowIds(t);
    const { token, blueprint } = await publishedDraft(t);
    const patch = (body: Json) => t.request('PATCH', `/api/blueprints/${blueprint.id}`, { token, body });
    await patch({ status: 'readyToSell' });
    await until(
      async () => (await t.request('GET', `/api/blueprints/${blueprint.id}`, { token })).body,
      (b) => b.state === 'active',
    );
    expect((await patch({ state: 'canceled' })).body.state).toBe('canceled');
    const job = async () =>
      (
        await t.database.db
          .select()
          .from(blueprintRegistrations)
          .where(eq(blueprintRegistrations.blueprintId, blueprint.id))
      )[0]!;
    expect((await until(job, (j) => j.closeStatus === 'sealed')).closeTransactionId).toMatch(
      /^[0-9a-f]{64}$/,
    );
    expect((await getChainBlueprint(client, blueprint.flowBlueprintId))?.open).toBe(false);

    // A close interrupted before its transaction left is sent again on resume.
    const second = await publishedDraft(t);
    await t.request('PATCH', `/api/blueprints/${second.blueprint.id}`, {
      token: second.token,
      body: { status: 'readyToSell' },
    });
    await until(
      async () =>
        (await t.request('GET', `/api/blueprints/${second.blueprint.id}`, { token: second.token })).body,
      (b) => b.state === 'active',
    );
    // The state a crash leaves: canceled, the close submitted with a transaction the chain never saw.
    await t.database.db
      .update(blueprints)
      .set({ state: 'canceled' })
      .where(eq(blueprints.id, second.blueprint.id));
    await t.database.db
      .update(blueprintRegistrations)
      .set({ closeStatus: 'submitted', closeTransactionId: 'cd'.repeat(32) })
      .where(eq(blueprintRegistrations.blueprintId, second.blueprint.id));
    const restarted = createPublisher({ db: t.database.db, client, retryDelayMs: 50 });
    await restarted.resume();
    await until(
      async () =>
        (
          await t.database.db
            .select()
            .from(blueprintRegistrations)
            .where(eq(blueprintRegistrations.blueprintId, second.blueprint.id))
        )[0]!,
      (j) => j.closeStatus === 'sealed',
    );
    await restarted.stop();
    expect((await getChainBlueprint(client, second.blueprint.flowBlueprintId))?.open).toBe(false);
  });

  it('resumes a job after a restart: a transaction that never left is sent again', async () => {
    await freshFlowIds(t);
    const { token, blueprint } = await publishedDraft(t);
    // The state a crash leaves: ready to sell, the job submitted with a transaction the chain never saw.
    await t.database.db
      .update(blueprints)
      .set({ status: 'readyToSell' })
      .where(eq(blueprints.id, blueprint.id));
    await t.database.db.insert(blueprintRegistrations).values({
      blueprintId: blueprint.id,
      flowBlueprintId: Number(blueprint.flowBlueprintId),
      status: 'submitted',
      transactionId: 'ab'.repeat(32),
      attempts: 1,
    });
    const restarted = createPublisher({ db: t.database.db, client, retryDelayMs: 50 });
    await restarted.resume();
    const active = await until(
      async () => (await t.request('GET', `/api/blueprints/${blueprint.id}`, { token })).body,
      (b) => b.state === 'active',
    );
    await restarted.stop();
    expect(active.state).toBe('active');
    expect((await getChainBlueprint(client, blueprint.flowBlueprintId))?.maxEditions).toBe('3');
  });

  it('two servers resuming one job at once send one transaction: the row is leased to one', async () => {
    await freshFlowIds(t);
    const { token, blueprint } = await publishedDraft(t);
    await t.database.db
      .update(blueprints)
      .set({ status: 'readyToSell' })
      .where(eq(blueprints.id, blueprint.id));
    await t.database.db.insert(blueprintRegistrations).values({
      blueprintId: blueprint.id,
      flowBlueprintId: Number(blueprint.flowBlueprintId),
      status: 'pending',
    });
    const servers = [1, 2].map(() => createPublisher({ db: t.database.db, client, retryDelayMs: 50 }));
    await Promise.all(servers.map((server) => server.resume()));
    const active = await until(
      async () => (await t.request('GET', `/api/blueprints/${blueprint.id}`, { token })).body,
      (b) => b.state === 'active',
    );
    await Promise.all(servers.map((server) => server.stop()));
    expect(active.state).toBe('active');
    const [job] = await t.database.db
      .select()
      .from(blueprintRegistrations)
      .where(eq(blueprintRegistrations.blueprintId, blueprint.id));
    // One submission: the other server found the row leased and left it.
    expect(job).toMatchObject({ status: 'sealed', attempts: 1, leaseUntil: null });
  });

  it('gives up after its attempts: the blueprint is a draft again and the job says why', async () => {
    await freshFlowIds(t);
    const { token, blueprint } = await publishedDraft(t);
    // Someone registered this number with other terms: the chain refuses every attempt.
    await client.transact('transactions/register_blueprint.cdc', {
      signer: client.config.admin,
      args: registerBlueprintArgs({
        blueprintId: blueprint.flowBlueprintId,
        maxEditions: 99,
        price: '1.0',
        royalty: '0.0',
        metadata: {},
      }),
    });
    await t.request('PATCH', `/api/blueprints/${blueprint.id}`, { token, body: { status: 'readyToSell' } });
    const back = await until(
      async () => (await t.request('GET', `/api/blueprints/${blueprint.id}`, { token })).body,
      (b) => b.status === null,
    );
    expect(back).toMatchObject({ state: 'created', status: null });
    const [job] = await t.database.db
      .select()
      .from(blueprintRegistrations)
      .where(eq(blueprintRegistrations.blueprintId, blueprint.id));
    expect(job).toMatchObject({ status: 'failed', attempts: 2 });
    expect(job!.error).toMatch(/registered with other terms/);
    // It can be edited and published again.
    expect(
      (await t.request('PATCH', `/api/blueprints/${blueprint.id}`, { token, body: { title: 'Try again' } }))
        .status,
    ).toBe(200);
  });
});
