/** A visitor's subscription by e-mail (docs/domain/subscriptions.md#guest-subscriptions). */
import type { GuestSubscribe } from '../../../shared/subscriptions/schemas';
import { apiRequest } from '../../lib/api';

export const subscribeAsGuest = (request: GuestSubscribe) => apiRequest<{ message: string }>('POST', '/api/subscribe', request);
