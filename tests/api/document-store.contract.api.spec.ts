/**
 * One contract for every document store adapter: PostgreSQL always, MongoDB when
 * MONGODB_URL is set. Expected answers are MongoDB's documented behaviour. At the
 * end, what only PostgreSQL must take care of: a collection not yet made is a
 * missing table, which a read must not send PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentStoreAdapters } from '../support/adapters';
import { DuplicateKeyError, UnsupportedQueryError } from '../../platform/document-store/port';
import type { Collection, Document, DocumentStore, Filter } from '../../platform/document-store/port';
import pg from 'pg';
import { createTestDatabase } from '../support/database';
import { createPostgresDocumentStore } from '../../platform/document-store/postgres';
import { UpdateNotApplicableError } from '../../platform/document-store/semantics';

const adapters = documentStoreAdapters;

interface Item extends Document {
  [key: string]: unknown;
}

for (const adapter of adapters) {
  describe.skipIf(adapter.skip)(`document store contract: ${adapter.name}`, () => {
    let store: DocumentStore;
    let dispose: () => Promise<void>;
    let counter = 0;

    beforeAll(async () => {
      ({ store, close: dispose } = await adapter.open());
    });

    afterAll(async () => {
      await dispose?.();
    });

    /** A fresh collection per test, so tests do not see one another's documents. */
    function fresh(): Collection<Item> {
      counter += 1;
      return store.collection<Item>(`contract_${counter}`);
    }

    async function ids(collection: Collection<Item>, filter: Filter, sort: Record<string, 1 | -1> = { _id: 1 }): Promise<string[]> {
      return (await collection.find(filter, { sort })).map((document) => document._id);
    }

    describe('documents', () => {
      it('stores and returns JSON values and Dates as given', async () => {
        const c = fresh();
        const document = {
          _id: 'a',
          title: 'Radio days',
          count: -12.5,
          flags: [true, false],
          nested: { when: new Date('2024-03-01T10:00:00.123Z'), list: [1, 'two', null, { three: 3 }] },
          nothing: null,
        };
        await c.insertOne(document);
        expect(await c.findOne({ _id: 'a' })).toEqual(document);
        expect(await c.findOne({ _id: 'missing' })).toBeNull();
        const stored = await c.findOne({ _id: 'a' });
        expect((stored?.nested as { when: unknown }).when).toBeInstanceOf(Date);
      });

      it('leaves out undefined fields', async () => {
        const c = fresh();
        await c.insertOne({ _id: 'a', kept: 1, dropped: undefined });
        expect(await c.findOne({ _id: 'a' })).toEqual({ _id: 'a', kept: 1 });
      });

      it('rejects a duplicate _id, and an ordered insertMany keeps the documents before it', async () => {
        const c = fresh();
        await c.insertOne({ _id: 'a' });
        await expect(c.insertOne({ _id: 'a' })).rejects.toBeInstanceOf(DuplicateKeyError);
        await expect(c.insertMany([{ _id: 'b' }, { _id: 'a' }, { _id: 'c' }])).rejects.toBeInstanceOf(DuplicateKeyError);
        expect(await ids(c, {})).toEqual(['a', 'b']);
      });

      it('lists collections that exist, drops them, and recreates them empty on next use', async () => {
        const c = fresh();
        expect(await c.find({})).toEqual([]);
        expect(await c.countDocuments()).toBe(0);
        expect(await store.listCollections()).not.toContain(c.name);
        await c.insertOne({ _id: 'a' });
        expect(await store.listCollections()).toContain(c.name);
        await c.createIndex({ x: 1 });
        await c.drop();
        expect(await store.listCollections()).not.toContain(c.name);
        expect(await c.find({})).toEqual([]);
        await c.insertOne({ _id: 'b', x: [1, 2] });
        expect(await ids(c, {})).toEqual(['b']);
        await c.drop();
        await c.drop();
      });
    });

    describe('filters', () => {
      it('compares numbers as numbers, including negatives and fractions', async () => {
        const c = fresh();
        await c.insertMany([
          { _id: 'a', n: 9 },
          { _id: 'b', n: 10 },
          { _id: 'c', n: 100 },
          { _id: 'd', n: -5 },
          { _id: 'e', n: 2.5 },
          { _id: 'f', n: 1e21 },
        ]);
        expect(await ids(c, { n: { $gt: 9 } })).toEqual(['b', 'c', 'f']);
        expect(await ids(c, { n: { $gte: -5, $lt: 9.5 } })).toEqual(['a', 'd', 'e']);
        expect(await ids(c, { n: { $lte: 2.5 } })).toEqual(['d', 'e']);
        expect(await ids(c, { n: 10 })).toEqual(['b']);
        expect(await ids(c, {}, { n: 1 })).toEqual(['d', 'e', 'a', 'b', 'c', 'f']);
      });

      it('never compares across types (type bracketing)', async () => {
        const c = fresh();
        await c.insertMany([
          { _id: 'num', v: 6 },
          { _id: 'str', v: '6' },
          { _id: 'bool', v: true },
          { _id: 'date', v: new Date('2024-01-01T00:00:00Z') },
          { _id: 'null', v: null },
        ]);
        expect(await ids(c, { v: { $gt: 5 } })).toEqual(['num']);
        expect(await ids(c, { v: { $gt: '5' } })).toEqual(['str']);
        expect(await ids(c, { v: { $lt: 'zzz' } })).toEqual(['str']);
        expect(await ids(c, { v: { $gte: false } })).toEqual(['bool']);
        expect(await ids(c, { v: 6 })).toEqual(['num']);
        expect(await ids(c, { v: '6' })).toEqual(['str']);
        expect(await ids(c, { v: { $ne: 6 } })).toEqual(['bool', 'date', 'null', 'str']);
      });

      it('compares strings by code point and case-sensitively', async () => {
        const c = fresh();
        await c.insertMany([
          { _id: '1', s: 'apple' },
          { _id: '2', s: 'Apple' },
          { _id: '3', s: 'Zebra' },
          { _id: '4', s: 'éclair' },
          { _id: '5', s: 'apples' },
        ]);
        expect(await ids(c, {}, { s: 1 })).toEqual(['2', '3', '1', '5', '4']);
        expect(await ids(c, { s: 'apple' })).toEqual(['1']);
        expect(await ids(c, { s: { $gt: 'apple' } })).toEqual(['4', '5']);
        expect(await ids(c, { s: { $lt: 'a' } })).toEqual(['2', '3']);
      });

      it('compares Dates chronologically and never as strings', async () => {
        const c = fresh();
        const early = new Date('1999-12-31T23:59:59.999Z');
        const late = new Date('2024-06-01T12:00:00Z');
        await c.insertMany([
          { _id: 'early', at: early },
          { _id: 'late', at: late },
          { _id: 'text', at: late.toISOString() },
          { _id: 'number', at: late.getTime() },
        ]);
        expect(await ids(c, { at: late })).toEqual(['late']);
        expect(await ids(c, { at: late.toISOString() })).toEqual(['text']);
        expect(await ids(c, { at: { $gt: early } })).toEqual(['late']);
        expect(await ids(c, { at: { $gte: new Date(0), $lt: new Date('2000-01-01T00:00:00Z') } })).toEqual(['early']);
        expect(await ids(c, { at: { $in: [early, late] } })).toEqual(['early', 'late']);
        expect(await ids(c, { at: { $lt: '9' } })).toEqual(['text']);
      });

      it('matches null against null and missing fields; $ne, $nin and $exists', async () => {
        const c = fresh();
        await c.insertMany([{ _id: 'null', x: null }, { _id: 'missing' }, { _id: 'value', x: 'a' }, { _id: 'zero', x: 0 }]);
        expect(await ids(c, { x: null })).toEqual(['missing', 'null']);
        expect(await ids(c, { x: { $eq: null } })).toEqual(['missing', 'null']);
        expect(await ids(c, { x: { $ne: null } })).toEqual(['value', 'zero']);
        expect(await ids(c, { x: { $ne: 'a' } })).toEqual(['missing', 'null', 'zero']);
        expect(await ids(c, { x: { $in: [null, 'a'] } })).toEqual(['missing', 'null', 'value']);
        expect(await ids(c, { x: { $nin: ['a', 0] } })).toEqual(['missing', 'null']);
        expect(await ids(c, { x: { $nin: [null] } })).toEqual(['value', 'zero']);
        expect(await ids(c, { x: { $exists: true } })).toEqual(['null', 'value', 'zero']);
        expect(await ids(c, { x: { $exists: false } })).toEqual(['missing']);
        expect(await ids(c, { x: { $in: [] } })).toEqual([]);
        expect(await ids(c, { x: { $nin: [] } })).toEqual(['missing', 'null', 'value', 'zero']);
      });

      it('matches any element of an array, or the whole array', async () => {
        const c = fresh();
        await c.insertMany([
          { _id: 'ab', tags: ['a', 'b'] },
          { _id: 'b', tags: ['b'] },
          { _id: 'empty', tags: [] },
          { _id: 'nested', tags: [['a', 'b'], 'c'] },
          { _id: 'scalar', tags: 'a' },
          { _id: 'numbers', tags: [1, 5, 10] },
        ]);
        expect(await ids(c, { tags: 'a' })).toEqual(['ab', 'scalar']);
        expect(await ids(c, { tags: ['a', 'b'] })).toEqual(['ab', 'nested']);
        expect(await ids(c, { tags: ['b', 'a'] })).toEqual([]);
        expect(await ids(c, { tags: [] })).toEqual(['empty']);
        expect(await ids(c, { tags: { $in: ['c', ['b']] } })).toEqual(['b', 'nested']);
        expect(await ids(c, { tags: { $gt: 4, $lt: 6 } })).toEqual(['numbers']);
        expect(await ids(c, { tags: { $gt: 7, $lt: 9 } })).toEqual(['numbers']);
        expect(await ids(c, { tags: { $ne: 'a' } })).toEqual(['b', 'empty', 'nested', 'numbers']);
        expect(await ids(c, { tags: { $nin: ['a', 'b'] } })).toEqual(['empty', 'nested', 'numbers']);
        expect(await ids(c, { tags: null })).toEqual([]);
      });

      it('follows dotted paths through embedded documents and arrays of documents', async () => {
        const c = fresh();
        await c.insertMany([
          {
            _id: '1',
            order: { customer: { city: 'Albany' } },
            items: [
              { sku: 'x', qty: 1 },
              { sku: 'y', qty: 5 },
            ],
          },
          { _id: '2', order: { customer: { city: 'Troy' } }, items: [{ sku: 'y' }, {}] },
          { _id: '3', order: { customer: 'anonymous' }, items: [] },
          { _id: '4', order: null, items: ['x', { sku: ['x', 'z'] }] },
          { _id: '5' },
        ]);
        expect(await ids(c, { 'order.customer.city': 'Albany' })).toEqual(['1']);
        expect(await ids(c, { 'order.customer.city': null })).toEqual(['3', '4', '5']);
        expect(await ids(c, { 'order.customer.city': { $exists: true } })).toEqual(['1', '2']);
        expect(await ids(c, { 'items.sku': 'x' })).toEqual(['1', '4']);
        expect(await ids(c, { 'items.sku': ['x', 'z'] })).toEqual(['4']);
        expect(await ids(c, { 'items.qty': { $gte: 5 } })).toEqual(['1']);
        // An element without the field counts as missing; an empty array or a scalar element does not.
        expect(await ids(c, { 'items.qty': null })).toEqual(['2', '4', '5']);
        expect(await ids(c, { 'items.sku': { $exists: false } })).toEqual(['3', '5']);
      });

      it('matches $regex with options, anchors and RegExp literals', async () => {
        const c = fresh();
        await c.insertMany([
          { _id: '1', name: 'Radio City' },
          { _id: '2', name: 'radio days' },
          { _id: '3', name: 'TV\nradio' },
          { _id: '4', name: 'The Radio Age' },
          { _id: '5', name: ['tv', 'RADIO'] },
          { _id: '6', name: 42 },
          { _id: '7', name: 'radio\n' },
        ]);
        expect(await ids(c, { name: { $regex: '^radio' } })).toEqual(['2', '7']);
        expect(await ids(c, { name: { $regex: '^radio', $options: 'i' } })).toEqual(['1', '2', '5', '7']);
        expect(await ids(c, { name: { $regex: '^radio', $options: 'im' } })).toEqual(['1', '2', '3', '5', '7']);
        expect(await ids(c, { name: { $regex: 'radio$' } })).toEqual(['3', '7']);
        expect(await ids(c, { name: { $regex: 'TV.radio' } })).toEqual([]);
        expect(await ids(c, { name: { $regex: 'TV.radio', $options: 's' } })).toEqual(['3']);
        expect(await ids(c, { name: /\bage\b/i })).toEqual(['4']);
        expect(await ids(c, { name: /^\w+ \w+$/ })).toEqual(['1', '2']);
        expect(await ids(c, { name: { $regex: 'c[a-z]{2}y', $options: 'i' } })).toEqual(['1']);
        expect(await ids(c, { name: { $not: /x/ } }).catch((error: unknown) => error)).toBeInstanceOf(UnsupportedQueryError);
      });

      it('folds case under option i as PCRE does, in every script, and refuses what it cannot fold exactly', async () => {
        const c = fresh();
        await c.insertMany([
          { _id: 'long-s', name: '\u017Ftation' },
          { _id: 'kelvin', name: '\u212Aelvin' },
          { _id: 'plain', name: 'Station Kelvin' },
          { _id: 'accent', name: 'Émile' },
          { _id: 'greek', name: 'ΣΟΦΊΑ' },
          { _id: 'final-sigma', name: 'Οδυσσεύς' },
          { _id: 'swedish', name: 'Åsa' },
          { _id: 'cyrillic', name: 'Жанна' },
          { _id: 'deseret', name: '\u{10400}\u{10428}' },
        ]);
        expect(await ids(c, { name: { $regex: '^station', $options: 'i' } })).toEqual(['long-s', 'plain']);
        expect(await ids(c, { name: { $regex: 'kelvin', $options: 'i' } })).toEqual(['kelvin', 'plain']);
        expect(await ids(c, { name: { $regex: '^[a-z]+$', $options: 'i' } })).toEqual(['kelvin', 'long-s']);
        expect(await ids(c, { name: { $regex: '^É' } })).toEqual(['accent']);
        expect(await ids(c, { name: { $regex: '^é', $options: 'i' } })).toEqual(['accent']);
        expect(await ids(c, { name: { $regex: '^ÉMILE$', $options: 'i' } })).toEqual(['accent']);
        expect(await ids(c, { name: { $regex: '^σοφία', $options: 'i' } })).toEqual(['greek']);
        expect(await ids(c, { name: { $regex: 'ΣΣΕΎΣ$', $options: 'i' } })).toEqual(['final-sigma']);
        expect(await ids(c, { name: { $regex: '^å', $options: 'i' } })).toEqual(['swedish']);
        expect(await ids(c, { name: { $regex: '^жАН', $options: 'i' } })).toEqual(['cyrillic']);
        expect(await ids(c, { name: { $regex: '^\u{10428}\u{10400}$', $options: 'i' } })).toEqual(['deseret']);
        expect(await ids(c, { name: { $regex: '^[à-ÿ]', $options: 'i' } })).toEqual(['accent', 'swedish']);
        await expect(c.find({ name: { $regex: '^[Ā-ӿ]', $options: 'i' } })).rejects.toBeInstanceOf(UnsupportedQueryError);
      });

      it('combines conditions with $and and $or', async () => {
        const c = fresh();
        await c.insertMany([
          { _id: '1', kind: 'event', n: 1 },
          { _id: '2', kind: 'event', n: 5 },
          { _id: '3', kind: 'post', n: 5 },
          { _id: '4', kind: 'post' },
        ]);
        expect(await ids(c, { $or: [{ kind: 'event', n: { $gt: 2 } }, { n: { $exists: false } }] })).toEqual(['2', '4']);
        expect(await ids(c, { $and: [{ n: { $gte: 1 } }, { $or: [{ kind: 'post' }, { n: 1 }] }] })).toEqual(['1', '3']);
        expect(await ids(c, { kind: 'post', $or: [{ n: 5 }, { n: 6 }] })).toEqual(['3']);
      });

      it('gives the same answers on indexed paths', async () => {
        const plain = fresh();
        const indexed = fresh();
        await indexed.createIndex({ v: 1, 'w.x': -1 });
        const documents: Item[] = [
          { _id: '1', v: 3, w: { x: 'a' } },
          { _id: '2', v: '3', w: { x: null } },
          { _id: '3', v: null, w: 'scalar' },
          { _id: '4', w: {} },
          { _id: '5', v: true, w: { x: new Date(5) } },
          { _id: '6', v: new Date(3), w: { x: -1 } },
          { _id: '7', v: -2.5 },
        ];
        await plain.insertMany(documents);
        await indexed.insertMany(documents);
        const filters: Filter[] = [
          { v: 3 },
          { v: null },
          { v: { $ne: null } },
          { v: { $gt: 0 } },
          { v: { $lte: '3' } },
          { v: { $in: [null, '3', new Date(3)] } },
          { v: { $nin: [3, true] } },
          { v: { $exists: false } },
          { v: [3] },
          { v: { $ne: [3] } },
          { 'w.x': null },
          { 'w.x': { $gte: new Date(0) } },
          { 'w.x': { $lt: 'b' } },
          { v: { $regex: '3' } },
        ];
        for (const filter of filters) {
          expect({ filter, ids: await ids(indexed, filter) }).toEqual({ filter, ids: await ids(plain, filter) });
        }
        expect(await ids(indexed, {}, { v: 1, _id: 1 })).toEqual(await ids(plain, {}, { v: 1, _id: 1 }));
        expect(await ids(indexed, {}, { 'w.x': -1, _id: 1 })).toEqual(await ids(plain, {}, { 'w.x': -1, _id: 1 }));
      });
    });

    describe('sort, skip, limit, count', () => {
      it("orders mixed types in MongoDB's order: null and missing, numbers, strings, booleans, dates", async () => {
        const c = fresh();
        await c.insertMany([
          { _id: 'date', v: new Date(0) },
          { _id: 'true', v: true },
          { _id: 'false', v: false },
          { _id: 'string', v: 'a' },
          { _id: 'number', v: 1000 },
          { _id: 'negative', v: -1 },
          { _id: 'null', v: null },
          { _id: 'missing' },
        ]);
        expect(await ids(c, {}, { v: 1, _id: 1 })).toEqual(['missing', 'null', 'negative', 'number', 'string', 'false', 'true', 'date']);
        expect(await ids(c, {}, { v: -1, _id: 1 })).toEqual(['date', 'true', 'false', 'string', 'number', 'negative', 'missing', 'null']);
      });

      it('sorts by several keys and pages with skip and limit', async () => {
        const c = fresh();
        await c.insertMany(Array.from({ length: 10 }, (_, i) => ({ _id: `d${i}`, group: i % 2 === 0 ? 'even' : 'odd', rank: 10 - i })));
        const page = await c.find({}, { sort: { group: 1, rank: -1 }, skip: 2, limit: 3 });
        expect(page.map((document) => document._id)).toEqual(['d4', 'd6', 'd8']);
        expect((await c.find({}, { sort: { rank: 1 }, limit: 0 })).length).toBe(10);
        expect((await c.findOne({ group: 'odd' }, { sort: { rank: 1 }, skip: 1 }))?._id).toBe('d7');
        expect(await c.countDocuments({ group: 'odd' })).toBe(5);
        expect(await c.countDocuments()).toBe(10);
      });

      it('reads only the fields asked for, and _id, sorting by fields it leaves out', async () => {
        const c = fresh();
        const when = new Date('2024-01-01T12:00:00.000Z');
        await c.insertMany([
          { _id: 'a', title: 'One', body: 'x'.repeat(2000), when, nested: { n: null }, rank: 2 },
          { _id: 'b', title: 'Two', body: 'y', rank: 1 },
        ]);
        expect(await c.find({}, { sort: { _id: 1 }, fields: ['title', 'when', 'nested', 'absent'] })).toEqual([
          { _id: 'a', title: 'One', when, nested: { n: null } },
          { _id: 'b', title: 'Two' },
        ]);
        expect(((await c.findOne({ _id: 'a' }, { fields: ['when'] }))?.when as Date).getTime()).toBe(when.getTime());
        expect(await c.find({}, { sort: { rank: 1 }, fields: ['title'] })).toEqual([
          { _id: 'b', title: 'Two' },
          { _id: 'a', title: 'One' },
        ]);
        for (const fields of [['nested.n'], ['$where'], [''], 'title' as never])
          await expect(c.find({}, { fields })).rejects.toBeInstanceOf(UnsupportedQueryError);
      });

      it('refuses to sort by arrays or embedded documents rather than order them differently', async () => {
        const c = fresh();
        await c.insertMany([
          { _id: '1', v: [3, 1] },
          { _id: '2', v: 2 },
          { _id: '3', o: { a: 1 } },
        ]);
        await expect(c.find({}, { sort: { v: 1 } })).rejects.toBeInstanceOf(UnsupportedQueryError);
        await expect(c.find({}, { sort: { o: 1 } })).rejects.toBeInstanceOf(UnsupportedQueryError);
        expect(await ids(c, { v: { $not: 1 } as never }).catch((error: unknown) => error)).toBeInstanceOf(UnsupportedQueryError);
        expect(await ids(c, { _id: { $ne: '1' } }, { v: 1 })).toEqual(['3', '2']);
      });
    });

    describe('updates', () => {
      it('applies $set and $unset on dotted paths', async () => {
        const c = fresh();
        await c.insertOne({ _id: 'a', stats: { views: 1 }, title: 'x', old: true });
        const result = await c.updateOne(
          { _id: 'a' },
          { $set: { title: 'y', 'meta.created.at': new Date(5), 'stats.likes': 1 }, $unset: { old: '' } },
        );
        expect(result).toEqual({ matchedCount: 1, modifiedCount: 1, upsertedId: null });
        expect(await c.findOne({ _id: 'a' })).toEqual({
          _id: 'a',
          stats: { views: 1, likes: 1 },
          title: 'y',
          meta: { created: { at: new Date(5) } },
        });
        expect(await c.updateOne({ _id: 'a' }, { $set: { title: 'y' }, $unset: { absent: '' } })).toEqual({
          matchedCount: 1,
          modifiedCount: 0,
          upsertedId: null,
        });
        expect(await c.updateOne({ _id: 'none' }, { $set: { title: 'z' } })).toEqual({
          matchedCount: 0,
          modifiedCount: 0,
          upsertedId: null,
        });
      });

      it('refuses the update operators no caller needs', async () => {
        const c = fresh();
        for (const operator of ['$inc', '$push', '$pull', '$addToSet'])
          await expect(c.updateOne({ _id: 'a' }, { [operator]: { n: 1 } })).rejects.toBeInstanceOf(UnsupportedQueryError);
      });

      it('updates many documents and counts matched and modified ones', async () => {
        const c = fresh();
        await c.insertMany([
          { _id: '1', s: 'open' },
          { _id: '2', s: 'open', seen: true },
          { _id: '3', s: 'closed' },
        ]);
        expect(await c.updateMany({ s: 'open' }, { $set: { seen: true } })).toEqual({
          matchedCount: 2,
          modifiedCount: 1,
          upsertedId: null,
        });
        expect(await ids(c, { seen: true })).toEqual(['1', '2']);
      });

      it('fails, changing nothing, when an update does not fit the document', async () => {
        const c = fresh();
        await c.insertOne({ _id: 'a', title: 'text', list: 'not a list', n: 1 });
        await expect(c.updateOne({ _id: 'a' }, { $set: { 'n.x': 1 } })).rejects.toBeInstanceOf(UpdateNotApplicableError);
        await c.updateOne({ _id: 'a' }, { $set: { items: [{ x: 1 }] } });
        await expect(c.updateOne({ _id: 'a' }, { $set: { 'items.x': 2 } })).rejects.toBeInstanceOf(UpdateNotApplicableError);
        expect((await c.updateOne({ _id: 'a' }, { $unset: { 'items.x': '', 'n.x': '' } })).modifiedCount).toBe(0);
        await c.updateOne({ _id: 'a' }, { $unset: { items: '' } });
        expect(await c.findOne({ _id: 'a' })).toEqual({ _id: 'a', title: 'text', list: 'not a list', n: 1 });
      });

      it('upserts from the equality fields of the filter', async () => {
        const c = fresh();
        const first = await c.updateOne(
          { _id: 'rsvp-1', 'event.id': 'e1', status: { $eq: 'going' }, n: { $gt: 0 } },
          { $set: { count: 1 } },
          { upsert: true },
        );
        expect(first).toEqual({ matchedCount: 0, modifiedCount: 0, upsertedId: 'rsvp-1' });
        expect(await c.findOne({ _id: 'rsvp-1' })).toEqual({ _id: 'rsvp-1', event: { id: 'e1' }, status: 'going', count: 1 });
        const second = await c.updateOne({ _id: 'rsvp-1' }, { $set: { count: 2 } }, { upsert: true });
        expect(second).toEqual({ matchedCount: 1, modifiedCount: 1, upsertedId: null });
        const generated = await c.updateOne({ email: 'a@example.org' }, { $set: { name: 'A' } }, { upsert: true });
        expect(typeof generated.upsertedId).toBe('string');
        expect(await c.findOne({ email: 'a@example.org' })).toEqual({ _id: generated.upsertedId, email: 'a@example.org', name: 'A' });
      });

      it('replaces a document, or inserts it with upsert', async () => {
        const c = fresh();
        await c.insertOne({ _id: 'a', v: 1, gone: true });
        expect(await c.replaceOne({ _id: 'a' }, { _id: 'a', v: 2 })).toEqual({ matchedCount: 1, modifiedCount: 1, upsertedId: null });
        expect(await c.findOne({ _id: 'a' })).toEqual({ _id: 'a', v: 2 });
        expect(await c.replaceOne({ _id: 'b' }, { _id: 'b', v: 3 })).toEqual({ matchedCount: 0, modifiedCount: 0, upsertedId: null });
        expect(await c.replaceOne({ _id: 'b' }, { _id: 'b', v: 3 }, { upsert: true })).toEqual({
          matchedCount: 0,
          modifiedCount: 0,
          upsertedId: 'b',
        });
        await expect(c.replaceOne({ _id: 'a' }, { _id: 'other', v: 1 })).rejects.toBeInstanceOf(UnsupportedQueryError);
        await expect(c.replaceOne({ v: 2 }, { _id: 'other', v: 1 })).rejects.toBeInstanceOf(UpdateNotApplicableError);
        expect(await ids(c, {})).toEqual(['a', 'b']);
      });

      it('deletes one or many documents', async () => {
        const c = fresh();
        await c.insertMany([
          { _id: '1', k: 'x' },
          { _id: '2', k: 'x' },
          { _id: '3', k: 'y' },
        ]);
        expect(await c.deleteOne({ k: 'x' })).toBe(1);
        expect(await c.countDocuments({ k: 'x' })).toBe(1);
        expect(await c.deleteMany({ k: { $in: ['x', 'y'] } })).toBe(2);
        expect(await c.deleteMany({})).toBe(0);
      });
    });

    describe('positioned writes, collections put in place, transactions', () => {
      it('writes a page of positioned changes, never taking a document back to an older position', async () => {
        const c = fresh();
        await c.insertMany([
          { _id: 'kept', value: 'new', _position: 9 },
          { _id: 'older', value: 'old', _position: 2 },
          { _id: 'gone', value: 'old', _position: 3 },
          { _id: 'stays', value: 'new', _position: 8 },
          { _id: 'unpositioned', value: 'old' },
        ]);
        await c.savePositioned({
          put: [
            { _id: 'kept', value: 'stale', _position: 5 },
            { _id: 'older', value: 'newer', _position: 6 },
            { _id: 'created', value: 'new', _position: 6 },
            { _id: 'unpositioned', value: 'new', _position: 1 },
          ],
          remove: [
            { _id: 'gone', _position: 6 },
            { _id: 'stays', _position: 6 },
            { _id: 'never-there', _position: 6 },
          ],
        });
        expect(await c.find({}, { sort: { _id: 1 } })).toEqual([
          { _id: 'created', value: 'new', _position: 6 },
          { _id: 'kept', value: 'new', _position: 9 },
          { _id: 'older', value: 'newer', _position: 6 },
          { _id: 'stays', value: 'new', _position: 8 },
          { _id: 'unpositioned', value: 'new', _position: 1 },
        ]);
        // Written twice, the same page changes nothing.
        await c.savePositioned({ put: [{ _id: 'older', value: 'newer', _position: 6 }], remove: [{ _id: 'gone', _position: 6 }] });
        expect(await c.countDocuments()).toBe(5);
        await c.savePositioned({ put: [], remove: [] });
      });

      it('keeps the Dates of positioned documents, at any depth, and refuses what no document may hold', async () => {
        const c = fresh();
        const when = new Date('2024-03-01T10:00:00.123Z');
        await c.savePositioned({
          put: [
            { _id: 'listed', _position: 1, list: [1, { when }] },
            { _id: 'nested', _position: 1, at: { when } },
            { _id: 'plain', _position: 1, at: { when: when.toISOString() } },
          ],
          remove: [],
        });
        expect(await c.find({}, { sort: { _id: 1 } })).toEqual([
          { _id: 'listed', _position: 1, list: [1, { when }] },
          { _id: 'nested', _position: 1, at: { when } },
          { _id: 'plain', _position: 1, at: { when: when.toISOString() } },
        ]);
        await expect(c.savePositioned({ put: [{ _id: 'bad', _position: 2, list: [{ $set: 1 }] }], remove: [] })).rejects.toBeInstanceOf(
          UnsupportedQueryError,
        );
        await expect(c.savePositioned({ put: [{ _id: 'bad', _position: 2, text: 'a\0b' }], remove: [] })).rejects.toThrow(/NUL/);
        expect(await c.countDocuments()).toBe(3);
      });

      it('refuses a positioned document that a unique index refuses', async () => {
        const c = fresh();
        await c.createIndex({ email: 1 }, { unique: true });
        await c.insertOne({ _id: 'a', email: 'a@example.org', _position: 1 });
        await expect(c.savePositioned({ put: [{ _id: 'b', email: 'a@example.org', _position: 2 }], remove: [] })).rejects.toBeInstanceOf(
          DuplicateKeyError,
        );
      });

      it('puts one collection in the place of another, with its indexes, and again later', async () => {
        const live = fresh();
        const next = store.collection<Item>(`${live.name}__next`);
        await live.insertOne({ _id: 'old', n: 1 });
        await next.createIndex({ n: 1 }, { unique: true });
        await next.insertMany([
          { _id: 'new', n: 1 },
          { _id: 'newer', n: 2 },
        ]);
        await store.replaceCollection(next.name, live.name);
        expect(await ids(live, {})).toEqual(['new', 'newer']);
        await expect(live.insertOne({ _id: 'twin', n: 2 })).rejects.toBeInstanceOf(DuplicateKeyError);
        expect(await store.listCollections()).not.toContain(next.name);
        // A second rebuild beside it, of the same name, indexes included.
        await next.createIndex({ n: 1 }, { unique: true });
        await next.insertOne({ _id: 'newest', n: 3 });
        await store.replaceCollection(next.name, live.name);
        expect(await ids(live, { n: { $gte: 3 } })).toEqual(['newest']);
        // A collection nothing was written to takes the place as an empty one.
        await store.replaceCollection(`${live.name}__empty`, live.name);
        expect(await live.countDocuments()).toBe(0);
      });

      it('commits a transaction whole, or rolls it back leaving nothing', async () => {
        if (!store.begin) return; // MongoDB: no transactions here; the runner relies on positioned writes instead.
        const c = fresh();
        await c.insertOne({ _id: 'before', n: 0 });
        const rolledBack = await store.begin();
        await rolledBack.collection<Item>(c.name).savePositioned({ put: [{ _id: 'inside', n: 1, _position: 1 }], remove: [] });
        await rolledBack.collection<Item>(c.name).deleteOne({ _id: 'before' });
        expect(await rolledBack.collection<Item>(c.name).countDocuments()).toBe(1);
        expect(await c.countDocuments()).toBe(1);
        await rolledBack.rollback();
        expect(await ids(c, {})).toEqual(['before']);

        const committed = await store.begin({ durable: false });
        const inside = committed.collection<Item>(c.name);
        // A refused write inside leaves the transaction usable.
        await expect(inside.insertOne({ _id: 'before', n: 2 })).rejects.toBeInstanceOf(DuplicateKeyError);
        await inside.insertOne({ _id: 'inside', n: 1 });
        await committed.replaceCollection(c.name, `${c.name}_moved`);
        await committed.commit();
        expect(await ids(store.collection<Item>(`${c.name}_moved`), {})).toEqual(['before', 'inside']);
      });
    });

    describe('indexes', () => {
      it('enforces unique indexes, with a missing field counting as null', async () => {
        const c = fresh();
        await c.createIndex({ email: 1 }, { unique: true });
        await c.createIndex({ email: 1 }, { unique: true });
        await c.insertOne({ _id: '1', email: 'a@example.org' });
        await expect(c.insertOne({ _id: '2', email: 'a@example.org' })).rejects.toBeInstanceOf(DuplicateKeyError);
        await c.insertOne({ _id: '3' });
        await expect(c.insertOne({ _id: '4' })).rejects.toBeInstanceOf(DuplicateKeyError);
        await expect(c.updateOne({ _id: '3' }, { $set: { email: 'a@example.org' } })).rejects.toBeInstanceOf(DuplicateKeyError);
        expect(await ids(c, {})).toEqual(['1', '3']);
      });

      it('refuses a unique index over existing duplicates', async () => {
        const c = fresh();
        await c.insertMany([
          { _id: '1', k: 1 },
          { _id: '2', k: 1 },
        ]);
        await expect(c.createIndex({ k: 1 }, { unique: true })).rejects.toBeInstanceOf(DuplicateKeyError);
      });

      it('refuses arrays and embedded documents on indexed paths', async () => {
        const c = fresh();
        await c.createIndex({ 'a.b': 1 });
        await c.insertOne({ _id: 'ok', a: { b: 'x' } });
        await expect(c.insertOne({ _id: 'list', a: { b: ['x'] } })).rejects.toBeInstanceOf(UnsupportedQueryError);
        await expect(c.insertOne({ _id: 'through', a: [{ b: 'x' }] })).rejects.toBeInstanceOf(UnsupportedQueryError);
        await expect(c.updateOne({ _id: 'ok' }, { $set: { 'a.b': ['y'] } })).rejects.toBeInstanceOf(UnsupportedQueryError);
        const other = fresh();
        await other.insertOne({ _id: '1', tags: ['x'] });
        await expect(other.createIndex({ tags: 1 })).rejects.toBeInstanceOf(UnsupportedQueryError);
      });
    });

    describe('full-text search', () => {
      async function searchable() {
        const c = fresh();
        await c.createIndex({ title: 'text', tags: 'text' }, { name: 'search' });
        await c.insertMany([
          { _id: 'a', title: 'The WGN towers at night', tags: ['chicago', 'radio'], status: 'approved' },
          { _id: 'b', title: 'A tower for television', tags: ['television'], status: 'approved' },
          { _id: 'c', title: 'Night shift at the transmitter', tags: ['radio'], status: 'pending' },
          { _id: 'd', title: 'Nothing to see', tags: [], status: 'approved', other: 'towers' },
        ]);
        return c;
      }

      it('finds every word, stemmed and in any case, in the text-indexed fields, strings and arrays of strings', async () => {
        const c = await searchable();
        expect(await ids(c, { $text: { $search: 'TOWER' } })).toEqual(['a', 'b']);
        expect(await ids(c, { $text: { $search: 'tower night' } })).toEqual(['a']);
        expect(await ids(c, { $text: { $search: 'radio   night!' } })).toEqual(['a', 'c']);
        expect(await ids(c, { $text: { $search: 'chicago towers' } })).toEqual(['a']);
        // Fields outside the index are not searched.
        expect(await ids(c, { $text: { $search: 'see towers' } })).toEqual([]);
        expect(await c.countDocuments({ $text: { $search: 'radio' } })).toBe(2);
      });

      it('matches nothing for a search of no word or of English stop words only', async () => {
        const c = await searchable();
        expect(await ids(c, { $text: { $search: '' } })).toEqual([]);
        expect(await ids(c, { $text: { $search: '(#)' } })).toEqual([]);
        expect(await ids(c, { $text: { $search: 'the' } })).toEqual([]);
      });

      it('combines with other conditions under $and, sorts, pages and updates', async () => {
        const c = await searchable();
        expect(await ids(c, { $and: [{ status: 'approved' }, { $text: { $search: 'radio' } }] })).toEqual(['a']);
        expect(await ids(c, { status: { $ne: 'pending' }, $text: { $search: 'tower' } }, { _id: -1 })).toEqual(['b', 'a']);
        expect((await c.find({ $text: { $search: 'tower' } }, { sort: { _id: 1 }, skip: 1, limit: 1 })).map((d) => d._id)).toEqual(['b']);
        expect(await c.updateMany({ $text: { $search: 'radio' } }, { $set: { heard: true } })).toMatchObject({
          matchedCount: 2,
          modifiedCount: 2,
        });
        expect(await ids(c, { heard: true })).toEqual(['a', 'c']);
        expect(await c.deleteMany({ $text: { $search: 'television' } })).toBe(1);
      });

      it('refuses $text without a text index, under $or, twice, or malformed; and a second text index', async () => {
        const plain = fresh();
        await plain.insertOne({ _id: 'a', title: 'radio' });
        await expect(plain.find({ $text: { $search: 'radio' } })).rejects.toBeInstanceOf(UnsupportedQueryError);
        const c = await searchable();
        await expect(c.find({ $or: [{ status: 'pending' }, { $text: { $search: 'radio' } }] })).rejects.toBeInstanceOf(
          UnsupportedQueryError,
        );
        await expect(c.find({ $and: [{ $text: { $search: 'radio' } }, { $text: { $search: 'night' } }] })).rejects.toBeInstanceOf(
          UnsupportedQueryError,
        );
        await expect(c.find({ $text: { $search: 'radio', $language: 'french' } })).rejects.toBeInstanceOf(UnsupportedQueryError);
        await expect(c.find({ $text: 'radio' })).rejects.toBeInstanceOf(UnsupportedQueryError);
        await expect(c.createIndex({ title: 'text', other: 1 })).rejects.toBeInstanceOf(UnsupportedQueryError);
        await expect(c.createIndex({ other: 'text' }, { name: 'another' })).rejects.toThrow();
        // The same index again is fine.
        await c.createIndex({ title: 'text', tags: 'text' }, { name: 'search' });
      });
    });

    describe('outside the subset', () => {
      const rejectedFilters: [string, Filter][] = [
        ['$where', { $where: 'this.a > 1' }],
        ['$expr', { $expr: { $gt: ['$a', 1] } }],
        ['$elemMatch', { items: { $elemMatch: { qty: 1 } } }],
        ['$nor', { $nor: [{ a: 1 }] }],
        ['$size', { items: { $size: 1 } }],
        ['$not', { a: { $not: { $gt: 1 } } }],
        ['embedded document equality', { a: { b: 1, c: 2 } }],
        ['numeric path segment', { 'items.0.qty': 1 }],
        ['undefined', { a: undefined }],
        ['empty $or', { $or: [] }],
        ['$options without $regex', { a: { $options: 'i' } }],
        ['unsupported regex option', { a: { $regex: 'x', $options: 'x' } }],
        ['regex back-reference', { a: { $regex: '(a)\\1' } }],
        ['regex lookahead', { a: { $regex: 'a(?=b)' } }],
        ['regex Unicode class', { a: { $regex: '\\p{L}' } }],
      ];
      for (const [name, filter] of rejectedFilters) {
        it(`rejects ${name} before doing anything`, async () => {
          const c = fresh();
          await expect(c.find(filter)).rejects.toBeInstanceOf(UnsupportedQueryError);
          await expect(c.deleteMany(filter)).rejects.toBeInstanceOf(UnsupportedQueryError);
          await expect(c.updateMany(filter, { $set: { x: 1 } })).rejects.toBeInstanceOf(UnsupportedQueryError);
          expect(await store.listCollections()).not.toContain(c.name);
        });
      }

      it('rejects updates and documents outside the subset before doing anything', async () => {
        const c = fresh();
        await expect(c.updateOne({}, { $rename: { a: 'b' } } as never)).rejects.toBeInstanceOf(UnsupportedQueryError);
        await expect(c.updateOne({}, { $setOnInsert: { a: 1 } } as never)).rejects.toBeInstanceOf(UnsupportedQueryError);
        await expect(c.updateOne({}, { a: 1 } as never)).rejects.toBeInstanceOf(UnsupportedQueryError);
        await expect(c.updateOne({}, {})).rejects.toBeInstanceOf(UnsupportedQueryError);
        await expect(c.updateOne({}, { $set: { _id: 'x' } })).rejects.toBeInstanceOf(UnsupportedQueryError);
        await expect(c.updateOne({}, { $set: { a: 1 }, $unset: { 'a.b': '' } })).rejects.toBeInstanceOf(UnsupportedQueryError);
        await expect(c.updateOne({ $or: [{ a: 1 }] }, { $set: { b: 1 } }, { upsert: true })).rejects.toBeInstanceOf(UnsupportedQueryError);
        await expect(c.insertOne({ _id: 'a', $bad: 1 })).rejects.toBeInstanceOf(UnsupportedQueryError);
        await expect(c.insertOne({ _id: 'a', 'dotted.name': 1 })).rejects.toBeInstanceOf(UnsupportedQueryError);
        await expect(c.insertOne({ _id: 'a', n: Number.NaN })).rejects.toBeInstanceOf(UnsupportedQueryError);
        await expect(c.insertOne({ _id: 'a', big: 1n } as never)).rejects.toBeInstanceOf(UnsupportedQueryError);
        await expect(c.insertOne({ _id: 7 } as never)).rejects.toBeInstanceOf(UnsupportedQueryError);
        await expect(c.find({}, { sort: { a: 2 as never } })).rejects.toBeInstanceOf(UnsupportedQueryError);
        await expect(c.find({}, { limit: -1 })).rejects.toBeInstanceOf(UnsupportedQueryError);
        expect(() => store.collection('bad name')).toThrow(UnsupportedQueryError);
        expect(await store.listCollections()).not.toContain(c.name);
      });
    });
  });
}

