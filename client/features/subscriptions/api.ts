/** The subscription calls (docs/domain/subscriptions.md), with the hooks the pages use. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { answer, api } from '../../lib/api';
import { fetchEveryPage } from '../../lib/paged-list';
import { apiQuery, operationKey } from '../../lib/query-keys';
import type { SaveStep } from './settings-plan';

export const SUBSCRIPTIONS_KEY = operationKey('/api/subscriptions');

/** Every live subscription of the member: at most one per type, so one request, however the list pages. */
export function useSubscriptions() {
  return useQuery({
    queryKey: SUBSCRIPTIONS_KEY,
    queryFn: () => fetchEveryPage('/api/subscriptions', { params: { query: { limit: '100' } } }),
  });
}

export function runSaveStep(step: SaveStep): Promise<unknown> {
  switch (step.kind) {
    case 'create':
      return answer(
        api.POST('/api/subscriptions', { body: { subscriptionType: step.subscriptionType, frequency: step.frequency, isActive: true } }),
      );
    case 'update':
      return answer(api.PUT('/api/subscriptions/{id}', { params: { path: { id: step.subscription.id } }, body: step.changes }));
    case 'remove':
      return answer(api.DELETE('/api/subscriptions/{id}', { params: { path: { id: step.subscription.id } } }));
  }
}

/**
 * Runs a Save's steps one at a time, telling the page about each outcome, and
 * stops at the first failure so the member sees it and keeps the rest of their
 * edits. The list is refetched either way before the mutation settles, so the
 * page never shows the toggles from before the save for a moment.
 */
export function useSaveSubscriptionSettings(onStep: (step: SaveStep, error: unknown) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (steps: SaveStep[]) => {
      let failed = false;
      try {
        for (const step of steps) {
          try {
            await runSaveStep(step);
            onStep(step, null);
          } catch (error) {
            onStep(step, error);
            failed = true;
            break;
          }
        }
      } finally {
        await queryClient.invalidateQueries({ queryKey: SUBSCRIPTIONS_KEY });
      }
      return { failed };
    },
  });
}

export function useUnsubscribeLookup(token: string) {
  return useQuery(apiQuery('/api/unsubscribe/{token}', { params: { path: { token } } }));
}

export function useUnsubscribe(token: string) {
  return useMutation({
    mutationFn: () => answer(api.POST('/api/unsubscribe/{token}', { params: { path: { token } }, body: {} })),
  });
}

/** Confirms a guest's subscription from the page its mail links to (a POST: opening the link confirms nothing). */
export function useConfirmSubscription(token: string) {
  return useMutation({
    mutationFn: () => answer(api.POST('/api/subscribe/confirm/{token}', { params: { path: { token } } })),
  });
}
