import { createHash } from 'node:crypto';
import {
  and,
  asc,
  desc,
  eq,
  fillPlaceholders,
  gte,
  inArray,
  isNull,
  lte,
  ne,
  notExists,
  type SQL,
  sql,
} from 'drizzle-orm';
import { PUBLIC_STATES } from '#domain/products';
import type { BlueprintListQuery, PackListQuery } from '#domain/schemas/catalog';
import {
  type BlueprintCardRow,
  blueprintCardColumns,
  type PackSummaryRow,
  packSummaryColumns,
  publicPackOf,
  type StorefrontSummaryRow,
  storefrontSummaryColumns,
  storefrontsById,
} from '../catalog/json';
import type { Database, Executor } from '../db';
import { mapRowsByPlan } from '../db/rows';
import {
  blueprintPacks,
  blueprintRegistrations,
  blueprintSearch,
  blueprintSearchWords,
  blueprints,
  blueprintWords,
  MARKET_WHERE,
  nftPurchases,
  nfts,
  storefronts,
  users,
} from '../db/schema';
import { DRAFT_STATES, HIDEABLE_STATES } from './rules';

/**
 * The SQL of the blueprint routes that is shared: the draft rule as a WHERE, text search, and the
 * marketplace list (a page and its total).
 */

/** The same rule in SQL, for the UPDATE's WHERE. */
export const draftWhere = and(
  inArray(blueprints.state, DRAFT_STATES),
  isNull(blueprints.status),
  notExists(
    sql`(select 1 from ${blueprintRegistrations} where ${blueprintRegistrations.blueprintId} = ${blueprints.id} and ${blueprintRegistrations.status} in ('pending', 'submitted', 'sealed'))`,
  ),
)!;

/** The rules of hiding (HIDEABLE_STATES) and canceling (active or printed) in SQL, for the UPDATE's WHERE. */
export const hideableWhere = inArray(blueprints.state, HIDEABLE_STATES);
export const cancelableWhere = inArray(blueprints.state, ['active', 'printed']);

/**
 * Whether a blueprint can be bought (or claimed) now, the rule of server/checkout/items.ts in SQL:
 * one sold on its own while it is listed (standalone or sticker, visible, of an enabled storefront),
 * active or printed, live and with an edition left; one of a pack while its pack is on sale
 * (visible, priced, available or printed, live, with a unit left). `now` is the time as SQL.
 */
export const onSaleNow = (now: SQL) => sql<boolean>`case when ${blueprints.blueprintPackId} is null
  then ${blueprints.type} in ('standalone', 'sticker') and ${blueprints.visible} and ${blueprints.storefrontEnabled}
    and ${blueprints.state} in ('active', 'printed') and ${blueprints.quantityAvailable} > 0
    and (${blueprints.availableTime} is null or ${blueprints.availableTime} <= ${now})
  else exists (select 1 from ${blueprintPacks} where ${blueprintPacks.id} = ${blueprints.blueprintPackId}
    and ${blueprintPacks.visible} and ${blueprintPacks.price} > 0 and ${blueprintPacks.state} in ('available', 'printed')
    and ${blueprintPacks.quantityAvailable} > 0
    and (${blueprintPacks.availableTime} is null or ${blueprintPacks.availableTime} <= ${now}))
  end`;

/** Whether a search has a run of three letters or digits, from which pg_trgm takes index keys. */
const trigramSearchable = (text: string | undefined) => !!text && /[\p{L}\p{N}]{3}/u.test(text);

/**
 * Whether a marketplace title search can go by words (blueprint_search_words): a text without ASCII
 * whitespace is in a title exactly when it is in one of the title's words (split at the same
 * characters as the database's blueprint_title_words).
 */
const wordSearchable = (text: string | undefined) =>
  !!text && trigramSearchable(text) && !/[ \t\n\r\f\v]/.test(text);