describe('PostgreSQL document store: collections nothing has written to yet', () => {
  it('reads them as empty without a statement PostgreSQL refuses, and sees one another process makes at once', async () => {
    const database = await createTestDatabase();
    // Every statement the reader's connections send, and each PostgreSQL refused (each is an ERROR in its log).
    const pool = new pg.Pool({ connectionString: database.url });
    const refused: string[] = [];
    pool.on('connect', (client) => {
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      (client as { query: unknown }).query = (...args: unknown[]) => {
        const result = query(...args);
        if (result instanceof Promise) result.catch((error: Error) => refused.push(error.message));
        return result;
      };
    });
    const reader = createPostgresDocumentStore({ pool });
    const writer = createPostgresDocumentStore({ connectionString: database.url });
    try {
      const settings = reader.collection<Item>('settings');
      for (let i = 0; i < 20; i++) {
        expect(await settings.findOne({ _id: 'settings' })).toBeNull();
        expect(await settings.countDocuments()).toBe(0);
      }
      expect(refused).toEqual([]);
      expect(await reader.listCollections()).not.toContain('settings');

      await writer.collection<Item>('settings').insertOne({ _id: 'settings', zone: 'America/Chicago' });
      expect(await settings.findOne({ _id: 'settings' })).toEqual({ _id: 'settings', zone: 'America/Chicago' });
      await writer.collection('settings').drop();
      expect(await settings.findOne({ _id: 'settings' })).toBeNull();
    } finally {
      await reader.close();
      await pool.end();
      await writer.close();
      await database.drop();
    }
  });
});
