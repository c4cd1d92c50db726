/**
 * A discussion category (stream `category-<id>`): created, changed and deleted by staff. Whether it still holds
 * topics is read by the route from the topic counts and arrives in the command (`topicCount`).
 */
import { type CommandMetadata, type Decider, assertNever, fail } from '../domain';
import { categoryDeleteRefusal, isDiscussionStaff } from './rules';

export type CategoryFields = { name: string; slug: string; description: string; color: string };

export type CategoryEvent =
  | { type: 'CategoryCreated'; data: CategoryFields & { id: string; by: string; at: string } }
  | { type: 'CategoryChanged'; data: Partial<CategoryFields> & { by: string; at: string } }
  | { type: 'CategoryDeleted'; data: { by: string; at: string } };

export type CategoryCommand =
  | { type: 'CreateCategory'; data: CategoryFields & { id: string }; metadata: CommandMetadata }
  | { type: 'ChangeCategory'; data: Partial<CategoryFields>; metadata: CommandMetadata }
  | { type: 'DeleteCategory'; data: { topicCount: number }; metadata: CommandMetadata };

export interface CategoryState {
  status: 'none' | 'open' | 'deleted';
  fields: CategoryFields | null;
}

export const categoryDecider: Decider<CategoryState, CategoryCommand, CategoryEvent> = {
  initialState: () => ({ status: 'none', fields: null }),
  evolve(state, event) {
    switch (event.type) {
      case 'CategoryCreated': {
        const { name, slug, description, color } = event.data;
        return { status: 'open', fields: { name, slug, description, color } };
      }
      case 'CategoryChanged': {
        const { by: _by, at: _at, ...changed } = event.data;
        return { ...state, fields: state.fields && { ...state.fields, ...changed } };
      }
      case 'CategoryDeleted':
        return { ...state, status: 'deleted' };
      default:
        return assertNever(event);
    }
  },
  decide(command, state) {
    const { actor, now } = command.metadata;
    if (!actor) throw fail.unauthenticated();
    if (!isDiscussionStaff(actor.role)) throw fail.forbidden('Only admins and staff manage categories');
    const at = now.toISOString();
    const by = actor.id;
    if (command.type === 'CreateCategory') {
      if (state.status !== 'none') throw fail.conflict('This category already exists');
      return [{ type: 'CategoryCreated', data: { ...command.data, by, at } }];
    }
    if (state.status !== 'open' || !state.fields) throw fail.notFound('Category not found');
    switch (command.type) {
      case 'ChangeCategory': {
        const current = state.fields;
        const changed = Object.fromEntries(
          Object.entries(command.data).filter(([key, value]) => value !== undefined && current[key as keyof CategoryFields] !== value),
        ) as Partial<CategoryFields>;
        return Object.keys(changed).length === 0 ? [] : [{ type: 'CategoryChanged', data: { ...changed, by, at } }];
      }
      case 'DeleteCategory': {
        const refusal = categoryDeleteRefusal(command.data.topicCount);
        if (refusal) throw refusal;
        return [{ type: 'CategoryDeleted', data: { by, at } }];
      }
      default:
        return assertNever(command);
    }
  },
};