/** `%text%` for LIKE, with the caller's wildcards taken literally. */
export const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * GET blueprints' statements (a page and its total: one statement for a title search, two otherwise)
 * and how to run them, so the benchmark can run the very same SQL bare (as the same prepared
 * statement). `owner`: the caller owns the storefront filtered on (sees drafts and hidden items).
 *
 * The statements of a list's shape (which filters it sets, its sort, the caller's view) are built
 * once per database, with placeholders for the values: building a statement of two whole tables'
 * columns costs about as much CPU as PostgreSQL spends running a search.
 */
export function blueprintListQueries(db: Executor, query: BlueprintListQuery, owner: boolean, now: Date) {
  const { shape, values } = listShape(query, owner, now);
  let shapes = statementsByDb.get(db);
  if (!shapes) {
    shapes = new Map();
    statementsByDb.set(db, shapes);
  }
  let built = shapes.get(shape);
  if (!built) {
    built = buildList(db, query, owner, shape);
    // Shapes are few (filters set or not, three sort columns, two directions, two views); the
    // bound only keeps the map from growing without end.
    if (shapes.size >= 1000) shapes.clear();
    shapes.set(shape, built);
  }
  const { statements, run } = built;
  return {
    statements: statements.map(({ statement, name }) => ({
      /** The prepared statement's name ('' for unnamed: planned for its values on each run). */
      name,
      toSQL: () => {
        const { sql: text, params } = statement.toSQL();
        return { sql: text, params: fillPlaceholders(params, values) };
      },
    })),
    run: () => run(values),
  };
}

const statementsByDb = new WeakMap<Executor, Map<string, ReturnType<typeof buildList>>>();

/** Public states a visitor's `states` filter keeps: undefined when it keeps them all (no filter). */
function visitorStates(query: BlueprintListQuery) {
  const states = query.states?.filter((st) => PUBLIC_STATES.includes(st));
  return states && states.length < PUBLIC_STATES.length ? states : undefined;
}

/**
 * A list of enum values as a PostgreSQL array literal: the one form of an array parameter both
 * drivers pass as it is (PGlite cannot serialize a JavaScript array of an enum type).
 */
const arrayLiteral = (items: readonly string[] | undefined) =>
  items && `{${items.map((item) => JSON.stringify(item)).join(',')}}`;

/** A list's shape (what decides its SQL text) and the values of its placeholders. */
function listShape(query: BlueprintListQuery, owner: boolean, now: Date) {
  const states = owner ? query.states : visitorStates(query);
  const values = {
    now: now.toISOString(),
    storefrontId: query.storefrontId,
    states: arrayLiteral(states),
    visible: query.visible,
    pattern: query.search ? likePattern(query.search) : undefined,
    min: query.min,
    max: query.max,
    categories: query.storefrontCategories?.length ? arrayLiteral(query.storefrontCategories) : undefined,
    offset: query.from - 1,
    limit: query.to - query.from + 1,
  };
  const set = (Object.keys(values) as (keyof typeof values)[]).filter((k) => values[k] !== undefined);
  const shape = [
    owner ? 'owner' : 'visitor',
    trigramSearchable(query.search) ? 'trigram' : '',
    wordSearchable(query.search) ? 'words' : '',
    states?.length === 0 ? 'no-states' : '',
    query.countAvailable ? 'available' : '',
    query['sort[column]'],
    query['sort[direction]'],
    ...set,
  ].join(' ');
  return { shape, values };
}

type Values = Record<string, unknown>;

/** A list's statements (for the benchmark) and how to run them with a request's values. */
interface BuiltList {
  statements: { statement: { toSQL(): { sql: string; params: unknown[] } }; name: string }[];
  run(values: Values): Promise<BlueprintList>;
}

const p = sql.placeholder;

/**
 * Which rows a list reads. A marketplace title search over every storefront reads the narrow search
 * rows (blueprint_search: exactly the blueprints MARKET_WHERE lets a visitor see) through their
 * trigram index; one without whitespace reads the words' rows instead (see wordSearchable): the
 * vocabulary's words that contain the text, then those words' rows in the price range, from one
 * index alone. Any other list reads blueprints: an owner's or a storefront's through the
 * storefront's index, the marketplace without a searchable word through the partial index of its
 * sort order.
 */
