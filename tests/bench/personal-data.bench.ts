/**
 * What sealing personal data in the log costs (docs/domain/members.md#erasure): the same member events appended
 * and replayed through the sealing store and through the bare PostgreSQL event store, in alternating rounds of one
 * run. Each member stream holds a registration and four profile changes, so a replay looks up each stream's key
 * once and opens five events with it, as a rebuild of a real log does.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { createTestDatabase } from '../support/database';
import { createPostgresEventStore } from '../../platform/event-store/postgres';
import { createPostgresDocumentStore } from '../../platform/document-store/postgres';
import { createPersonalDataKeys } from '../../platform/personal-data/keys';
import { sealPersonalData } from '../../platform/personal-data/sealed-event-store';
import type { EventStore } from '../../platform/event-store/port';
import { printTable, rate } from './report';

const ROUNDS = 3;
const MEMBERS = 300;
const CHANGES = 4;
const WRITERS = 8;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function appendMembers(store: EventStore, tag: string) {
  let next = 0;
  await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      while (next < MEMBERS) {
        const id = `${tag}-${next++}-${randomUUID()}`;
        await store.append(
          `member-${id}`,
          [
            {
              type: 'MemberRegistered',
              data: {
                id,
                email: `${id}@example.org`,
                firstName: 'Walter',
                lastName: 'Brandt',
                role: 'member',
                passwordHash: 'scrypt$hash',
                registeredAt: new Date().toISOString(),
              },
            },
          ],
          { expectedVersion: 'no_stream' },
        );
        for (let change = 0; change < CHANGES; change++)
          await store.append(`member-${id}`, [{ type: 'MemberProfileChanged', data: { bio: `Engineer at WGN, take ${change}` } }], {
            expectedVersion: change,
          });
      }
    }),
  );
}

async function replay(store: EventStore, from: number, to: number) {
  const controller = new AbortController();
  for await (const event of store.subscribeToAll({ after: from, signal: controller.signal })) if (event.position >= to) controller.abort();
}

export async function run() {
  const database = await createTestDatabase();
  const pool = new pg.Pool({ connectionString: database.url, max: WRITERS + 2 });
  try {
    const raw = await createPostgresEventStore({ pool });
    const sealed = sealPersonalData(raw, createPersonalDataKeys(createPostgresDocumentStore({ pool })));
    const events = MEMBERS * (1 + CHANGES);
    const figures = { rawAppend: [] as number[], sealedAppend: [] as number[], rawReplay: [] as number[], sealedReplay: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      let from = await raw.headPosition();
      figures.rawAppend.push(await rate(events, () => appendMembers(raw, `raw${round}`)));
      let to = await raw.headPosition();
      figures.rawReplay.push(await rate(events, () => replay(raw, from, to)));
      from = to;
      figures.sealedAppend.push(await rate(events, () => appendMembers(sealed, `sealed${round}`)));
      to = await raw.headPosition();
      // A fresh key cache, as a rebuild in a new process has.
      const cold = sealPersonalData(raw, createPersonalDataKeys(createPostgresDocumentStore({ pool })));
      figures.sealedReplay.push(await rate(events, () => replay(cold, from, to)));
    }
    printTable([
      {
        figure: `append member events, sealed (${WRITERS} writers)`,
        value: median(figures.sealedAppend),
        unit: 'events/s',
        baseline: 'the same, unsealed',
        baselineValue: median(figures.rawAppend),
      },
      {
        figure: `replay member events, sealed, cold key cache (${events})`,
        value: median(figures.sealedReplay),
        unit: 'events/s',
        baseline: 'the same, unsealed',
        baselineValue: median(figures.rawReplay),
      },
    ]);
  } finally {
    await pool.end();
    await database.drop();
  }
}
