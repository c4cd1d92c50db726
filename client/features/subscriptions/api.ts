/** The subscription calls (docs/domain/subscriptions.md), with the hooks the pages use. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api';
import { fetchAllPages } from '../../lib/paged-list';
import { apiKey } from '../../lib/query-keys';
import type { Subscription, UnsubscribeLookup } from '../../../shared/subscriptions/schemas';
import type { SaveStep } from './settings-plan';

const SUBSCRIPTIONS = '/api/subscriptions';
export const SUBSCRIPTIONS_KEY = apiKey(SUBSCRIPTIONS);

/** Every live subscription of the member: at most one per type, so one request, however the list pages. */
export function useSubscriptions() {
  return useQuery({ queryKey: SUBSCRIPTIONS_KEY, queryFn: () => fetchAllPages<Subscription>(`${SUBSCRIPTIONS}?limit=100`) });
}

export function runSaveStep(step: SaveStep): Promise<unknown> {
  switch (step.kind) {
    case 'create':
      return apiRequest<Subscription>('POST', SUBSCRIPTIONS, { subscriptionType: step.subscriptionType, frequency: step.frequency, isActive: true });
    case 'update':
      return apiRequest<Subscription>('PUT', `${SUBSCRIPTIONS}/${encodeURIComponent(step.subscription.id)}`, step.changes);
    case 'remove':
      return apiRequest('DELETE', `${SUBSCRIPTIONS}/${encodeURIComponent(step.subscription.id)}`);
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
  const address = `/api/unsubscribe/${encodeURIComponent(token)}`;
  return useQuery({ queryKey: apiKey(address), queryFn: () => apiRequest<UnsubscribeLookup>('GET', address) });
}

export function useUnsubscribe(token: string) {
  return useMutation({
    mutationFn: () => apiRequest<{ success: boolean; alreadyUnsubscribed: boolean }>('POST', `/api/unsubscribe/${encodeURIComponent(token)}`, {}),
  });
}

/** Confirms a guest's subscription from the page its mail links to (a POST: opening the link confirms nothing). */
export function useConfirmSubscription(token: string) {
  return useMutation({
    mutationFn: () => apiRequest<{ success: true }>('POST', `/api/subscribe/confirm/${encodeURIComponent(token)}`),
  });
}