function listSource(query: BlueprintListQuery, owner: boolean) {
  const narrow = !owner && !query.storefrontId && trigramSearchable(query.search);
  const byWords = narrow && wordSearchable(query.search);
  const from = byWords ? blueprintSearchWords : narrow ? blueprintSearch : blueprints;
  const t = {
    id: from.id,
    title: narrow ? blueprintSearch.title : sql`lower(${blueprints.title})`,
    price: from.price,
    quantity: from.quantity,
    createdAt: from.createdAt,
    state: from.state,
    storefrontCategory: from.storefrontCategory,
    // The search rows carry no Trending key: a search sorted by it reads each match's blueprint.
    trending:
      from === blueprints
        ? blueprints.trending
        : sql<number>`(select ${blueprints.trending} from ${blueprints} where ${blueprints.id} = ${from.id})`
            .mapWith(Number)
            .as('trending_key'),
  };
  const column = {
    price: t.price,
    quantity: t.quantity,
    createdAt: t.createdAt,
    trending: t.trending,
  }[query['sort[column]']];
  const order = query['sort[direction]'] === 'desc' ? desc : asc;
  return { narrow, byWords, from: from as typeof blueprints, t, column, order };
}
type ListSource = ReturnType<typeof listSource>;

/** The list's filters, with placeholders for their values. */
function listFilter(query: BlueprintListQuery, owner: boolean, { narrow, byWords, t }: ListSource) {
  const where: SQL[] = [];
  if (query.storefrontId) where.push(eq(blueprints.storefrontId, p('storefrontId')));
  if (owner) {
    if (query.states) where.push(sql`${blueprints.state} = any(${p('states')})`);
    if (query.visible !== undefined) where.push(eq(blueprints.visible, p('visible')));
  } else {
    // Exactly the predicate of the marketplace's partial indexes (which every search row meets),
    // then the visitor's own filters.
    if (!narrow) where.push(sql.raw(MARKET_WHERE));
    if (query.visible === false) where.push(sql`false`);
    const states = visitorStates(query);
    if (states) where.push(states.length ? sql`${t.state} = any(${p('states')})` : sql`false`);
  }
  if (byWords)
    where.push(
      sql`${blueprintSearchWords.word} = any(array(select ${blueprintWords.word} from ${blueprintWords} where ${blueprintWords.word} like ${p('pattern')}))`,
    );
  else if (query.search) where.push(sql`${t.title} like ${p('pattern')}`);
  if (query.min !== undefined) where.push(gte(t.price, p('min')));
  if (query.max !== undefined) where.push(lte(t.price, p('max')));
  if (query.storefrontCategories?.length) where.push(sql`${t.storefrontCategory} = any(${p('categories')})`);
  return and(...where);
}

/**
 * How many of the matches can be bought now: only when asked (the marketplace's count), as it
 * reads every match's row up to the cap, where the page and the total read an index. A search's
 * matches are ids of the narrow search rows; the rule reads the blueprints they name.
 */
function availableCounter(db: Executor, query: BlueprintListQuery, src: ListSource, filter: SQL | undefined) {
  const buyable = onSaleNow(sql`${p('now')}::timestamptz`);
  const matched =
    src.from === blueprints
      ? filter
      : inArray(blueprints.id, db.select({ id: src.t.id }).from(src.from).where(filter));
  const statement =
    query.countAvailable &&
    db.select({ available: sql<number>`count(*)::int` }).from(
      db
        .select({ one: sql`1`.as('one') })
        .from(blueprints)
        .where(and(matched, buyable))
        .limit(TOTAL_CAP + 1)
        .as('buyable'),
    );
  const prepared = statement ? statement.prepare('') : undefined;
  return {
    statements: statement ? [{ statement, name: '' }] : [],
    async count(values: Values) {
      if (!prepared) return undefined;
      const [row] = await prepared.execute(values);
      return Number(row?.available ?? 0);
    },
  };
}

/** The statements of a list's shape, prepared with placeholders (see blueprintListQueries). */
function buildList(db: Executor, query: BlueprintListQuery, owner: boolean, shape: string): BuiltList {
  const src = listSource(query, owner);
  const filter = listFilter(query, owner, src);
  const available = availableCounter(db, query, src, filter);
  return trigramSearchable(query.search)
    ? searchList(db, src, filter, available, src.narrow ? shape : undefined)
    : plainList(db, src, filter, available);
}

