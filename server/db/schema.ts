/**
 * The database schema, one module per area under server/db/tables (accounts, chain, catalog, orders,
 * payments, ops, billing): this index is what the server imports and what drizzle-kit reads
 * (drizzle.config.ts) to generate migrations. Times are timestamptz, written from the app clock.
 */
export * from './tables/accounts';
export * from './tables/activity';
export * from './tables/billing';
export * from './tables/catalog';
export * from './tables/chain';
export * from './tables/favorites';
export * from './tables/offers';
export * from './tables/ops';
export * from './tables/orders';
export * from './tables/payments';
export * from './tables/stats';