/**
 * A search finds its matches once (through the trigram index, or the storefront's), counts and
 * sorts them, and only then reads the page's rows, all in one statement: the matches are a CTE
 * that both the page and the total read, so PostgreSQL keeps them instead of finding them twice.
 * Left to itself, the planner would walk the sort column's index and filter row by row until the
 * page is full: where the matches sit at the far end of that order (a word whose titles are all
 * cheap, sorted by price descending), it reads tens of thousands of rows for 24. The page is
 * joined to the total's one row, so a page past the end still answers the total.
 */
function searchList(
  db: Executor,
  { byWords, from, t, column, order }: ListSource,
  filter: SQL | undefined,
  available: ReturnType<typeof availableCounter>,
  /** A marketplace title search's shape: it names its statement. */
  namedShape: string | undefined,
): BuiltList {
  // A title with two words that contain the text has two word rows: each blueprint counts once.
  const matches = db
    .$with('matches')
    .as(
      (byWords ? db.selectDistinct({ id: t.id, key: column }) : db.select({ id: t.id, key: column }))
        .from(from)
        .where(filter),
    );
  const hits = db
    .$with('hits')
    .as(
      db
        .select({ id: matches.id, key: matches.key })
        .from(matches)
        .orderBy(order(matches.key), order(matches.id))
        .offset(p('offset'))
        .limit(p('limit')),
    );
  const counted = db.$with('counted').as(
    db.select({ total: sql<number>`count(*)::int`.as('total') }).from(
      db
        .select({ one: sql`1`.as('one') })
        .from(matches)
        .limit(TOTAL_CAP + 1)
        .as('capped'),
    ),
  );
  const statement = db
    .with(matches, hits, counted)
    .select({
      total: counted.total,
      blueprint: blueprintCardColumns,
      storefront: storefrontSummaryColumns,
      pack: packSummaryColumns,
    })
    .from(counted)
    .leftJoin(hits, sql`true`)
    .leftJoin(blueprints, eq(blueprints.id, hits.id))
    .leftJoin(storefronts, eq(storefronts.id, blueprints.storefrontId))
    .leftJoin(blueprintPacks, publicPackOf)
    .orderBy(order(hits.key), order(hits.id));
  // A marketplace title search has one plan whatever its values (the words' index, or the search
  // rows' trigram index, then the page of the matches), so it is a named statement: PostgreSQL
  // parses and plans it once per connection instead of on every search (about 1.4 ms of a 5 ms
  // search at 100k blueprints).
  // An owner's or a storefront's search stays unnamed and is planned for its values: how many
  // rows the storefront's index or the trigram index finds decides which one to read.
  const name =
    namedShape !== undefined
      ? `blueprint_search_${createHash('sha1').update(namedShape).digest('hex').slice(0, 16)}`
      : '';
  const prepared = mapRowsByPlan(statement.prepare(name));
  return {
    statements: [{ statement, name }, ...available.statements],
    async run(values) {
      const [rows, availableNow] = await Promise.all([prepared.execute(values), available.count(values)]);
      return {
        rows: rows.flatMap(({ blueprint, storefront, pack }) =>
          blueprint && storefront ? [{ blueprint, storefront, pack }] : [],
        ),
        total: Number(rows[0]?.total ?? 0),
        available: availableNow,
      };
    },
  };
}

/** Any other list: its page and its total (up to the cap), two statements. */
function plainList(
  db: Executor,
  { column, order }: ListSource,
  filter: SQL | undefined,
  available: ReturnType<typeof availableCounter>,
): BuiltList {
  const page = db
    .select({
      blueprint: blueprintCardColumns,
      storefront: storefrontSummaryColumns,
      pack: packSummaryColumns,
    })
    .from(blueprints)
    .innerJoin(storefronts, eq(storefronts.id, blueprints.storefrontId))
    .leftJoin(blueprintPacks, publicPackOf)
    .where(filter)
    .orderBy(order(column), order(blueprints.id))
    .offset(p('offset'))
    .limit(p('limit'));
  const count = db.select({ total: sql<number>`count(*)::int` }).from(
    db
      .select({ one: sql`1`.as('one') })
      .from(blueprints)
      .where(filter)
      .limit(TOTAL_CAP + 1)
      .as('matching'),
  );
  const preparedPage = mapRowsByPlan(page.prepare(''));
  const preparedCount = count.prepare('');
  return {
    statements: [{ statement: page, name: '' }, { statement: count, name: '' }, ...available.statements],
    // The page walks the sort order's index and stops after it; the total reads the matches apart
    // (up to the cap). They are independent reads: on PostgreSQL they run side by side on two pooled
    // connections (PGlite, one connection, takes them in turn).
    async run(values) {
      const [rows, [counted], availableNow] = await Promise.all([
        preparedPage.execute(values),
        preparedCount.execute(values),
        available.count(values),
      ]);
      return { rows, total: Number(counted?.total ?? 0), available: availableNow };
    },
  };
}

/**
 * A page of a blueprint list with the total of its matches and, when asked (`countAvailable`), how
 * many of them can be bought now (each counted up to TOTAL_CAP + 1).
 */
export interface BlueprintList {
  rows: { blueprint: BlueprintCardRow; storefront: StorefrontSummaryRow; pack: PackSummaryRow | null }[];
  total: number;
  available: number | undefined;
}

/** Totals above this are answered as TOTAL_CAP with `totalCapped: true`. */
export const TOTAL_CAP = 10_000;

/** Whether the user owns the storefront. */
export async function ownsStorefront(db: Executor, storefrontId: string, userId: string) {
  const [row] = await db
    .select({ id: storefronts.id })
    .from(storefronts)
    .where(and(eq(storefronts.id, storefrontId), eq(storefronts.ownerId, userId)));
  return !!row;
}

/** The storefront the user owns, if any. */
export async function storefrontOwnedBy(db: Executor, userId: string) {
  const [row] = await db.select().from(storefronts).where(eq(storefronts.ownerId, userId));
  return row;
}

/** A blueprint with its storefront and the summary of its pack (if the pack is public). */
export async function blueprintWithStorefront(db: Executor, id: string) {
  const [row] = await db
    .select({ blueprint: blueprints, storefront: storefronts, pack: packSummaryColumns })
    .from(blueprints)
    .innerJoin(storefronts, eq(storefronts.id, blueprints.storefrontId))
    .leftJoin(blueprintPacks, publicPackOf)
    .where(eq(blueprints.id, id));
  return row;
}

/** Adds a blueprint. */
export async function insertBlueprint(db: Executor, values: typeof blueprints.$inferInsert) {
  const [row] = await db.insert(blueprints).values(values).returning();
  return row!;
}

/** A blueprint to edit: with its storefront and the status of its publishing job (null: none). */
export async function blueprintToEdit(db: Executor, id: string) {
  const [found] = await db
    .select({
      blueprint: blueprints,
      storefront: storefronts,
      registration: blueprintRegistrations.status,
    })
    .from(blueprints)
    .innerJoin(storefronts, eq(storefronts.id, blueprints.storefrontId))
    .leftJoin(blueprintRegistrations, eq(blueprintRegistrations.blueprintId, blueprints.id))
    .where(eq(blueprints.id, id));
  return found;
}

/**
 * Writes a blueprint's changes where `guards` (the rules checked before, again in the WHERE) still
 * hold, in one transaction with what follows: publishing (re)starts its job (a failed one starts
 * over), canceling closes a sealed registration's sale on chain. Undefined when another request
 * changed the blueprint first (nothing is written then).
 */
export async function updateBlueprint(
  db: Database,
  b: { id: string; flowBlueprintId: number },
  update: {
    changes: Partial<typeof blueprints.$inferInsert>;
    guards: SQL[];
    publish: boolean;
    cancel: boolean;
  },
  clock: () => Date,
) {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(blueprints)
      .set({ ...update.changes, updatedAt: clock() })
      .where(and(eq(blueprints.id, b.id), ...update.guards))
      .returning();
    if (!row) return undefined;
    if (update.publish) {
      await tx
        .insert(blueprintRegistrations)
        .values({ blueprintId: b.id, flowBlueprintId: b.flowBlueprintId, createdAt: clock() })
        .onConflictDoUpdate({
          target: blueprintRegistrations.blueprintId,
          set: { status: 'pending', attempts: 0, error: null, transactionId: null, updatedAt: clock() },
          setWhere: eq(blueprintRegistrations.status, 'failed'),
        });
    }
    if (update.cancel) {
      // Nothing to close for a sale never registered.
      await tx
        .update(blueprintRegistrations)
        .set({ closeStatus: 'pending', updatedAt: clock() })
        .where(
          and(eq(blueprintRegistrations.blueprintId, b.id), eq(blueprintRegistrations.status, 'sealed')),
        );
    }
    return row;
  });
}

/** A blueprint with its storefront and the storefront's owner. */
export async function blueprintWithOwner(db: Executor, id: string) {
  const [row] = await db
    .select({ blueprint: blueprints, storefront: storefronts, owner: users })
    .from(blueprints)
    .innerJoin(storefronts, eq(storefronts.id, blueprints.storefrontId))
    .innerJoin(users, eq(users.id, storefronts.ownerId))
    .where(eq(blueprints.id, id));
  return row;
}

/** The newest `limit` purchases of a blueprint's editions (by its chain id), with their buyers. */
export function latestPurchases(db: Executor, flowBlueprintId: number, limit: number) {
  return db
    .select({ purchase: nftPurchases, nft: nfts, buyer: users })
    .from(nftPurchases)
    .innerJoin(nfts, eq(nfts.id, nftPurchases.nftId))
    .leftJoin(users, eq(users.id, nftPurchases.buyerId))
    .where(eq(nfts.blueprintId, flowBlueprintId))
    .orderBy(desc(nftPurchases.purchasedOn))
    .limit(limit);
}

/**
 * A page of the packs visitors see (visible, of an enabled storefront, not a draft), newest first,
 * by storefront, type and states, and their total.
 */
export async function visiblePacks(db: Executor, query: PackListQuery) {
  const where: SQL[] = [
    eq(blueprintPacks.visible, true),
    eq(storefronts.enabled, true),
    ne(blueprintPacks.state, 'created'),
  ];
  if (query.storefrontId) where.push(eq(blueprintPacks.storefrontId, query.storefrontId));
  if (query.type) where.push(eq(blueprintPacks.type, query.type));
  if (query.states) where.push(inArray(blueprintPacks.state, query.states));
  const filter = and(...where);
  const rows = await db
    .select({ pack: blueprintPacks, storefront: storefronts })
    .from(blueprintPacks)
    .innerJoin(storefronts, eq(storefronts.id, blueprintPacks.storefrontId))
    .where(filter)
    .orderBy(desc(blueprintPacks.createdAt), asc(blueprintPacks.id))
    .offset(query.from - 1)
    .limit(query.to - query.from + 1);
  const [{ total }] = (await db
    .select({ total: sql<number>`count(*)::int` })
    .from(blueprintPacks)
    .innerJoin(storefronts, eq(storefronts.id, blueprintPacks.storefrontId))
    .where(filter)) as [{ total: number }];
  return { rows, total: Number(total) };
}

/** A pack with its storefront. */
export async function packWithStorefront(db: Executor, id: string) {
  const [row] = await db
    .select({ pack: blueprintPacks, storefront: storefronts })
    .from(blueprintPacks)
    .innerJoin(storefronts, eq(storefronts.id, blueprintPacks.storefrontId))
    .where(eq(blueprintPacks.id, id));
  return row;
}

/** A pack's blueprints, oldest first, and their storefronts by id. */
export async function packItems(db: Executor, packId: string) {
  const items = await db
    .select()
    .from(blueprints)
    .where(eq(blueprints.blueprintPackId, packId))
    .orderBy(asc(blueprints.createdAt), asc(blueprints.id));
  const storefrontOf = await storefrontsById(
    db,
    items.map((b) => b.storefrontId),
  );
  return { items, storefrontOf };
}
